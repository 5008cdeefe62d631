// The Hessian of the recurrence s <- s * sin(x) + y, s0 = 1, N = 50 steps,
// by forward mode over reverse mode with 2 lanes (both columns at once,
// through the tangent tape), against one lane at a time and the closed
// forms, with c = sin x:
//   ds/dy = (c^N - 1)/(c - 1), so d2s/dy2 = 0 and
//   d2s/dxdy = cos x * (N c^(N-1) (c - 1) - (c^N - 1)) / (c - 1)^2.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup %lower-to-llvm \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s --implicit-check-not=FAIL
// CHECK-NOT: FAIL
// CHECK: check 1: ok
// CHECK: check 2: ok
// CHECK: check 3: ok
// CHECK: check 4: ok
// CHECK: check 5: ok
// CHECK: check 6: ok
// CHECK: check 7: ok

func.func private @ctExpectNear(f64, f64, f64, i64)

func.func @r(%x: f64, %y: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %one) -> f64 {
    %sx = math.sin %x : f64
    %m = arith.mulf %acc, %sx : f64
    %a = arith.addf %m, %y : f64
    scf.yield %a : f64
  }
  return %s : f64
}

func.func @g(%x: f64, %y: f64, %n: index) -> (f64, f64) {
  %v, %dx, %dy = ct.gradient @r(%x, %y, %n) activity [active, active, const]
      : (f64, f64, index) -> (f64, f64, f64)
  return %dx, %dy : f64, f64
}

func.func @main() {
  %x = arith.constant 1.2 : f64
  %y = arith.constant 0.25 : f64
  %n = arith.constant 50 : index
  %nf = arith.constant 50.0 : f64
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %tol = arith.constant 1.0e-12 : f64
  // Lane 0 seeds x, lane 1 seeds y.
  %tx = arith.constant dense<[1.0, 0.0]> : vector<2xf64>
  %ty = arith.constant dense<[0.0, 1.0]> : vector<2xf64>
  %gx, %gy, %hx, %hy = ct.jvp @g(%x, %y, %n) tangents(%tx, %ty) lanes 2
      activity [active, active, const]
      : (f64, f64, index, vector<2xf64>, vector<2xf64>)
        -> (f64, f64, vector<2xf64>, vector<2xf64>)
  // One lane at a time.
  %ax, %ay, %hxx, %hyx = ct.jvp @g(%x, %y, %n) tangents(%one, %zero)
      activity [active, active, const]
      : (f64, f64, index, f64, f64) -> (f64, f64, f64, f64)
  %bx, %by, %hxy, %hyy = ct.jvp @g(%x, %y, %n) tangents(%zero, %one)
      activity [active, active, const]
      : (f64, f64, index, f64, f64) -> (f64, f64, f64, f64)
  %l_xx = vector.extract %hx[0] : f64 from vector<2xf64>
  %l_xy = vector.extract %hx[1] : f64 from vector<2xf64>
  %l_yx = vector.extract %hy[0] : f64 from vector<2xf64>
  %l_yy = vector.extract %hy[1] : f64 from vector<2xf64>
  %i1 = arith.constant 1 : i64
  %i2 = arith.constant 2 : i64
  %i3 = arith.constant 3 : i64
  %i4 = arith.constant 4 : i64
  %i5 = arith.constant 5 : i64
  %i6 = arith.constant 6 : i64
  %i7 = arith.constant 7 : i64
  func.call @ctExpectNear(%l_xx, %hxx, %tol, %i1) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%l_xy, %hxy, %tol, %i2) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%l_yx, %hyx, %tol, %i3) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%l_yy, %hyy, %tol, %i4) : (f64, f64, f64, i64) -> ()
  // Closed forms.
  %c = math.sin %x : f64
  %cos = math.cos %x : f64
  %nm1 = arith.subf %nf, %one : f64
  %cn = math.powf %c, %nf : f64
  %cnm1 = math.powf %c, %nm1 : f64
  %cm1 = arith.subf %c, %one : f64
  %geo_num = arith.subf %cn, %one : f64
  %t1 = arith.mulf %nf, %cnm1 : f64
  %t2 = arith.mulf %t1, %cm1 : f64
  %t3 = arith.subf %t2, %geo_num : f64
  %sq = arith.mulf %cm1, %cm1 : f64
  %t4 = arith.divf %t3, %sq : f64
  %dxy = arith.mulf %cos, %t4 : f64
  %tol6 = arith.constant 1.0e-9 : f64
  func.call @ctExpectNear(%l_yy, %zero, %tol6, %i5) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%l_xy, %dxy, %tol6, %i6) : (f64, f64, f64, i64) -> ()
  // Symmetry.
  func.call @ctExpectNear(%l_yx, %l_xy, %tol6, %i7) : (f64, f64, f64, i64) -> ()
  return
}
