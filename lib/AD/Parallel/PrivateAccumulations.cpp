//===- PrivateAccumulations.cpp - Chunks that add into private copies -----===//
//
// A reversed parallel loop often adds, in loops nested in each iteration,
// into memory every iteration adds into (the adjoints of parameters every
// point reads, in GMM). One atomic add per inner iteration is slower than
// the serial loop. Instead, the loop is split into T chunks of consecutive
// iterations; each chunk adds into zeroed private copies of those buffers
// (the elements its index ranges can reach, bounded by interval arithmetic
// over the indices) and, at its end, adds the copies into the buffers
// atomically: T times the copies' size of atomics in all, T being the
// number of threads (ct.thread_count). The chunk loop
// carries the original loop's mark; ct-parallelize-loops then checks it as
// any other.
//
//===----------------------------------------------------------------------===//

#include "Parallel/PrivateAccumulations.h"
#include "Utils/IRBuilders.h"
#include "cotangent/AD/Analysis/Activity.h"
#include "cotangent/AD/Analysis/IndexIntervals.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {

/// The most elements all private copies of a loop may hold together.
constexpr int64_t kCopyBudget = int64_t(1) << 22;

/// `m[i] = m[i] + v`: the load, the add and the store.
struct Update {
  memref::LoadOp load;
  memref::StoreOp store;
};

std::optional<Update> matchUpdate(memref::StoreOp store) {
  auto add = store.getValueToStore().getDefiningOp<arith::AddFOp>();
  if (!add || !store.getValueToStore().hasOneUse())
    return std::nullopt;
  for (Value operand : add->getOperands())
    if (auto load = operand.getDefiningOp<memref::LoadOp>();
        load && load->hasOneUse() && load.getMemRef() == store.getMemRef() &&
        load.getIndices() == store.getIndices() &&
        load->getBlock() == store->getBlock())
      return Update{load, store};
  return std::nullopt;
}

/// A buffer the loop only adds into, some of it in nested loops.
struct Accumulated {
  Value buffer;
  SmallVector<Update> updates;
  Interval range;
};

/// The buffers to give each chunk a copy of, with the range of elements
/// the loop adds into.
SmallVector<Accumulated> findAccumulated(scf::ForOp loop,
                                         IntervalBuilder &intervals) {
  llvm::MapVector<Value, SmallVector<Update>> updates;
  loop.getBody()->walk([&](memref::StoreOp store) {
    if (std::optional<Update> update = matchUpdate(store))
      updates[store.getMemRef()].push_back(*update);
  });
  SmallVector<Accumulated> found;
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  for (auto &[buffer, list] : updates) {
    auto type = dyn_cast<MemRefType>(buffer.getType());
    Value root = ad::getMemoryRoot(buffer);
    if (!type || type.getRank() > 1 || !ad::indexesLikeRoot(buffer, root) ||
        loop->isAncestor(buffer.getParentBlock()->getParentOp()) ||
        llvm::none_of(list, [&](const Update &u) {
          return u.store->getParentOp() != loop.getOperation();
        }))
      continue;
    if (auto alloca = buffer.getDefiningOp<memref::AllocaOp>();
        alloca && alloca->hasAttr(ct::kIterationLocal))
      continue; // each iteration gets its own anyway
    // Nothing else in the loop touches it.
    DenseSet<Operation *> mine;
    for (Update u : list) {
      mine.insert(u.load);
      mine.insert(u.store);
    }
    if (llvm::any_of(buffer.getUsers(), [&](Operation *user) {
          return loop->isAncestor(user) && !mine.contains(user);
        }))
      continue;
    // Nor through another view (the buffer may be a view of the root).
    bool elsewhere = false;
    for (Value view = buffer; view != root && !elsewhere;) {
      Value source = view.getDefiningOp<memref::SubViewOp>().getSource();
      elsewhere = llvm::any_of(source.getUsers(), [&](Operation *user) {
        return loop->isAncestor(user);
      });
      view = source;
    }
    if (elsewhere)
      continue;
    std::optional<Interval> range;
    for (Update u : list) {
      std::optional<Interval> at =
          type.getRank() == 0
              ? Interval{arith::ConstantIndexOp::create(b, loc, 0),
                         arith::ConstantIndexOp::create(b, loc, 0)}
              : intervals.get(u.store.getIndices()[0]);
      if (!at) {
        range.reset();
        break;
      }
      range = !range
                  ? *at
                  : Interval{arith::MinSIOp::create(b, loc, range->lo, at->lo),
                             arith::MaxSIOp::create(b, loc, range->hi, at->hi)};
    }
    if (range)
      found.push_back({buffer, list, *range});
  }
  return found;
}

} // namespace

