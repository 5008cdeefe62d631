// In/out memory that the function overwrites: p[i] = sin(p[i-1]) * x + p[i]
// for i = 1..3, returning p[3]. With the shadow of p seeded with w (the
// cotangent of p's final contents) and the result seeded with s, reverse
// mode must leave in the shadow the gradient of
//   L(x, p) = s * f(x, p) + sum_i w_i * p_final_i
// with respect to p's initial contents, and return dL/dx; checked against
// central finite differences of L. Forward mode: the tangent of p's final
// contents and of the result along a direction, against differences too.
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
// CHECK: check 8: ok
// CHECK: check 9: ok
// CHECK: check 10: ok

func.func private @ctExpectNear(f64, f64, f64, i64)

func.func @smooth(%p: memref<4xf64>, %x: f64) -> f64 {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c1 to %c4 step %c1 {
    %im1 = arith.subi %i, %c1 : index
    %prev = memref.load %p[%im1] : memref<4xf64>
    %cur = memref.load %p[%i] : memref<4xf64>
    %s = math.sin %prev : f64
    %t = arith.mulf %s, %x : f64
    %n = arith.addf %t, %cur : f64
    memref.store %n, %p[%i] : memref<4xf64>
  }
  %r = memref.load %p[%c3] : memref<4xf64>
  return %r : f64
}

// The weights: w = (0.5, -1, 2, 0.25), s = 1.5.
func.func @weight(%i: index) -> f64 {
  %v = scf.index_switch %i -> f64
  case 0 {
    %w = arith.constant 0.5 : f64
    scf.yield %w : f64
  }
  case 1 {
    %w = arith.constant -1.0 : f64
    scf.yield %w : f64
  }
  case 2 {
    %w = arith.constant 2.0 : f64
    scf.yield %w : f64
  }
  default {
    %w = arith.constant 0.25 : f64
    scf.yield %w : f64
  }
  return %v : f64
}

