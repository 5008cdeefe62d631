//===- cotangent-opt.cpp - Cotangent's mlir-opt ---------------------------===//
//
// Parses, verifies and transforms MLIR in the dialects Cotangent reads and
// writes, with every upstream pass and every Cotangent pass available. The lit
// tests drive the compiler through it.
//
//===----------------------------------------------------------------------===//

#include "cotangent/AD/Interfaces/DerivativeOpInterfaces.h"
#include "cotangent/AD/Passes.h"
#include "cotangent/CodeGen/Conversion/AllocaScopes.h"
#include "cotangent/CodeGen/Conversion/TapeToLLVM.h"
#include "cotangent/CodeGen/Passes.h"
#include "cotangent/CodeGen/Pipelines.h"
#include "cotangent/CodeGen/Transforms/TapeAliasScopes.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Driver/DebugOptions.h"
#include "cotangent/Structure/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  cotangent::registerDebugOptions();
  mlir::DialectRegistry registry;
  registry.insert<cotangent::ct::CTDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::gpu::GPUDialect, mlir::LLVM::LLVMDialect,
                  mlir::NVVM::NVVMDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::ub::UBDialect, mlir::vector::VectorDialect>();
  // Inliner, bufferization and to-LLVM interfaces of the dialects above, so
  // that upstream passes (inline, convert-to-llvm, ...) work on our IR.
  mlir::registerAllExtensions(registry);
  cotangent::registerConvertCTToLLVMInterface(registry);
  // Translations and GPU targets ct-lower-to-llvm's kernels need.
  cotangent::codegen::registerCodeGenInterfaces(registry);
  cotangent::ad::registerDerivativeRules(registry);
  mlir::registerAllPasses();
  cotangent::ad::registerCotangentADPasses();
  cotangent::ad::registerAutodiffPipeline();
  cotangent::structure::registerCotangentStructurePasses();
  cotangent::codegen::registerLowerToLLVMPipeline();
  cotangent::codegen::registerCotangentCodeGenPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Cotangent optimizer driver\n", registry));
}
