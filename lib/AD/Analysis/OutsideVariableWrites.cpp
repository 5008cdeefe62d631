//===- OutsideVariableWrites.cpp - Derivatives kept out of globals --------===//

#include "Analysis/OutsideVariableWrites.h"

#include "cotangent/Dialect/CT/IR/OutsideVariables.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/IR/SymbolTable.h"
#include <set>

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {
/// Follows varied values from a function into the functions it calls.
class OutsideVariableWrites {
public:
  explicit OutsideVariableWrites(function_ref<bool(func::FuncOp)> hasRule)
      : hasRule(hasRule) {}

  /// Whether `function`, with `activity`, writes no varied value into a
  /// variable outside it; reports the first such write otherwise.
  bool check(func::FuncOp function, const ActivityAnalysis &activity);

private:
  /// The activities a call passes its callee for this check: what is
  /// varied, whether or not it is useful.
  static SmallVector<ct::Activity>
  getVariedActivities(func::CallOp call, const ActivityAnalysis &activity);

  function_ref<bool(func::FuncOp)> hasRule;
  /// The calls from the differentiated function to the one being checked.
  SmallVector<func::CallOp> calls;
  /// (callee, activities) pairs checked or being checked: recursion ends.
  std::set<std::pair<Operation *, std::string>> visited;
};
} // namespace

SmallVector<ct::Activity>
OutsideVariableWrites::getVariedActivities(func::CallOp call,
                                           const ActivityAnalysis &activity) {
  return llvm::map_to_vector(call.getOperands(), [&](Value operand) {
    if (!activity.isVaried(operand))
      return ct::Activity::Constant;
    return isShadowedType(operand.getType()) ? ct::Activity::Duplicated
                                             : ct::Activity::Active;
  });
}

bool OutsideVariableWrites::check(func::FuncOp function,
                                  const ActivityAnalysis &activity) {
  // Memory is varied only where something varied may have been written
  // into it (a store, or a call that writes through an argument).
  WalkResult walk =
      function.walk([&](memref::GetGlobalOp use) {
        memref::GlobalOp global = ct::getOutsideVariable(use.getResult());
        if (!global || !isShadowedType(use.getType()) ||
            !activity.isVaried(use.getResult()))
          return WalkResult::advance();
        InFlightDiagnostic diag =
            use.emitError()
            << "'" << ct::getVariableName(global)
            << "' is a variable outside the function, and a value that carries "
               "a derivative is written to it here, which would be lost to the "
               "code that reads it; differentiable code may write to such a "
               "variable only values that carry no derivative: pass it as a "
               "parameter instead";
        if (auto why = global->getAttrOfType<StringAttr>(ct::kKeptInPlaceAttr))
          diag << " (it cannot be given a copy of its own per call: "
               << why.getValue() << ")";
        for (func::CallOp call : llvm::reverse(calls))
          diag.attachNote(call.getLoc())
              << "called from here with values that carry a derivative";
        return WalkResult::interrupt();
      });
  if (walk.wasInterrupted())
    return false;
  // A callee given varied values may store them into a variable outside it
  // even where the call passes it no derivative (its results unused).
  walk = function.walk([&](func::CallOp call) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    // Only functions that write variables outside them (or call code
    // compiled elsewhere) carry the frontend's mark, transitively.
    if (!callee || callee.isExternal() ||
        !callee->hasAttr(ct::kCallsExternalAttr) || hasRule(callee))
      return WalkResult::advance();
    SmallVector<ct::Activity> activities = getVariedActivities(call, activity);
    if (llvm::all_of(activities, [](ct::Activity a) {
          return a == ct::Activity::Constant;
        }))
      return WalkResult::advance();
    std::string key(activities.size(), '0');
    for (auto [i, a] : llvm::enumerate(activities))
      key[i] = static_cast<char>('0' + static_cast<int>(a));
    if (!visited.insert({callee.getOperation(), key}).second)
      return WalkResult::advance();
    calls.push_back(call);
    bool clean = check(callee, ActivityAnalysis(callee, activities));
    calls.pop_back();
    return clean ? WalkResult::advance() : WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

LogicalResult ad::refuseDerivativesInOutsideVariables(
    func::FuncOp function, const ActivityAnalysis &activity,
    function_ref<bool(func::FuncOp)> hasRule) {
  return success(OutsideVariableWrites(hasRule).check(function, activity));
}
