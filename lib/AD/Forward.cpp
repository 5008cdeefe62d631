//===- Forward.cpp - Forward-mode differentiation -------------------------===//
//
// One sweep: every primal op is cloned, and right after it the tangents of
// its active results are built from its operands' tangents. Loops and
// branches carry tangents as extra iter_args and results; memory carries them
// in shadow memrefs; tapes (in generated reverse-mode code) in shadow tapes.
//
//===----------------------------------------------------------------------===//

#include "Derivatives.h"

#include "cotangent/AD/ScalarDerivativeOpInterface.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {

class ForwardEmitter {
public:
  ForwardEmitter(DerivativeRegistry &registry, func::FuncOp primal,
                 ArrayRef<ct::Activity> activities)
      : registry(registry), primal(primal), activity(primal, activities) {}

  LogicalResult emit(func::FuncOp derivative,
                     ArrayRef<ct::Activity> activities);

private:
  /// The tangent of `value`: built earlier if it is active, else 0.
  Value tangent(OpBuilder &b, Location loc, Value value) {
    if (Value t = tangents.lookup(value))
      return t;
    return buildZero(b, loc, value.getType());
  }
  Value shadow(Value memory) { return tangents.lookup(memory); }
  void setTangent(Value primalValue, Value t) { tangents[primalValue] = t; }

  /// Clones the ops of `block` but its terminator.
  LogicalResult emitBlock(OpBuilder &b, Block &block);
  LogicalResult emitOp(OpBuilder &b, Operation &op);
  LogicalResult emitScalar(OpBuilder &b, Operation &op,
                           ScalarDerivativeOpInterface rule);
  LogicalResult emitFor(OpBuilder &b, scf::ForOp op);
  /// scf.if and scf.index_switch.
  LogicalResult emitBranch(OpBuilder &b, Operation *op);
  LogicalResult emitWhile(OpBuilder &b, scf::WhileOp op);
  LogicalResult emitCall(OpBuilder &b, func::CallOp op);
  /// Values and tangents of active ones, for a terminator.
  SmallVector<Value> withTangents(OpBuilder &b, Location loc,
                                  ValueRange values, ValueRange activeLike);
  /// Whether a value carried out of a region carries a tangent beside it:
  /// an active scalar, or memory with a shadow (a buffer a branch chooses).
  bool carriesTangent(Value value) {
    return isa<MemRefType>(value.getType()) ? activity.hasShadow(value)
                                            : activity.isActive(value);
  }
  /// Set when a region yields memory without a shadow where the op's
  /// result has one (reported once).
  bool missingShadow = false;

  DerivativeRegistry &registry;
  func::FuncOp primal;
  ActivityAnalysis activity;
  IRMapping mapping;
  DenseMap<Value, Value> tangents;
};

} // namespace

LogicalResult ForwardEmitter::emit(func::FuncOp derivative,
                                   ArrayRef<ct::Activity> activities) {
  if (!primal.getBody().hasOneBlock())
    return primal.emitError("cannot differentiate @")
           << primal.getSymName()
           << ": unstructured control flow (several blocks) is not supported "
              "yet; use structured loops and branches";
  Block *entry = derivative.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  unsigned numArgs = primal.getNumArguments();
  unsigned nextTangent = numArgs;
  for (auto [i, arg] : llvm::enumerate(primal.getArguments())) {
    mapping.map(arg, entry->getArgument(i));
    if (activities[i] != ct::Activity::Constant)
      setTangent(arg, entry->getArgument(nextTangent++));
  }
  Block &body = primal.getBody().front();
  if (failed(emitBlock(b, body)))
    return failure();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  SmallVector<Value> results =
      llvm::map_to_vector(ret.getOperands(), [&](Value v) {
        return mapping.lookup(v);
      });
  for (Value v : ret.getOperands())
    if (ct::isDifferentiableScalar(v.getType()))
      results.push_back(tangent(b, ret.getLoc(), v));
  func::ReturnOp::create(b, ret.getLoc(), results);
  return success();
}

