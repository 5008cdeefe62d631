//===- ParallelizeLoops.cpp - Independent marked loops become parallel ----===//
//
// The loops made from a C++ parallel loop (its serial form, its tangent
// loop, the forward and reverse sweeps of its pullback) are marked
// ct.parallel. Each is checked on its own, as generated: iterations are
// independent when what they carry is a reduction and the memory they
// write is either theirs alone or only accumulated into (ct-parallelize-
// loops in Passes.td). The check needs no knowledge of how the loop was
// made, so it cannot be fooled by a derivative rule; a loop it cannot
// prove stays serial.
//
//===----------------------------------------------------------------------===//

#include "Parallel/PrivateAccumulations.h"
#include "Utils/IRBuilders.h"
#include "Utils/LoopMarks.h"
#include "cotangent/AD/Analysis/Activity.h"
#include "cotangent/AD/Passes.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSet.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-parallelize-loops"

namespace cotangent::ad {
#define GEN_PASS_DEF_PARALLELIZELOOPS
#include "cotangent/AD/Passes.h.inc"
} // namespace cotangent::ad

using namespace mlir;
using namespace cotangent;

namespace {

/// How an iteration argument is reduced: the op that combines the previous
/// value with the iteration's, or the compare-and-select pair of a max or
/// min that keeps the previous value at a tie.
struct Reduction {
  unsigned position;
  Operation *combiner;
  arith::CmpFOp compare; // null unless a select pair
  bool maximum = false;  // of a select pair: max (else min)
  Value contribution;
  /// A sum carried through a loop nested in the body (a collapsed nest):
  /// that loop's initial value, which becomes the identity, so that the
  /// nested loop computes the iteration's contribution.
  OpOperand *nestedInit = nullptr;
};

bool isAssociativeCombiner(Operation *op) {
  return isa<arith::AddFOp, arith::AddIOp, arith::MulFOp, arith::MulIOp,
             arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp, arith::MaxSIOp, arith::MinSIOp>(op);
}

/// The value a reduction by `combiner` (and `compare`, a max if `maximum`)
/// starts from.
std::optional<TypedAttr> getIdentity(Operation *combiner, arith::CmpFOp compare,
                                     bool maximum) {
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

/// What an op of the body does to one memory root.
struct Access {
  Operation *op;
  /// Part of an accumulation `m[i] = m[i] + v` (its load or its store), or
  /// an atomic add already.
  bool accumulation;
  bool atomic = false;
  /// The index values that are injective in the induction variable, if
  /// the access indexes the root itself.
  SmallVector<Value> injectiveIndices;
};

/// The load-add-store `m[i] = m[i] + v` (or `- v`) that `store` ends, if
/// the loaded value is used by nothing else: the add becomes atomic.
struct Accumulation {
  memref::LoadOp load;
  Operation *add;
  memref::StoreOp store;
  Value addend;
  bool negate;
};

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

/// Whether `alloca` lives for one iteration of `loop` (ct.iteration_local)
/// and nothing outside the loop uses it but what fills it before: each
/// iteration can have its own.
/// (Uses in `ignored`, a loop `loop` is a trial copy of, do not count.)
bool canGiveEachIteration(memref::AllocaOp alloca, scf::ForOp loop,
                          Operation *ignored = nullptr) {
  Value buffer = alloca.getResult();
  return alloca->hasAttr(ct::kIterationLocal) && !loop->isAncestor(alloca) &&
         llvm::all_of(buffer.getUsers(), [&](Operation *user) {
           return loop->isAncestor(user) ||
                  (ignored && ignored->isAncestor(user)) ||
                  isFillBefore(user, buffer, loop);
         });
}

/// The tape defined outside `loop` that its body uses, if any.
Value getSharedTape(scf::ForOp loop) {
  Value shared;
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (isa<ct::TapeType>(operand.getType()) &&
          !loop->isAncestor(operand.getParentBlock()->getParentOp()))
        shared = operand;
  });
  return shared;
}

class LoopChecker {
public:
  explicit LoopChecker(scf::ForOp loop, Operation *ignored = nullptr)
      : loop(loop), ignored(ignored) {}

