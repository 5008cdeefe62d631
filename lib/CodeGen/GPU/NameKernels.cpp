//===- NameKernels.cpp - Kernel names PTX accepts -------------------------===//

#include "cotangent/CodeGen/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-name-kernels"

using namespace mlir;

namespace cotangent::codegen {

#define GEN_PASS_DEF_NAMEKERNELS
#include "cotangent/CodeGen/Passes.h.inc"

namespace {

/// What clang uses for nvptx64-nvidia-cuda.
constexpr llvm::StringLiteral kNVPTXDataLayout =
    "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64";

/// PTX identifiers are letters, digits, '_' and '$': kernels (named after
/// the function they come from, such as `f.pullback.dc_kernel`) and their
/// modules get names with other characters replaced by '_'. The modules
/// also get NVPTX's data layout: translated without one, their LLVM IR has
/// the default layout's 4-byte alignment of i64, and NVPTX splits each i64
/// access in two 32-bit halves, of which a kernel run on an H200 lost one.
struct NameKernels : impl::NameKernelsBase<NameKernels> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto valid = [](StringRef name) {
      std::string result = name.str();
      for (char &c : result)
        if (!llvm::isAlnum(c) && c != '_' && c != '$')
          c = '_';
      return result;
    };
    // Launches name their kernel as @module::@kernel.
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    for (auto kernels : module.getOps<gpu::GPUModuleOp>()) {
      std::string moduleName = valid(kernels.getName());
      for (auto kernel : kernels.getOps<gpu::GPUFuncOp>()) {
        std::string name = valid(kernel.getName());
        auto renamed =
            SymbolRefAttr::get(&getContext(), moduleName,
                               {FlatSymbolRefAttr::get(&getContext(), name)});
        for (gpu::LaunchFuncOp launch : launches)
          if (launch.getKernelModuleName() == kernels.getNameAttr() &&
              launch.getKernelName() == kernel.getNameAttr())
            launch.setKernelAttr(renamed);
        LLVM_DEBUG(llvm::dbgs()
                   << "[" DEBUG_TYPE "] " << "kernel @" << kernel.getName()
                   << " is named @" << moduleName << "::@" << name << "\n");
        SymbolTable::setSymbolName(kernel, name);
      }
      SymbolTable::setSymbolName(kernels, moduleName);
      kernels->setAttr(LLVM::LLVMDialect::getDataLayoutAttrName(),
                       StringAttr::get(&getContext(), kNVPTXDataLayout));
    }
  }
};

} // namespace

} // namespace cotangent::codegen