LogicalResult ForwardEmitter::emitBlock(OpBuilder &b, Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(emitOp(b, op)))
      return failure();
  return success();
}

SmallVector<Value> ForwardEmitter::withTangents(OpBuilder &b, Location loc,
                                                ValueRange values,
                                                ValueRange activeLike) {
  SmallVector<Value> result =
      llvm::map_to_vector(values, [&](Value v) { return mapping.lookup(v); });
  for (auto [value, like] : llvm::zip_equal(values, activeLike)) {
    if (!carriesTangent(like))
      continue;
    if (isa<MemRefType>(like.getType())) {
      Value s = shadow(value);
      auto type = cast<MemRefType>(like.getType());
      if (!s && isLocalAllocation(getMemoryRoot(value)) &&
          type.getRank() == 1) {
        // Fresh memory nothing active was written to (`return {}` beside
        // a vector that is): its tangent is zero, in a buffer of its size
        // that is freed with it.
        Value primalValue = mapping.lookup(value);
        Value size = memref::DimOp::create(b, loc, primalValue, 0);
        Value zeros = memref::AllocOp::create(
            b, loc,
            MemRefType::get({ShapedType::kDynamic}, type.getElementType()),
            size);
        buildZeroFill(b, loc, zeros);
        s = zeros.getType() == type
                ? zeros
                : memref::CastOp::create(b, loc, type, zeros).getResult();
      }
      if (!s) {
        if (!missingShadow)
          emitError(loc, "cannot differentiate a choice between memory "
                         "whose derivative is tracked and memory whose "
                         "derivative is not");
        missingShadow = true;
        s = mapping.lookup(value); // a stand-in; the error stops the build
      }
      result.push_back(s);
      continue;
    }
    result.push_back(
        buildFloatCast(b, loc, tangent(b, loc, value), like.getType()));
  }
  return result;
}

