// Custom rules replace differentiation of a body. log1pexp(x) = log(1+e^x)
// in f32 overflows at x = 100 (e^100 > FLT_MAX), so differentiating its body
// gives inf/inf = NaN; the rules use the stable sigmoid 1/(1+e^-x) and give
// 1. The rules are called from inside another function (a loop over a
// buffer), in both modes; the derivative of the sum over the buffer is the
// sum of sigmoids.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup %lower-to-llvm \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s --implicit-check-not=FAIL
// CHECK-NOT: FAIL
// CHECK: check 1: ok
// CHECK: check 2: ok
// CHECK: check 3: ok
// CHECK: check 4: ok
// CHECK: check 5: ok

func.func private @ctExpectNear(f64, f64, f64, i64)

func.func @log1pexp(%x: f32) -> f32 {
  %e = math.exp %x : f32
  %r = math.log1p %e : f32
  return %r : f32
}

func.func @sigmoid(%x: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %n = arith.negf %x : f32
  %e = math.exp %n : f32
  %d = arith.addf %one, %e : f32
  %s = arith.divf %one, %d : f32
  return %s : f32
}

func.func @log1pexp_pullback(%x: f32, %seed: f32) -> f32 {
  %s = func.call @sigmoid(%x) : (f32) -> f32
  %r = arith.mulf %s, %seed : f32
  return %r : f32
}

func.func @log1pexp_jvp(%x: f32, %t: f32) -> (f32, f32) {
  %v = func.call @log1pexp(%x) : (f32) -> f32
  %s = func.call @sigmoid(%x) : (f32) -> f32
  %dv = arith.mulf %s, %t : f32
  return %v, %dv : f32, f32
}

ct.custom_gradient @log1pexp pullback @log1pexp_pullback
ct.custom_jvp @log1pexp jvp @log1pexp_jvp

// sum_i log1pexp(x * p[i])
func.func @total(%x: f32, %p: memref<3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %p[%i] : memref<3xf32>
    %xv = arith.mulf %x, %v : f32
    %l = func.call @log1pexp(%xv) : (f32) -> f32
    %a = arith.addf %acc, %l : f32
    scf.yield %a : f32
  }
  return %r : f32
}

func.func @main() {
  %tol = arith.constant 1.0e-6 : f64
  %one = arith.constant 1.0 : f32
  %x = arith.constant 100.0 : f32
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c5 = arith.constant 5 : i64
  %expected = arith.constant 1.0 : f64

  %v, %dx = ct.gradient @log1pexp(%x) activity [active] : (f32) -> (f32, f32)
  %dx64 = arith.extf %dx : f32 to f64
  func.call @ctExpectNear(%dx64, %expected, %tol, %c1) : (f64, f64, f64, i64) -> ()
  %w, %tx = ct.jvp @log1pexp(%x) tangents(%one) activity [active] : (f32, f32) -> (f32, f32)
  %tx64 = arith.extf %tx : f32 to f64
  func.call @ctExpectNear(%tx64, %expected, %tol, %c2) : (f64, f64, f64, i64) -> ()

  // d/dx sum_i log1pexp(x p_i) = sum_i p_i sigmoid(x p_i), at x = 2,
  // p = (50, -0.5, 1): about 50 + (-0.5)(0.2689414) + 0.8807971.
  %c0i = arith.constant 0 : index
  %c1i = arith.constant 1 : index
  %c2i = arith.constant 2 : index
  %p = memref.alloca() : memref<3xf32>
  %dp = memref.alloca() : memref<3xf32>
  %tp = memref.alloca() : memref<3xf32>
  %p0 = arith.constant 50.0 : f32
  %p1 = arith.constant -0.5 : f32
  %p2 = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  memref.store %p0, %p[%c0i] : memref<3xf32>
  memref.store %p1, %p[%c1i] : memref<3xf32>
  memref.store %p2, %p[%c2i] : memref<3xf32>
  memref.store %zero, %dp[%c0i] : memref<3xf32>
  memref.store %zero, %dp[%c1i] : memref<3xf32>
  memref.store %zero, %dp[%c2i] : memref<3xf32>
  memref.store %zero, %tp[%c0i] : memref<3xf32>
  memref.store %zero, %tp[%c1i] : memref<3xf32>
  memref.store %zero, %tp[%c2i] : memref<3xf32>
  %two = arith.constant 2.0 : f32
  %tv, %tdx = ct.gradient @total(%two, %p) shadows(%dp) activity [active, dup]
      : (f32, memref<3xf32>, memref<3xf32>) -> (f32, f32)
  %s0 = func.call @sigmoid(%p0) : (f32) -> f32
  %xm = arith.mulf %two, %p1 : f32
  %s1 = func.call @sigmoid(%xm) : (f32) -> f32
  %s2 = func.call @sigmoid(%two) : (f32) -> f32
  %t0 = arith.mulf %p0, %s0 : f32
  %t1 = arith.mulf %p1, %s1 : f32
  %t2 = arith.mulf %p2, %s2 : f32
  %t01 = arith.addf %t0, %t1 : f32
  %sum = arith.addf %t01, %t2 : f32
  %sum64 = arith.extf %sum : f32 to f64
  %tdx64 = arith.extf %tdx : f32 to f64
  func.call @ctExpectNear(%tdx64, %sum64, %tol, %c3) : (f64, f64, f64, i64) -> ()
  // d/dp_1 = x sigmoid(x p_1)
  %dp1 = memref.load %dp[%c1i] : memref<3xf32>
  %dp1_64 = arith.extf %dp1 : f32 to f64
  %e1 = arith.mulf %two, %s1 : f32
  %e1_64 = arith.extf %e1 : f32 to f64
  func.call @ctExpectNear(%dp1_64, %e1_64, %tol, %c4) : (f64, f64, f64, i64) -> ()
  %fv, %ft = ct.jvp @total(%two, %p) tangents(%one, %tp) activity [active, dup]
      : (f32, memref<3xf32>, f32, memref<3xf32>) -> (f32, f32)
  %ft64 = arith.extf %ft : f32 to f64
  func.call @ctExpectNear(%ft64, %sum64, %tol, %c5) : (f64, f64, f64, i64) -> ()
  return
}
