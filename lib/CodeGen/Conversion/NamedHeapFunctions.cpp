//===- NamedHeapFunctions.cpp - The program's heap memory, as it names it -===//
//
// Memory the C++ program makes and frees goes through the function its
// source names (ct.heap_function, HeapFunctions.h), so that memory that
// crosses the function's boundary is freed as it was made.
//
//===----------------------------------------------------------------------===//

#include "EigenHandmadeHeap.h"

#include "cotangent/CodeGen/Passes.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/HeapFunctions.h"

#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace cotangent::codegen {

#define GEN_PASS_DEF_NAMEDHEAPFUNCTIONS
#include "cotangent/CodeGen/Passes.h.inc"

namespace {

/// The alignment `malloc` and the plain `operator new` give
/// (__STDCPP_DEFAULT_NEW_ALIGNMENT__ on x86-64 and AArch64).
constexpr int64_t kDefaultAlignment = 16;

constexpr StringLiteral kEigenMalloc =
    "Eigen::internal::handmade_aligned_malloc";
constexpr StringLiteral kEigenFree = "Eigen::internal::handmade_aligned_free";

/// The Itanium (or C) name of `function` in its aligned form if `aligned`.
StringRef symbolOf(StringRef function, bool aligned) {
  auto pick = [&](StringRef plain, StringRef withAlignment) {
    return aligned ? withAlignment : plain;
  };
  return llvm::StringSwitch<StringRef>(function)
      .Case("malloc", pick("malloc", "aligned_alloc"))
      .Case("free", "free")
      .Case("operator new", pick("_Znwm", "_ZnwmSt11align_val_t"))
      .Case("operator new[]", pick("_Znam", "_ZnamSt11align_val_t"))
      .Case("operator delete", pick("_ZdlPv", "_ZdlPvSt11align_val_t"))
      .Case("operator delete[]", pick("_ZdaPv", "_ZdaPvSt11align_val_t"))
      .Default("");
}

/// The bytes of one element of `type`, if it is a scalar.
std::optional<int64_t> elementBytes(Type type) {
  if (type.isIndex())
    return 8;
  if (type.isIntOrFloat() && type.getIntOrFloatBitWidth() % 8 == 0)
    return type.getIntOrFloatBitWidth() / 8;
  return std::nullopt;
}

/// The allocation that made `memory` (through its views), if visible.
memref::AllocOp allocationOf(Value memory) {
  while (auto view = memory.getDefiningOp<ViewLikeOpInterface>())
    memory = view.getViewSource();
  return memory.getDefiningOp<memref::AllocOp>();
}

struct NamedHeapFunctions : impl::NamedHeapFunctionsBase<NamedHeapFunctions> {
  void runOnOperation() override {
    // The frees first: a visible pair is named alike (an unnamed free by its
    // allocation; an allocation whose name a rewrite dropped, as
    // canonicalization's rebuilding of constant sizes does, by its free).
    SmallVector<memref::DeallocOp> frees;
    for (auto function : getOperation().getOps<func::FuncOp>())
      function.walk([&](memref::DeallocOp free) { frees.push_back(free); });
    for (memref::DeallocOp free : frees)
      lowerFree(free);
    SmallVector<memref::AllocOp> allocations;
    for (auto function : getOperation().getOps<func::FuncOp>())
      function.walk([&](memref::AllocOp made) {
        if (made->hasAttr(ct::kHeapFunctionAttr))
          allocations.push_back(made);
      });
    for (memref::AllocOp made : allocations)
      lowerAllocation(made);
  }

  void lowerFree(memref::DeallocOp free) {
    StringRef function;
    int64_t alignment = 0;
    memref::AllocOp made = allocationOf(free.getMemref());
    auto madeBy = made ? made->getAttrOfType<StringAttr>(ct::kHeapFunctionAttr)
                       : StringAttr();
    if (auto named = free->getAttrOfType<StringAttr>(ct::kHeapFunctionAttr)) {
      function = named.getValue();
      if (auto given = free->getAttrOfType<IntegerAttr>(ct::kHeapAlignmentAttr))
        alignment = given.getInt();
      if (made && !madeBy)
        made->setAttr(ct::kHeapFunctionAttr,
                      StringAttr::get(made.getContext(),
                                      ct::getAllocationFunction(function)));
    } else if (madeBy) {
      function = ct::getDeallocationFunction(madeBy.getValue());
      alignment = made.getAlignment().value_or(0);
    }
    bool aligned = alignment > kDefaultAlignment;
    bool eigen = function == kEigenFree;
    StringRef symbol = symbolOf(function, aligned);
    if (symbol.empty() && !eigen)
      return;
    OpBuilder b(free);
    Location loc = free.getLoc();
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    bool withAlignment = aligned && function != "free" && !eigen;
    SmallVector<Type> params{ptr};
    if (withAlignment)
      params.push_back(b.getI64Type());
    // (A declaration of another type under that name: the generic path.)
    FailureOr<LLVM::LLVMFuncOp> callee =
        eigen ? getEigenHandmadeFree(getOperation())
              : LLVM::lookupOrCreateFn(b, getOperation(), symbol, params,
                                       LLVM::LLVMVoidType::get(b.getContext()));
    if (failed(callee))
      return;
    Value bits = memref::ExtractAlignedPointerAsIndexOp::create(
        b, loc, free.getMemref());
    Value address = arith::IndexCastOp::create(b, loc, b.getI64Type(), bits);
    SmallVector<Value> args{
        LLVM::IntToPtrOp::create(b, loc, ptr, ValueRange{address})};
    if (withAlignment)
      args.push_back(LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                              b.getI64IntegerAttr(alignment)));
    LLVM::CallOp::create(b, loc, *callee, args);
    free.erase();
  }