LogicalResult ForwardEmitter::emitOp(OpBuilder &b, Operation &op) {
  Location loc = op.getLoc();
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return emitFor(b, forOp);
  if (isa<scf::IfOp, scf::IndexSwitchOp>(op))
    return emitBranch(b, &op);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return emitWhile(b, whileOp);
  if (auto call = dyn_cast<func::CallOp>(op))
    return emitCall(b, call);
  if (op.getNumRegions() != 0)
    return op.emitError("cannot differentiate '")
           << op.getName() << "': operations with regions other than "
           << "scf.for, scf.while, scf.if and scf.index_switch are not "
              "supported";

  Operation *clone = b.clone(op, mapping);

  // A choice between two places (`c ? x : y` as an lvalue, std::min's
  // reference): its shadow is the same choice between their shadows.
  if (auto select = dyn_cast<arith::SelectOp>(op);
      select && isa<MemRefType>(select.getType())) {
    Value onTrue = shadow(select.getTrueValue());
    Value onFalse = shadow(select.getFalseValue());
    if (onTrue && onFalse)
      setTangent(select.getResult(),
                 arith::SelectOp::create(
                     b, loc, mapping.lookup(select.getCondition()), onTrue,
                     onFalse));
    else if (activity.hasShadow(select.getResult()))
      return select.emitError(
          "cannot differentiate a choice between a place whose derivative "
          "is tracked and one whose derivative is not");
    return success();
  }
  if (auto rule = dyn_cast<ScalarDerivativeOpInterface>(op)) {
    if (activity.isActive(op.getResult(0)))
      return emitScalar(b, op, rule);
    return success();
  }
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    if (activity.isActive(load.getResult()))
      setTangent(load.getResult(),
                 memref::LoadOp::create(
                     b, loc, shadow(load.getMemRef()),
                     cast<memref::LoadOp>(clone).getIndices()));
    return success();
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    if (Value s = shadow(store.getMemRef()))
      memref::StoreOp::create(b, loc,
                              tangent(b, loc, store.getValueToStore()), s,
                              cast<memref::StoreOp>(clone).getIndices());
    return success();
  }
  if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
    if (activity.hasShadow(op.getResult(0))) {
      // Cloning with `mapping` would remap the primal result; use a copy.
      IRMapping shadowMapping = mapping;
      Operation *shadowAlloc = b.clone(op, shadowMapping);
      buildZeroFill(b, loc, shadowAlloc->getResult(0));
      setTangent(op.getResult(0), shadowAlloc->getResult(0));
    }
    return success();
  }
  if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
    if (Value s = shadow(dealloc.getMemref()))
      memref::DeallocOp::create(b, loc, s);
    return success();
  }
  if (auto view = dyn_cast<ViewLikeOpInterface>(op)) {
    if (Value s = shadow(view.getViewSource())) {
      IRMapping shadowMapping = mapping;
      shadowMapping.map(view.getViewSource(), s);
      setTangent(op.getResult(0), b.clone(op, shadowMapping)->getResult(0));
    }
    return success();
  }
  if (auto pass = dyn_cast<ct::PassThroughOp>(op)) {
    if (activity.isActive(pass.getResult()))
      setTangent(pass.getResult(), tangent(b, loc, pass.getInput()));
    return success();
  }
  if (isa<ct::TapeInitOp>(op)) {
    if (activity.hasShadow(op.getResult(0)))
      setTangent(op.getResult(0), b.clone(op)->getResult(0));
    return success();
  }
  if (auto push = dyn_cast<ct::TapePushOp>(op)) {
    Value s = shadow(push.getTape());
    if (s && ct::isDifferentiableScalar(push.getValue().getType()))
      ct::TapePushOp::create(b, loc, s, tangent(b, loc, push.getValue()));
    return success();
  }
  if (auto pop = dyn_cast<ct::TapePopOp>(op)) {
    Value s = shadow(pop.getTape());
    if (s && ct::isDifferentiableScalar(pop.getType())) {
      Value t = ct::TapePopOp::create(b, loc, pop.getType(), s);
      if (activity.isActive(pop.getValue()))
        setTangent(pop.getValue(), t);
    }
    return success();
  }
  if (auto reserve = dyn_cast<ct::TapeReserveOp>(op)) {
    if (Value s = shadow(reserve.getTape()))
      ct::TapeReserveOp::create(b, loc, s,
                                mapping.lookup(reserve.getCount()));
    return success();
  }
  if (auto free = dyn_cast<ct::TapeFreeOp>(op)) {
    if (Value s = shadow(free.getTape()))
      ct::TapeFreeOp::create(b, loc, s);
    return success();
  }
  for (Value result : op.getResults())
    if (carriesTangent(result))
      return op.emitError("cannot differentiate '")
             << op.getName()
             << "': no derivative rule; bind a custom rule to the enclosing "
                "function or stop the gradient with ct::stop_gradient";
  return success();
}

LogicalResult ForwardEmitter::emitScalar(OpBuilder &b, Operation &op,
                                         ScalarDerivativeOpInterface rule) {
  Location loc = op.getLoc();
  auto lookup = [&](Value v) { return mapping.lookup(v); };
  PrimalValues primals(&op, lookup);
  SmallVector<Value> partials = rule.buildPartials(b, primals);
  Type type = op.getResult(0).getType();
  Value sum;
  for (auto [operand, partial] : llvm::zip_equal(op.getOperands(), partials)) {
    if (!partial || !activity.isActive(operand))
      continue;
    Value t = buildFloatCast(b, loc, tangent(b, loc, operand), type);
    Value term = arith::MulFOp::create(b, loc, partial, t);
    sum = sum ? arith::AddFOp::create(b, loc, sum, term).getResult() : term;
  }
  setTangent(op.getResult(0), sum ? sum : buildZero(b, loc, type));
  return success();
}

