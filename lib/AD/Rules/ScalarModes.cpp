//===- ScalarModes.cpp - Every mode from an op's partials -----------------===//

#include "Rules/ScalarModes.h"
#include "DerivativeRegistry.h"
#include "ForwardMode/ForwardEmitter.h"
#include "ReverseMode/ReverseEmitter.h"
#include "Utils/IRBuilders.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;
using namespace cotangent::ad::reverse;

/// The condition of a partial that is 1 where it holds and 0 elsewhere
/// (RuleBuilder::indicator), and whether it is 1 where it holds.
static std::optional<std::pair<Value, bool>> indicatorOf(Value partial) {
  auto select = partial.getDefiningOp<arith::SelectOp>();
  FloatAttr onTrue, onFalse;
  if (!select || !matchPattern(select.getTrueValue(), m_Constant(&onTrue)) ||
      !matchPattern(select.getFalseValue(), m_Constant(&onFalse)))
    return std::nullopt;
  double t = onTrue.getValueAsDouble(), f = onFalse.getValueAsDouble();
  if (t == 1.0 && f == 0.0)
    return std::make_pair(select.getCondition(), true);
  if (t == 0.0 && f == 1.0)
    return std::make_pair(select.getCondition(), false);
  return std::nullopt;
}

/// `partial * factor` (an adjoint or tangent); with strong zero, zero
/// where either is zero whatever the other (an infinite one too). A
/// partial that is an indicator chooses the factor or zero, so a choice
/// (`select`, the branch not taken) passes no NaN or infinity from the
/// other side, whatever the mode.
static Value buildProduct(OpBuilder &b, Location loc, Value partial,
                          Value factor, const ProductOptions &options,
                          arith::FastMathFlags flags) {
  if (std::optional<std::pair<Value, bool>> indicator = indicatorOf(partial);
      indicator && partial.getType() == factor.getType()) {
    Value zero = buildZero(b, loc, factor.getType());
    return indicator->second
               ? arith::SelectOp::create(b, loc, indicator->first, factor, zero)
               : arith::SelectOp::create(b, loc, indicator->first, zero,
                                         factor);
  }
  Value product = arith::MulFOp::create(b, loc, partial, factor, flags);
  if (!options.strongZero)
    return product;
  Value zero = buildZero(b, loc, factor.getType());
  auto isZero = [&](Value value) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, value,
                                 buildZero(b, loc, value.getType()));
  };
  Value eitherZero =
      arith::OrIOp::create(b, loc, isZero(partial), isZero(factor));
  return arith::SelectOp::create(b, loc, eitherZero, zero, product);
}

LogicalResult ad::emitScalarTangent(Operation *op, OpBuilder &b,
                                    ForwardEmitter &emitter) {
  emitter.clonePrimal(b, *op);
  if (!emitter.isActive(op->getResult(0)))
    return success();
  Location loc = op->getLoc();
  auto lookup = [&](Value v) { return emitter.lookup(v); };
  PrimalValues primals(op, lookup);
  SmallVector<Value> partials =
      cast<ScalarDerivativeOpInterface>(op).buildPartials(b, primals);
  Type type = op->getResult(0).getType();
  Value sum;
  for (auto [operand, partial] : llvm::zip_equal(op->getOperands(), partials)) {
    if (!partial || !emitter.isActive(operand))
      continue;
    Value t = buildFloatCast(b, loc, emitter.tangent(b, loc, operand), type);
    Value term = buildProduct(b, loc, partial, t,
                              emitter.getRegistry().getProductOptions(),
                              arith::FastMathFlags::none);
    sum = sum ? arith::AddFOp::create(b, loc, sum, term).getResult() : term;
  }
  emitter.setTangent(op->getResult(0), sum ? sum : buildZero(b, loc, type));
  return success();
}

LogicalResult ad::emitClonedForward(Operation *op, OpBuilder &b,
                                    ReverseEmitter &emitter) {
  b.clone(*op, emitter.getForwardMapping());
  return success();
}

bool ad::needsReverseByDefault(Operation *op, ReverseEmitter &emitter) {
  return emitter.needsReverseByDefault(op);
}

/// Erases the ops that computed `value` and nothing else (stand-ins stay).
static void eraseUnused(Value value) {
  // A set: an op listed twice would be erased the first time.
  llvm::SetVector<Operation *> worklist;
  if (Operation *def = value.getDefiningOp())
    worklist.insert(def);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (isa<UnrealizedConversionCastOp>(op) || !isPure(op) || !op->use_empty())
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.insert(def);
    op->erase();
  }
}

/// The primal op computing what `built` computes from the same primal
/// values, where every run of `op` runs it too: an op with the same name,
/// attributes and result types whose operands are the primal values of
/// `built`'s stand-ins (or equal constants), in `op`'s block or one around
/// it. Null if there is none.
static Operation *findPrimalTwin(Operation *built, Operation *op,
                                 llvm::function_ref<Value(Value)> primalOf) {
  // Arithmetic costs less to redo than to fetch (a tape entry in a loop).
  if (isa<arith::ArithDialect>(built->getDialect()) ||
      built->getNumOperands() == 0 || built->getNumRegions() != 0 ||
      built->getNumResults() != 1 || !isPure(built))
    return nullptr;
  auto sameConstant = [](Value a, Value b) {
    Attribute x, y;
    return matchPattern(a, m_Constant(&x)) && matchPattern(b, m_Constant(&y)) &&
           x == y && a.getType() == b.getType();
  };
  auto matches = [&](Operation *candidate) {
    if (candidate->getName() != built->getName() ||
        candidate->getAttrDictionary() != built->getAttrDictionary() ||
        candidate->getResultTypes() != built->getResultTypes() ||
        candidate->getNumOperands() != built->getNumOperands())
      return false;
    for (auto [mine, theirs] :
         llvm::zip_equal(built->getOperands(), candidate->getOperands())) {
      Value primal = primalOf(mine);
      if (primal ? primal != theirs : !sameConstant(mine, theirs))
        return false;
    }
    Block *block = candidate->getBlock();
    return block && block->findAncestorOpInBlock(*op);
  };
  for (Value operand : built->getOperands())
    if (Value primal = primalOf(operand)) {
      for (Operation *user : primal.getUsers())
        if (matches(user))
          return user;
      return nullptr; // every twin uses this operand
    }
  return nullptr;
}

