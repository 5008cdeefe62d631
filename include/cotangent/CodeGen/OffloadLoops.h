//===- OffloadLoops.h - GPU kernels of parallel loops -----------*- C++ -*-===//

#ifndef COTANGENT_CODEGEN_OFFLOADLOOPS_H
#define COTANGENT_CODEGEN_OFFLOADLOOPS_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace cotangent::codegen {

/// `ct-offload-loops`: each outermost `scf.parallel` marked `ct.device`
/// whose body a GPU can run becomes, when `ct_gpu_begin()` says a device
/// answers, a copy mapped to GPU blocks and threads (for
/// convert-parallel-loops-to-gpu) between copies of the memory it uses to
/// and from the device; the loop itself stays as the CPU path.
std::unique_ptr<mlir::Pass> createOffloadLoopsPass();
void registerOffloadLoopsPass();

/// `ct-name-kernels`: after gpu-kernel-outlining, kernels and their modules
/// get names PTX accepts ('.' and other characters become '_'), and the
/// modules NVPTX's data layout.
std::unique_ptr<mlir::Pass> createNameKernelsPass();
void registerNameKernelsPass();

/// `ct-expand-device-math`: math.exp and math.log as arithmetic (for
/// kernels, where no libm or libdevice is linked).
std::unique_ptr<mlir::Pass> createExpandDeviceMathPass();
void registerExpandDeviceMathPass();

/// `ct-native-device-math`: after convert-gpu-to-nvvm, its libdevice calls
/// of sqrt, fabs, floor, ceil, trunc, copysign and fma as the LLVM
/// intrinsics NVPTX selects natively.
std::unique_ptr<mlir::Pass> createNativeDeviceMathPass();
void registerNativeDeviceMathPass();

} // namespace cotangent::codegen

#endif // COTANGENT_CODEGEN_OFFLOADLOOPS_H
