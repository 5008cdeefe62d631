// ct's C library functions lower to calls of the C library's own, by type:
// hypotf, hypot, hypotl; each declared once however often it is called.
// RUN: %cotangent-opt %s --convert-to-llvm | FileCheck %s

// CHECK-DAG: llvm.func @hypotf(f32, f32) -> f32
// CHECK-DAG: llvm.func @hypot(f64, f64) -> f64
// CHECK-DAG: llvm.func @hypotl(f80, f80) -> f80

// CHECK-LABEL: llvm.func @widths
// CHECK: llvm.call @hypotf(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.call @hypot(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// CHECK: llvm.call @hypot(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// CHECK: llvm.call @hypotl(%{{.*}}, %{{.*}}) : (f80, f80) -> f80
func.func @widths(%a: f32, %b: f64, %c: f80) -> (f32, f64, f80) {
  %0 = ct.hypot %a, %a : f32
  %1 = ct.hypot %b, %b : f64
  %2 = ct.hypot %1, %b : f64
  %3 = ct.hypot %c, %c : f80
  return %0, %2, %3 : f32, f64, f80
}
