//===- SCF.cpp - Differentiating structured control flow ------------------===//
//
// Derivative flow and forward mode of scf.for, scf.if, scf.index_switch and
// scf.while: tangents are carried beside the primal values as extra
// iter_args, region arguments and results. Reverse mode is in
// SCFReverse.cpp.
//
//===----------------------------------------------------------------------===//

#include "Rules/SCF.h"
#include "ForwardMode/ForwardEmitter.h"
#include "Utils/IRBuilders.h"
#include "Utils/LoopMarks.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {

//===----------------------------------------------------------------------===//
// Derivative flow
//===----------------------------------------------------------------------===//

/// `from` flows to `to`; where they are memory, `to` is each place `from`
/// may be, so what is written through `to` may change them too.
static void addFlow(SmallVectorImpl<DerivativeFlow> &flow, Value from,
                    Value to) {
  flow.push_back({from, to});
  if (isa<MemRefType>(to.getType()))
    flow.push_back({to, from});
}

/// Initial and yielded values flow to the iteration's argument, which
/// flows to the result.
struct ForFlow
    : public ActivityOpInterface::ExternalModel<ForFlow, scf::ForOp> {
  void getDerivativeFlow(Operation *op,
                         SmallVectorImpl<DerivativeFlow> &flow) const {
    auto loop = cast<scf::ForOp>(op);
    for (auto [init, arg, yielded, result] :
         llvm::zip_equal(loop.getInitArgs(), loop.getRegionIterArgs(),
                         loop.getYieldedValues(), loop.getResults())) {
      addFlow(flow, init, arg);
      addFlow(flow, yielded, arg);
      addFlow(flow, arg, result);
    }
  }
};

/// What each region yields flows to the result (memory the branch chooses
/// is each place it may be).
template <typename Op>
struct BranchFlow
    : public ActivityOpInterface::ExternalModel<BranchFlow<Op>, Op> {
  void getDerivativeFlow(Operation *op,
                         SmallVectorImpl<DerivativeFlow> &flow) const {
    for (Region &region : op->getRegions())
      if (Operation *yield = getBranchYield(region))
        for (auto [yielded, result] :
             llvm::zip_equal(yield->getOperands(), op->getResults()))
          addFlow(flow, yielded, result);
  }
};

/// Initial and yielded values flow to the before region's arguments; what
/// the condition passes flows to the after region's arguments and to the
/// results. An after argument also flows to the result in its position, so
/// that both get the same activity and the tangent of that position is
/// carried when either needs it. Memory carried is each place it may be.
struct WhileFlow
    : public ActivityOpInterface::ExternalModel<WhileFlow, scf::WhileOp> {
  void getDerivativeFlow(Operation *op,
                         SmallVectorImpl<DerivativeFlow> &flow) const {
    auto loop = cast<scf::WhileOp>(op);
    for (auto [init, arg, yielded] :
         llvm::zip_equal(loop.getInits(), loop.getBeforeArguments(),
                         loop.getYieldOp().getOperands())) {
      addFlow(flow, init, arg);
      addFlow(flow, yielded, arg);
    }
    for (auto [passed, arg, result] :
         llvm::zip_equal(loop.getConditionOp().getArgs(),
                         loop.getAfterArguments(), loop.getResults())) {
      addFlow(flow, passed, arg);
      addFlow(flow, passed, result);
      addFlow(flow, arg, result);
    }
  }
};

//===----------------------------------------------------------------------===//
// Forward mode
//===----------------------------------------------------------------------===//

struct ForForward
    : public ForwardModeOpInterface::ExternalModel<ForForward, scf::ForOp> {
  LogicalResult emitTangent(Operation *operation, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    auto op = cast<scf::ForOp>(operation);
    Location loc = op.getLoc();
    SmallVector<Value> inits =
        emitter.withTangents(b, loc, op.getInitArgs(), op.getRegionIterArgs());
    auto loop = scf::ForOp::create(b, loc, emitter.lookup(op.getLowerBound()),
                                   emitter.lookup(op.getUpperBound()),
                                   emitter.lookup(op.getStep()), inits);
    copyParallelMark(op, loop);
    Block *body = loop.getBody();
    if (!body->empty())
      body->getTerminator()->erase();
    IRMapping &mapping = emitter.getMapping();
    mapping.map(op.getInductionVar(), loop.getInductionVar());
    unsigned numPrimal = op.getNumRegionIterArgs();
    unsigned nextTangent = numPrimal;
    for (auto [i, arg] : llvm::enumerate(op.getRegionIterArgs())) {
      mapping.map(arg, loop.getRegionIterArgs()[i]);
      if (emitter.carriesTangent(arg))
        emitter.setTangent(arg, loop.getRegionIterArgs()[nextTangent++]);
    }
    OpBuilder inner = OpBuilder::atBlockEnd(body);
    if (failed(emitter.emitBlock(inner, *op.getBody())))
      return failure();
    scf::YieldOp::create(inner, loc,
                         emitter.withTangents(inner, loc, op.getYieldedValues(),
                                              op.getRegionIterArgs()));
    nextTangent = numPrimal;
    for (auto [i, result] : llvm::enumerate(op.getResults())) {
      mapping.map(result, loop.getResult(i));
      if (emitter.carriesTangent(op.getRegionIterArgs()[i])) {
        Value t = loop.getResult(nextTangent++);
        if (emitter.carriesTangent(result))
          emitter.setTangent(result, t);
      }
    }
    return success();
  }
};

