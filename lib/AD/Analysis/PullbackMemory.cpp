//===- PullbackMemory.cpp - What memory holds when reverse code runs ------===//

#include "Analysis/PullbackMemory.h"
#include "Analysis/CallActivity.h"
#include "Analysis/IterationKills.h"
#include "Utils/TapedAddresses.h"
#include "cotangent/AD/Interfaces/ScalarDerivativeOpInterface.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

bool ad::mayRunAfter(Operation *writer, Operation *load, Operation *scope) {
  for (Operation *op = load->getParentOp(); op != scope; op = op->getParentOp())
    if (isa<LoopLikeOpInterface>(op) && op->isAncestor(writer))
      return true;
  // No loop around both: in the innermost block holding both, program
  // order decides, unless they are in different branches of one op.
  for (Operation *op = load; op != scope; op = op->getParentOp())
    if (Operation *other = op->getBlock()->findAncestorOpInBlock(*writer))
      return other != op && op->isBeforeInBlock(other);
  return true;
}

PullbackMemory::PullbackMemory(func::FuncOp function,
                               ActivityAnalysis &activity, bool deferFrees)
    : function(function), activity(&activity) {
  Block &body = function.getBody().front();
  // Nothing runs between the sweeps of a combined pullback, so memory the
  // function does not write is as the forward sweep read it (with no
  // argument written, no argument can alias a written one).
  argumentsReadOnly =
      llvm::none_of(body.getArguments(), [&](BlockArgument arg) {
        return (isShadowedType(arg.getType()) ||
                isBytesMemory(arg.getType())) &&
               activity.mayWriteArgument(arg);
      });
  // Likewise a local buffer is, after its last write, as the forward sweep
  // read it.
  for (Operation &op : body.without_terminator())
    if (isa<memref::AllocaOp, memref::AllocOp>(op))
      localWriters[op.getResult(0)];
  for (BlockArgument arg : body.getArguments())
    if (isShadowedType(arg.getType()) && isNoAliasArgument(arg))
      noAliasWriters[arg];
  // Freeing a buffer ends its contents; postponed to the return, it no
  // longer does (in the primal, every path frees a buffer of the body
  // once, at its end, so the pullback frees it there).
  if (deferFrees)
    function.walk([&](memref::DeallocOp dealloc) {
      Value root = getMemoryRoot(dealloc.getMemref());
      if (root.getDefiningOp<memref::AllocOp>() && localWriters.count(root))
        deferredFrees.insert(root);
    });
  function.walk([&](Operation *op) {
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op);
        dealloc && deferredFrees.contains(getMemoryRoot(dealloc.getMemref())))
      return;
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()) ||
          !activity.mayWrite(op, operand))
        continue;
      // A place chosen at run time (`c ? a[i] : x` written, a reference a
      // branch or loop passes on) writes every memory it may be.
      for (Value root : getMemoryRoots(operand)) {
        if (mayBeKeptMemory(root)) {
          notePossibleWriter(op);
          continue;
        }
        auto writers = localWriters.find(root);
        if (writers != localWriters.end())
          writers->second.push_back(op);
        auto argWriters = noAliasWriters.find(root);
        if (argWriters != noAliasWriters.end())
          argWriters->second.push_back(op);
      }
    }
  });
}

bool PullbackMemory::mayBeKeptMemory(Value root) {
  // What an address read back from memory designates (or what an op the
  // analysis does not know returns) may be any memory whose address was
  // stored: the function's own buffers, or its arguments.
  // (So may an address the tape gives back.)
  Operation *def = root.getDefiningOp();
  if (!def)
    return !isa<func::FuncOp>(root.getParentBlock()->getParentOp());
  return isTapedAddressView(root) ||
         !isa<memref::AllocOp, memref::AllocaOp, memref::GetGlobalOp,
              ct::PointerViewOp, ub::PoisonOp>(def);
}

void PullbackMemory::notePossibleWriter(Operation *op) {
  // (The maps get no new keys once the walk runs: their lists stay put.)
  if (!keptMemoryWriters) {
    keptMemoryWriters.emplace();
    for (auto *writersOf : {&localWriters, &noAliasWriters})
      for (auto &[root, writers] : *writersOf)
        if (isAddressStored(root))
          keptMemoryWriters->push_back(&writers);
    if (llvm::any_of(function.getArguments(), [](BlockArgument arg) {
          return isShadowedType(arg.getType()) && isAddressStored(arg);
        }))
      argumentsReadOnly = false;
  }
  for (SmallVector<Operation *> *writers : *keptMemoryWriters)
    writers->push_back(op);
}

bool PullbackMemory::anyRunsAfter(ArrayRef<Operation *> writers, Operation *op,
                                  Operation *scope) {
  return llvm::any_of(writers, [&](Operation *writer) {
    return mayRunAfter(writer, op, scope);
  });
}

