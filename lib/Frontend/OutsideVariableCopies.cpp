//===- OutsideVariableCopies.cpp - Variables outside with derivatives -----===//
//
// Differentiable code may write values that carry derivatives into a
// floating-point variable outside the function (a global scratch array, a
// static local keeping state, a struct of globals a solver updates) and
// read them back, directly or in the functions it calls. Each call of the
// derivative then gives the variable a copy of its own: the function is
// split into a wrapper, which copies the variable into fresh memory,
// calls the function's body with that memory, and copies the final
// contents back (without derivative: nothing outside reads one), and the
// body, which takes the copy as a parameter and passes it on to the
// functions it calls that use the variable. The copy is then ordinary
// local memory for every analysis and rule of the engine, its shadow a
// zeroed buffer of the same size: the derivative of the variable's initial
// contents is never asked for, so a shadow per call is all a shadow global
// would give.
//
// Variables nobody writes (a configuration, a table filled at start-up)
// are read where the code reads them, as before. A variable whose holders
// call code compiled elsewhere (which may read or change it by name), or
// that a custom rule or a nested derivative would reach from inside the
// code that holds its copy, keeps its place and the engine's error for
// values with derivatives written to it, with the reason attached.
//
//===----------------------------------------------------------------------===//

#include "ModuleLowering.h"
#include "OutsideVectorCopies.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/OutsideVariables.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {

/// Whether anything but loads and views uses `memory`: a store, a call
/// that receives it, its address kept.
bool isWrittenThrough(Value memory) {
  for (Operation *user : memory.getUsers()) {
    if (isa<memref::LoadOp>(user))
      continue;
    // (A vector's elements, through the address its slot holds.)
    if (auto load = dyn_cast<ct::LoadAddressOp>(user);
        load && load.getHolder() == memory) {
      if (isWrittenThrough(load.getView()))
        return true;
      continue;
    }
    if (auto view = dyn_cast<ViewLikeOpInterface>(user);
        view && view.getViewSource() == memory) {
      for (Value result : user->getResults())
        if (isWrittenThrough(result))
          return true;
      continue;
    }
    return true;
  }
  return false;
}

/// A function's C++ name, quoted, for messages.
std::string quotedName(func::FuncOp function) {
  auto name = function->getAttrOfType<StringAttr>("ct.source_name");
  return "'" + (name ? name.getValue() : function.getSymName()).str() + "'";
}

bool isCompiledElsewhere(func::FuncOp callee) {
  return callee.isExternal() || callee->hasAttr(ct::kExternalAttr);
}

class OutsideVariableCopies {
public:
  explicit OutsideVariableCopies(ModuleOp module) : module(module) {}
  void run();

private:
  /// Floating-point variables outside that the code writes.
  SmallVector<memref::GlobalOp> findWrittenVariables();
  /// The functions that use `global` directly or call one that does
  /// (entry points, which only request derivatives, excluded).
  llvm::SetVector<func::FuncOp> findHolders(memref::GlobalOp global);
  /// Why `global`'s `holders` cannot share one copy of it; empty if they
  /// can.
  std::string whyKeptInPlace(const llvm::SetVector<func::FuncOp> &holders);
  /// Why a copy of `global` would outlive the call: its address stored in
  /// the caller's memory or returned; empty if it does not.
  std::string whyAddressEscapes(memref::GlobalOp global,
                                const llvm::SetVector<func::FuncOp> &holders);
  /// The holder's body, taking the copies of `variables` after its own
  /// parameters.
  func::FuncOp makeBody(func::FuncOp holder,
                        ArrayRef<memref::GlobalOp> variables);
  /// Calls from `holder`'s body of holders call their bodies, passing the
  /// copies.
  void passCopiesOn(func::FuncOp holder);
  /// `holder` becomes: copy in, call the body, copy back, free.
  void makeWrapper(func::FuncOp holder, func::FuncOp body,
                   ArrayRef<memref::GlobalOp> variables);

  ModuleOp module;
  /// The callers of each function (func.call only).
  llvm::DenseMap<Operation *, SmallVector<func::FuncOp>> callers;
  /// The variables each holder needs, in one order for all.
  llvm::MapVector<func::FuncOp, SmallVector<memref::GlobalOp>> needs;
  llvm::DenseMap<func::FuncOp, func::FuncOp> bodies;
};

} // namespace

