// ctExpectNear, the check of executed test IR, must be able to fail, and the
// FileCheck idiom of the MLIR integration tests must then reject the run: a
// planted wrong number between two right ones.
// RUN: %cotangent-opt %s %lower-to-llvm \
// RUN:   | %mlir-runner -e main -entry-point-result=void > %t.out
// RUN: FileCheck %s --check-prefix=PRINTED < %t.out
// RUN: not FileCheck %s --implicit-check-not=FAIL < %t.out
// PRINTED: check 1: ok
// PRINTED: check 2: FAIL actual=3 expected=2
// PRINTED: check 3: ok
// CHECK: check 1: ok
// CHECK: check 3: ok

func.func private @ctExpectNear(f64, f64, f64, i64)

func.func @main() {
  %two = arith.constant 2.0 : f64
  %three = arith.constant 3.0 : f64
  %tol = arith.constant 1.0e-12 : f64
  %id1 = arith.constant 1 : i64
  %id2 = arith.constant 2 : i64
  %id3 = arith.constant 3 : i64
  func.call @ctExpectNear(%two, %two, %tol, %id1) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%three, %two, %tol, %id2) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%two, %two, %tol, %id3) : (f64, f64, f64, i64) -> ()
  return
}
