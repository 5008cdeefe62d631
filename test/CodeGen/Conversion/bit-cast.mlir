// ct.bit_cast is an LLVM bitcast once differentiation is done.
// RUN: %cotangent-opt %s --ct-lower-to-llvm | FileCheck %s

// CHECK-LABEL: llvm.func @bits
// CHECK-SAME: (%[[X:.*]]: f64)
// CHECK: %[[B:.*]] = llvm.bitcast %[[X]] : f64 to i64
// CHECK: %[[S:.*]] = llvm.lshr %[[B]]
// CHECK: %[[R:.*]] = llvm.bitcast %[[S]] : i64 to f64
// CHECK: llvm.return %[[R]]
func.func @bits(%x: f64) -> f64 {
  %one = arith.constant 1 : i64
  %b = ct.bit_cast %x : f64 to i64
  %s = arith.shrui %b, %one : i64
  %r = ct.bit_cast %s : i64 to f64
  return %r : f64
}