  /// Whether the iterations are independent; collects what to rewrite.
  bool check() {
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

  SmallVector<Reduction> reductions;
  SmallVector<Accumulation> atomics;

private:
  bool reject(const Twine &why) {
    LLVM_DEBUG(llvm::dbgs()
               << "[ct-parallelize-loops] loop at " << loop.getLoc()
               << " stays serial: " << why << "\n");
    return false;
  }

  /// Whether `op` uses only a tape made in the loop, directly or through
  /// a block claimed from or released by it.
  bool usesPrivateTape(Operation *op) {
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

  bool isPrivate(Value root) {
    Operation *def = root.getDefiningOp();
    if (auto alloca = dyn_cast_or_null<memref::AllocaOp>(def);
        alloca && canGiveEachIteration(alloca, loop, ignored))
      return true;
    return def && isa<memref::AllocaOp, memref::AllocOp>(def) &&
           loop->isAncestor(def);
  }

  void record(Operation *op, Value memref, ValueRange indices,
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

  bool visit(Operation *op) {
    if (isa<scf::YieldOp, scf::ForOp, scf::IfOp, scf::IndexSwitchOp,
            scf::WhileOp, scf::ConditionOp>(op))
      return true;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (!accumulated.contains(op))
        record(op, load.getMemRef(), load.getIndices(), false);
      return true;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      record(op, store.getMemRef(), store.getIndices(),
             candidates.contains(op));
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

  bool checkRoot(Value root, ArrayRef<Access> accesses) {
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
    if (llvm::all_of(accesses,
                     [](const Access &a) { return a.accumulation; })) {
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

  scf::ForOp loop;
  Operation *ignored;
  llvm::MapVector<Value, SmallVector<Access>> byRoot;
  DenseSet<Operation *> accumulated;
  DenseMap<Operation *, Accumulation> candidates;
};

void makeAtomic(Accumulation acc) {
  OpBuilder b(acc.store);
  Location loc = acc.store.getLoc();
  Value addend = acc.addend;
  if (acc.negate)
    addend = arith::NegFOp::create(b, loc, addend);
  memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addf, addend,
                              acc.store.getMemRef(), acc.store.getIndices());
  acc.store.erase();
  acc.add->erase();
  acc.load.erase();
}

/// The region of `r` in the scf.reduce that replaces `loop`: the running
/// value is its first argument, the iteration's contribution its second.
static void buildCombiner(Block &block, const Reduction &r, scf::ForOp loop,
                          Location loc) {
  Value lhs = block.getArgument(0), rhs = block.getArgument(1);
  OpBuilder combine = OpBuilder::atBlockEnd(&block);
  // The running value is lhs; the iteration's is rhs. (A nested loop's
  // combiner combines its own argument with its own contribution.)
  Value running = loop.getRegionIterArgs()[r.position];
  Value contribution = r.contribution;
  if (r.nestedInit) {
    auto nested = cast<scf::ForOp>(r.nestedInit->getOwner());
    unsigned j =
        r.nestedInit->getOperandNumber() - nested.getNumControlOperands();
    running = nested.getRegionIterArgs()[j];
    contribution = r.combiner->getOperand(0) == running
                       ? r.combiner->getOperand(1)
                       : r.combiner->getOperand(0);
    if (r.compare)
      contribution = cast<arith::SelectOp>(r.combiner).getTrueValue();
  }
  IRMapping mapping;
  mapping.map(running, lhs);
  mapping.map(contribution, rhs);
  Value combined;
  if (r.compare) {
    // rhs wins if strictly better (lhs < rhs for a max), the form
    // convert-scf-to-openmp knows.
    Value wins = arith::CmpFOp::create(combine, loc,
                                       r.maximum ? arith::CmpFPredicate::OLT
                                                 : arith::CmpFPredicate::OGT,
                                       lhs, rhs);
    combined = arith::SelectOp::create(combine, loc, wins, rhs, lhs);
  } else {
    combined = combine.clone(*r.combiner, mapping)->getResult(0);
  }
  scf::ReduceReturnOp::create(combine, loc, combined);
}

/// Rebuilds `loop` as an scf.parallel with `reductions` in scf.reduce.
void parallelize(scf::ForOp loop, ArrayRef<Reduction> reductions, bool scoped) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value lb = ad::buildIndexCast(b, loc, loop.getLowerBound());
  Value ub = ad::buildIndexCast(b, loc, loop.getUpperBound());
  Value step = ad::buildIndexCast(b, loc, loop.getStep());
  auto parallel =
      scf::ParallelOp::create(b, loc, ValueRange{lb}, ValueRange{ub},
                              ValueRange{step}, ValueRange(loop.getInitArgs()));
  if (ad::isDeviceLoop(loop))
    parallel->setAttr(ct::kDeviceLoop, b.getUnitAttr());
  for (StringRef twin : {ct::kDeviceTwin, ct::kHostTwin})
    if (Attribute id = loop->getAttr(twin))
      parallel->setAttr(twin, id);
  Block *body = parallel.getBody();
  if (body->mightHaveTerminator())
    body->getTerminator()->erase();
  Value iv = body->getArgument(0);
  Type ivType = loop.getInductionVar().getType();
  if (!ivType.isIndex()) {
    OpBuilder at = OpBuilder::atBlockBegin(body);
    iv = arith::IndexCastOp::create(at, loc, ivType, iv);
  }
  loop.getInductionVar().replaceAllUsesWith(iv);
  Block *loopBody = loop.getBody();
  SmallVector<Value> contributions;
  for (const Reduction &r : reductions)
    contributions.push_back(r.contribution);
  loopBody->getTerminator()->erase();
  // A nested loop's sum starts from the identity and is the contribution.
  for (const Reduction &r : reductions)
    if (r.nestedInit) {
      OpBuilder before(r.nestedInit->getOwner());
      r.nestedInit->set(arith::ConstantOp::create(
          before, loc, *getIdentity(r.combiner, r.compare, r.maximum)));
    }
  // The combiners move into the scf.reduce regions.
  SmallVector<Operation *> combiners;
  for (const Reduction &r : reductions) {
    if (r.nestedInit)
      continue;
    combiners.push_back(r.combiner);
    if (r.compare)
      combiners.push_back(r.compare);
  }
  for (Operation *op : combiners)
    op->remove();
  body->getOperations().splice(body->end(), loopBody->getOperations());
  OpBuilder end = OpBuilder::atBlockEnd(body);
  // What an iteration allocates on the stack (its buffers, its tape) is
  // released when it ends.
  if (scoped) {
    auto scope = memref::AllocaScopeOp::create(
        end, loc, ValueRange(contributions).getTypes());
    Block *inner = end.createBlock(&scope.getBodyRegion());
    inner->getOperations().splice(inner->end(), body->getOperations(),
                                  body->begin(), scope->getIterator());
    if (Operation *cast = iv.getDefiningOp())
      cast->moveBefore(scope);
    OpBuilder atEnd = OpBuilder::atBlockEnd(inner);
    memref::AllocaScopeReturnOp::create(atEnd, loc, contributions);
    contributions.assign(scope.getResults().begin(), scope.getResults().end());
    end.setInsertionPointToEnd(body);
  }
  auto reduce = scf::ReduceOp::create(end, loc, contributions);
  for (auto [region, r] : llvm::zip_equal(reduce.getReductions(), reductions))
    buildCombiner(region.front(), r, loop, loc);
  for (Operation *op : combiners)
    op->dropAllReferences();
  for (Operation *op : combiners)
    op->destroy();
  loop.replaceAllUsesWith(parallel.getResults());
  loop.erase();
}

/// Carries in registers, as iteration arguments, the rank-0 slots (adjoint
/// slots of reverse mode) that `loop`'s body block reads and writes, when
/// nothing else of the slot is used in the loop and the slot does not
/// escape: what an iteration passes to the next through memory becomes a
/// value, which the clean-up folds when it does not change (the adjoint of a
/// sum reduction is every iteration's).
void promoteLoopCarriedSlots(scf::ForOp loop) {
  llvm::SetVector<Value> slots;
  loop.getBody()->walk([&](Operation *op) {
    Value memref;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      memref = load.getMemRef();
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      memref = store.getMemRef();
    if (memref && memref.getDefiningOp<memref::AllocaOp>() &&
        cast<MemRefType>(memref.getType()).getRank() == 0 &&
        !loop->isAncestor(memref.getDefiningOp()))
      slots.insert(memref);
  });
  auto onlyDirectAccesses = [&](Value slot) {
    return llvm::all_of(slot.getUsers(), [&](Operation *user) {
      bool access = (isa<memref::LoadOp>(user)) ||
                    (isa<memref::StoreOp>(user) &&
                     cast<memref::StoreOp>(user).getMemRef() == slot);
      return access &&
             (!loop->isAncestor(user) || user->getBlock() == loop.getBody());
    });
  };
  SmallVector<Value> promoted;
  for (Value slot : slots)
    if (onlyDirectAccesses(slot))
      promoted.push_back(slot);
  if (promoted.empty())
    return;
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> inits;
  for (Value slot : promoted)
    inits.push_back(memref::LoadOp::create(b, loc, slot));
  IRRewriter rewriter(loop.getContext());
  auto yieldValues = [&](OpBuilder &, Location,
                         ArrayRef<BlockArgument>) -> SmallVector<Value> {
    return SmallVector<Value>(inits);
  };
  FailureOr<LoopLikeOpInterface> grown =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(rewriter, inits,
                                       /*replaceInitOperandUsesInLoop=*/false,
                                       yieldValues);
  if (failed(grown))
    return;
  auto newLoop = cast<scf::ForOp>(grown->getOperation());
  unsigned first = newLoop.getNumRegionIterArgs() - promoted.size();
  Block *body = newLoop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  for (auto [k, slot] : llvm::enumerate(promoted)) {
    Value current = newLoop.getRegionIterArgs()[first + k];
    for (Operation &op :
         llvm::make_early_inc_range(body->without_terminator())) {
      if (auto load = dyn_cast<memref::LoadOp>(op);
          load && load.getMemRef() == slot) {
        load.replaceAllUsesWith(current);
        load.erase();
      } else if (auto store = dyn_cast<memref::StoreOp>(op);
                 store && store.getMemRef() == slot) {
        current = store.getValueToStore();
        store.erase();
      }
    }
    yield->setOperand(first + k, current);
    OpBuilder after(newLoop->getBlock(), ++Block::iterator(newLoop));
    memref::StoreOp::create(after, loc, newLoop.getResult(first + k), slot);
  }
}

/// Makes every value carried by a loop of `loops` (marked loops and those
/// nested in them) that nothing uses pass through unchanged, so that the
/// clean-up drops it: a carried value is unused when its result is unused
/// (or only carried on by an enclosing loop at an unused position) and its
/// argument only feeds its own next value (or starts an unused position of
/// a nested loop). Adjoint slots promoted in a nest leave such chains.
void passThroughUnusedCarriedValues(ArrayRef<scf::ForOp> loops) {
  using Position = std::pair<Operation *, unsigned>;
  llvm::DenseSet<Position> unused;
  for (scf::ForOp loop : loops)
    for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
      unused.insert({loop, i});
  auto yieldPosition = [](OpOperand &use) -> std::optional<Position> {
    if (!isa<scf::YieldOp>(use.getOwner()))
      return std::nullopt;
    auto loop = dyn_cast<scf::ForOp>(use.getOwner()->getParentOp());
    if (!loop)
      return std::nullopt;
    return Position{loop, use.getOperandNumber()};
  };
  auto stays = [&](scf::ForOp loop, unsigned i) {
    for (OpOperand &use : loop.getResult(i).getUses()) {
      std::optional<Position> at = yieldPosition(use);
      if (!at || !unused.contains(*at))
        return false;
    }
    BlockArgument arg = loop.getRegionIterArgs()[i];
    Value yielded = loop.getYieldedValues()[i];
    for (OpOperand &use : arg.getUses()) {
      Operation *user = use.getOwner();
      if (std::optional<Position> at = yieldPosition(use);
          at && *at == Position{loop, i})
        continue;
      if (auto nested = dyn_cast<scf::ForOp>(user);
          nested && use.getOperandNumber() >= nested.getNumControlOperands() &&
          unused.contains({nested, use.getOperandNumber() -
                                       nested.getNumControlOperands()}))
        continue;
      // Only computing its own next value.
      if (isPure(user) && user->getNumResults() == 1 &&
          user->getResult(0) == yielded && yielded.hasOneUse())
        continue;
      return false;
    }
    return true;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (scf::ForOp loop : loops)
      for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
        if (unused.contains({loop, i}) && !stays(loop, i)) {
          unused.erase({loop, i});
          changed = true;
        }
  }
  for (auto [op, i] : unused) {
    auto loop = cast<scf::ForOp>(op);
    loop.getBody()->getTerminator()->setOperand(i, loop.getRegionIterArgs()[i]);
  }
}

/// Whether `a` and `b` access the same element: the same memref at the
/// same index values.
bool sameElement(Value memrefA, ValueRange indicesA, Value memrefB,
                 ValueRange indicesB) {
  return memrefA == memrefB && indicesA == indicesB;
}

/// Erases, in `block`, a store that a later store to the same element
/// overwrites before any op that may read memory, and a store of the
/// value a load of the same element read with nothing written between.
void eraseRedundantStores(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto store = dyn_cast<memref::StoreOp>(op);
    if (!store)
      continue;
    // Overwritten before anything reads memory.
    for (Operation *next = store->getNextNode(); next;
         next = next->getNextNode()) {
      if (auto later = dyn_cast<memref::StoreOp>(next)) {
        if (sameElement(store.getMemRef(), store.getIndices(),
                        later.getMemRef(), later.getIndices())) {
          store.erase();
          break;
        }
        continue;
      }
      if (!isMemoryEffectFree(next))
        break;
    }
  }
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto store = dyn_cast<memref::StoreOp>(op);
    auto load = store ? store.getValueToStore().getDefiningOp<memref::LoadOp>()
                      : nullptr;
    if (!load || load->getBlock() != &block ||
        !sameElement(store.getMemRef(), store.getIndices(), load.getMemRef(),
                     load.getIndices()))
      continue;
    bool written = false;
    for (Operation *at = load->getNextNode(); at != store.getOperation();
         at = at->getNextNode())
      if (!isMemoryEffectFree(at) && !isa<memref::LoadOp>(at))
        written = true;
    if (!written)
      store.erase();
  }
}

/// Moves into `loop`'s body the buffers that live for one iteration
/// (ct.iteration_local) used only there, with what fills them before the
/// loop, so that each iteration has its own. Returns whether any moved.
bool sinkIterationLocalBuffers(scf::ForOp loop) {
  SmallVector<memref::AllocaOp> buffers;
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (auto alloca = operand.getDefiningOp<memref::AllocaOp>();
          alloca && alloca->hasAttr(ct::kIterationLocal) &&
          !loop->isAncestor(alloca) && !llvm::is_contained(buffers, alloca))
        buffers.push_back(alloca);
  });
  bool moved = false;
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  for (memref::AllocaOp alloca : buffers) {
    if (!canGiveEachIteration(alloca, loop))
      continue;
    Value buffer = alloca.getResult();
    SmallVector<Operation *> fills;
    for (Operation *user : buffer.getUsers()) {
      if (loop->isAncestor(user))
        continue;
      auto fill = dyn_cast<scf::ForOp>(user->getParentOp());
      fills.push_back(fill ? fill.getOperation() : user);
    }
    alloca->moveBefore(b.getInsertionBlock(), b.getInsertionPoint());
    for (Operation *fill : fills) {
      // Fill loops' bounds are constants; clone them after the buffer.
      IRMapping mapping;
      for (Value operand : fill->getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && def != alloca.getOperation() && !loop->isAncestor(def))
          if (isPure(def) && def->getNumOperands() == 0)
            mapping.map(operand, b.clone(*def)->getResult(0));
      fill->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (Operation *def = operand.getDefiningOp();
              def && !fill->isAncestor(def) && def != alloca.getOperation() &&
              !mapping.contains(operand) && isPure(def) &&
              def->getNumOperands() == 0)
            mapping.map(operand, b.clone(*def)->getResult(0));
      });
      b.clone(*fill, mapping);
      fill->erase();
    }
    moved = true;
  }
  return moved;
}