SmallVector<memref::GlobalOp> OutsideVariableCopies::findWrittenVariables() {
  SmallVector<memref::GlobalOp> written;
  for (auto global : module.getOps<memref::GlobalOp>()) {
    auto type = dyn_cast<MemRefType>(global.getType());
    if (global.getConstant() || !global->hasAttr("ct.source_name") || !type ||
        type.getRank() != 1 || !type.hasStaticShape() ||
        !isa<FloatType>(type.getElementType()))
      continue;
    bool isWritten = false;
    module.walk([&](memref::GetGlobalOp get) {
      if (get.getName() == global.getSymName() &&
          !get->hasAttr(kVariableItselfAttr) &&
          isWrittenThrough(get.getResult()))
        isWritten = true;
    });
    if (isWritten)
      written.push_back(global);
  }
  return written;
}

llvm::SetVector<func::FuncOp>
OutsideVariableCopies::findHolders(memref::GlobalOp global) {
  llvm::SetVector<func::FuncOp> holders;
  module.walk([&](memref::GetGlobalOp get) {
    if (get.getName() != global.getSymName())
      return;
    auto function = get->getParentOfType<func::FuncOp>();
    if (function && !function->hasAttr(ct::kEntryPointAttr))
      holders.insert(function);
  });
  for (size_t i = 0; i < holders.size(); ++i)
    for (func::FuncOp caller : callers.lookup(holders[i]))
      if (!caller->hasAttr(ct::kEntryPointAttr))
        holders.insert(caller);
  return holders;
}

std::string OutsideVariableCopies::whyKeptInPlace(
    const llvm::SetVector<func::FuncOp> &holders) {
  for (func::FuncOp holder : holders) {
    std::string why;
    holder.walk([&](func::CallOp call) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
      if (!callee || !isCompiledElsewhere(callee))
        return WalkResult::advance();
      // (They touch the guard only.)
      if (callee->hasAttr(kStaticGuardAttr))
        return WalkResult::advance();
      why = "it calls " + quotedName(callee) +
            ", which runs as Clang compiled it (a library function, or one "
            "bound to a derivative rule) and may read or change it by name";
      return WalkResult::interrupt();
    });
    if (!why.empty())
      return why;
    // Only calls pass the copy on: a rule bound to a holder, or a
    // derivative of one requested inside another, would read the variable
    // itself.
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(holder, module);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses) {
      Operation *user = use.getUser();
      auto owner = user->getParentOfType<func::FuncOp>();
      if (isa<func::CallOp>(user) || (owner && !holders.contains(owner)))
        continue;
      return quotedName(holder) +
             " has a custom derivative rule, or is differentiated inside "
             "code that also uses the variable";
    }
  }
  return "";
}

std::string OutsideVariableCopies::whyAddressEscapes(
    memref::GlobalOp global, const llvm::SetVector<func::FuncOp> &holders) {
  for (func::FuncOp holder : holders) {
    std::string why;
    holder.walk([&](Operation *op) {
      auto store = dyn_cast<ct::StoreAddressOp>(op);
      if (store && ct::getOutsideVariable(store.getView()) == global &&
          ct::isCallerMemory(store.getHolder()))
        why = quotedName(holder) +
              " stores its address in memory of the caller's, which would "
              "keep the address of a copy past the call";
      if (isa<func::ReturnOp>(op) &&
          llvm::any_of(op->getOperands(), [&](Value result) {
            return isa<MemRefType>(result.getType()) &&
                   ct::getOutsideVariable(result) == global;
          }))
        why = quotedName(holder) +
              " returns its address, which would be the address of a copy "
              "past the call";
      return why.empty() ? WalkResult::advance() : WalkResult::interrupt();
    });
    if (!why.empty())
      return why;
  }
  return "";
}

