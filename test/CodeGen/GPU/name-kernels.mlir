// ct-name-kernels: kernels and their modules get names PTX accepts (every
// character other than letters, digits, '_' and '$' becomes '_'), the
// launches follow them, and each kernel module gets NVPTX's data layout.
// RUN: %cotangent-opt %s --ct-name-kernels | FileCheck %s

// CHECK: gpu.module @f_pullback_dc_kernel attributes {llvm.data_layout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"}
// CHECK: gpu.func @f_pullback_dc_kernel
// CHECK: gpu.func @other$kernel
// CHECK-LABEL: func.func @launch
// CHECK: gpu.launch_func @f_pullback_dc_kernel::@f_pullback_dc_kernel
// CHECK: gpu.launch_func @f_pullback_dc_kernel::@other$kernel
module attributes {gpu.container_module} {
  gpu.module @"f.pullback.dc_kernel" {
    gpu.func @"f.pullback.dc_kernel"() kernel {
      gpu.return
    }
    gpu.func @"other$kernel"() kernel {
      gpu.return
    }
  }
  func.func @launch() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @"f.pullback.dc_kernel"::@"f.pullback.dc_kernel" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @"f.pullback.dc_kernel"::@"other$kernel" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
