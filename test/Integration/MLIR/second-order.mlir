// Second order, by composing the engine with itself.
// f(x, y) = x^2 y + sin(x y), with Hessian
//   f_xx = 2y - y^2 sin(xy), f_xy = 2x + cos(xy) - xy sin(xy), f_yy = -x^2 sin(xy)
// 1. HVP as forward over reverse: ct.jvp of a function that calls
//    ct.gradient, against H v in closed form.
// 2. Reverse over reverse: ct.gradient of a function returning df/dx,
//    against (f_xx, f_xy).
// 3. Forward over reverse through a loop (tapes in the reverse code): the
//    HVP of g(x) = sum_k sin(k x) x^2 over 200 terms, against central
//    differences of the gradient, and symmetry v'Hw = w'Hv in 2-D.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup %lower-to-llvm \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s --implicit-check-not=FAIL
// CHECK-NOT: FAIL
// CHECK: check 1: ok
// CHECK: check 2: ok
// CHECK: check 3: ok
// CHECK: check 4: ok
// CHECK: check 5: ok
// CHECK: check 6: ok

func.func private @ctExpectNear(f64, f64, f64, i64)

func.func @f(%x: f64, %y: f64) -> f64 {
  %xx = arith.mulf %x, %x : f64
  %a = arith.mulf %xx, %y : f64
  %xy = arith.mulf %x, %y : f64
  %s = math.sin %xy : f64
  %r = arith.addf %a, %s : f64
  return %r : f64
}

func.func @grad_f(%x: f64, %y: f64) -> (f64, f64) {
  %v, %dx, %dy = ct.gradient @f(%x, %y) activity [active, active]
      : (f64, f64) -> (f64, f64, f64)
  return %dx, %dy : f64, f64
}

func.func @df_dx(%x: f64, %y: f64) -> f64 {
  %v, %dx, %dy = ct.gradient @f(%x, %y) activity [active, active]
      : (f64, f64) -> (f64, f64, f64)
  return %dx : f64
}

// g(x, y) = sum_{k=1}^{200} sin(k x y) (x^2 + y)
func.func @g(%x: f64, %y: f64) -> f64 {
  %c1 = arith.constant 1 : index
  %c201 = arith.constant 201 : index
  %zero = arith.constant 0.0 : f64
  %xx = arith.mulf %x, %x : f64
  %w = arith.addf %xx, %y : f64
  %r = scf.for %k = %c1 to %c201 step %c1 iter_args(%acc = %zero) -> f64 {
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f64
    %kx = arith.mulf %kf, %x : f64
    %kxy = arith.mulf %kx, %y : f64
    %s = math.sin %kxy : f64
    %t = arith.mulf %s, %w : f64
    %a = arith.addf %acc, %t : f64
    scf.yield %a : f64
  }
  %scale = arith.constant 0.01 : f64
  %o = arith.mulf %r, %scale : f64
  return %o : f64
}

func.func @grad_g(%x: f64, %y: f64) -> (f64, f64) {
  %v, %dx, %dy = ct.gradient @g(%x, %y) activity [active, active]
      : (f64, f64) -> (f64, f64, f64)
  return %dx, %dy : f64, f64
}

func.func @main() {
  %tol = arith.constant 1.0e-10 : f64
  %fdtol = arith.constant 1.0e-6 : f64
  %x = arith.constant 0.8 : f64
  %y = arith.constant -1.3 : f64
  %vx = arith.constant 0.6 : f64
  %vy = arith.constant 0.25 : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64

  // Closed-form Hessian.
  %xy = arith.mulf %x, %y : f64
  %sin = math.sin %xy : f64
  %cos = math.cos %xy : f64
  %yy = arith.mulf %y, %y : f64
  %xx = arith.mulf %x, %x : f64
  %twoy = arith.mulf %two, %y : f64
  %yysin = arith.mulf %yy, %sin : f64
  %hxx = arith.subf %twoy, %yysin : f64
  %twox = arith.mulf %two, %x : f64
  %xysin = arith.mulf %xy, %sin : f64
  %hxy0 = arith.addf %twox, %cos : f64
  %hxy = arith.subf %hxy0, %xysin : f64
  %xxsin = arith.mulf %xx, %sin : f64
  %hyy = arith.negf %xxsin : f64
  %hv0a = arith.mulf %hxx, %vx : f64
  %hv0b = arith.mulf %hxy, %vy : f64
  %hv0 = arith.addf %hv0a, %hv0b : f64
  %hv1a = arith.mulf %hxy, %vx : f64
  %hv1b = arith.mulf %hyy, %vy : f64
  %hv1 = arith.addf %hv1a, %hv1b : f64

  // 1. Forward over reverse.
  %gx, %gy, %hx, %hy = ct.jvp @grad_f(%x, %y) tangents(%vx, %vy) activity [active, active]
      : (f64, f64, f64, f64) -> (f64, f64, f64, f64)
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  func.call @ctExpectNear(%hx, %hv0, %tol, %c1) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%hy, %hv1, %tol, %c2) : (f64, f64, f64, i64) -> ()

  // 2. Reverse over reverse.
  %d, %dxx, %dxy = ct.gradient @df_dx(%x, %y) activity [active, active]
      : (f64, f64) -> (f64, f64, f64)
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  func.call @ctExpectNear(%dxx, %hxx, %tol, %c3) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%dxy, %hxy, %tol, %c4) : (f64, f64, f64, i64) -> ()

  // 3. Through a loop: H v against (grad g(p + h v) - grad g(p - h v)) / 2h.
  %ax, %ay, %bx, %by = ct.jvp @grad_g(%x, %y) tangents(%vx, %vy) activity [active, active]
      : (f64, f64, f64, f64) -> (f64, f64, f64, f64)
  %h = arith.constant 1.0e-6 : f64
  %two_h = arith.constant 2.0e-6 : f64
  %hvx = arith.mulf %h, %vx : f64
  %hvy = arith.mulf %h, %vy : f64
  %xp = arith.addf %x, %hvx : f64
  %yp = arith.addf %y, %hvy : f64
  %xm = arith.subf %x, %hvx : f64
  %ym = arith.subf %y, %hvy : f64
  %gpx, %gpy = func.call @grad_g(%xp, %yp) : (f64, f64) -> (f64, f64)
  %gmx, %gmy = func.call @grad_g(%xm, %ym) : (f64, f64) -> (f64, f64)
  %dgx = arith.subf %gpx, %gmx : f64
  %dgy = arith.subf %gpy, %gmy : f64
  %fdx = arith.divf %dgx, %two_h : f64
  %fdy = arith.divf %dgy, %two_h : f64
  %c5 = arith.constant 5 : i64
  func.call @ctExpectNear(%bx, %fdx, %fdtol, %c5) : (f64, f64, f64, i64) -> ()
  // Symmetry: w' H v = v' H w with w = (1, 0) and v as above, i.e.
  // (Hv)_x = v' (H e_x) = vx (H e_x)_x + vy (H e_x)_y.
  %zero = arith.constant 0.0 : f64
  %ex, %ey, %hex, %hey = ct.jvp @grad_g(%x, %y) tangents(%one, %zero) activity [active, active]
      : (f64, f64, f64, f64) -> (f64, f64, f64, f64)
  %s1 = arith.mulf %vx, %hex : f64
  %s2 = arith.mulf %vy, %hey : f64
  %vhe = arith.addf %s1, %s2 : f64
  %c6 = arith.constant 6 : i64
  func.call @ctExpectNear(%bx, %vhe, %tol, %c6) : (f64, f64, f64, i64) -> ()
  return
}