/// The copies' sizes, and how they split the loop into chunks.
struct ChunkPlan {
  SmallVector<Value> sizes;
  Value trips, chunks, perChunk;
};

/// The sizes of the copies and how many chunks they allow: one per thread
/// (1 in a serial build), each filling one set of copies added in once, as
/// many as the copy budget allows.
static ChunkPlan planChunks(OpBuilder &b, Location loc, scf::ForOp loop,
                            ArrayRef<Accumulated> accumulated) {
  auto constant = [&](OpBuilder &at, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(at, loc, v);
  };
  ChunkPlan plan;
  Value total = constant(b, 0);
  for (const Accumulated &a : accumulated) {
    Value extent = arith::AddIOp::create(
        b, loc, arith::SubIOp::create(b, loc, a.range.hi, a.range.lo),
        constant(b, 1));
    Value size = arith::MaxSIOp::create(b, loc, extent, constant(b, 0));
    plan.sizes.push_back(size);
    total = arith::AddIOp::create(b, loc, total, size);
  }
  plan.trips =
      buildIndexCast(b, loc,
                     buildTripCount(b, loc, loop.getLowerBound(),
                                    loop.getUpperBound(), loop.getStep()));
  Value byBudget = arith::DivUIOp::create(
      b, loc, constant(b, kCopyBudget),
      arith::MaxSIOp::create(b, loc, total, constant(b, 1)));
  // One chunk per thread (1 in a serial build): each thread fills one set
  // of copies, and the copies are added in once per thread.
  Value threads = ct::ThreadCountOp::create(b, loc);
  plan.chunks = arith::MaxSIOp::create(
      b, loc, constant(b, 1),
      arith::MinSIOp::create(
          b, loc, plan.trips,
          arith::MinSIOp::create(b, loc, threads, byBudget)));
  plan.perChunk = arith::CeilDivSIOp::create(b, loc, plan.trips, plan.chunks);
  return plan;
}

/// At the end of a chunk: the elements of `copy` (of `size` elements)
/// added into the buffer `a` accumulates into, atomically, and the copy
/// freed; the chunk's updates go to the copy.
static void addCopyIn(OpBuilder &inOuter, Location loc, Accumulated &a,
                      Value size, Value copy) {
  auto constant = [&](OpBuilder &at, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(at, loc, v);
  };
  bool scalar = cast<MemRefType>(a.buffer.getType()).getRank() == 0;
  auto merge = scf::ForOp::create(inOuter, loc, constant(inOuter, 0), size,
                                  constant(inOuter, 1));
  OpBuilder at = OpBuilder::atBlockBegin(merge.getBody());
  Value e = merge.getInductionVar();
  Value value = memref::LoadOp::create(at, loc, copy, ValueRange{e});
  SmallVector<Value> target;
  if (!scalar)
    target.push_back(arith::AddIOp::create(at, loc, a.range.lo, e));
  memref::AtomicRMWOp::create(at, loc, arith::AtomicRMWKind::addf, value,
                              a.buffer, target);
  memref::DeallocOp::create(inOuter, loc, copy);
  // The chunk's updates go to its copy.
  for (Update u : a.updates) {
    OpBuilder before(u.load);
    Value position =
        scalar ? constant(before, 0)
               : Value(arith::SubIOp::create(
                     before, loc,
                     buildIndexCast(before, loc, u.load.getIndices()[0]),
                     a.range.lo));
    // A load's memref is its operand 0, a store's its operand 1.
    u.load->setOperand(0, copy);
    u.load.getIndicesMutable().assign(position);
    u.store->setOperand(1, copy);
    u.store.getIndicesMutable().assign(position);
  }
}

