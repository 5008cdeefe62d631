//===- IRBuilders.cpp - IR helpers shared by the emitters -----------------===//

#include "Utils/IRBuilders.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

Operation *ad::buildBranchLike(OpBuilder &builder, Operation *op,
                               Value selector, TypeRange types) {
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(selector);
  state.addTypes(types);
  state.propertiesAttr = op->getPropertiesAsAttribute();
  for (unsigned i = 0; i < op->getNumRegions(); ++i)
    state.addRegion();
  Operation *branch = builder.create(state);
  OpBuilder::InsertionGuard guard(builder);
  for (Region &region : branch->getRegions())
    builder.createBlock(&region);
  return branch;
}

Value ad::buildFloatConstant(OpBuilder &builder, Location loc, Type type,
                             double value) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector)
    return arith::ConstantOp::create(builder, loc, type,
                                     builder.getFloatAttr(type, value));
  FloatAttr lane = builder.getFloatAttr(vector.getElementType(), value);
  return arith::ConstantOp::create(builder, loc, vector,
                                   SplatElementsAttr::get(vector, lane));
}

Value ad::buildZero(OpBuilder &builder, Location loc, Type type) {
  return buildFloatConstant(builder, loc, type, 0.0);
}

Value ad::buildFloatCast(OpBuilder &builder, Location loc, Value value,
                         Type type) {
  if (value.getType() == type)
    return value;
  unsigned from = getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth();
  unsigned to = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  if (from < to)
    return arith::ExtFOp::create(builder, loc, type, value);
  return arith::TruncFOp::create(builder, loc, type, value);
}

Value ad::buildAdjointSum(OpBuilder &builder, Location loc, Value old,
                          Value adjoint) {
  return arith::AddFOp::create(builder, loc, old, adjoint,
                               arith::FastMathFlags::reassoc |
                                   arith::FastMathFlags::contract);
}

Value ad::buildTripCount(OpBuilder &builder, Location loc, Value lb, Value ub,
                         Value step) {
  // Assumes that ub - lb fits the type (an `int` loop runs fewer than 2^31
  // times): the reversed loop counts its iterations in the same type.
  Type type = lb.getType();
  Value count = arith::CeilDivSIOp::create(
      builder, loc,
      arith::SubIOp::create(builder, loc, ub, lb,
                            arith::IntegerOverflowFlags::nsw),
      step);
  return arith::MaxSIOp::create(
      builder, loc, count,
      arith::ConstantOp::create(builder, loc, type,
                                builder.getIntegerAttr(type, 0)));
}

Value ad::buildIndexCast(OpBuilder &builder, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                    value);
}

void ad::buildZeroFill(OpBuilder &builder, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  Value zero = buildZero(builder, loc, type.getElementType());
  SmallVector<Value> indices;
  OpBuilder::InsertionGuard guard(builder);
  Value c0 = arith::ConstantIndexOp::create(builder, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(builder, loc, 1);
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    Value size = memref::DimOp::create(builder, loc, memref, dim);
    auto loop = scf::ForOp::create(builder, loc, c0, size, c1);
    builder.setInsertionPointToStart(loop.getBody());
    indices.push_back(loop.getInductionVar());
  }
  memref::StoreOp::create(builder, loc, zero, memref, indices);
}

/// Whether `memref` may be a view of a C pointer (ct.pointer_view): 1-D, of
/// dynamic size; the run-time test is its size.
static bool mayViewPointer(MemRefType type) {
  return type.getRank() == 1 && type.isDynamicDim(0);
}

/// The declaration of one of cotangent/scratch.h's functions.
static func::FuncOp getScratchFunction(OpBuilder &builder, Location loc,
                                       StringRef name, FunctionType type) {
  auto module =
      builder.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  if (auto known = module.lookupSymbol<func::FuncOp>(name))
    return known;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  auto function = func::FuncOp::create(builder, loc, name, type);
  function.setPrivate();
  return function;
}

/// Whether a size is a C pointer's: the pointer view's 2^60, less the
/// offset of a view of `p + k` (no real array comes near 2^59 elements).
static Value isPointerExtent(OpBuilder &builder, Location loc, Value size) {
  return arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::uge, size,
      arith::ConstantIndexOp::create(builder, loc,
                                     ct::PointerViewOp::kUnknownExtent / 2));
}