/// Gives each iteration of `loop` (marked ct.iteration_tape: it takes back
/// every entry it makes) a tape of its own in place of the shared one.
bool privatizeTape(scf::ForOp loop) {
  if (!loop->hasAttr(ad::kIterationTape))
    return false;
  Value shared = getSharedTape(loop);
  if (!shared)
    return false;
  Location loc = loop.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  Value own = ct::TapeInitOp::create(b, loc);
  shared.replaceUsesWithIf(
      own, [&](OpOperand &use) { return loop->isAncestor(use.getOwner()); });
  b.setInsertionPoint(loop.getBody()->getTerminator());
  ct::TapeFreeOp::create(b, loc, own);
  return true;
}

/// Copies, at `after`, of the iteration-local buffers `loop` could give each
/// iteration, with the constant fills before it: the loop's twin uses these
/// (returned as a mapping), so each of the two loops can sink its own.
IRMapping giveTwinItsBuffers(scf::ForOp loop, OpBuilder &after) {
  SetVector<memref::AllocaOp> buffers;
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (auto alloca = operand.getDefiningOp<memref::AllocaOp>();
          alloca && canGiveEachIteration(alloca, loop))
        buffers.insert(alloca);
  });
  IRMapping mapping;
  for (memref::AllocaOp alloca : buffers) {
    // The fills (stores, or the loops of one store that run them), in order;
    // a fill nested deeper is not copied, and the buffer stays shared.
    SmallVector<Operation *> fills;
    bool copyable = true;
    for (Operation *user : alloca->getUsers()) {
      if (loop->isAncestor(user))
        continue;
      auto fillLoop = dyn_cast<scf::ForOp>(user->getParentOp());
      Operation *fill = fillLoop ? fillLoop.getOperation() : user;
      copyable &= fill->getBlock() == loop->getBlock();
      if (!llvm::is_contained(fills, fill))
        fills.push_back(fill);
    }
    if (!copyable)
      continue;
    Value copy = after.clone(*alloca)->getResult(0);
    llvm::sort(fills, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    IRMapping fillMapping;
    fillMapping.map(alloca.getResult(), copy);
    for (Operation *fill : fills)
      after.clone(*fill, fillMapping);
    mapping.map(alloca.getResult(), copy);
  }
  return mapping;
}

