//===- IndependenceCheck.cpp - Are a loop's iterations independent? ------===//
//
// The check needs no knowledge of how the loop was made, so it cannot be
// fooled by a derivative rule; a loop it cannot prove stays serial.
//
//===----------------------------------------------------------------------===//

#include "Parallel/IndependenceCheck.h"
#include "Parallel/PrivateAccumulations.h"
#include "Utils/LoopMarks.h"
#include "cotangent/AD/Analysis/Activity.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-parallelize-loops"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {
bool isAssociativeCombiner(Operation *op) {
  return isa<arith::AddFOp, arith::AddIOp, arith::MulFOp, arith::MulIOp,
             arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp, arith::MaxSIOp, arith::MinSIOp>(op);
}

std::optional<Reduction> matchReduction(scf::ForOp loop, unsigned i);

/// A reduction carried through a loop nested in `loop`'s body: `arg` only
/// starts the nested loop's reduction, whose result is what `loop` yields.
std::optional<Reduction> matchNestedReduction(scf::ForOp loop, unsigned i) {
  BlockArgument arg = loop.getRegionIterArgs()[i];
  auto result = dyn_cast<OpResult>(loop.getYieldedValues()[i]);
  auto nested = result ? dyn_cast<scf::ForOp>(result.getOwner()) : nullptr;
  if (!nested || nested->getBlock() != loop.getBody() || !arg.hasOneUse() ||
      !result.hasOneUse())
    return std::nullopt;
  unsigned j = result.getResultNumber();
  OpOperand &init = nested.getInitArgsMutable()[j];
  if (init.get() != arg)
    return std::nullopt;
  std::optional<Reduction> inner = matchReduction(nested, j);
  if (!inner || inner->nestedInit ||
      !getIdentity(inner->combiner, inner->compare, inner->maximum))
    return std::nullopt;
  return Reduction{
      i, inner->combiner, inner->compare, inner->maximum, result, &init};
}

std::optional<Reduction> matchReduction(scf::ForOp loop, unsigned i) {
  BlockArgument arg = loop.getRegionIterArgs()[i];
  Value yielded = loop.getYieldedValues()[i];
  Operation *combiner = yielded.getDefiningOp();
  if (combiner && isa<scf::ForOp>(combiner))
    return matchNestedReduction(loop, i);
  if (!combiner || combiner->getBlock() != loop.getBody())
    return std::nullopt;
  if (isAssociativeCombiner(combiner) && arg.hasOneUse() &&
      yielded.hasOneUse()) {
    Value lhs = combiner->getOperand(0), rhs = combiner->getOperand(1);
    if (lhs == arg && rhs != arg)
      return Reduction{i, combiner, nullptr, false, rhs};
    if (rhs == arg && lhs != arg)
      return Reduction{i, combiner, nullptr, false, lhs};
    return std::nullopt;
  }
  // select(x beats arg, x, arg), x beating arg by a strict order (the
  // earlier value stays at a tie): a max or a min, either way round.
  auto select = dyn_cast<arith::SelectOp>(combiner);
  if (!select || select.getFalseValue() != arg || !yielded.hasOneUse())
    return std::nullopt;
  auto compare = select.getCondition().getDefiningOp<arith::CmpFOp>();
  Value x = select.getTrueValue();
  if (!compare || !compare->hasOneUse() || x == arg ||
      llvm::range_size(arg.getUses()) != 2)
    return std::nullopt;
  using P = arith::CmpFPredicate;
  P p = compare.getPredicate();
  bool xFirst = compare.getLhs() == x && compare.getRhs() == arg;
  bool argFirst = compare.getLhs() == arg && compare.getRhs() == x;
  if ((!xFirst && !argFirst) || (p != P::OGT && p != P::OLT))
    return std::nullopt;
  // x > arg or arg < x: a max.
  bool maximum = xFirst ? p == P::OGT : p == P::OLT;
  return Reduction{i, select, compare, maximum, x};
}

/// Whether `value` is an injective function of `iv`: iv itself, or iv
/// moved by a loop-invariant amount or scaled by a non-zero constant.
/// Whether `v` has the same value in every iteration of `loop`: defined
/// outside it, or computed inside by pure ops from such values.
bool isInvariantIn(Value v, Operation *loop, unsigned depth = 4) {
  if (!loop->isAncestor(v.getParentBlock()->getParentOp()))
    return true;
  Operation *def = v.getDefiningOp();
  return def && depth > 0 && isPure(def) && def->getNumRegions() == 0 &&
         llvm::all_of(def->getOperands(), [&](Value operand) {
           return isInvariantIn(operand, loop, depth - 1);
         });
}

