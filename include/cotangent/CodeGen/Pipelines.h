//===- Pipelines.h - From differentiated MLIR to machine code ---*- C++ -*-===//

#ifndef COTANGENT_CODEGEN_PIPELINES_H
#define COTANGENT_CODEGEN_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

#include <memory>

namespace llvm {
class LLVMContext;
class Module;
class raw_pwrite_stream;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class OpPassManager;
} // namespace mlir

namespace cotangent::codegen {

/// What lowering to the LLVM dialect and translating to LLVM IR need:
/// the convert-to-llvm interfaces of every dialect the engine emits (ct's
/// included) and the LLVM IR translations.
void registerCodeGenInterfaces(mlir::DialectRegistry &registry);

struct LowerToLLVMOptions
    : public mlir::PassPipelineOptions<LowerToLLVMOptions> {
  Option<bool> openmp{*this, "openmp",
                      llvm::cl::desc("Run scf.parallel loops on OpenMP "
                                     "threads (else serially)"),
                      llvm::cl::init(false)};
  Option<std::string> gpuChip{
      *this, "gpu-chip",
      llvm::cl::desc("Compile loops marked for a GPU into kernels for this "
                     "NVIDIA architecture (e.g. sm_90); empty: CPU only")};
};

/// math (to libm), scf, memref, ct and func to the LLVM dialect.
void buildLowerToLLVMPipeline(mlir::OpPassManager &pm,
                              const LowerToLLVMOptions &options = {});
/// Registers it as `ct-lower-to-llvm`.
void registerLowerToLLVMPipeline();

/// Translates an LLVM-dialect module for `triple` and `dataLayout` (those
/// of the translation unit it joins).
std::unique_ptr<llvm::Module> translateToLLVMIR(mlir::ModuleOp module,
                                                llvm::LLVMContext &context,
                                                llvm::StringRef triple,
                                                llvm::StringRef dataLayout);

/// Runs LLVM's default pipeline at `optLevel` (0-3) on `module`, then writes
/// it as an object file or assembly.
mlir::LogicalResult emitMachineCode(llvm::Module &module,
                                    llvm::raw_pwrite_stream &out, bool assembly,
                                    unsigned optLevel, std::string &error);

} // namespace cotangent::codegen

#endif // COTANGENT_CODEGEN_PIPELINES_H