func::FuncOp
OutsideVariableCopies::makeBody(func::FuncOp holder,
                                ArrayRef<memref::GlobalOp> variables) {
  OpBuilder b(module.getContext());
  b.setInsertionPointAfter(holder);
  auto body = cast<func::FuncOp>(b.clone(*holder));
  body.setSymName((holder.getSymName() + ".with_copies").str());
  body.setPrivate();
  body->removeAttr(ct::kExportAttr);
  SmallVector<Attribute> names;
  if (auto existing = body->getAttrOfType<ArrayAttr>("ct.param_names"))
    names.append(existing.begin(), existing.end());
  for (memref::GlobalOp global : variables) {
    unsigned index = body.getNumArguments();
    if (failed(
            body.insertArgument(index, global.getType(), {}, global.getLoc())))
      continue;
    Value copy = body.getArgument(index);
    body.walk([&](memref::GetGlobalOp get) {
      if (get.getName() != global.getSymName() ||
          get->hasAttr(kVariableItselfAttr))
        return;
      get.getResult().replaceAllUsesWith(copy);
      get.erase();
    });
    names.push_back(b.getStringAttr(ct::getVariableName(global)));
  }
  body->setAttr("ct.param_names", b.getArrayAttr(names));
  return body;
}

void OutsideVariableCopies::passCopiesOn(func::FuncOp holder) {
  func::FuncOp body = bodies[holder];
  ArrayRef<memref::GlobalOp> held = needs[holder];
  unsigned first = body.getNumArguments() - held.size();
  body.walk([&](func::CallOp call) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
    func::FuncOp calleeBody = callee ? bodies.lookup(callee) : nullptr;
    if (!calleeBody)
      return;
    SmallVector<Value> operands(call.getOperands());
    for (memref::GlobalOp global : needs[callee])
      operands.push_back(
          body.getArgument(first + llvm::find(held, global) - held.begin()));
    OpBuilder b(call);
    auto replacement =
        func::CallOp::create(b, call.getLoc(), calleeBody, operands);
    replacement->setDiscardableAttrs(call->getDiscardableAttrDictionary());
    call.replaceAllUsesWith(replacement.getResults());
    call.erase();
  });
}

/// Copies the `size` elements of `from` into `to`; the values copied carry
/// no derivative where `cut`.
static void buildCopy(OpBuilder &b, Location loc, Value from, Value to,
                      int64_t size, bool cut) {
  copyScalars(b, loc, from, to, arith::ConstantIndexOp::create(b, loc, size),
              cut);
}

/// The address of `memory`'s first element, as an index.
static Value addressOf(OpBuilder &b, Location loc, Value memory) {
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memory);
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memory);
  auto type = cast<MemRefType>(memory.getType());
  Value bytes =
      arith::ConstantIndexOp::create(b, loc, type.getElementTypeBitWidth() / 8);
  Value offset = arith::MulIOp::create(b, loc, metadata.getOffset(), bytes);
  return arith::AddIOp::create(b, loc, aligned, offset);
}

/// A parameter of `holder` pointing into the variable's memory (of
/// `scalar`s, the bytes [`start`, `end`)) would see the variable, not the
/// copy the call writes: the program stops with a message saying so (C++
/// allows it; the copy would silently differ).
static void refuseAliasingArguments(OpBuilder &b, func::FuncOp holder,
                                    memref::GlobalOp global, Type scalar,
                                    function_ref<Value()> start,
                                    function_ref<Value()> end) {
  Location loc = holder.getLoc();
  auto pointsAtScalars = [&](BlockArgument argument) {
    auto argumentType = dyn_cast<MemRefType>(argument.getType());
    return argumentType && argumentType.getElementType() == scalar;
  };
  if (llvm::none_of(holder.getArguments(), pointsAtScalars))
    return;
  Value first = start(), last = end();
  auto names = holder->getAttrOfType<ArrayAttr>("ct.param_names");
  for (BlockArgument argument : holder.getArguments()) {
    if (!pointsAtScalars(argument))
      continue;
    Value address = addressOf(b, loc, argument);
    Value inside = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, address,
                              first),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, address,
                              last));
    auto check = scf::IfOp::create(b, loc, inside);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(check.thenBlock()->getTerminator());
    std::string parameter =
        names && argument.getArgNumber() < names.size()
            ? cast<StringAttr>(names[argument.getArgNumber()]).str()
            : std::to_string(argument.getArgNumber() + 1);
    ct::AbortOp::create(
        b, loc,
        "cotangent: " + quotedName(holder) + " writes '" +
            ct::getVariableName(global) +
            "' by name and is given its memory through parameter '" +
            parameter +
            "': a derivative call keeps such a variable in a copy of its own, "
            "which the parameter would not see; reach the variable one way "
            "only");
  }
}