LogicalResult ForwardEmitter::emitFor(OpBuilder &b, scf::ForOp op) {
  Location loc = op.getLoc();
  SmallVector<Value> inits =
      withTangents(b, loc, op.getInitArgs(), op.getRegionIterArgs());
  auto loop = scf::ForOp::create(b, loc, mapping.lookup(op.getLowerBound()),
                                 mapping.lookup(op.getUpperBound()),
                                 mapping.lookup(op.getStep()), inits);
  Block *body = loop.getBody();
  if (!body->empty())
    body->getTerminator()->erase();
  mapping.map(op.getInductionVar(), loop.getInductionVar());
  unsigned numPrimal = op.getNumRegionIterArgs();
  unsigned nextTangent = numPrimal;
  for (auto [i, arg] : llvm::enumerate(op.getRegionIterArgs())) {
    mapping.map(arg, loop.getRegionIterArgs()[i]);
    if (carriesTangent(arg))
      setTangent(arg, loop.getRegionIterArgs()[nextTangent++]);
  }
  OpBuilder inner = OpBuilder::atBlockEnd(body);
  if (failed(emitBlock(inner, *op.getBody())))
    return failure();
  scf::YieldOp::create(inner, loc,
                       withTangents(inner, loc, op.getYieldedValues(),
                                    op.getRegionIterArgs()));
  nextTangent = numPrimal;
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    mapping.map(result, loop.getResult(i));
    if (activity.isActive(op.getRegionIterArgs()[i])) {
      Value t = loop.getResult(nextTangent++);
      if (carriesTangent(result))
        setTangent(result, t);
    }
  }
  return success();
}

LogicalResult ForwardEmitter::emitBranch(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  SmallVector<Type> types(op->getResultTypes());
  for (Value result : op->getResults())
    if (carriesTangent(result))
      types.push_back(result.getType());
  Operation *branch =
      buildBranchLike(b, op, mapping.lookup(op->getOperand(0)), types);
  for (auto [from, to] : llvm::zip_equal(op->getRegions(),
                                         branch->getRegions())) {
    OpBuilder inner = OpBuilder::atBlockEnd(&to.front());
    Operation *yield = getBranchYield(from);
    if (!yield) {
      scf::YieldOp::create(inner, loc);
      continue;
    }
    if (failed(emitBlock(inner, from.front())))
      return failure();
    scf::YieldOp::create(
        inner, loc,
        withTangents(inner, loc, yield->getOperands(), op->getResults()));
  }
  unsigned nextTangent = op->getNumResults();
  for (auto [i, result] : llvm::enumerate(op->getResults())) {
    mapping.map(result, branch->getResult(i));
    if (carriesTangent(result))
      setTangent(result, branch->getResult(nextTangent++));
  }
  return success(!missingShadow);
}

LogicalResult ForwardEmitter::emitWhile(OpBuilder &b, scf::WhileOp op) {
  Location loc = op.getLoc();
  SmallVector<Value> inits =
      withTangents(b, loc, op.getInits(), op.getBeforeArguments());
  SmallVector<Type> afterTypes(op.getResultTypes());
  for (Value arg : op.getAfterArguments())
    if (carriesTangent(arg))
      afterTypes.push_back(arg.getType());
  auto loop = scf::WhileOp::create(b, loc, afterTypes, inits);
  auto mapArgs = [&](Block::BlockArgListType from, Block *to) {
    unsigned nextTangent = from.size();
    for (auto [i, arg] : llvm::enumerate(from)) {
      mapping.map(arg, to->getArgument(i));
      if (carriesTangent(arg))
        setTangent(arg, to->getArgument(nextTangent++));
    }
  };
  Block *before = b.createBlock(&loop.getBefore(), {},
                                ValueRange(inits).getTypes(),
                                SmallVector<Location>(inits.size(), loc));
  mapArgs(op.getBeforeArguments(), before);
  OpBuilder inner = OpBuilder::atBlockEnd(before);
  if (failed(emitBlock(inner, op.getBefore().front())))
    return failure();
  auto condition = op.getConditionOp();
  scf::ConditionOp::create(
      inner, loc, mapping.lookup(condition.getCondition()),
      withTangents(inner, loc, condition.getArgs(), op.getAfterArguments()));

  Block *after = b.createBlock(&loop.getAfter(), {}, afterTypes,
                               SmallVector<Location>(afterTypes.size(), loc));
  mapArgs(op.getAfterArguments(), after);
  inner.setInsertionPointToEnd(after);
  if (failed(emitBlock(inner, op.getAfter().front())))
    return failure();
  scf::YieldOp::create(inner, loc,
                       withTangents(inner, loc, op.getYieldOp().getOperands(),
                                    op.getBeforeArguments()));
  b.setInsertionPointAfter(loop);
  unsigned nextTangent = op.getNumResults();
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    mapping.map(result, loop.getResult(i));
    if (activity.isActive(op.getAfterArguments()[i])) {
      Value t = loop.getResult(nextTangent++);
      if (activity.isActive(result))
        setTangent(result, t);
    }
  }
  return success();
}