/// Whether `loop` is nested in a loop marked for a GPU.
/// Warns, once per source loop, that target loop `loop` runs on the CPU
/// because its iterations could not be shown independent, naming a call of
/// code compiled elsewhere if that is what it makes.
void warnStaysOnCpu(scf::ForOp loop, llvm::StringSet<> &warned) {
  if (!warned.insert(ct::getSourcePosition(loop.getLoc())).second)
    return;
  std::string why = "its iterations could not be shown to be independent";
  loop.getBody()->walk([&](func::CallOp call) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || !callee->hasAttr(ct::kExternalAttr))
      return WalkResult::advance();
    auto name = callee->getAttrOfType<StringAttr>("ct.source_name");
    why = "it calls '" + (name ? name.getValue() : call.getCallee()).str() +
          "', which is compiled elsewhere, and a kernel cannot call it";
    return WalkResult::interrupt();
  });
  loop.emitWarning() << "this target loop runs on the CPU, not the GPU: "
                     << why;
}

bool isInDeviceLoop(scf::ForOp loop) {
  for (Operation *op = loop->getParentOp(); op; op = op->getParentOp())
    if (ad::isDeviceLoop(op))
      return true;
  return false;
}

/// The loops marked ct.parallel, outer ones first.
SmallVector<scf::ForOp> collectMarkedLoops(ModuleOp module) {
  SmallVector<scf::ForOp> marked;
  module.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
    if (loop->hasAttr(ad::kParallelLoop))
      marked.push_back(loop);
  });
  return marked;
}