Value ad::buildScratchBuffer(OpBuilder &builder, Location loc, MemRefType type,
                             ValueRange dynamicSizes) {
  // A zeroed plain identity-layout buffer of `shape`, cast to `type`.
  auto allocate = [&](OpBuilder &b, ArrayRef<int64_t> shape,
                      ValueRange sizes) -> Value {
    auto bufferType = MemRefType::get(shape, type.getElementType());
    Value buffer = memref::AllocOp::create(b, loc, bufferType, sizes);
    buildZeroFill(b, loc, buffer);
    if (bufferType == type)
      return buffer;
    return memref::CastOp::create(b, loc, type, buffer);
  };
  if (!mayViewPointer(type))
    return allocate(builder, type.getShape(), dynamicSizes);
  Value size = dynamicSizes.front();
  auto choice =
      scf::IfOp::create(builder, loc, type, isPointerExtent(builder, loc, size),
                        /*withElseRegion=*/true);
  {
    OpBuilder b = choice.getThenBodyBuilder();
    auto pointer = LLVM::LLVMPointerType::get(b.getContext());
    func::FuncOp reserve = getScratchFunction(b, loc, "ct_scratch_reserve",
                                              b.getFunctionType({}, pointer));
    Value memory = func::CallOp::create(b, loc, reserve).getResult(0);
    Value view = ct::PointerViewOp::create(
        b, loc,
        MemRefType::get(
            {ShapedType::kDynamic}, type.getElementType(),
            StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1})),
        memory);
    if (view.getType() != type)
      view = memref::CastOp::create(b, loc, type, view);
    scf::YieldOp::create(b, loc, view);
  }
  {
    OpBuilder b = choice.getElseBodyBuilder();
    scf::YieldOp::create(b, loc, allocate(b, type.getShape(), dynamicSizes));
  }
  return choice.getResult(0);
}

bool ad::canBuildScratchBuffer(MemRefType type) {
  return memref::CastOp::areCastCompatible(
      MemRefType::get(type.getShape(), type.getElementType()), type);
}

Value ad::buildScratchShadow(OpBuilder &builder, Location loc, Value like) {
  auto type = cast<MemRefType>(like.getType());
  // Memory of a known size cast to a pointer's type: a buffer that size.
  if (auto castOp = like.getDefiningOp<memref::CastOp>()) {
    auto known = cast<MemRefType>(castOp.getSource().getType());
    if (known.hasStaticShape()) {
      Value buffer = buildScratchBuffer(
          builder, loc,
          MemRefType::get(known.getShape(), type.getElementType()), {});
      return memref::CastOp::create(builder, loc, type, buffer);
    }
  }
  // Otherwise one of `like`'s size.
  SmallVector<Value> sizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.isDynamicDim(dim))
      sizes.push_back(memref::DimOp::create(builder, loc, like, dim));
  return buildScratchBuffer(builder, loc, type, sizes);
}

void ad::buildScratchFree(OpBuilder &builder, Location loc, Value scratch) {
  auto type = cast<MemRefType>(scratch.getType());
  if (!mayViewPointer(type)) {
    memref::DeallocOp::create(builder, loc, scratch);
    return;
  }
  Value size = memref::DimOp::create(builder, loc, scratch, 0);
  auto choice = scf::IfOp::create(builder, loc, TypeRange{},
                                  isPointerExtent(builder, loc, size),
                                  /*withElseRegion=*/true);
  {
    OpBuilder b = choice.getThenBodyBuilder();
    auto pointer = LLVM::LLVMPointerType::get(b.getContext());
    func::FuncOp release = getScratchFunction(b, loc, "ct_scratch_release",
                                              b.getFunctionType({pointer}, {}));
    Value address =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, scratch);
    Value integer =
        arith::IndexCastUIOp::create(b, loc, b.getI64Type(), address);
    Value memory = LLVM::IntToPtrOp::create(b, loc, pointer, integer);
    func::CallOp::create(b, loc, release, memory);
  }
  {
    OpBuilder b = choice.getElseBodyBuilder();
    memref::DeallocOp::create(b, loc, scratch);
  }
}

Value ad::sumOverLeading(OpBuilder &b, Location loc, Value adjoint, Type type) {
  auto vector = cast<VectorType>(adjoint.getType());
  auto kept = dyn_cast<VectorType>(type);
  if (!kept && vector.getRank() == 1)
    return vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD,
                                       adjoint);
  ArrayRef<int64_t> leading =
      vector.getShape().drop_back(kept ? kept.getRank() : 0);
  int64_t count = 1;
  for (int64_t size : leading)
    count *= size;
  Value sum;
  for (int64_t k = 0; k < count; ++k) {
    Value part =
        vector::ExtractOp::create(b, loc, adjoint, delinearize(k, leading));
    sum = sum ? arith::AddFOp::create(b, loc, sum, part).getResult() : part;
  }
  return sum;
}

bool ad::isNullPointerView(Value view) {
  auto pointer = view.getDefiningOp<ct::PointerViewOp>();
  return pointer && pointer.getPointer().getDefiningOp<LLVM::ZeroOp>();
}

Value ad::buildIsOwnShadow(OpBuilder &b, Location loc, Value primal,
                           Value shadow) {
  auto base = [&](Value view) {
    auto address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, view);
    address->setAttr(kOwnShadowTest, b.getUnitAttr());
    return address;
  };
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, base(primal),
                               base(shadow));
}
