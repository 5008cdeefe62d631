//===- MovingPointers.cpp - Pointer variables that change arrays ----------===//
//
// A pointer variable is its memref and an offset slot, the memref fixed at
// its initialization. Code like an RNN's `T *in = x; for (...) { layer(in);
// in = state[i].hidden; }` moves a pointer to another array. Such a variable
// (one the function assigns after its declaration) keeps every array it has
// designated and a slot saying which one; each read of it selects among
// them. A read lowered before the assignment that adds an array (in a loop,
// its later iterations) is rewritten to select the new array too, which is
// possible when that array exists before the read (it dominates it).
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "mlir/IR/Dominance.h"

using namespace mlir;

namespace cotangent::frontend {

/// Whether `body` assigns `var` with `=` (not only moves it by `+=`, `++`).
static bool isReassigned(const clang::Stmt *body, const clang::VarDecl *var) {
  if (!body)
    return false;
  if (const auto *assign = dyn_cast<clang::BinaryOperator>(body);
      assign && assign->getOpcode() == clang::BO_Assign)
    if (const auto *ref = dyn_cast<clang::DeclRefExpr>(
            assign->getLHS()->IgnoreParenImpCasts());
        ref && ref->getDecl() == var)
      return true;
  for (const clang::Stmt *child : body->children())
    if (isReassigned(child, var))
      return true;
  return false;
}

void FunctionLowering::declarePointerVariable(const clang::VarDecl *var,
                                              Address initial, Location l) {
  pointers[var] = {initial.memref, newIndexSlot(initial.offset, l)};
  if (!var->getType()->isPointerType() || !isReassigned(decl->getBody(), var))
    return;
  MovingPointer &moving = movingPointers[var];
  moving.arrays.push_back(commonView(initial.memref, l));
  moving.which = newIndexSlot(constantIndex(0, l), l);
}

Value FunctionLowering::commonView(Value memref, Location l) {
  auto type = cast<MemRefType>(memref.getType());
  Type common = getPointerType(type.getElementType());
  if (type == common)
    return memref;
  // Right after the array, so that it is there wherever the array is.
  OpBuilder::InsertionGuard guard(b);
  if (Operation *def = memref.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(memref).getOwner());
  return memref::CastOp::create(b, l, common, memref);
}

Value FunctionLowering::pointerMemory(const clang::ValueDecl *var,
                                      const PointerVariable &pointer,
                                      Location l) {
  auto moving = movingPointers.find(var);
  if (moving == movingPointers.end())
    return pointer.memref;
  MovingPointer &state = moving->second;
  Value chosen = state.arrays.front();
  Value which = load(state.which, l);
  for (auto [k, array] : llvm::enumerate(state.arrays))
    if (k != 0)
      chosen = selectArray(which, k, array, chosen, l);
  // The anchor later arrays are spliced in before (see movePointer).
  auto anchor = memref::CastOp::create(b, l, chosen.getType(), chosen);
  state.reads.push_back({anchor, loweredReads++});
  return anchor;
}

Value FunctionLowering::selectArray(Value which, size_t k, Value array,
                                    Value otherwise, Location l) {
  Value isK = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, which,
                                    constantIndex(k, l));
  return arith::SelectOp::create(b, l, isK, array, otherwise);
}

bool FunctionLowering::movePointer(const clang::ValueDecl *var, Address target,
                                   const clang::Stmt *where) {
  Location l = loc(where);
  auto moving = movingPointers.find(var);
  PointerVariable &pointer = pointers[var];
  if (moving == movingPointers.end()) {
    if (target.memref != pointer.memref) {
      unsupported(where, "a pointer variable can only move within the array "
                         "it was initialized with; use another variable");
      return false;
    }
    store(target.offset, pointer.offsetSlot, l);
    return true;
  }
  MovingPointer &state = moving->second;
  Value view = commonView(target.memref, l);
  auto known = llvm::find(state.arrays, view);
  size_t k = known - state.arrays.begin();
  if (known == state.arrays.end()) {
    // A new array: the reads lowered so far that may run after this
    // assignment (in a loop around both) select it too.
    DominanceInfo dominance(function);
    size_t since = loopReadMarks.empty() ? loweredReads : loopReadMarks[0];
    for (auto [read, number] : state.reads) {
      if (number < since)
        continue;
      if (!dominance.properlyDominates(view, read)) {
        unsupported(where, "a pointer variable can move to another array "
                           "only if that array exists wherever the "
                           "variable is read; create it before the "
                           "variable");
        return false;
      }
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(read);
      read->setOperand(0, selectArray(load(state.which, l), k, view,
                                      read->getOperand(0), l));
    }
    state.arrays.push_back(view);
  }
  store(constantIndex(k, l), state.which, l);
  store(target.offset, pointer.offsetSlot, l);
  return true;
}

} // namespace cotangent::frontend
