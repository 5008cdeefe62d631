//===- ParallelLoops.cpp - Marked loops become scf.parallel ---------------===//
//
// `#pragma omp parallel for` leaves a `ct.parallel_loop` marker at the start
// of its loop's body. Once the loop is an scf.for with its variables
// promoted, the reduction variables are iteration arguments, and the loop
// (with the `collapse - 1` loops nested in it) becomes one scf.parallel:
// each iteration computes its contribution from the reduction's identity,
// as an OpenMP thread's private copy starts, and scf.reduce combines the
// contributions with the variable's value before the loop. A `max` or
// `min` keeps the earlier value at a tie, so that a derivative goes to the
// first iteration that reached the extremum.
//
//===----------------------------------------------------------------------===//

#include "ParallelLoops.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace cotangent::structure {
namespace {

/// The value that `kind` leaves any other unchanged with.
TypedAttr getIdentity(Builder &b, StringRef kind, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    APFloat value = kind == "add"   ? APFloat::getZero(semantics, true)
                    : kind == "mul" ? APFloat::getOne(semantics)
                    : kind == "max" ? APFloat::getInf(semantics, true)
                                    : APFloat::getInf(semantics, false);
    return b.getFloatAttr(type, value);
  }
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = kind == "add"   ? APInt::getZero(width)
                : kind == "mul" ? APInt::getOneBitSet(width, 0)
                : kind == "max" ? APInt::getSignedMinValue(width)
                                : APInt::getSignedMaxValue(width);
  return b.getIntegerAttr(type, value);
}

/// `lhs` combined with `rhs` by `kind`; a tie of max or min keeps `lhs`.
Value combine(OpBuilder &b, Location loc, StringRef kind, Value lhs,
              Value rhs) {
  bool isFloat = isa<FloatType>(lhs.getType());
  if (kind == "add")
    return isFloat ? Value(arith::AddFOp::create(b, loc, lhs, rhs))
                   : Value(arith::AddIOp::create(b, loc, lhs, rhs));
  if (kind == "mul")
    return isFloat ? Value(arith::MulFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MulIOp::create(b, loc, lhs, rhs));
  // rhs wins only if strictly better: lhs < rhs for max, lhs > rhs for min
  // (the form convert-scf-to-openmp knows as a max or min reduction).
  bool max = kind == "max";
  Value wins =
      isFloat ? Value(arith::CmpFOp::create(b, loc,
                                            max ? arith::CmpFPredicate::OLT
                                                : arith::CmpFPredicate::OGT,
                                            lhs, rhs))
              : Value(arith::CmpIOp::create(b, loc,
                                            max ? arith::CmpIPredicate::slt
                                                : arith::CmpIPredicate::sgt,
                                            lhs, rhs));
  return arith::SelectOp::create(b, loc, wins, rhs, lhs);
}

/// How many loops enclose `op` in its function.
int64_t countEnclosingLoops(Operation *op) {
  int64_t count = 0;
  for (Operation *at = op->getParentOp(); at && !isa<func::FuncOp>(at);
       at = at->getParentOp())
    if (isa<scf::ForOp, scf::WhileOp, scf::ParallelOp>(at))
      ++count;
  return count;
}

