//===- HeapFunctionSizes.cpp - Constant sizes of named allocations --------===//
//
// MLIR's canonicalization gives a memref.alloc whose dynamic size is a
// constant a static shape by building a new op, which drops discardable
// attributes: the `ct.heap_function` that says which C++ function makes
// the memory (HeapFunctions.h) would be lost, and the program's `delete[]`
// would meet memory made by the plain `operator new`. Running first (a
// higher benefit), this pattern does the same rewrite and keeps them.
//
//===----------------------------------------------------------------------===//

#include "cotangent/Dialect/CT/IR/HeapFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {
struct NamedAllocationConstantSizes : public OpRewritePattern<memref::AllocOp> {
  NamedAllocationConstantSizes(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/100) {}

  LogicalResult matchAndRewrite(memref::AllocOp made,
                                PatternRewriter &rewriter) const override {
    if (!made->hasAttr(cotangent::ct::kHeapFunctionAttr))
      return failure();
    MemRefType type = made.getType();
    SmallVector<int64_t> shape;
    SmallVector<Value> stillDynamic;
    auto dynamic = made.getDynamicSizes().begin();
    for (int64_t size : type.getShape()) {
      if (!ShapedType::isDynamic(size)) {
        shape.push_back(size);
        continue;
      }
      Value given = *dynamic++;
      APInt constant;
      if (matchPattern(given, m_ConstantInt(&constant)) &&
          !constant.isNegative()) {
        shape.push_back(constant.getSExtValue());
      } else {
        shape.push_back(ShapedType::kDynamic);
        stillDynamic.push_back(given);
      }
    }
    if (stillDynamic.size() == made.getDynamicSizes().size())
      return failure();
    auto staticType = MemRefType::get(shape, type.getElementType(),
                                      type.getLayout(), type.getMemorySpace());
    auto replacement = memref::AllocOp::create(
        rewriter, made.getLoc(), staticType, stillDynamic,
        made.getSymbolOperands(), made.getAlignmentAttr());
    replacement->setDiscardableAttrs(made->getDiscardableAttrDictionary());
    rewriter.replaceOpWithNewOp<memref::CastOp>(made, type, replacement);
    return success();
  }
};
} // namespace

void cotangent::ct::populateHeapFunctionCanonicalizations(
    RewritePatternSet &patterns) {
  patterns.add<NamedAllocationConstantSizes>(patterns.getContext());
}