LogicalResult ForwardEmitter::emitCall(OpBuilder &b, func::CallOp op) {
  Location loc = op.getLoc();
  SmallVector<ct::Activity> activities = getCallActivities(op, activity);
  bool anyActive =
      llvm::any_of(activities,
                   [](ct::Activity a) { return a != ct::Activity::Constant; }) ||
      llvm::any_of(op.getResults(),
                   [&](Value r) { return activity.isActive(r); });
  if (!anyActive) {
    b.clone(*op, mapping);
    return success();
  }
  func::FuncOp callee = registry.lookupFunction(op.getCalleeAttr());
  if (!callee)
    return op.emitError("cannot differentiate a call of @")
           << op.getCallee() << ": it is not a func.func in this module";

  // A custom rule takes every argument with its default activity: give
  // constant ones zero tangents (and scratch shadows, freed after the call).
  FlatSymbolRefAttr target;
  SmallVector<Value> scratch;
  if (ct::CustomJvpOp rule = registry.getCustomJvp(callee)) {
    target = rule.getJvpAttr();
    activities = ct::getDefaultActivities(callee.getFunctionType());
  } else {
    target = FlatSymbolRefAttr::get(
        registry.get(callee, DerivativeKind::Jvp, activities).getSymNameAttr());
  }
  SmallVector<Value> operands =
      llvm::map_to_vector(op.getOperands(), [&](Value v) {
        return mapping.lookup(v);
      });
  for (auto [operand, a] : llvm::zip_equal(op.getOperands(), activities)) {
    if (a == ct::Activity::Active) {
      operands.push_back(tangent(b, loc, operand));
    } else if (a == ct::Activity::Duplicated) {
      Value s = shadow(operand);
      if (!s) {
        s = buildScratchShadow(b, loc, mapping.lookup(operand));
        scratch.push_back(s);
      }
      operands.push_back(s);
    }
  }
  SmallVector<Type> resultTypes(op.getResultTypes());
  for (Type type : op.getResultTypes())
    if (ct::isDifferentiableScalar(type))
      resultTypes.push_back(type);
  auto call = func::CallOp::create(b, loc, target, resultTypes, operands);
  for (Value s : scratch)
    memref::DeallocOp::create(b, loc, s);
  unsigned nextTangent = op.getNumResults();
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    mapping.map(result, call.getResult(i));
    if (ct::isDifferentiableScalar(result.getType())) {
      Value t = call.getResult(nextTangent++);
      if (activity.isActive(result))
        setTangent(result, t);
    }
  }
  return success();
}

LogicalResult ad::emitJvp(DerivativeRegistry &registry, func::FuncOp primal,
                          func::FuncOp derivative,
                          ArrayRef<ct::Activity> activities) {
  return ForwardEmitter(registry, primal, activities)
      .emit(derivative, activities);
}