template <typename Op>
struct BranchForward
    : public ForwardModeOpInterface::ExternalModel<BranchForward<Op>, Op> {
  LogicalResult emitTangent(Operation *op, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    Location loc = op->getLoc();
    SmallVector<Type> types(op->getResultTypes());
    for (Value result : op->getResults())
      if (emitter.carriesTangent(result))
        types.push_back(result.getType());
    Operation *branch =
        buildBranchLike(b, op, emitter.lookup(op->getOperand(0)), types);
    for (auto [from, to] :
         llvm::zip_equal(op->getRegions(), branch->getRegions())) {
      OpBuilder inner = OpBuilder::atBlockEnd(&to.front());
      Operation *yield = getBranchYield(from);
      if (!yield) {
        scf::YieldOp::create(inner, loc);
        continue;
      }
      if (failed(emitter.emitBlock(inner, from.front())))
        return failure();
      scf::YieldOp::create(inner, loc,
                           emitter.withTangents(inner, loc,
                                                yield->getOperands(),
                                                op->getResults()));
    }
    unsigned nextTangent = op->getNumResults();
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      emitter.getMapping().map(result, branch->getResult(i));
      if (emitter.carriesTangent(result))
        emitter.setTangent(result, branch->getResult(nextTangent++));
    }
    return success(!emitter.hadError());
  }
};

struct WhileForward
    : public ForwardModeOpInterface::ExternalModel<WhileForward, scf::WhileOp> {
  LogicalResult emitTangent(Operation *operation, OpBuilder &b,
                            ForwardEmitter &emitter) const {
    auto op = cast<scf::WhileOp>(operation);
    Location loc = op.getLoc();
    SmallVector<Value> inits =
        emitter.withTangents(b, loc, op.getInits(), op.getBeforeArguments());
    SmallVector<Type> afterTypes(op.getResultTypes());
    for (Value arg : op.getAfterArguments())
      if (emitter.carriesTangent(arg))
        afterTypes.push_back(arg.getType());
    auto loop = scf::WhileOp::create(b, loc, afterTypes, inits);
    auto mapArgs = [&](Block::BlockArgListType from, Block *to) {
      unsigned nextTangent = from.size();
      for (auto [i, arg] : llvm::enumerate(from)) {
        emitter.getMapping().map(arg, to->getArgument(i));
        if (emitter.carriesTangent(arg))
          emitter.setTangent(arg, to->getArgument(nextTangent++));
      }
    };
    Block *before =
        b.createBlock(&loop.getBefore(), {}, ValueRange(inits).getTypes(),
                      SmallVector<Location>(inits.size(), loc));
    mapArgs(op.getBeforeArguments(), before);
    OpBuilder inner = OpBuilder::atBlockEnd(before);
    if (failed(emitter.emitBlock(inner, op.getBefore().front())))
      return failure();
    auto condition = op.getConditionOp();
    scf::ConditionOp::create(
        inner, loc, emitter.lookup(condition.getCondition()),
        emitter.withTangents(inner, loc, condition.getArgs(),
                             op.getAfterArguments()));
    Block *after = b.createBlock(&loop.getAfter(), {}, afterTypes,
                                 SmallVector<Location>(afterTypes.size(), loc));
    mapArgs(op.getAfterArguments(), after);
    inner.setInsertionPointToEnd(after);
    if (failed(emitter.emitBlock(inner, op.getAfter().front())))
      return failure();
    scf::YieldOp::create(inner, loc,
                         emitter.withTangents(inner, loc,
                                              op.getYieldOp().getOperands(),
                                              op.getBeforeArguments()));
    b.setInsertionPointAfter(loop);
    unsigned nextTangent = op.getNumResults();
    for (auto [i, result] : llvm::enumerate(op.getResults())) {
      emitter.getMapping().map(result, loop.getResult(i));
      if (emitter.carriesTangent(op.getAfterArguments()[i])) {
        Value t = loop.getResult(nextTangent++);
        if (emitter.carriesTangent(result))
          emitter.setTangent(result, t);
      }
    }
    return success();
  }
};

} // namespace

void ad::registerSCFDerivativeRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, scf::SCFDialect *) {
    scf::ForOp::attachInterface<ForFlow, ForForward>(*context);
    scf::IfOp::attachInterface<BranchFlow<scf::IfOp>, BranchForward<scf::IfOp>>(
        *context);
    scf::IndexSwitchOp::attachInterface<BranchFlow<scf::IndexSwitchOp>,
                                        BranchForward<scf::IndexSwitchOp>>(
        *context);
    scf::WhileOp::attachInterface<WhileFlow, WhileForward>(*context);
    attachSCFReverseModels(context);
  });
}