Value stripCasts(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
             arith::ExtUIOp>(def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

/// Whether `value` lies in [0, extent): the counter of a loop nested in
/// `loop` that runs from 0 to `extent` by 1.
bool isCounterBelow(Value value, Value extent, Operation *loop) {
  auto counter = dyn_cast<BlockArgument>(stripCasts(value));
  auto inner = counter ? dyn_cast<scf::ForOp>(counter.getOwner()->getParentOp())
                       : nullptr;
  return inner && inner.getInductionVar() == counter &&
         loop->isAncestor(inner) && loop != inner.getOperation() &&
         matchPattern(inner.getLowerBound(), m_Zero()) &&
         matchPattern(inner.getStep(), m_One()) &&
         stripCasts(inner.getUpperBound()) == stripCasts(extent);
}

bool isInjectiveIn(Value value, Value iv, Operation *loop) {
  auto invariant = [&](Value v) { return isInvariantIn(v, loop); };
  while (true) {
    if (value == iv)
      return true;
    Operation *def = value.getDefiningOp();
    if (!def || !loop->isAncestor(def))
      return false;
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp>(def)) {
      value = def->getOperand(0);
      continue;
    }
    // Row-major `x * extent + j` with j in [0, extent) (a collapsed nest):
    // injective in x, hence in iv if x is.
    if (isa<arith::AddIOp>(def)) {
      bool rowMajor = false;
      for (unsigned side : {0u, 1u}) {
        auto scaled = def->getOperand(side).getDefiningOp<arith::MulIOp>();
        Value j = def->getOperand(1 - side);
        if (!scaled)
          continue;
        for (unsigned factor : {0u, 1u})
          if (isInvariantIn(scaled->getOperand(factor), loop) &&
              isCounterBelow(j, scaled->getOperand(factor), loop)) {
            value = scaled->getOperand(1 - factor);
            rowMajor = true;
            break;
          }
        if (rowMajor)
          break;
      }
      if (rowMajor)
        continue;
    }
    if (isa<arith::AddIOp, arith::SubIOp>(def)) {
      Value lhs = def->getOperand(0), rhs = def->getOperand(1);
      if (invariant(rhs))
        value = lhs;
      else if (invariant(lhs))
        value = rhs;
      else
        return false;
      continue;
    }
    if (isa<arith::MulIOp>(def)) {
      Value lhs = def->getOperand(0), rhs = def->getOperand(1);
      APInt c;
      if (matchPattern(rhs, m_ConstantInt(&c)) && !c.isZero())
        value = lhs;
      else if (matchPattern(lhs, m_ConstantInt(&c)) && !c.isZero())
        value = rhs;
      else
        return false;
      continue;
    }
    return false;
  }
}

std::optional<Accumulation> matchAccumulation(memref::StoreOp store) {
  Operation *add = store.getValueToStore().getDefiningOp();
  if (!add || !isa<arith::AddFOp, arith::SubFOp>(add) ||
      !store.getValueToStore().hasOneUse())
    return std::nullopt;
  for (unsigned side : {0u, 1u}) {
    auto load = add->getOperand(side).getDefiningOp<memref::LoadOp>();
    if (!load || !load->hasOneUse() || load.getMemRef() != store.getMemRef() ||
        load.getIndices() != store.getIndices() ||
        load->getBlock() != store->getBlock())
      continue;
    bool subtract = isa<arith::SubFOp>(add);
    if (subtract && side == 1)
      return std::nullopt; // v - m[i]
    // Nothing between the load and the store may touch memory.
    for (Operation *at = load->getNextNode(); at != store;
         at = at->getNextNode())
      if (!isMemoryEffectFree(at))
        return std::nullopt;
    return Accumulation{load, add, store, add->getOperand(1 - side), subtract};
  }
  return std::nullopt;
}

/// Whether `op`, outside `loop`, only fills `buffer` with a constant
/// before the loop: a store of a constant, or a loop of them.
bool isFillBefore(Operation *op, Value buffer, scf::ForOp loop) {
  Operation *ancestor = op;
  while (ancestor && ancestor->getBlock() != loop->getBlock())
    ancestor = ancestor->getParentOp();
  if (!ancestor || !ancestor->isBeforeInBlock(loop))
    return false;
  auto store = dyn_cast<memref::StoreOp>(op);
  if (!store || store.getMemRef() != buffer ||
      !matchPattern(store.getValueToStore(), m_Constant()))
    return false;
  // Alone in the loop that runs it, if any.
  auto fill = dyn_cast<scf::ForOp>(store->getParentOp());
  return !fill || llvm::hasSingleElement(fill.getBody()->without_terminator());
}

} // namespace