struct ParallelizeLoops
    : cotangent::ad::impl::ParallelizeLoopsBase<ParallelizeLoops> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> marked = collectMarkedLoops(getOperation());
    if (marked.empty())
      return;
    if (failed(simplifyMarkedLoops(marked)))
      return signalPassFailure();
    DenseMap<Operation *, scf::ForOp> twins =
        makeCpuTwins(collectMarkedLoops(getOperation()));
    parallelizeIndependent(collectMarkedLoops(getOperation()), twins);
    getOperation().walk(
        [](scf::ForOp loop) { loop->removeAttr(ad::kParallelLoop); });
  }

  /// Slots carried from one iteration to the next become values (inner
  /// loops first, so that the outer ones carry what those leave), and
  /// those that do not change fold away; so do the stores that put back
  /// what an element held (the reverse of an update `m[i] += v`).
  LogicalResult simplifyMarkedLoops(SmallVector<scf::ForOp> marked) {
    for (scf::ForOp loop : llvm::reverse(marked))
      promoteLoopCarriedSlots(loop);
    OpPassManager cleanup(ModuleOp::getOperationName());
    cleanup.addPass(createMem2Reg());
    cleanup.addNestedPass<func::FuncOp>(ad::createForwardStores());
    cleanup.addPass(createCanonicalizerPass());
    cleanup.addPass(createCSEPass());
    if (failed(runPipeline(cleanup, getOperation())))
      return failure();
    marked = collectMarkedLoops(getOperation());
    for (scf::ForOp loop : marked)
      loop.getBody()->walk([](Block *block) { eraseRedundantStores(*block); });
    SmallVector<scf::ForOp> nests;
    for (scf::ForOp loop : marked)
      loop->walk([&](scf::ForOp inner) {
        if (!llvm::is_contained(nests, inner))
          nests.push_back(inner);
      });
    passThroughUnusedCarriedValues(nests);
    OpPassManager fold(ModuleOp::getOperationName());
    fold.addPass(createCanonicalizerPass());
    fold.addPass(createCSEPass());
    if (failed(runPipeline(fold, getOperation())))
      return failure();
    return success();
  }

  /// A loop for a GPU adds into shared memory atomically even from loops
  /// nested in its iterations; CPU threads do better with private copies.
  /// So it gets a twin for CPU threads, right after it, and
  /// ct-offload-loops runs one or the other.
  DenseMap<Operation *, scf::ForOp>
  makeCpuTwins(const SmallVector<scf::ForOp> &marked) {
    DenseMap<Operation *, scf::ForOp> twins;
    for (scf::ForOp loop : marked) {
      if (!ad::isDeviceLoop(loop) || isInDeviceLoop(loop))
        continue;
      OpBuilder after(loop->getBlock(), std::next(loop->getIterator()));
      IRMapping mapping = giveTwinItsBuffers(loop, after);
      auto twin = cast<scf::ForOp>(after.clone(*loop, mapping));
      twin->walk([](scf::ForOp inner) {
        if (ad::isDeviceLoop(inner))
          inner->setAttr(ad::kParallelLoop, UnitAttr::get(inner.getContext()));
      });
      auto id = IntegerAttr::get(IntegerType::get(loop.getContext(), 64),
                                 static_cast<int64_t>(twins.size()));
      loop->setAttr(ct::kDeviceTwin, id);
      twin->setAttr(ct::kHostTwin, id);
      twins[loop] = twin;
    }
    return twins;
  }

  /// Outer loops first; a loop inside a parallel one stays serial.
  void parallelizeIndependent(const SmallVector<scf::ForOp> &marked,
                              DenseMap<Operation *, scf::ForOp> &twins) {
    llvm::StringSet<> warned;
    for (scf::ForOp loop : marked) {
      if (loop->getParentOfType<scf::ParallelOp>())
        continue;
      // The check counts on each iteration getting its own buffers and
      // tape, which only a parallel loop then gets.
      LoopChecker checker(loop);
      bool independent = checker.check();
      if (!independent && ad::isDeviceLoop(loop)) {
        // Not for a GPU: its twin runs on the CPU.
        warnStaysOnCpu(loop, warned);
        if (scf::ForOp twin = twins.lookup(loop)) {
          twin->removeAttr(ct::kHostTwin);
          loop.replaceAllUsesWith(twin.getResults());
          loop.erase();
        }
        continue;
      }
      if (!independent) {
        // Perhaps chunks adding into private copies are independent: tried
        // on a copy of the loop, kept if so.
        OpBuilder before(loop);
        auto copy = cast<scf::ForOp>(before.clone(*loop));
        bool chunked = ad::privatizeAccumulations(copy);
        auto chunks = chunked ? cast<scf::ForOp>(loop->getPrevNode()) : copy;
        LoopChecker chunkChecker(chunks, loop);
        if (!chunked || !chunkChecker.check()) {
          chunks.erase();
          continue;
        }
        if (Attribute id = loop->getAttr(ct::kHostTwin))
          chunks->setAttr(ct::kHostTwin, id);
        loop.replaceAllUsesWith(chunks.getResults());
        loop.erase();
        loop = chunks;
        checker = std::move(chunkChecker);
      }
      bool scoped = sinkIterationLocalBuffers(loop);
      scoped |= privatizeTape(loop);
      for (const Accumulation &acc : checker.atomics)
        makeAtomic(acc);
      parallelize(loop, checker.reductions, scoped);
    }
  }
};

} // namespace

bool ad::indexesLikeRoot(Value memref, Value root) {
  while (memref != root) {
    auto view = memref.getDefiningOp<memref::SubViewOp>();
    if (!view || !llvm::all_of(view.getMixedOffsets(), isZeroInteger) ||
        !llvm::all_of(view.getMixedStrides(), isOneInteger))
      return false;
    memref = view.getSource();
  }
  return true;
}
