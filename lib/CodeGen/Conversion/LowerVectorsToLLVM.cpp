//===- LowerVectorsToLLVM.cpp - The vector dialect's lowering, if needed --===//
//
// convert-vector-to-llvm first rewrites the whole module greedily (vector
// contractions, transposes, transfers, broadcasts of vectors, vectors of
// more than one dimension into ones of one), then converts. The vectors
// Cotangent makes (SIMD lanes of the program's own vector types, vector
// mode's lanes) are of one dimension, loaded, stored, broadcast from
// scalars, shuffled and reduced: ConvertToLLVM's patterns for the vector
// dialect lower those as they are. On a module with nothing else the pass
// would only cost a walk of every op with its folders (13 % of the plugin's
// time on a large vectorized Eigen file), so it runs only where the module
// has something else.
//
//===----------------------------------------------------------------------===//

#include "cotangent/CodeGen/Passes.h"

#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

namespace cotangent::codegen {

#define GEN_PASS_DEF_LOWERVECTORSTOLLVM
#include "cotangent/CodeGen/Passes.h.inc"

namespace {

/// A vector of other than one fixed dimension, or memory of them.
bool isComplexVectorType(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    type = memref.getElementType();
  auto vector = dyn_cast<VectorType>(type);
  return vector && (vector.getRank() != 1 || vector.isScalable());
}

/// Whether ConvertToLLVM's patterns lower `op` as it is: not a vector op,
/// or a one-dimensional access, shuffle, reduction, fused multiply-add or
/// conversion, a broadcast of a scalar, a lane read or written.
bool lowersDirectly(Operation *op) {
  if (llvm::any_of(op->getOperandTypes(), isComplexVectorType) ||
      llvm::any_of(op->getResultTypes(), isComplexVectorType))
    return false;
  if (!isa<vector::VectorDialect>(op->getDialect()))
    return true;
  if (isa<vector::LoadOp, vector::StoreOp, vector::MaskedLoadOp,
          vector::MaskedStoreOp, vector::ShuffleOp, vector::FMAOp,
          vector::ReductionOp, vector::FromElementsOp, vector::BitCastOp,
          vector::PrintOp>(op))
    return true;
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op))
    return !isa<VectorType>(broadcast.getSourceType());
  if (auto extract = dyn_cast<vector::ExtractOp>(op))
    return !isa<VectorType>(extract.getResult().getType());
  if (auto insert = dyn_cast<vector::InsertOp>(op))
    return !isa<VectorType>(insert.getValueToStore().getType());
  return false;
}

struct LowerVectorsToLLVM : impl::LowerVectorsToLLVMBase<LowerVectorsToLLVM> {
  void runOnOperation() override {
    bool needed = getOperation()
                      ->walk([](Operation *op) {
                        return lowersDirectly(op) ? WalkResult::advance()
                                                  : WalkResult::interrupt();
                      })
                      .wasInterrupted();
    if (!needed)
      return;
    OpPassManager pipeline(getOperation()->getName());
    pipeline.addPass(createConvertVectorToLLVMPass());
    if (failed(runPipeline(pipeline, getOperation())))
      signalPassFailure();
  }
};

} // namespace

} // namespace cotangent::codegen