std::optional<TypedAttr> ad::getIdentity(Operation *combiner,
                                         arith::CmpFOp compare, bool maximum) {
  Builder b(combiner->getContext());
  Type type = combiner->getResult(0).getType();
  auto floatAttr = [&](APFloat value) -> TypedAttr {
    return b.getFloatAttr(type, value);
  };
  auto semantics = [&]() -> const llvm::fltSemantics & {
    return cast<FloatType>(type).getFloatSemantics();
  };
  // Vectors (lanes) and other shaped values have no scalar identity here.
  if (!isa<FloatType, IntegerType>(type))
    return std::nullopt;
  if (isa<IntegerType>(type) &&
      (compare ||
       isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MaxNumFOp,
           arith::MinimumFOp, arith::MinNumFOp>(combiner)))
    return std::nullopt;
  if (compare)
    return floatAttr(APFloat::getInf(semantics(), /*Negative=*/maximum));
  if (isa<arith::AddFOp>(combiner))
    return floatAttr(APFloat::getZero(semantics(), /*Negative=*/true));
  if (isa<arith::MulFOp>(combiner))
    return floatAttr(APFloat::getOne(semantics()));
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combiner))
    return floatAttr(APFloat::getInf(semantics(), /*Negative=*/true));
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(combiner))
    return floatAttr(APFloat::getInf(semantics(), /*Negative=*/false));
  if (!type.isSignlessInteger())
    return std::nullopt;
  unsigned width = type.getIntOrFloatBitWidth();
  if (isa<arith::AddIOp>(combiner))
    return b.getIntegerAttr(type, APInt::getZero(width));
  if (isa<arith::MulIOp>(combiner))
    return b.getIntegerAttr(type, APInt(width, 1));
  if (isa<arith::MaxSIOp>(combiner))
    return b.getIntegerAttr(type, APInt::getSignedMinValue(width));
  if (isa<arith::MinSIOp>(combiner))
    return b.getIntegerAttr(type, APInt::getSignedMaxValue(width));
  return std::nullopt;
}

/// Whether `alloca` lives for one iteration of `loop` (ct.iteration_local)
/// and nothing outside the loop uses it but what fills it before: each
/// iteration can have its own.
/// (Uses in `ignored`, a loop `loop` is a trial copy of, do not count.)
bool ad::canGiveEachIteration(memref::AllocaOp alloca, scf::ForOp loop,
                              Operation *ignored) {
  Value buffer = alloca.getResult();
  return alloca->hasAttr(ct::kIterationLocal) && !loop->isAncestor(alloca) &&
         llvm::all_of(buffer.getUsers(), [&](Operation *user) {
           return loop->isAncestor(user) ||
                  (ignored && ignored->isAncestor(user)) ||
                  isFillBefore(user, buffer, loop);
         });
}

/// The tape defined outside `loop` that its body uses, if any.
Value ad::getSharedTape(scf::ForOp loop) {
  Value shared;
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (isa<ct::TapeType>(operand.getType()) &&
          !loop->isAncestor(operand.getParentBlock()->getParentOp()))
        shared = operand;
  });
  return shared;
}

bool IndependenceCheck::check() {
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
    std::optional<Reduction> reduction = matchReduction(loop, i);
    if (!reduction)
      return reject("an iteration argument is not a reduction");
    reductions.push_back(*reduction);
  }
  // Accumulations first: their loads come before their stores.
  loop.getBody()->walk([&](memref::StoreOp store) {
    if (std::optional<Accumulation> acc = matchAccumulation(store)) {
      accumulated.insert(acc->load);
      candidates[store] = *acc;
    }
  });
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    return visit(op) ? WalkResult::advance() : WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return false;
  for (auto &[root, accesses] : byRoot)
    if (!checkRoot(root, accesses))
      return false;
  return true;
}

bool IndependenceCheck::reject(const Twine &why) {
  LLVM_DEBUG(llvm::dbgs() << "[ct-parallelize-loops] loop at " << loop.getLoc()
                          << " stays serial: " << why << "\n");
  return false;
}

bool IndependenceCheck::usesPrivateTape(Operation *op) {
  bool any = false;
  for (Value operand : op->getOperands()) {
    Value tape = operand;
    Operation *block = operand.getDefiningOp();
    if (isa_and_nonnull<ct::TapeClaimOp, ct::TapeReleaseOp>(block)) {
      // A block of the iteration's tape is claimed in the iteration.
      if (!loop->isAncestor(block))
        return false;
      tape = block->getOperand(0);
    } else if (!isa<ct::TapeType>(operand.getType())) {
      continue;
    }
    // Made in the loop, or the shared one each iteration will get its
    // own of (privatizeTape).
    Operation *init = tape.getDefiningOp<ct::TapeInitOp>();
    bool own = init && loop->isAncestor(init);
    bool willOwn = loop->hasAttr(ad::kIterationTape) &&
                   !loop->isAncestor(tape.getParentBlock()->getParentOp());
    if (!own && !willOwn)
      return false;
    any = true;
  }
  return any || isa<ct::TapeInitOp>(op);
}