/// The ops `b` built since `before` (the op before the first of them; null:
/// the block's start), in order. Walked rather than sorted: an order query
/// in a block being built renumbers the whole block every few insertions,
/// quadratic in a large function's reverse sweep.
static SmallVector<Operation *> opsBuiltSince(OpBuilder &b, Operation *before) {
  SmallVector<Operation *> built;
  Block::iterator it = before ? std::next(before->getIterator())
                              : b.getInsertionBlock()->begin();
  for (Block::iterator end = b.getInsertionBlock()->end();
       it != b.getInsertionPoint() && it != end; ++it)
    built.push_back(&*it);
  return built;
}

/// What the primal computed already, the reverse code fetches instead of
/// computing it again: cos's partial -sin(x) uses the primal's sin(x) when
/// the primal computes both (a value fetched costs no more than `x`
/// itself; a transcendental function recomputed does). The rule's ops are
/// those `b` built after `ruleStart` (see opsBuiltSince).
static void
reusePrimalResults(Operation *op, OpBuilder &b, Operation *ruleStart,
                   SmallVectorImpl<Value> &partials,
                   const SmallVectorImpl<std::pair<Value, Value>> &standIns,
                   llvm::function_ref<Value(Value)> lookup) {
  auto primalOf = [&](Value v) -> Value {
    for (auto [standIn, primal] : standIns)
      if (standIn == v)
        return primal;
    return nullptr;
  };
  // The rule's ops the partials use, in the order they were built.
  SmallVector<Operation *> ruleOps = opsBuiltSince(b, ruleStart);
  DenseSet<Operation *> fromRule(ruleOps.begin(), ruleOps.end());
  DenseSet<Operation *> used;
  SmallVector<Value> worklist(partials.begin(), partials.end());
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    Operation *def = v ? v.getDefiningOp() : nullptr;
    if (!def || primalOf(v) || !fromRule.contains(def) ||
        !used.insert(def).second)
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> ordered;
  llvm::copy_if(ruleOps, std::back_inserter(ordered),
                [&](Operation *rule) { return used.contains(rule); });
  for (Operation *rule : ordered) {
    Operation *twin = findPrimalTwin(rule, op, primalOf);
    if (!twin)
      continue;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(rule);
    Value fetched = lookup(twin->getResult(0));
    for (Value &partial : partials)
      if (partial == rule->getResult(0))
        partial = fetched;
    rule->getResult(0).replaceAllUsesWith(fetched);
  }
  // Erase what only the replaced ops used (a partial has no use yet).
  for (Operation *rule : llvm::reverse(ordered))
    if (rule->use_empty() && !llvm::is_contained(partials, rule->getResult(0)))
      rule->erase();
}

LogicalResult ad::emitScalarReverse(Operation *op, OpBuilder &b,
                                    ReverseEmitter &emitter) {
  Location loc = op->getLoc();
  Value adjoint = emitter.readAndZero(b, loc, op->getResult(0));
  // The rule builds every partial, but only those of active operands are
  // used. It gets stand-ins for the primal values, and only the stand-ins
  // that kept partials use are fetched: a primal value fetched in vain can
  // cost a tape entry (`h * k` with h constant needs h, not k).
  SmallVector<std::pair<Value, Value>> standIns; // (stand-in, primal)
  auto lookup = [&](Value primal) -> Value {
    for (auto [standIn, known] : standIns)
      if (known == primal)
        return standIn;
    Value standIn = UnrealizedConversionCastOp::create(b, loc, primal.getType(),
                                                       ValueRange{})
                        .getResult(0);
    standIns.push_back({standIn, primal});
    return standIn;
  };
  Operation *ruleStart = lastOpBefore(b);
  PrimalValues primals(op, lookup);
  SmallVector<Value> partials =
      cast<ScalarDerivativeOpInterface>(op).buildPartials(b, primals);
  reusePrimalResults(op, b, ruleStart, partials, standIns, lookup);
  for (auto [operand, partial] : llvm::zip_equal(op->getOperands(), partials)) {
    if (!partial)
      continue;
    if (emitter.getActivity().isActive(operand))
      emitter.accumulate(b, loc, operand,
                         buildProduct(b, loc, partial, adjoint,
                                      emitter.getRegistry().getProductOptions(),
                                      arith::FastMathFlags::contract));
    else
      eraseUnused(partial);
  }
  for (auto [standIn, primal] : standIns) {
    if (!standIn.use_empty())
      standIn.replaceAllUsesWith(emitter.primalInReverse(primal));
    standIn.getDefiningOp()->erase();
  }
  return success(!emitter.hadFailure());
}
