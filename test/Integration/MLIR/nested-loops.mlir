// Nested loops with a triangular, data-dependent inner trip count: the
// inner loop of outer iteration i runs i times, so the tape interleaves
// entries of both levels and the inner reservation differs per iteration.
//   s = sum_{i<n} sum_{j<i} sin(x * a_j) * y^i   (a_j = j + 1)
// computed with both sums carried in loops, against closed form
//   ds/dx = sum_i y^i sum_{j<i} a_j cos(x a_j)
//   ds/dy = sum_i i y^(i-1) sum_{j<i} sin(x a_j)
// evaluated by a separate straightforward loop nest.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup %lower-to-llvm \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s --implicit-check-not=FAIL
// CHECK-NOT: FAIL
// CHECK: check 1: ok
// CHECK: check 2: ok
// CHECK: check 3: ok
// CHECK: check 4: ok

func.func private @ctExpectNear(f64, f64, f64, i64)

func.func @s(%x: f64, %y: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %yi = %one) -> (f64, f64) {
    %inner = scf.for %j = %c0 to %i step %c1 iter_args(%in = %zero) -> f64 {
      %j1 = arith.addi %j, %c1 : index
      %ji = arith.index_cast %j1 : index to i64
      %a = arith.sitofp %ji : i64 to f64
      %xa = arith.mulf %x, %a : f64
      %sn = math.sin %xa : f64
      %t = arith.addf %in, %sn : f64
      scf.yield %t : f64
    }
    %term = arith.mulf %inner, %yi : f64
    %next = arith.addf %acc, %term : f64
    %yn = arith.mulf %yi, %y : f64
    scf.yield %next, %yn : f64, f64
  }
  return %r#0 : f64
}

// The closed-form partials, by plain loops.
func.func @expected(%x: f64, %y: f64, %n: index) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%dx = %zero, %dy = %zero) -> (f64, f64) {
    %sums:2 = scf.for %j = %c0 to %i step %c1 iter_args(%sc = %zero, %ss = %zero) -> (f64, f64) {
      %j1 = arith.addi %j, %c1 : index
      %ji = arith.index_cast %j1 : index to i64
      %a = arith.sitofp %ji : i64 to f64
      %xa = arith.mulf %x, %a : f64
      %c = math.cos %xa : f64
      %ac = arith.mulf %a, %c : f64
      %s = math.sin %xa : f64
      %sc1 = arith.addf %sc, %ac : f64
      %ss1 = arith.addf %ss, %s : f64
      scf.yield %sc1, %ss1 : f64, f64
    }
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f64
    %yi = math.powf %y, %if : f64
    %t1 = arith.mulf %yi, %sums#0 : f64
    %dx1 = arith.addf %dx, %t1 : f64
    %one = arith.constant 1.0 : f64
    %im1 = arith.subf %if, %one : f64
    %yim1 = math.powf %y, %im1 : f64
    %iy = arith.mulf %if, %yim1 : f64
    %t2 = arith.mulf %iy, %sums#1 : f64
    %dy1 = arith.addf %dy, %t2 : f64
    scf.yield %dx1, %dy1 : f64, f64
  }
  return %r#0, %r#1 : f64, f64
}

func.func @main() {
  %tol = arith.constant 1.0e-10 : f64
  %x = arith.constant 0.37 : f64
  %y = arith.constant 0.9 : f64
  %n = arith.constant 40 : index
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %ex, %ey = func.call @expected(%x, %y, %n) : (f64, f64, index) -> (f64, f64)
  %v, %dx, %dy = ct.gradient @s(%x, %y, %n) activity [active, active, const]
      : (f64, f64, index) -> (f64, f64, f64)
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  func.call @ctExpectNear(%dx, %ex, %tol, %c1) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%dy, %ey, %tol, %c2) : (f64, f64, f64, i64) -> ()
  %w1, %tx = ct.jvp @s(%x, %y, %n) tangents(%one, %zero) activity [active, active, const]
      : (f64, f64, index, f64, f64) -> (f64, f64)
  %w2, %ty = ct.jvp @s(%x, %y, %n) tangents(%zero, %one) activity [active, active, const]
      : (f64, f64, index, f64, f64) -> (f64, f64)
  func.call @ctExpectNear(%tx, %ex, %tol, %c3) : (f64, f64, f64, i64) -> ()
  func.call @ctExpectNear(%ty, %ey, %tol, %c4) : (f64, f64, f64, i64) -> ()
  return
}