/// refuseAliasingArguments for the variable `global`, at `variable`.
static void refuseAliasingArguments(OpBuilder &b, func::FuncOp holder,
                                    memref::GlobalOp global, Value variable) {
  Location loc = holder.getLoc();
  if (std::optional<OutsideVector> vector = OutsideVector::of(global)) {
    refuseAliasingArguments(
        b, holder, global, vector->getScalar(),
        [&] { return vector->getStart(b, loc, variable); },
        [&] { return vector->getEnd(b, loc, variable); });
    return;
  }
  auto type = cast<MemRefType>(global.getType());
  Value start;
  refuseAliasingArguments(
      b, holder, global, type.getElementType(),
      [&] { return start = addressOf(b, loc, variable); },
      [&] {
        return arith::AddIOp::create(
            b, loc, start,
            arith::ConstantIndexOp::create(
                b, loc,
                type.getNumElements() * type.getElementTypeBitWidth() / 8));
      });
}

void OutsideVariableCopies::makeWrapper(func::FuncOp holder, func::FuncOp body,
                                        ArrayRef<memref::GlobalOp> variables) {
  Location loc = holder.getLoc();
  holder.getBody().dropAllReferences();
  holder.getBody().getBlocks().clear();
  Block *entry = holder.addEntryBlock();
  auto b = OpBuilder::atBlockBegin(entry);
  SmallVector<Value> operands(entry->getArguments());
  SmallVector<std::pair<Value, Value>> copies;
  for (memref::GlobalOp global : variables) {
    auto type = cast<MemRefType>(global.getType());
    Value variable =
        memref::GetGlobalOp::create(b, loc, type, global.getSymName());
    refuseAliasingArguments(b, holder, global, variable);
    Value copy = memref::AllocOp::create(b, loc, type);
    if (std::optional<OutsideVector> vector = OutsideVector::of(global))
      vector->copyIn(b, loc, variable, copy);
    else
      buildCopy(b, loc, variable, copy, type.getNumElements(), false);
    operands.push_back(copy);
    copies.push_back({variable, copy});
  }
  auto call = func::CallOp::create(b, loc, body, operands);
  for (auto [global, copies] : llvm::zip(variables, copies)) {
    auto [variable, copy] = copies;
    if (std::optional<OutsideVector> vector = OutsideVector::of(global))
      vector->copyBack(b, loc, copy, variable);
    else
      buildCopy(b, loc, copy, variable,
                cast<MemRefType>(copy.getType()).getNumElements(), true);
    memref::DeallocOp::create(b, loc, copy);
  }
  func::ReturnOp::create(b, loc, call.getResults());
}

void OutsideVariableCopies::run() {
  SmallVector<memref::GlobalOp> written = findWrittenVariables();
  if (written.empty())
    return;
  for (auto function : module.getOps<func::FuncOp>())
    function.walk([&](func::CallOp call) {
      if (auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr()))
        callers[callee].push_back(function);
    });
  for (memref::GlobalOp global : written) {
    llvm::SetVector<func::FuncOp> holders = findHolders(global);
    std::string why =
        global->hasAttr(kInitializedOnceAttr)
            ? "it is a static variable initialized on the function's first "
              "call, under a guard other threads may wait on"
            : whyKeptInPlace(holders);
    if (why.empty())
      why = whyAddressEscapes(global, holders);
    if (!why.empty()) {
      global->setAttr(ct::kKeptInPlaceAttr,
                      StringAttr::get(module.getContext(), why));
      continue;
    }
    for (func::FuncOp holder : holders)
      needs[holder].push_back(global);
  }
  for (auto &[holder, variables] : needs)
    bodies[holder] = makeBody(holder, variables);
  for (auto &[holder, variables] : needs)
    passCopiesOn(holder);
  for (auto &[holder, variables] : needs)
    makeWrapper(holder, bodies[holder], variables);
}

void copyWrittenOutsideVariables(ModuleOp module) {
  OutsideVariableCopies(module).run();
}

} // namespace cotangent::frontend