// L as a function of x and p's initial contents.
func.func @loss(%x: f64, %p0: f64, %p1: f64, %p2: f64, %p3: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %p = memref.alloca() : memref<4xf64>
  memref.store %p0, %p[%c0] : memref<4xf64>
  memref.store %p1, %p[%c1] : memref<4xf64>
  memref.store %p2, %p[%c2] : memref<4xf64>
  memref.store %p3, %p[%c3] : memref<4xf64>
  %f = func.call @smooth(%p, %x) : (memref<4xf64>, f64) -> f64
  %s = arith.constant 1.5 : f64
  %init = arith.mulf %s, %f : f64
  %l = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> f64 {
    %w = func.call @weight(%i) : (index) -> f64
    %v = memref.load %p[%i] : memref<4xf64>
    %wv = arith.mulf %w, %v : f64
    %a = arith.addf %acc, %wv : f64
    scf.yield %a : f64
  }
  return %l : f64
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %tol = arith.constant 1.0e-7 : f64
  %h = arith.constant 1.0e-6 : f64
  %two_h = arith.constant 2.0e-6 : f64
  %x = arith.constant 0.7 : f64
  %p0 = arith.constant 0.3 : f64
  %p1 = arith.constant -0.4 : f64
  %p2 = arith.constant 1.1 : f64
  %p3 = arith.constant 0.9 : f64
  %s = arith.constant 1.5 : f64

  // Reverse mode: shadow seeded with w, result seeded with s.
  %p = memref.alloca() : memref<4xf64>
  %dp = memref.alloca() : memref<4xf64>
  memref.store %p0, %p[%c0] : memref<4xf64>
  memref.store %p1, %p[%c1] : memref<4xf64>
  memref.store %p2, %p[%c2] : memref<4xf64>
  memref.store %p3, %p[%c3] : memref<4xf64>
  scf.for %i = %c0 to %c4 step %c1 {
    %w = func.call @weight(%i) : (index) -> f64
    memref.store %w, %dp[%i] : memref<4xf64>
  }
  %v, %dx = ct.pullback @smooth(%p, %x) seeds(%s) shadows(%dp) activity [dup, active]
      : (memref<4xf64>, f64, f64, memref<4xf64>) -> (f64, f64)

  // Finite differences of L in x, then in each p_i.
  %xp = arith.addf %x, %h : f64
  %xm = arith.subf %x, %h : f64
  %lxp = func.call @loss(%xp, %p0, %p1, %p2, %p3) : (f64, f64, f64, f64, f64) -> f64
  %lxm = func.call @loss(%xm, %p0, %p1, %p2, %p3) : (f64, f64, f64, f64, f64) -> f64
  %dlx = arith.subf %lxp, %lxm : f64
  %fdx = arith.divf %dlx, %two_h : f64
  %id1 = arith.constant 1 : i64
  func.call @ctExpectNear(%dx, %fdx, %tol, %id1) : (f64, f64, f64, i64) -> ()

  %q0p = arith.addf %p0, %h : f64
  %q0m = arith.subf %p0, %h : f64
  %l0p = func.call @loss(%x, %q0p, %p1, %p2, %p3) : (f64, f64, f64, f64, f64) -> f64
  %l0m = func.call @loss(%x, %q0m, %p1, %p2, %p3) : (f64, f64, f64, f64, f64) -> f64
  %d0 = arith.subf %l0p, %l0m : f64
  %fd0 = arith.divf %d0, %two_h : f64
  %g0 = memref.load %dp[%c0] : memref<4xf64>
  %id2 = arith.constant 2 : i64
  func.call @ctExpectNear(%g0, %fd0, %tol, %id2) : (f64, f64, f64, i64) -> ()

  %q1p = arith.addf %p1, %h : f64
  %q1m = arith.subf %p1, %h : f64
  %l1p = func.call @loss(%x, %p0, %q1p, %p2, %p3) : (f64, f64, f64, f64, f64) -> f64
  %l1m = func.call @loss(%x, %p0, %q1m, %p2, %p3) : (f64, f64, f64, f64, f64) -> f64
  %d1 = arith.subf %l1p, %l1m : f64
  %fd1 = arith.divf %d1, %two_h : f64
  %g1 = memref.load %dp[%c1] : memref<4xf64>
  %id3 = arith.constant 3 : i64
  func.call @ctExpectNear(%g1, %fd1, %tol, %id3) : (f64, f64, f64, i64) -> ()

  %q2p = arith.addf %p2, %h : f64
  %q2m = arith.subf %p2, %h : f64
  %l2p = func.call @loss(%x, %p0, %p1, %q2p, %p3) : (f64, f64, f64, f64, f64) -> f64
  %l2m = func.call @loss(%x, %p0, %p1, %q2m, %p3) : (f64, f64, f64, f64, f64) -> f64
  %d2 = arith.subf %l2p, %l2m : f64
  %fd2 = arith.divf %d2, %two_h : f64
  %g2 = memref.load %dp[%c2] : memref<4xf64>
  %id4 = arith.constant 4 : i64
  func.call @ctExpectNear(%g2, %fd2, %tol, %id4) : (f64, f64, f64, i64) -> ()

  %q3p = arith.addf %p3, %h : f64
  %q3m = arith.subf %p3, %h : f64
  %l3p = func.call @loss(%x, %p0, %p1, %p2, %q3p) : (f64, f64, f64, f64, f64) -> f64
  %l3m = func.call @loss(%x, %p0, %p1, %p2, %q3m) : (f64, f64, f64, f64, f64) -> f64
  %d3 = arith.subf %l3p, %l3m : f64
  %fd3 = arith.divf %d3, %two_h : f64
  %g3 = memref.load %dp[%c3] : memref<4xf64>
  %id5 = arith.constant 5 : i64
  func.call @ctExpectNear(%g3, %fd3, %tol, %id5) : (f64, f64, f64, i64) -> ()

  // Forward mode along (dx, dp) = (1, e_1): the tangent of L is the
  // directional derivative, which the reverse results give as dx + dp[1].
  %q = memref.alloca() : memref<4xf64>
  %tq = memref.alloca() : memref<4xf64>
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  memref.store %p0, %q[%c0] : memref<4xf64>
  memref.store %p1, %q[%c1] : memref<4xf64>
  memref.store %p2, %q[%c2] : memref<4xf64>
  memref.store %p3, %q[%c3] : memref<4xf64>
  memref.store %zero, %tq[%c0] : memref<4xf64>
  memref.store %one, %tq[%c1] : memref<4xf64>
  memref.store %zero, %tq[%c2] : memref<4xf64>
  memref.store %zero, %tq[%c3] : memref<4xf64>
  %fv, %ft = ct.jvp @smooth(%q, %x) tangents(%tq, %one) activity [dup, active]
      : (memref<4xf64>, f64, memref<4xf64>, f64) -> (f64, f64)
  // tangent of L = s * ft + sum_i w_i tq_final_i
  %sft = arith.mulf %s, %ft : f64
  %tl = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %sft) -> f64 {
    %w = func.call @weight(%i) : (index) -> f64
    %t = memref.load %tq[%i] : memref<4xf64>
    %wt = arith.mulf %w, %t : f64
    %a = arith.addf %acc, %wt : f64
    scf.yield %a : f64
  }
  %dir = arith.addf %fdx, %fd1 : f64
  %id6 = arith.constant 6 : i64
  func.call @ctExpectNear(%tl, %dir, %tol, %id6) : (f64, f64, f64, i64) -> ()
  // The primal results of both modes agree with a plain call.
  %r = memref.alloca() : memref<4xf64>
  memref.store %p0, %r[%c0] : memref<4xf64>
  memref.store %p1, %r[%c1] : memref<4xf64>
  memref.store %p2, %r[%c2] : memref<4xf64>
  memref.store %p3, %r[%c3] : memref<4xf64>
  %plain = func.call @smooth(%r, %x) : (memref<4xf64>, f64) -> f64
  %id7 = arith.constant 7 : i64
  func.call @ctExpectNear(%v, %plain, %tol, %id7) : (f64, f64, f64, i64) -> ()
  %id8 = arith.constant 8 : i64
  func.call @ctExpectNear(%fv, %plain, %tol, %id8) : (f64, f64, f64, i64) -> ()
  // Both modes leave p's final contents as the primal does.
  %pf = memref.load %p[%c2] : memref<4xf64>
  %rf = memref.load %r[%c2] : memref<4xf64>
  %id9 = arith.constant 9 : i64
  func.call @ctExpectNear(%pf, %rf, %tol, %id9) : (f64, f64, f64, i64) -> ()
  %qf = memref.load %q[%c2] : memref<4xf64>
  %id10 = arith.constant 10 : i64
  func.call @ctExpectNear(%qf, %rf, %tol, %id10) : (f64, f64, f64, i64) -> ()
  return
}
