//===- EigenHandmadeHeap.cpp - Eigen's hand-aligned heap memory -----------===//
//
// The layout is Eigen 3's (Eigen/src/Core/util/Memory.h,
// handmade_aligned_malloc): an allocation of `bytes + alignment` by malloc,
// whose address, rounded down to the alignment and moved up by one
// alignment, is the block given out, with malloc's address in the pointer
// just below it.
//
//===----------------------------------------------------------------------===//

#include "EigenHandmadeHeap.h"

#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace cotangent::codegen {

static constexpr StringLiteral kMallocHelper = "ct.eigen.handmade_malloc";
static constexpr StringLiteral kFreeHelper = "ct.eigen.handmade_free";

/// The private function `name` of the module, made by `define` (given its
/// entry block's builder and arguments) unless it is there already.
static FailureOr<LLVM::LLVMFuncOp>
getOrDefine(ModuleOp module, StringRef name, LLVM::LLVMFunctionType type,
            function_ref<LogicalResult(OpBuilder &, LLVM::LLVMFuncOp)> define) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto function = LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type,
                                           LLVM::Linkage::Internal);
  Block *entry = function.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  if (failed(define(b, function))) {
    function.erase();
    return failure();
  }
  return function;
}

FailureOr<LLVM::LLVMFuncOp> getEigenHandmadeMalloc(ModuleOp module) {
  MLIRContext *context = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i64 = IntegerType::get(context, 64);
  auto type = LLVM::LLVMFunctionType::get(ptr, {i64, i64});
  return getOrDefine(
      module, kMallocHelper, type, [&](OpBuilder &b, LLVM::LLVMFuncOp f) {
        Location l = f.getLoc();
        FailureOr<LLVM::LLVMFuncOp> malloc =
            LLVM::lookupOrCreateFn(b, module, "malloc", {i64}, ptr);
        if (failed(malloc))
          return failure();
        Value bytes = f.getArgument(0), alignment = f.getArgument(1);
        Value total = LLVM::AddOp::create(b, l, bytes, alignment);
        Value original =
            LLVM::CallOp::create(b, l, *malloc, ValueRange{total}).getResult();
        Value null = LLVM::ZeroOp::create(b, l, ptr);
        Value failed =
            LLVM::ICmpOp::create(b, l, LLVM::ICmpPredicate::eq, original, null);
        Block *made = f.addBlock(), *none = f.addBlock();
        LLVM::CondBrOp::create(b, l, failed, none, made);
        b.setInsertionPointToStart(none);
        LLVM::ReturnOp::create(b, l, null);
        b.setInsertionPointToStart(made);
        Value one = LLVM::ConstantOp::create(b, l, i64, b.getI64IntegerAttr(1));
        Value all =
            LLVM::ConstantOp::create(b, l, i64, b.getI64IntegerAttr(-1));
        Value low = LLVM::SubOp::create(b, l, alignment, one);
        Value mask = LLVM::XOrOp::create(b, l, low, all);
        Value address = LLVM::PtrToIntOp::create(b, l, i64, original);
        Value rounded = LLVM::AddOp::create(
            b, l, LLVM::AndOp::create(b, l, address, mask), alignment);
        Value aligned = LLVM::IntToPtrOp::create(b, l, ptr, rounded);
        Value below = LLVM::GEPOp::create(b, l, ptr, ptr, aligned,
                                          ArrayRef<LLVM::GEPArg>{-1});
        LLVM::StoreOp::create(b, l, original, below);
        LLVM::ReturnOp::create(b, l, aligned);
        return success();
      });
}

FailureOr<LLVM::LLVMFuncOp> getEigenHandmadeFree(ModuleOp module) {
  MLIRContext *context = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto none = LLVM::LLVMVoidType::get(context);
  auto type = LLVM::LLVMFunctionType::get(none, {ptr});
  return getOrDefine(
      module, kFreeHelper, type, [&](OpBuilder &b, LLVM::LLVMFuncOp f) {
        Location l = f.getLoc();
        FailureOr<LLVM::LLVMFuncOp> free =
            LLVM::lookupOrCreateFn(b, module, "free", {ptr}, none);
        if (failed(free))
          return failure();
        Value aligned = f.getArgument(0);
        Value null = LLVM::ZeroOp::create(b, l, ptr);
        Value isNull =
            LLVM::ICmpOp::create(b, l, LLVM::ICmpPredicate::eq, aligned, null);
        Block *given = f.addBlock(), *done = f.addBlock();
        LLVM::CondBrOp::create(b, l, isNull, done, given);
        b.setInsertionPointToStart(done);
        LLVM::ReturnOp::create(b, l, ValueRange{});
        b.setInsertionPointToStart(given);
        Value below = LLVM::GEPOp::create(b, l, ptr, ptr, aligned,
                                          ArrayRef<LLVM::GEPArg>{-1});
        Value original = LLVM::LoadOp::create(b, l, ptr, below);
        LLVM::CallOp::create(b, l, *free, ValueRange{original});
        LLVM::ReturnOp::create(b, l, ValueRange{});
        return success();
      });
}

} // namespace cotangent::codegen
