//===- CallActivity.cpp - How calls take part in a derivative -------------===//

#include "Analysis/CallActivity.h"

#include "Analysis/MemoryWrites.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

/// The activity a call gives its callee's argument `i`, `operand`.
static ct::Activity getOperandActivity(func::FuncOp callee, unsigned i,
                                       Value operand,
                                       const ActivityAnalysis &activity) {
  if (activity.isActive(operand))
    return ct::Activity::Active;
  // Memory a function compiled elsewhere only reads passes no derivative
  // on: what it returns is active or not on its own.
  if (isShadowedType(operand.getType()) && activity.hasShadow(operand) &&
      !isReadOnlyExternalArgument(callee, i))
    return ct::Activity::Duplicated;
  // A by-value copy the callee writes gets a scratch shadow there.
  if (callee && isWrittenOwnCopy(callee, i))
    return ct::Activity::Duplicated;
  // So does memory no useful value is read from here (a buffer the caller
  // never reads back) that the callee stores into: the callee, whose
  // results are outputs to it whether or not they are here, may read back
  // what it stored (a checkpointed loop's body). (Not memory it only
  // frees, or reads addresses from: linked nodes it deletes would have
  // their scratch shadow freed by it.)
  if (isShadowedType(operand.getType()) && !activity.isUsefulMemory(operand) &&
      callee && !callee.isExternal() && mayStoreIntoArgument(callee, i))
    return ct::Activity::Duplicated;
  return ct::Activity::Constant;
}

static func::FuncOp lookupCallee(func::CallOp call) {
  return SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
}

SmallVector<ct::Activity>
ad::getCallActivities(func::CallOp call, const ActivityAnalysis &activity) {
  func::FuncOp callee = lookupCallee(call);
  return llvm::map_to_vector(
      llvm::enumerate(call.getOperands()), [&](auto indexed) {
        auto [i, operand] = indexed;
        return getOperandActivity(callee, i, operand, activity);
      });
}

bool ad::passesDerivativeMemory(func::CallOp call,
                                const ActivityAnalysis &activity) {
  // (Only memory with a shadow here is asked about: the others' activity
  // is not needed, and may take walks of the callee to decide.)
  func::FuncOp callee = lookupCallee(call);
  for (auto [i, operand] : llvm::enumerate(call.getOperands()))
    if (isShadowedType(operand.getType()) && activity.hasShadow(operand) &&
        getOperandActivity(callee, i, operand, activity) ==
            ct::Activity::Duplicated)
      return true;
  return false;
}

bool ad::isWrittenOwnCopy(func::FuncOp function, unsigned i) {
  if (!function.getArgAttr(i, ct::kByValueAttr) ||
      !ct::isDifferentiableMemRef(function.getArgumentTypes()[i]))
    return false;
  // A derivative not generated yet is marked only where its primal writes
  // its copy (declare); a declaration from elsewhere may write it.
  if (function.isExternal())
    return true;
  SmallVector<ct::Activity> constant(function.getNumArguments(),
                                     ct::Activity::Constant);
  return ActivityAnalysis(function, constant)
      .mayWriteArgument(function.getArgument(i));
}

bool ad::callsExternalCode(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  auto callee = call ? SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
                           call, call.getCalleeAttr())
                     : nullptr;
  return callee && (callee->hasAttr(ct::kExternalAttr) ||
                    callee->hasAttr(ct::kCallsExternalAttr));
}

bool ad::isReadOnlyExternalArgument(func::FuncOp callee, unsigned i) {
  return callee && callee->hasAttr(ct::kExternalAttr) &&
         i < callee.getNumArguments() &&
         callee.getArgAttr(i, ct::kReadOnlyAttr);
}

/// Whether `root` is memory `op`'s own code makes: an allocation inside it.
static bool isAllocatedIn(Value root, Operation *op) {
  Operation *def = root.getDefiningOp();
  return def && op->isProperAncestor(def) &&
         isa<memref::AllocOp, memref::AllocaOp>(def);
}

static bool actsOnlyOn(func::CallOp call, function_ref<bool(Value)> isOwn,
                       unsigned depth);

/// Whether every memory root of `operand` is own: `isOwn` holds of it, or
/// it is what a library object's function returned (a reference into a
/// table) given only own objects.
static bool isOwnMemory(Value operand, function_ref<bool(Value)> isOwn,
                        unsigned depth) {
  return llvm::all_of(getMemoryRoots(operand), [&](Value root) {
    if (isOwn(root))
      return true;
    auto call = root.getDefiningOp<func::CallOp>();
    auto callee = call ? SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
                             call, call.getCalleeAttr())
                       : nullptr;
    return callee && callee->hasAttr(ct::kLibraryObjectAttr) &&
           actsOnlyOn(call, isOwn, depth);
  });
}

static bool actsOnlyOn(func::CallOp call, function_ref<bool(Value)> isOwn,
                       unsigned depth) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee || depth > 8)
    return false;
  if (callee->hasAttr(ct::kExternalAttr)) {
    if (!callee->hasAttr(ct::kLibraryObjectAttr))
      return false;
    return llvm::all_of(call.getOperands(), [&](Value operand) {
      if (isa<MemRefType>(operand.getType()))
        return isOwnMemory(operand, isOwn, depth + 1);
      return operand.getType().isIntOrIndexOrFloat();
    });
  }
  if (!callee->hasAttr(ct::kCallsExternalAttr))
    return true;
  if (callee.isExternal())
    return false;
  // In the callee, its arguments are own where the caller's operands are,
  // and so is what it allocates (anew on every call).
  auto isOwnInCallee = [&](Value root) {
    auto arg = dyn_cast<BlockArgument>(root);
    if (arg && arg.getOwner() == &callee.front())
      return isOwnMemory(call.getOperand(arg.getArgNumber()), isOwn, depth + 1);
    return isAllocatedIn(root, callee);
  };
  return !callee
              .walk([&](func::CallOp inner) {
                if (!callsExternalCode(inner) ||
                    actsOnlyOn(inner, isOwnInCallee, depth + 1))
                  return WalkResult::advance();
                return WalkResult::interrupt();
              })
              .wasInterrupted();
}

bool ad::actsOnlyOnOwnObjects(Operation *op,
                              function_ref<bool(Value root)> isOwn) {
  auto call = dyn_cast<func::CallOp>(op);
  return call && actsOnlyOn(call, isOwn, 0);
}
