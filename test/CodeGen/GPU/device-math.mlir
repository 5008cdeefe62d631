// ct-expand-device-math: math.exp and math.log in kernels as arithmetic
// (exp: range reduction by ln 2 in two parts, a degree-13 polynomial, two
// powers of two from their bits; log: exponent and mantissa from the bits,
// 2 atanh s as a series, the special cases selected), f32 through f64.
// ct-native-device-math: the libdevice calls convert-gpu-to-nvvm makes of
// functions NVPTX computes natively become LLVM intrinsics again.
// RUN: %cotangent-opt %s --ct-expand-device-math | FileCheck %s
// RUN: %cotangent-opt %s --ct-native-device-math | FileCheck %s --check-prefix=NATIVE

// CHECK-LABEL: func.func @exp64
// CHECK-NOT: math.exp
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: %[[K:.*]] = math.floor
// CHECK-COUNT-13: math.fma
// CHECK: arith.fptosi %[[K]] : f64 to i64
// CHECK: arith.shli
// CHECK: arith.bitcast %{{.*}} : i64 to f64
// CHECK: arith.mulf
// CHECK-NOT: math.exp
func.func @exp64(%x: f64) -> f64 {
  %y = math.exp %x : f64
  return %y : f64
}

// CHECK-LABEL: func.func @log32
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK-NOT: math.log
// CHECK: arith.bitcast %{{.*}} : f64 to i64
// CHECK: arith.divf
// CHECK: arith.select
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @log32(%x: f32) -> f32 {
  %y = math.log %x : f32
  return %y : f32
}

// The declarations replaced go; sin, which NVPTX cannot compute, stays a
// call (ct-offload-loops keeps it out of kernels).
// NATIVE-NOT: llvm.func @__nv_sqrt
// NATIVE-NOT: llvm.func @__nv_floorf
// NATIVE: llvm.func @__nv_sin
// NATIVE-LABEL: llvm.func @native
// NATIVE: llvm.intr.sqrt(%arg0) : (f64) -> f64
// NATIVE: llvm.intr.floor(%arg1) : (f32) -> f32
// NATIVE: llvm.call @__nv_sin
llvm.func @__nv_sqrt(f64) -> f64
llvm.func @__nv_floorf(f32) -> f32
llvm.func @__nv_sin(f64) -> f64
llvm.func @native(%arg0: f64, %arg1: f32) -> f64 {
  %0 = llvm.call @__nv_sqrt(%arg0) : (f64) -> f64
  %1 = llvm.call @__nv_floorf(%arg1) : (f32) -> f32
  %2 = llvm.call @__nv_sin(%0) : (f64) -> f64
  %3 = llvm.fpext %1 : f32 to f64
  %4 = llvm.fadd %2, %3 : f64
  llvm.return %4 : f64
}
