// Vector mode widens a generated derivative after the fact: the derivative
// values (seeds, adjoints, shadows, tangents) carry K lanes, the primal code
// is left as it is and runs once, and primal values that meet lanes are
// broadcast.
// RUN: %cotangent-opt %s --ct-differentiate | FileCheck %s

// f(x, p) = sum_i sin(p[i]) * x: a loop, memory and a scalar.
func.func @f(%x: f64, %p: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %p[%i] : memref<?xf64>
    %s = math.sin %v : f64
    %m = arith.mulf %s, %x : f64
    %a = arith.addf %acc, %m : f64
    scf.yield %a : f64
  }
  return %r : f64
}

// Forward mode, 3 tangents: a tangent loop-carried value is a vector.
// CHECK-LABEL: func.func private @f.jvp.adc.lanes3.sssww.sw
// CHECK: scf.for {{.*}} -> (f64, vector<3xf64>)
// CHECK:   vector.load %{{.*}} : memref<?x3xf64>, vector<3xf64>
// CHECK:   math.sin %{{.*}} : f64

// Reverse mode, 4 seeds: the shadow of p gains a lane dimension, x's
// adjoint is a vector; sin and its partial stay scalar.
// CHECK-LABEL: func.func private @f.pullback.adc.lanes4.sssww.sw
// CHECK-SAME: (%{{.*}}: f64, %{{.*}}: memref<?xf64>, %{{.*}}: index, %[[SEED:.*]]: vector<4xf64>, %[[DP:.*]]: memref<?x4xf64>) -> (f64, vector<4xf64>)
// CHECK: scf.for
// CHECK:   math.sin %{{.*}} : f64
// CHECK:   %[[COS:.*]] = math.cos %{{.*}} : f64
// CHECK:   %[[B:.*]] = vector.broadcast %{{.*}} : f64 to vector<4xf64>
// CHECK:   %[[OLD:.*]] = vector.load %[[DP]][%{{.*}}, %{{.*}}] : memref<?x4xf64>, vector<4xf64>
// CHECK:   vector.store %{{.*}}, %[[DP]][%{{.*}}, %{{.*}}] : memref<?x4xf64>, vector<4xf64>
// The requests become calls of the widened derivatives.
// CHECK-LABEL: func.func @reverse
// CHECK: call @f.pullback.adc.lanes4.sssww.sw
func.func @reverse(%x: f64, %p: memref<?xf64>, %n: index, %s: vector<4xf64>,
                   %dp: memref<?x4xf64>) -> (f64, vector<4xf64>) {
  %v, %dx = ct.pullback @f(%x, %p, %n) seeds(%s) shadows(%dp) lanes 4
      activity [active, dup, const]
      : (f64, memref<?xf64>, index, vector<4xf64>, memref<?x4xf64>)
        -> (f64, vector<4xf64>)
  return %v, %dx : f64, vector<4xf64>
}

func.func @forward(%x: f64, %p: memref<?xf64>, %n: index, %tx: vector<3xf64>,
                   %tp: memref<?x3xf64>) -> (f64, vector<3xf64>) {
  %v, %t = ct.jvp @f(%x, %p, %n) tangents(%tx, %tp) lanes 3
      activity [active, dup, const]
      : (f64, memref<?xf64>, index, vector<3xf64>, memref<?x3xf64>)
        -> (f64, vector<3xf64>)
  return %v, %t : f64, vector<3xf64>
}

// Forward over reverse (the Hessian's columns, 2 at a time): the tangents
// of the values the reverse sweep takes from the tape travel on a tangent
// tape, one slot per lane; the primal tape stays scalar. The recurrence
// s <- s * sin(x) + y keeps every s on the tape.
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
// The forward mode of r's pullback, widened: its primal tape %[[T]] keeps
// one scalar per push, its tangent tape %[[DT]] one slot per lane.
// CHECK-LABEL: func.func private @r.pullback.aac.jvp.aacc.lanes2.ssssww.ssswww
// CHECK: %[[T:.*]] = ct.tape_init
// CHECK: %[[DT:.*]] = ct.tape_init
// CHECK: ct.tape_push %[[T]], %{{.*}} : f64
// CHECK: %[[L0:.*]] = vector.extract %[[V:.*]][0] : f64 from vector<2xf64>
// CHECK: ct.tape_push %[[DT]], %[[L0]] : f64
// CHECK: %[[L1:.*]] = vector.extract %[[V]][1] : f64 from vector<2xf64>
// CHECK: ct.tape_push %[[DT]], %[[L1]] : f64
// CHECK: ct.tape_pop %[[T]] : f64
// CHECK: %[[P1:.*]] = ct.tape_pop %[[DT]] : f64
// CHECK: %[[P0:.*]] = ct.tape_pop %[[DT]] : f64
// CHECK: vector.from_elements %[[P0]], %[[P1]] : vector<2xf64>
// CHECK-LABEL: func.func private @g.jvp.aac.lanes2.sssww.ssww
// CHECK: call @r.pullback.aac.jvp.aacc.lanes2.ssssww.ssswww
func.func @hessian(%x: f64, %y: f64, %n: index, %tx: vector<2xf64>,
                    %ty: vector<2xf64>)
    -> (f64, f64, vector<2xf64>, vector<2xf64>) {
  %gx, %gy, %hx, %hy = ct.jvp @g(%x, %y, %n) tangents(%tx, %ty) lanes 2
      activity [active, active, const]
      : (f64, f64, index, vector<2xf64>, vector<2xf64>)
        -> (f64, f64, vector<2xf64>, vector<2xf64>)
  return %gx, %gy, %hx, %hy : f64, f64, vector<2xf64>, vector<2xf64>
}