  void lowerAllocation(memref::AllocOp made) {
    StringRef function =
        made->getAttrOfType<StringAttr>(ct::kHeapFunctionAttr).getValue();
    MemRefType type = made.getType();
    std::optional<int64_t> bytesEach = elementBytes(type.getElementType());
    int64_t alignment = made.getAlignment().value_or(0);
    // (Eigen's own allocation is told its alignment, whatever it is.)
    bool eigen = function == kEigenMalloc;
    bool aligned = alignment > kDefaultAlignment || eigen;
    alignment = std::max(alignment, kDefaultAlignment);
    StringRef symbol = symbolOf(function, aligned);
    OpBuilder b(made);
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    auto i64 = b.getI64Type();
    SmallVector<Type> params(aligned ? 2 : 1, i64);
    FailureOr<LLVM::LLVMFuncOp> callee =
        eigen ? getEigenHandmadeMalloc(getOperation())
        : symbol.empty()
            ? FailureOr<LLVM::LLVMFuncOp>(failure())
            : LLVM::lookupOrCreateFn(b, getOperation(), symbol, params, ptr);
    if (!bytesEach || !type.getLayout().isIdentity() || failed(callee)) {
      made->removeAttr(ct::kHeapFunctionAttr); // the generic functions
      return;
    }
    Location loc = made.getLoc();
    // Sizes and the row-major strides of the identity layout (static where
    // every inner size is).
    SmallVector<OpFoldResult> sizes, strides(type.getRank());
    auto dynamic = made.getDynamicSizes().begin();
    for (int64_t size : type.getShape())
      sizes.push_back(ShapedType::isDynamic(size) ? OpFoldResult(*dynamic++)
                                                  : b.getIndexAttr(size));
    OpFoldResult count = b.getIndexAttr(1);
    for (int64_t i = type.getRank() - 1; i >= 0; --i) {
      strides[i] = count;
      count = multiply(b, loc, count, sizes[i]);
    }
    Value bytes = arith::IndexCastOp::create(
        b, loc, b.getI64Type(),
        materialize(b, loc,
                    multiply(b, loc, count, b.getIndexAttr(*bytesEach))));
    SmallVector<Value> args{bytes};
    if (aligned) // (aligned_alloc takes the alignment first)
      args.insert(function == "malloc" ? args.begin() : args.end(),
                  LLVM::ConstantOp::create(b, loc, i64,
                                           b.getI64IntegerAttr(alignment)));
    auto call = LLVM::CallOp::create(b, loc, *callee, args);
    auto flat = MemRefType::get(
        {ShapedType::kDynamic}, type.getElementType(),
        StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1}));
    Value view = ct::PointerViewOp::create(b, loc, flat, call.getResult());
    Value memory = memref::ReinterpretCastOp::create(
        b, loc, type, view, b.getIndexAttr(0), sizes, strides);
    made.replaceAllUsesWith(memory);
    made.erase();
  }

  static OpFoldResult multiply(OpBuilder &b, Location loc, OpFoldResult x,
                               OpFoldResult y) {
    auto constant = [](OpFoldResult v) -> std::optional<int64_t> {
      if (auto attr = dyn_cast<Attribute>(v))
        return cast<IntegerAttr>(attr).getInt();
      return std::nullopt;
    };
    if (constant(x) && constant(y))
      return b.getIndexAttr(*constant(x) * *constant(y));
    if (constant(x) == 1 || constant(y) == 1)
      return constant(x) == 1 ? y : x;
    return arith::MulIOp::create(b, loc, materialize(b, loc, x),
                                 materialize(b, loc, y))
        .getResult();
  }

  static Value materialize(OpBuilder &b, Location loc, OpFoldResult v) {
    if (auto value = dyn_cast<Value>(v))
      return value;
    return arith::ConstantIndexOp::create(
        b, loc, cast<IntegerAttr>(cast<Attribute>(v)).getInt());
  }
};

} // namespace

} // namespace cotangent::codegen