bool IndependenceCheck::isPrivate(Value root) {
  Operation *def = root.getDefiningOp();
  if (auto alloca = dyn_cast_or_null<memref::AllocaOp>(def);
      alloca && canGiveEachIteration(alloca, loop, ignored))
    return true;
  return def && isa<memref::AllocaOp, memref::AllocOp>(def) &&
         loop->isAncestor(def);
}

void IndependenceCheck::record(Operation *op, Value memref, ValueRange indices,
                               bool accumulation) {
  Value root = ad::getMemoryRoot(memref);
  if (isPrivate(root))
    return;
  Access access{op, accumulation, {}};
  if (ad::indexesLikeRoot(memref, root))
    for (Value index : indices)
      if (isInjectiveIn(index, loop.getInductionVar(), loop))
        access.injectiveIndices.push_back(index);
  byRoot[root].push_back(std::move(access));
}

bool IndependenceCheck::visit(Operation *op) {
  if (isa<scf::YieldOp, scf::ForOp, scf::IfOp, scf::IndexSwitchOp, scf::WhileOp,
          scf::ConditionOp>(op))
    return true;
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    if (!accumulated.contains(op))
      record(op, load.getMemRef(), load.getIndices(), false);
    return true;
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    record(op, store.getMemRef(), store.getIndices(), candidates.contains(op));
    return true;
  }
  // The iteration's own tape (privatizeTape), and blocks of it.
  if (usesPrivateTape(op))
    return true;
  if (auto write = dyn_cast<ct::TapeWriteOp>(op)) {
    // Slots by position in a block claimed before the loop: each
    // iteration writes its own (ct-tape-blocks).
    auto claim = write.getBlock().getDefiningOp<ct::TapeClaimOp>();
    if (claim && !loop->isAncestor(claim) &&
        write->getBlock() == loop.getBody())
      return true;
    return reject("a tape write outside a block claimed for this loop");
  }
  if (isa<ct::TapeReadOp>(op))
    return true; // released blocks are only read
  if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op);
      rmw && rmw.getKind() == arith::AtomicRMWKind::addf) {
    Value root = ad::getMemoryRoot(rmw.getMemref());
    if (!isPrivate(root))
      byRoot[root].push_back({op, true, true, {}});
    return true;
  }
  if (isa<memref::AllocaOp, memref::AllocOp>(op))
    return true;
  if (isa<memref::DeallocOp>(op) &&
      isPrivate(ad::getMemoryRoot(op->getOperand(0))))
    return true;
  if (isMemoryEffectFree(op) && op->getNumRegions() == 0)
    return true;
  return reject(Twine("'") + op->getName().getStringRef() +
                "' has effects the check does not know");
}

bool IndependenceCheck::checkRoot(Value root, ArrayRef<Access> accesses) {
  bool writes = llvm::any_of(accesses, [](const Access &a) {
    return a.accumulation || isa<memref::StoreOp>(a.op);
  });
  // Atomic adds already (chunks adding their copies in) go with other
  // additions only.
  if (!writes)
    return true;
  // Every access at one element per iteration, the same in all of them.
  for (Value key : accesses.front().injectiveIndices)
    if (llvm::all_of(accesses, [&](const Access &a) {
          return llvm::is_contained(a.injectiveIndices, key);
        }))
      return true;
  // Or only accumulations, which become atomic: a few per iteration.
  // In a loop nested in the iteration they would run many times each
  // (every iteration adding into all of a shared shadow), slower than the
  // serial loop already on one thread and contended on more: such loops
  // are tried again split into chunks that add into private copies
  // (PrivateAccumulations.cpp).
  if (llvm::all_of(accesses, [](const Access &a) { return a.accumulation; })) {
    for (const Access &a : accesses) {
      if (a.atomic)
        continue;
      // On a GPU, with thousands of threads and no per-thread copies,
      // atomic additions are the way.
      if (a.op->getParentOp() != loop.getOperation() &&
          !ad::isDeviceLoop(loop)) {
        LLVM_DEBUG(llvm::dbgs() << "  into " << root << "\n");
        return reject("an accumulation into shared memory runs in a loop "
                      "nested in the iteration");
      }
      atomics.push_back(candidates.lookup(a.op));
    }
    return true;
  }
  LLVM_DEBUG({
    llvm::dbgs() << "[ct-parallelize-loops] shared memory: " << root << "\n";
    for (const Access &a : accesses)
      llvm::dbgs() << "  " << *a.op << "\n";
  });
  return reject("memory is written at elements other iterations may "
                "access");
}
