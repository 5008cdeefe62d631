// Calls and recursion: f_n(x, y) = x * f_{n-1}(x, y) + sin(y * f_{n-1}),
// f_0 = y, computed by a recursive function through a helper call; the
// reverse sweep runs the callees' fwd/rev halves on one shared tape.
// Gradients and tangents against central finite differences.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup %lower-to-llvm \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s --implicit-check-not=FAIL
// CHECK-NOT: FAIL
// CHECK: check 1: ok
// CHECK: check 2: ok
// CHECK: check 3: ok
// CHECK: check 4: ok

func.func private @ctExpectNear(f64, f64, f64, i64)

func.func @step(%x: f64, %y: f64, %prev: f64) -> f64 {
  %a = arith.mulf %x, %prev : f64
  %b = arith.mulf %y, %prev : f64
  %s = math.sin %b : f64
  %r = arith.addf %a, %s : f64
  return %r : f64
}

func.func @rec(%x: f64, %y: f64, %n: i32) -> f64 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %base = arith.cmpi eq, %n, %c0 : i32
  %r = scf.if %base -> f64 {
    scf.yield %y : f64
  } else {
    %m = arith.subi %n, %c1 : i32
    %prev = func.call @rec(%x, %y, %m) : (f64, f64, i32) -> f64
    %next = func.call @step(%x, %y, %prev) : (f64, f64, f64) -> f64
    scf.yield %next : f64
  }
  return %r : f64
}

func.func @main() {
  %tol = arith.constant 1.0e-7 : f64
  %h = arith.constant 1.0e-6 : f64
  %two_h = arith.constant 2.0e-6 : f64
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %x = arith.constant 0.9 : f64
  %y = arith.constant 0.6 : f64
  %n = arith.constant 6 : i32
  %v, %dx, %dy = ct.gradient @rec(%x, %y, %n) activity [active, active, const]
      : (f64, f64, i32) -> (f64, f64, f64)
  %xp = arith.addf %x, %h : f64
  %xm = arith.subf %x, %h : f64
  %fxp = func.call @rec(%xp, %y, %n) : (f64, f64, i32) -> f64
  %fxm = func.call @rec(%xm, %y, %n) : (f64, f64, i32) -> f64
  %dfx = arith.subf %fxp, %fxm : f64
  %fdx = arith.divf %dfx, %two_h : f64
  %yp = arith.addf %y, %h : f64
  %ym = arith.subf %y, %h : f64
  %fyp = func.call @rec(%x, %yp, %n) : (f64, f64, i32) -> f64
  %fym = func.call @rec(%x, %ym, %n) : (f64, f64, i32) -> f64
  %dfy = arith.subf %fyp, %fym : f64
  %fdy = arith.divf %dfy, %two_h : f64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  func.call @ctExpectNear(%dx, %fdx, %tol, %c1) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%dy, %fdy, %tol, %c2) : (f64, f64, f64, i64) -> ()
  %jv, %jx = ct.jvp @rec(%x, %y, %n) tangents(%one, %zero) activity [active, active, const]
      : (f64, f64, i32, f64, f64) -> (f64, f64)
  func.call @ctExpectNear(%jx, %fdx, %tol, %c3) : (f64, f64, f64, i64) -> ()
  %kv, %ky = ct.jvp @rec(%x, %y, %n) tangents(%zero, %one) activity [active, active, const]
      : (f64, f64, i32, f64, f64) -> (f64, f64)
  func.call @ctExpectNear(%ky, %fdy, %tol, %c4) : (f64, f64, f64, i64) -> ()
  return
}