bool ad::privatizeAccumulations(scf::ForOp loop) {
  IntervalBuilder intervals(loop);
  SmallVector<Accumulated> accumulated = findAccumulated(loop, intervals);
  if (accumulated.empty())
    return false;
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  auto constant = [&](OpBuilder &at, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(at, loc, v);
  };
  ChunkPlan plan = planChunks(b, loc, loop, accumulated);
  SmallVector<Value> &sizes = plan.sizes;
  Value trips = plan.trips, chunks = plan.chunks, perChunk = plan.perChunk;

  // for c in [0, chunks): copies; the chunk's iterations; copies added in.
  auto outer = scf::ForOp::create(b, loc, constant(b, 0), chunks,
                                  constant(b, 1), loop.getInitArgs());
  for (NamedAttribute attr : loop->getDiscardableAttrs())
    outer->setAttr(attr.getName(), attr.getValue());
  Block *outerBody = outer.getBody();
  if (outerBody->mightHaveTerminator())
    outerBody->getTerminator()->erase();
  OpBuilder inOuter = OpBuilder::atBlockEnd(outerBody);
  SmallVector<Value> copies;
  for (auto [a, size] : llvm::zip_equal(accumulated, sizes)) {
    auto type = cast<MemRefType>(a.buffer.getType());
    auto copyType =
        MemRefType::get({ShapedType::kDynamic}, type.getElementType());
    Value copy =
        memref::AllocOp::create(inOuter, loc, copyType, ValueRange{size});
    buildZeroFill(inOuter, loc, copy);
    copies.push_back(copy);
  }
  Value c = outer.getInductionVar();
  Value begin = arith::MulIOp::create(inOuter, loc, c, perChunk);
  Value end = arith::MinSIOp::create(
      inOuter, loc, trips,
      arith::AddIOp::create(inOuter, loc, begin, perChunk));
  auto inner =
      scf::ForOp::create(inOuter, loc, begin, end, constant(inOuter, 1),
                         outer.getRegionIterArgs());
  Block *innerBody = inner.getBody();
  if (innerBody->mightHaveTerminator())
    innerBody->getTerminator()->erase();
  // The original counter: lb + k * step, in its type.
  OpBuilder inInner = OpBuilder::atBlockEnd(innerBody);
  Type ivType = loop.getInductionVar().getType();
  Value k = inner.getInductionVar();
  if (!ivType.isIndex())
    k = arith::IndexCastOp::create(inInner, loc, ivType, k);
  Value iv = arith::AddIOp::create(
      inInner, loc, loop.getLowerBound(),
      arith::MulIOp::create(inInner, loc, k, loop.getStep()));
  SmallVector<Value> replacements{iv};
  llvm::append_range(replacements, inner.getRegionIterArgs());
  IRRewriter rewriter(loop.getContext());
  rewriter.mergeBlocks(loop.getBody(), innerBody, replacements);
  inOuter.setInsertionPointAfter(inner);
  // The copies' elements, added into the buffers.
  for (auto [a, size, copy] : llvm::zip_equal(accumulated, sizes, copies))
    addCopyIn(inOuter, loc, a, size, copy);
  scf::YieldOp::create(inOuter, loc, inner.getResults());
  loop.replaceAllUsesWith(outer.getResults());
  loop.erase();
  return true;
}
