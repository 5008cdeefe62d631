// A split rule (ct.custom_vjp): the forward half returns the value and a
// residual that the backward half uses: d/dx x^3 = 3 x^2 with the residual
// x^2. Called directly; in a loop that sums (reversed in place: the
// backward half runs in the same iteration, with the residual at hand); in
// that loop squared (the loop is in a callee split into halves, and the
// residuals go on the tape); and under forward over reverse (an HVP
// through the rule: d^2/dx^2 x^3 = 6x, since the rule's halves are
// ordinary code). The IR checks show that the rule, not @cube's body, is
// what runs.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup %lower-to-llvm \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s --implicit-check-not=FAIL
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func private @sum_cubes.rev.ac
// IR: scf.for
// IR:   %[[RES:.*]] = ct.tape_pop %{{.*}} : f64
// IR:   func.call @cube_bwd(%[[RES]], %{{.*}}, %{{.*}}) : (f64, f64, f64) -> f64
// IR-LABEL: func.func private @sum_cubes.fwd.ac
// IR: scf.for
// IR:   %[[R:.*]]:2 = func.call @cube_fwd(
// IR:   ct.tape_push %{{.*}}, %[[R]]#1 : f64
// IR-LABEL: func.func private @sum_cubes.pullback.ac
// IR-NOT: ct.tape_init
// IR: scf.for
// IR:   %[[R:.*]]:2 = func.call @cube_fwd(
// IR:   func.call @cube_bwd(%[[R]]#1, %{{.*}}, %{{.*}}) : (f64, f64, f64) -> f64
// CHECK-NOT: FAIL
// CHECK: check 1: ok
// CHECK: check 2: ok
// CHECK: check 3: ok
// CHECK: check 5: ok
// CHECK: check 4: ok

func.func private @ctExpectNear(f64, f64, f64, i64)

func.func @cube(%x: f64) -> f64 {
  %xx = arith.mulf %x, %x : f64
  %xxx = arith.mulf %xx, %x : f64
  return %xxx : f64
}

func.func @cube_fwd(%x: f64) -> (f64, f64) {
  %xx = arith.mulf %x, %x : f64
  %xxx = arith.mulf %xx, %x : f64
  return %xxx, %xx : f64, f64
}

func.func @cube_bwd(%xx: f64, %x: f64, %seed: f64) -> f64 {
  %three = arith.constant 3.0 : f64
  %a = arith.mulf %three, %xx : f64
  %d = arith.mulf %a, %seed : f64
  return %d : f64
}

ct.custom_vjp @cube forward @cube_fwd backward @cube_bwd

// sum_{k<n} cube(x + k): derivative sum 3 (x + k)^2
func.func @sum_cubes(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f64
    %xk = arith.addf %x, %kf : f64
    %c = func.call @cube(%xk) : (f64) -> f64
    %a = arith.addf %acc, %c : f64
    scf.yield %a : f64
  }
  return %r : f64
}

// sum_cubes(x, n)^2: derivative 2 sum_cubes(x, n) sum_cubes'(x, n).
func.func @squared_sum_cubes(%x: f64, %n: index) -> f64 {
  %s = func.call @sum_cubes(%x, %n) : (f64, index) -> f64
  %s2 = arith.mulf %s, %s : f64
  return %s2 : f64
}

func.func @dcube(%x: f64) -> f64 {
  %v, %d = ct.gradient @cube(%x) activity [active] : (f64) -> (f64, f64)
  return %d : f64
}

func.func @main() {
  %tol = arith.constant 1.0e-12 : f64
  %x = arith.constant 1.5 : f64
  %one = arith.constant 1.0 : f64
  %three = arith.constant 3.0 : f64
  %six = arith.constant 6.0 : f64
  %n = arith.constant 4 : index
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  // Direct: value x^3, derivative 3 x^2.
  %v, %d = ct.gradient @cube(%x) activity [active] : (f64) -> (f64, f64)
  %xx = arith.mulf %x, %x : f64
  %xxx = arith.mulf %xx, %x : f64
  %e = arith.mulf %three, %xx : f64
  func.call @ctExpectNear(%v, %xxx, %tol, %c1) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%d, %e, %tol, %c2) : (f64, f64, f64, i64) -> ()
  // In a loop: 3 sum_k (x + k)^2 = 3 (4x^2 + 12x + 14) for k = 0..3.
  %w, %ds = ct.gradient @sum_cubes(%x, %n) activity [active, const] : (f64, index) -> (f64, f64)
  %four = arith.constant 4.0 : f64
  %twelve = arith.constant 12.0 : f64
  %fourteen = arith.constant 14.0 : f64
  %t1 = arith.mulf %four, %xx : f64
  %t2 = arith.mulf %twelve, %x : f64
  %t3 = arith.addf %t1, %t2 : f64
  %t4 = arith.addf %t3, %fourteen : f64
  %es = arith.mulf %three, %t4 : f64
  func.call @ctExpectNear(%ds, %es, %tol, %c3) : (f64, f64, f64, i64) -> ()
  // Squared: 2 w ds.
  %q, %dq = ct.gradient @squared_sum_cubes(%x, %n) activity [active, const] : (f64, index) -> (f64, f64)
  %two = arith.constant 2.0 : f64
  %wes = arith.mulf %w, %es : f64
  %eq = arith.mulf %two, %wes : f64
  %c5 = arith.constant 5 : i64
  func.call @ctExpectNear(%dq, %eq, %tol, %c5) : (f64, f64, f64, i64) -> ()
  // Second order through the rule: d/dx (3 x^2) = 6x.
  %g, %h = ct.jvp @dcube(%x) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %eh = arith.mulf %six, %x : f64
  func.call @ctExpectNear(%h, %eh, %tol, %c4) : (f64, f64, f64, i64) -> ()
  return
}
