// Unstructured control flow with an early exit from a loop, lifted to scf
// before differentiation:
//   v = x; for i < n: { w = v * x; if (w > 100) return sin(w); v = w; }
//   return v
// With x = 1.7, x^8 = 69.8 and x^9 = 118.6: for n = 20 the loop exits early
// with sin(x^9), derivative 9 x^8 cos(x^9); for n = 3 it runs out and
// returns x^4, derivative 4 x^3.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup %lower-to-llvm \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s --implicit-check-not=FAIL
// CHECK-NOT: FAIL
// CHECK: check 1: ok
// CHECK: check 2: ok
// CHECK: check 3: ok
// CHECK: check 4: ok

func.func private @ctExpectNear(f64, f64, f64, i64)

func.func @f(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 100.0 : f64
  cf.br ^loop(%c0, %x : index, f64)
^loop(%i: index, %v: f64):
  %done = arith.cmpi sge, %i, %n : index
  cf.cond_br %done, ^exit, ^body
^body:
  %w = arith.mulf %v, %x : f64
  %over = arith.cmpf ogt, %w, %big : f64
  cf.cond_br %over, ^early, ^next
^early:
  %s = math.sin %w : f64
  return %s : f64
^next:
  %i1 = arith.addi %i, %c1 : index
  cf.br ^loop(%i1, %w : index, f64)
^exit:
  return %v : f64
}

func.func @main() {
  %tol = arith.constant 1.0e-10 : f64
  %one = arith.constant 1.0 : f64
  %x = arith.constant 1.7 : f64
  %n20 = arith.constant 20 : index
  %n3 = arith.constant 3 : index
  %nine = arith.constant 9.0 : f64
  %eight = arith.constant 8.0 : f64
  %four = arith.constant 4.0 : f64
  %three = arith.constant 3.0 : f64
  // 9 x^8 cos(x^9)
  %x8 = math.powf %x, %eight : f64
  %x9 = math.powf %x, %nine : f64
  %cos = math.cos %x9 : f64
  %a = arith.mulf %nine, %x8 : f64
  %early = arith.mulf %a, %cos : f64
  // 4 x^3
  %x3 = math.powf %x, %three : f64
  %late = arith.mulf %four, %x3 : f64

  %v1, %d1 = ct.gradient @f(%x, %n20) activity [active, const] : (f64, index) -> (f64, f64)
  %v2, %d2 = ct.gradient @f(%x, %n3) activity [active, const] : (f64, index) -> (f64, f64)
  %w1, %t1 = ct.jvp @f(%x, %n20) tangents(%one) activity [active, const] : (f64, index, f64) -> (f64, f64)
  %w2, %t2 = ct.jvp @f(%x, %n3) tangents(%one) activity [active, const] : (f64, index, f64) -> (f64, f64)
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  func.call @ctExpectNear(%d1, %early, %tol, %c1) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%d2, %late, %tol, %c2) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%t1, %early, %tol, %c3) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%t2, %late, %tol, %c4) : (f64, f64, f64, i64) -> ()
  return
}
