//===- ForwardEmitter.cpp - Forward-mode differentiation ------------------===//
//
// The walk over the primal and the services the ops' models use; what each
// op emits is its ForwardModeOpInterface model's (lib/AD/Rules).
//
//===----------------------------------------------------------------------===//

#include "ForwardMode/ForwardEmitter.h"
#include "Analysis/BitReinterpretations.h"
#include "Analysis/ConstantMemoryWrites.h"
#include "Analysis/OutsideVariableWrites.h"
#include "DerivativeRegistry.h"
#include "Utils/IRBuilders.h"
#include "cotangent/AD/Interfaces/DerivativeOpInterfaces.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

LogicalResult ForwardEmitter::emit(func::FuncOp derivative,
                                   ArrayRef<ct::Activity> activities) {
  if (!primal.getBody().hasOneBlock())
    return primal.emitError("cannot differentiate @")
           << primal.getSymName()
           << ": unstructured control flow (several blocks) is not supported "
              "yet; use structured loops and branches";
  if (failed(refuseDerivativesInOutsideVariables(
          primal, activity,
          [&](func::FuncOp f) { return registry.hasRule(f); })) ||
      failed(refuseDerivativesInConstantMemory(primal, activity)) ||
      failed(refuseDerivativesThroughBits(primal, activity)))
    return failure();
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
  SmallVector<Value> results = llvm::map_to_vector(
      ret.getOperands(), [&](Value v) { return mapping.lookup(v); });
  for (Value v : ret.getOperands())
    if (ct::isDifferentiableScalar(v.getType()))
      results.push_back(tangent(b, ret.getLoc(), v));
  for (Value scratch : freedAtReturn)
    buildScratchFree(b, ret.getLoc(), scratch);
  func::ReturnOp::create(b, ret.getLoc(), results);
  return success();
}

bool ForwardEmitter::carriesTangent(Value value) const {
  return isa<MemRefType>(value.getType()) ? activity.hasShadow(value)
                                          : activity.isActive(value);
}

Value ForwardEmitter::tangent(OpBuilder &b, Location loc, Value value) {
  if (Value t = tangents.lookup(value))
    return t;
  return buildZero(b, loc, value.getType());
}

LogicalResult ForwardEmitter::emitBlock(OpBuilder &b, Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(emitOp(b, op)))
      return failure();
  return success();
}

LogicalResult ForwardEmitter::emitOp(OpBuilder &b, Operation &op) {
  if (auto model = dyn_cast<ForwardModeOpInterface>(op))
    return model.emitTangent(b, *this);
  if (op.getNumRegions() != 0)
    return op.emitError("cannot differentiate '")
           << op.getName() << "': no forward-mode rule for this operation";
  clonePrimal(b, op);
  for (Value result : op.getResults())
    if (carriesTangent(result))
      return op.emitError("cannot differentiate '")
             << op.getName()
             << "': no derivative rule; bind a custom rule to the enclosing "
                "function or stop the gradient with ct::stop_gradient";
  return success();
}

Value ForwardEmitter::counterpartShadow(OpBuilder &b, Location loc, Value value,
                                        MemRefType type) {
  if (Value s = shadow(value))
    return s;
  // The null pointer: nothing is there to carry a tangent.
  if (isNullPointerView(value))
    return mapping.lookup(value);
  Value root = getMemoryRoot(value);
  Value uncast = value;
  while (auto view = uncast.getDefiningOp<memref::CastOp>())
    uncast = view.getSource();
  auto argument = dyn_cast<BlockArgument>(root);
  if (argument && argument.getOwner() == &primal.getBody().front() &&
      uncast == root &&
      type.getRank() == cast<MemRefType>(root.getType()).getRank()) {
    // A parameter left out of ct::wrt chosen beside memory that carries a
    // tangent: zeros of its shape (reserved scratch memory for a C
    // pointer's, whose extent is unknown), made once at the entry and
    // freed at the return.
    Value &zeros = zeroTangents[root];
    if (!zeros) {
      OpBuilder::InsertionGuard guard(b);
      Value primalRoot = mapping.lookup(root);
      b.setInsertionPointAfterValue(primalRoot);
      zeros = buildScratchShadow(b, loc, primalRoot);
      freedAtReturn.push_back(zeros);
    }
    return zeros.getType() == type
               ? zeros
               : memref::CastOp::create(b, loc, type, zeros).getResult();
  }
  if (isLocalAllocation(root) && type.getRank() == 1) {
    // Fresh memory nothing active was written to (`return {}` beside a
    // vector that is): its tangent is zero, in a buffer of its size that
    // is freed with it.
    Value primalValue = mapping.lookup(value);
    Value size = memref::DimOp::create(b, loc, primalValue, 0);
    Value zeros = memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, type.getElementType()),
        size);
    buildZeroFill(b, loc, zeros);
    return zeros.getType() == type
               ? zeros
               : memref::CastOp::create(b, loc, type, zeros).getResult();
  }
  if (!missingShadow)
    emitError(loc, "cannot differentiate a choice between memory whose "
                   "derivative is tracked and memory whose derivative is not");
  missingShadow = true;
  return mapping.lookup(value); // a stand-in; the error stops the build
}

SmallVector<Value> ForwardEmitter::withTangents(OpBuilder &b, Location loc,
                                                ValueRange values,
                                                ValueRange activeLike) {
  SmallVector<Value> result =
      llvm::map_to_vector(values, [&](Value v) { return mapping.lookup(v); });
  for (auto [value, like] : llvm::zip_equal(values, activeLike)) {
    if (!carriesTangent(like))
      continue;
    if (auto type = dyn_cast<MemRefType>(like.getType()))
      result.push_back(counterpartShadow(b, loc, value, type));
    else
      result.push_back(
          buildFloatCast(b, loc, tangent(b, loc, value), like.getType()));
  }
  return result;
}

LogicalResult ad::emitJvp(DerivativeRegistry &registry, func::FuncOp primal,
                          func::FuncOp derivative,
                          ArrayRef<ct::Activity> activities) {
  return ForwardEmitter(registry, primal, activities)
      .emit(derivative, activities);
}