bool PullbackMemory::keepsContentsAfter(Value memref, Operation *op) const {
  if (!function)
    return false;
  SmallVector<Value, 2> roots = getMemoryRoots(memref);
  return !roots.empty() && llvm::all_of(roots, [&](Value root) {
    return rootKeepsContentsAfter(root, op);
  });
}

bool PullbackMemory::rootKeepsContentsAfter(Value root, Operation *op) const {
  if (auto arg = dyn_cast<BlockArgument>(root)) {
    if (arg.getOwner() != &function.getBody().front())
      return false;
    if (argumentsReadOnly)
      return true;
    // A `restrict` argument changes only through its own views.
    auto writers = noAliasWriters.find(root);
    return writers != noAliasWriters.end() &&
           !anyRunsAfter(writers->second, op, function);
  }
  auto writers = localWriters.find(root);
  return writers != localWriters.end() &&
         !anyRunsAfter(writers->second, op, function);
}

bool PullbackMemory::isUnchangedWithin(memref::LoadOp load,
                                       Operation *scope) const {
  // Memory is as the iteration left it, so writers in the loop matter only
  // later in the same iteration; writers outside it count as for the whole
  // function.
  auto writers = localWriters.find(getMemoryRoot(load.getMemRef()));
  if (writers == localWriters.end())
    return false;
  return llvm::none_of(writers->second, [&](Operation *writer) {
    return mayRunAfter(writer, load,
                       scope->isAncestor(writer) ? scope : function);
  });
}

bool PullbackMemory::onlyReadsFinalMemory(Operation *op) const {
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    return !isa<MemRefType>(operand.getType()) ||
           (keepsContentsAfter(operand, op) &&
            !activity->mayWrite(op, operand));
  });
}

unsigned ad::loopDepthIn(Operation *op, scf::ForOp loop) {
  unsigned depth = 0;
  for (Operation *at = op->getParentOp(); at != loop; at = at->getParentOp())
    depth += isa<LoopLikeOpInterface>(at);
  return depth;
}

/// Whether the reverse code may need the value itself, not only its
/// adjoint: any use but stores and ops linear in it with a constant factor
/// (sums, differences, negations).
static bool isValueNeededByReverse(Value value) {
  return llvm::any_of(value.getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto rule = dyn_cast<ScalarDerivativeOpInterface>(user))
      if (std::optional<LinearTerm> term =
              rule.getLinearTerm(use.getOperandNumber());
          term && !term->factor)
        return false;
    auto store = dyn_cast<memref::StoreOp>(user);
    return !store || store.getMemRef() == value;
  });
}

bool PullbackMemory::isSelfContained(scf::ForOp loop, unsigned &killDepth,
                                     bool allowCalls) const {
  if (!function)
    return false;
  killDepth = 0;
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    // (Code compiled elsewhere may keep state, a random generator's say:
    // running it again would not give the same values.)
    bool harmlessCall = allowCalls && isa<func::CallOp>(op) &&
                        !callsExternalCode(op) && onlyReadsFinalMemory(op);
    if ((isa<CallOpInterface>(op) && !harmlessCall) ||
        isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp>(op))
      return WalkResult::interrupt();
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()))
        continue;
      // Memory from outside must be reachable from the reverse code: an
      // argument's or a local buffer's (not one made in an outer loop).
      Value root = getMemoryRoot(operand);
      bool outside = !loop->isAncestor(operand.getParentBlock()->getParentOp());
      bool local = isLocalBuffer(root);
      auto arg = dyn_cast<BlockArgument>(root);
      bool argument = arg && arg.getOwner() == &function.getBody().front();
      if ((outside && !local && !argument) ||
          (activity->mayWrite(op, operand) && !local))
        return WalkResult::interrupt();
    }
    auto load = dyn_cast<memref::LoadOp>(op);
    if (!load || isUnchangedAfterFunction(load))
      return WalkResult::advance();
    if (!readsOwnWrites(load, loop))
      return WalkResult::interrupt();
    if (isValueNeededByReverse(load))
      killDepth = std::max(killDepth, loopDepthIn(load, loop));
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

bool PullbackMemory::readsOwnWrites(memref::LoadOp load,
                                    scf::ForOp loop) const {
  if (isWrittenEarlierInIteration(load, loop))
    return true;
  auto writers = localWriters.find(getMemoryRoot(load.getMemRef()));
  return writers != localWriters.end() &&
         llvm::all_of(writers->second, [&](Operation *writer) {
           return loop->isAncestor(writer)
                      ? writesSameElementsBefore(writer, load, loop)
                      : !mayRunAfter(writer, load, function);
         });
}
