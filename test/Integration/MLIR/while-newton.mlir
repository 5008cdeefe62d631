// Newton's iteration for sqrt(a) in an scf.while whose trip count depends
// on the data. At convergence the derivative of the iterate is that of
// sqrt: d/da = 1/(2 sqrt(a)), in reverse and forward mode.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup %lower-to-llvm \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s --implicit-check-not=FAIL
// CHECK-NOT: FAIL
// CHECK: check 1: ok
// CHECK: check 2: ok
// CHECK: check 3: ok
// CHECK: check 4: ok

func.func private @ctExpectNear(f64, f64, f64, i64)

func.func @newton_sqrt(%a: f64) -> f64 {
  %tol = arith.constant 1.0e-15 : f64
  %half = arith.constant 0.5 : f64
  %r = scf.while (%y = %a) : (f64) -> f64 {
    %yy = arith.mulf %y, %y : f64
    %d = arith.subf %yy, %a : f64
    %ad = math.absf %d : f64
    %bound = arith.mulf %tol, %a : f64
    %c = arith.cmpf ogt, %ad, %bound : f64
    scf.condition(%c) %y : f64
  } do {
  ^bb0(%y: f64):
    %q = arith.divf %a, %y : f64
    %s = arith.addf %y, %q : f64
    %h = arith.mulf %s, %half : f64
    scf.yield %h : f64
  }
  return %r : f64
}

func.func @main() {
  %tol = arith.constant 1.0e-10 : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %a = arith.constant 7.5 : f64
  %root = math.sqrt %a : f64
  %twice = arith.mulf %two, %root : f64
  %expected = arith.divf %one, %twice : f64
  %v, %da = ct.gradient @newton_sqrt(%a) activity [active] : (f64) -> (f64, f64)
  func.call @ctExpectNear(%v, %root, %tol, %c1) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%da, %expected, %tol, %c2) : (f64, f64, f64, i64) -> ()
  %w, %ta = ct.jvp @newton_sqrt(%a) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  func.call @ctExpectNear(%w, %root, %tol, %c3) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%ta, %expected, %tol, %c4) : (f64, f64, f64, i64) -> ()
  return
}