Value castToIndex(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

/// The loops `marker`'s `collapse` takes, outermost first, if they nest
/// perfectly and rectangularly; pure ops between them move into the
/// innermost body.
FailureOr<SmallVector<scf::ForOp>> collectNest(ct::ParallelLoopOp marker) {
  auto outer = cast<scf::ForOp>(marker->getParentOp());
  SmallVector<scf::ForOp> nest{outer};
  for (int64_t level = 1; level < marker.getCollapse(); ++level) {
    scf::ForOp parent = nest.back();
    scf::ForOp inner;
    for (Operation &op : parent.getBody()->without_terminator()) {
      if (&op == marker.getOperation())
        continue;
      if (auto loop = dyn_cast<scf::ForOp>(op); loop && !inner) {
        inner = loop;
        continue;
      }
      if (!isPure(&op) || op.getNumRegions() != 0 || inner)
        return marker.emitError(
            "'collapse' needs loops nested with nothing between them");
    }
    if (!inner)
      return marker.emitError("'collapse' counts more loops than are nested "
                              "here");
    // Rectangular: the inner bounds are the same in every outer iteration.
    for (Value bound :
         {inner.getLowerBound(), inner.getUpperBound(), inner.getStep()})
      if (parent->isAncestor(bound.getParentBlock()->getParentOp()))
        return marker.emitError("'collapse' needs the bounds of the inner "
                                "loops to be the same for every iteration "
                                "of the outer ones");
    // The carried values pass through the inner loop unchanged in between.
    if (inner.getInitArgs() != ValueRange(parent.getRegionIterArgs()) ||
        parent.getBody()->getTerminator()->getOperands() !=
            ValueRange(inner.getResults()))
      return marker.emitError(
          "'collapse' needs loops nested with nothing between them");
    // Pure ops between the loops (index casts) run in the inner body.
    for (Operation &op :
         llvm::make_early_inc_range(parent.getBody()->without_terminator()))
      if (&op != marker.getOperation() && &op != inner.getOperation())
        op.moveBefore(inner.getBody(), inner.getBody()->begin());
    nest.push_back(inner);
  }
  return nest;
}

/// Where to report a carried value: the op that computes what an iteration
/// yields for it, or the loop.
Location carriedValueLoc(scf::ForOp loop, unsigned i) {
  Value yielded = loop.getYieldedValues()[i];
  if (Operation *def = yielded.getDefiningOp())
    return def->getLoc();
  return loop.getLoc();
}

/// Whether what the last iteration wrote into a carried value that is not
/// a reduction is read after the loop: a race between iterations unless
/// only one writes it (an element of a one-element array, promoted to a
/// value, written by a loop of one iteration), so the serial loop, which
/// computes the last write, stays. A carried value that is not a reduction
/// and that an iteration reads is an error.
static FailureOr<bool>
isLastWriteRead(scf::ForOp outer, scf::ForOp inner,
                const DenseMap<unsigned, StringRef> &kinds) {
  bool lastWriteRead = false;
  for (auto [i, arg] : llvm::enumerate(inner.getRegionIterArgs())) {
    if (kinds.count(i))
      continue;
    if (!arg.use_empty())
      return emitError(carriedValueLoc(inner, i),
                       "this parallel loop carries a variable from one "
                       "iteration to the next; declare it in a 'reduction' "
                       "clause, or declare it inside the loop");
    lastWriteRead |= !outer.getResult(i).use_empty();
  }
  return lastWriteRead;
}

LogicalResult convertLoop(ct::ParallelLoopOp marker) {
  FailureOr<SmallVector<scf::ForOp>> nest = collectNest(marker);
  if (failed(nest))
    return failure();
  scf::ForOp outer = nest->front(), inner = nest->back();
  // Which carried values are reductions, and of what kind.
  DenseMap<unsigned, StringRef> kinds;
  for (auto [value, kind] :
       llvm::zip_equal(marker.getReduced(),
                       marker.getKinds().getAsValueRange<StringAttr>()))
    if (auto arg = dyn_cast<BlockArgument>(value);
        arg && arg.getOwner() == outer.getBody() && arg.getArgNumber() > 0)
      kinds[arg.getArgNumber() - 1] = kind;
  bool device = marker.getDevice();
  marker.erase();
  FailureOr<bool> lastWriteRead = isLastWriteRead(outer, inner, kinds);
  if (failed(lastWriteRead))
    return failure();
  if (*lastWriteRead)
    return success();

  OpBuilder b(outer);
  Location loc = outer.getLoc();
  SmallVector<Value> lbs, ubs, steps, inits;
  for (scf::ForOp loop : *nest) {
    lbs.push_back(castToIndex(b, loc, loop.getLowerBound()));
    ubs.push_back(castToIndex(b, loc, loop.getUpperBound()));
    steps.push_back(castToIndex(b, loc, loop.getStep()));
  }
  SmallVector<unsigned> reduced;
  for (auto [i, init] : llvm::enumerate(outer.getInitArgs()))
    if (kinds.count(i)) {
      reduced.push_back(i);
      inits.push_back(init);
    }
  auto parallel = scf::ParallelOp::create(b, loc, lbs, ubs, steps, inits);
  if (device)
    parallel->setAttr(ct::kDeviceLoop, b.getUnitAttr());
  Block *body = parallel.getBody();
  OpBuilder inBody = OpBuilder::atBlockBegin(body);
  // The body of the innermost loop runs with the induction variables in
  // their types and each reduction variable starting from its identity.
  Block *innerBody = inner.getBody();
  SmallVector<Value> replacements;
  for (auto [loop, iv] : llvm::zip_equal(*nest, body->getArguments())) {
    Type type = loop.getInductionVar().getType();
    replacements.push_back(type.isIndex() ? iv
                                          : Value(arith::IndexCastOp::create(
                                                inBody, loc, type, iv)));
  }
  // Only the innermost body's induction variable is a block argument of
  // it; the outer ones are used directly.
  for (size_t level = 0; level + 1 < nest->size(); ++level)
    (*nest)[level].getInductionVar().replaceAllUsesWith(replacements[level]);
  SmallVector<Value> innerArgs{replacements.back()};
  for (auto [i, arg] : llvm::enumerate(inner.getRegionIterArgs())) {
    if (!kinds.count(i)) {
      innerArgs.push_back(Value());
      continue;
    }
    innerArgs.push_back(arith::ConstantOp::create(
        inBody, loc, getIdentity(b, kinds[i], arg.getType())));
  }
  auto yield = cast<scf::YieldOp>(innerBody->getTerminator());
  SmallVector<Value> contributions;
  for (unsigned i : reduced)
    contributions.push_back(yield.getOperand(i));
  yield.erase();
  for (auto [arg, value] :
       llvm::zip_equal(innerBody->getArguments(), innerArgs))
    if (value)
      arg.replaceAllUsesWith(value);
  // The builder left the body without a terminator when given inits.
  if (body->mightHaveTerminator())
    body->getTerminator()->erase();
  body->getOperations().splice(body->end(), innerBody->getOperations());
  inBody.setInsertionPointToEnd(body);
  auto reduce = scf::ReduceOp::create(inBody, loc, contributions);
  for (auto [region, i] : llvm::zip_equal(reduce.getReductions(), reduced)) {
    Block &block = region.front();
    OpBuilder combiner = OpBuilder::atBlockEnd(&block);
    scf::ReduceReturnOp::create(combiner, loc,
                                combine(combiner, loc, kinds[i],
                                        block.getArgument(0),
                                        block.getArgument(1)));
  }
  for (auto [result, i] : llvm::zip_equal(parallel.getResults(), reduced))
    outer.getResult(i).replaceAllUsesWith(result);
  outer.erase();
  return success();
}

} // namespace

LogicalResult convertParallelLoops(ModuleOp module) {
  SmallVector<ct::ParallelLoopOp> markers;
  module.walk([&](ct::ParallelLoopOp marker) { markers.push_back(marker); });
  bool failed = false;
  // Inner loops first (post-order), so that an outer loop's body is final.
  for (ct::ParallelLoopOp marker : markers) {
    // A loop folded away (it ran at most once) took its marker outside.
    if (!isa<scf::ForOp>(marker->getParentOp()) ||
        countEnclosingLoops(marker) < marker.getDepth()) {
      if (countEnclosingLoops(marker) >= marker.getDepth()) {
        marker.emitError("this loop cannot run in parallel: its iteration "
                         "count is not known when it starts; write it as "
                         "'for (i = a; i < b; i += c)'");
        failed = true;
      }
      marker.erase();
      continue;
    }
    if (mlir::failed(convertLoop(marker)))
      failed = true;
  }
  return mlir::failure(failed);
}

} // namespace cotangent::structure
