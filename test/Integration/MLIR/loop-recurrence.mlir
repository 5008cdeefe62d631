// A 1000-iteration loop-carried recurrence s <- s*x + y, s0 = 1, in reverse
// and forward mode, against the closed form
//   s_N = x^N + y (x^N - 1)/(x - 1)
//   ds/dx = N x^(N-1) + y (N x^(N-1) (x - 1) - (x^N - 1)) / (x - 1)^2
//   ds/dy = (x^N - 1)/(x - 1)
// The reverse sweep needs s_k from every iteration: 1000 values on the tape.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup %lower-to-llvm \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s --implicit-check-not=FAIL
// CHECK-NOT: FAIL
// CHECK: check 1: ok
// CHECK: check 2: ok
// CHECK: check 3: ok
// CHECK: check 4: ok
// CHECK: check 5: ok

func.func private @ctExpectNear(f64, f64, f64, i64)

func.func @recurrence(%x: f64, %y: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %one) -> f64 {
    %m = arith.mulf %acc, %x : f64
    %a = arith.addf %m, %y : f64
    scf.yield %a : f64
  }
  return %s : f64
}

func.func @main() {
  %x = arith.constant 0.999 : f64
  %y = arith.constant 0.25 : f64
  %n = arith.constant 1000 : index
  %nf = arith.constant 1000.0 : f64
  %one = arith.constant 1.0 : f64
  %tol = arith.constant 1.0e-10 : f64
  %v, %dx, %dy = ct.gradient @recurrence(%x, %y, %n) activity [active, active, const]
      : (f64, f64, index) -> (f64, f64, f64)

  // Closed forms.
  %nm1 = arith.subf %nf, %one : f64
  %xn = math.powf %x, %nf : f64
  %xnm1 = math.powf %x, %nm1 : f64
  %xm1 = arith.subf %x, %one : f64
  %geo_num = arith.subf %xn, %one : f64
  %geo = arith.divf %geo_num, %xm1 : f64
  %ygeo = arith.mulf %y, %geo : f64
  %value = arith.addf %xn, %ygeo : f64
  %nxnm1 = arith.mulf %nf, %xnm1 : f64
  %t1 = arith.mulf %nxnm1, %xm1 : f64
  %t2 = arith.subf %t1, %geo_num : f64
  %xm1sq = arith.mulf %xm1, %xm1 : f64
  %t3 = arith.divf %t2, %xm1sq : f64
  %t4 = arith.mulf %y, %t3 : f64
  %dvalue_dx = arith.addf %nxnm1, %t4 : f64

  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c5 = arith.constant 5 : i64
  func.call @ctExpectNear(%v, %value, %tol, %c1) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%dx, %dvalue_dx, %tol, %c2) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%dy, %geo, %tol, %c3) : (f64, f64, f64, i64) -> ()

  // Forward mode along (1, 0) and (0, 1).
  %zero = arith.constant 0.0 : f64
  %jv, %jx = ct.jvp @recurrence(%x, %y, %n) tangents(%one, %zero) activity [active, active, const]
      : (f64, f64, index, f64, f64) -> (f64, f64)
  func.call @ctExpectNear(%jx, %dvalue_dx, %tol, %c4) : (f64, f64, f64, i64) -> ()
  %kv, %ky = ct.jvp @recurrence(%x, %y, %n) tangents(%zero, %one) activity [active, active, const]
      : (f64, f64, index, f64, f64) -> (f64, f64)
  func.call @ctExpectNear(%ky, %geo, %tol, %c5) : (f64, f64, f64, i64) -> ()
  return
}
