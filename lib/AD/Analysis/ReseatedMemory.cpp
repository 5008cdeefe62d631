//===- ReseatedMemory.cpp - Caller memory a function re-points ------------===//

#include "ReseatedMemory.h"

#include "cotangent/AD/Analysis/Activity.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace cotangent;

/// The argument of `function` the memory `memory` is reached from (through
/// views and the addresses slots hold), or null.
static BlockArgument rootArgument(Value memory, func::FuncOp function) {
  while (true) {
    memory = ad::getMemoryRoot(memory);
    if (auto argument = dyn_cast<BlockArgument>(memory))
      return argument.getOwner() == &function.getBody().front() ? argument
                                                                : nullptr;
    auto load = memory.getDefiningOp<ct::LoadAddressOp>();
    if (!load)
      return nullptr;
    memory = load.getHolder();
  }
}

/// Whether the memory `view` designates holds floating-point values (or
/// bytes that may), whose derivatives a shadow carries.
static bool holdsFloatingData(Value view) {
  Type element = cast<MemRefType>(view.getType()).getElementType();
  auto integer = dyn_cast<IntegerType>(element);
  return !integer || integer.getWidth() == 8;
}

namespace {
/// A function to search: the argument whose memory is the caller's object,
/// and which of its arguments designate the caller's memory (bits).
struct Visit {
  func::FuncOp function;
  unsigned holder;
  uint64_t callerMemory;
};
} // namespace

/// Whether `view` designates the caller's memory: memory rooted in an
/// argument `callerMemory` marks, or an address a local slot holds that
/// only such addresses are stored into (a pointer variable, std::swap's
/// temporary).
static bool isCallerRooted(Value view, func::FuncOp function,
                           uint64_t callerMemory, unsigned depth = 0) {
  if (BlockArgument root = rootArgument(view, function))
    return root.getArgNumber() < 64 &&
           (callerMemory >> root.getArgNumber() & 1);
  auto load = ad::getMemoryRoot(view).getDefiningOp<ct::LoadAddressOp>();
  Value slot = load ? ad::getMemoryRoot(load.getHolder()) : Value();
  if (!slot || depth > 4 ||
      !isa_and_nonnull<memref::AllocaOp, memref::AllocOp>(slot.getDefiningOp()))
    return false;
  bool stored = false;
  WalkResult result = function.walk([&](ct::StoreAddressOp store) {
    if (ad::getMemoryRoot(store.getHolder()) != slot)
      return WalkResult::advance();
    stored = true;
    return isCallerRooted(store.getView(), function, callerMemory, depth + 1)
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  return stored && !result.wasInterrupted();
}

/// The visits `call` makes from `visit`: one per operand rooted in the
/// memory of `visit.holder`.
static void
visitCallee(func::CallOp call, const Visit &visit, func::FuncOp callee,
            SmallVectorImpl<Visit> &worklist,
            llvm::DenseSet<std::tuple<Operation *, unsigned, uint64_t>> &seen) {
  uint64_t callerMemory = 0;
  for (auto [j, operand] : llvm::enumerate(call.getOperands()))
    if (j < 64 && isa<MemRefType>(operand.getType()) &&
        isCallerRooted(operand, visit.function, visit.callerMemory))
      callerMemory |= uint64_t(1) << j;
  for (auto [j, operand] : llvm::enumerate(call.getOperands())) {
    if (!isa<MemRefType>(operand.getType()))
      continue;
    BlockArgument root = rootArgument(operand, visit.function);
    if (!root || root.getArgNumber() != visit.holder)
      continue;
    auto key =
        std::make_tuple(callee.getOperation(), unsigned(j), callerMemory);
    if (seen.insert(key).second)
      worklist.push_back({callee, unsigned(j), callerMemory});
  }
}

Operation *ad::findReseatingStore(func::FuncOp function, unsigned i,
                                  SymbolTableCollection &symbols) {
  uint64_t all = function.getNumArguments() >= 64
                     ? ~uint64_t(0)
                     : (uint64_t(1) << function.getNumArguments()) - 1;
  SmallVector<Visit> worklist{{function, i, all}};
  llvm::DenseSet<std::tuple<Operation *, unsigned, uint64_t>> seen;
  while (!worklist.empty()) {
    Visit visit = worklist.pop_back_val();
    func::FuncOp next = visit.function;
    // (A by-value copy is the function's own: no seeds describe it.)
    if (next.isExternal() ||
        next.getArgAttr(visit.holder, ct::kFinalSeedsTakenAttr) ||
        next.getArgAttr(visit.holder, ct::kByValueAttr))
      continue;
    Operation *found = nullptr;
    next.walk([&](Operation *op) -> WalkResult {
      auto store = dyn_cast<ct::StoreAddressOp>(op);
      // (A vector field whose final seeds the entry point took: the seeds
      // describe what the store makes it designate.)
      if (store && store->hasAttr(ct::kFinalSeedsTakenAttr))
        return WalkResult::advance();
      if (store) {
        // (An address of the caller's own memory keeps its shadow: the
        // seeds there are that memory's.)
        BlockArgument root = rootArgument(store.getHolder(), next);
        if (root && root.getArgNumber() == visit.holder &&
            holdsFloatingData(store.getView()) &&
            !isCallerRooted(store.getView(), next, visit.callerMemory)) {
          found = op;
          return WalkResult::interrupt();
        }
      } else if (auto call = dyn_cast<func::CallOp>(op)) {
        if (auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
                op, call.getCalleeAttr()))
          visitCallee(call, visit, callee, worklist, seen);
      }
      return WalkResult::advance();
    });
    if (found)
      return found;
  }
  return nullptr;
}
