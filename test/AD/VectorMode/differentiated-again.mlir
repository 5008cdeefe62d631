// A vector-mode derivative differentiated again: its lanes are vectors of
// floats, differentiated elementwise like scalars; its whole-lane loads and
// stores become element accesses first; the ops that move values between
// scalars and lanes have linear rules (each one's tangent is itself on the
// tangents, its reverse its transpose); a vector the reverse sweep needs
// from inside a loop is taped one lane per slot.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s
// RUN: %cotangent-opt %s --ct-differentiate="eager-loops=false recompute-values=false" %ad-cleanup | FileCheck %s --check-prefix=TAPE

// What vector mode makes: lanes loaded from and stored to memory with a
// lane dimension, a scalar broadcast to every lane, one lane, the sum of
// the lanes, and a vector of scalars.
func.func @lanes(%x: f64, %t: memref<?x3xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = vector.load %t[%c0, %c0] : memref<?x3xf64>, vector<3xf64>
  %b = vector.broadcast %x : f64 to vector<3xf64>
  %m = arith.mulf %b, %v : vector<3xf64>
  %e = vector.extract %m[1] : f64 from vector<3xf64>
  %s = vector.reduction <add>, %m : vector<3xf64> into f64
  %w = vector.from_elements %e, %s, %x : vector<3xf64>
  %i = vector.insert %x, %m[2] : f64 into vector<3xf64>
  %u = arith.mulf %w, %i : vector<3xf64>
  vector.store %u, %t[%c1, %c0] : memref<?x3xf64>, vector<3xf64>
  %r = arith.mulf %e, %s : f64
  return %r : f64
}

// Forward mode: the same ops on the tangents.
// CHECK-LABEL: func.func private @lanes.jvp.ad(
// CHECK-NOT: vector.load
// CHECK-DAG: vector.broadcast %arg2 : f64 to vector<3xf64>
// CHECK-DAG: vector.reduction <add>
// CHECK-DAG: vector.insert %arg2, %{{.*}} [2] : f64 into vector<3xf64>
// CHECK-DAG: vector.from_elements
// CHECK: return

// Reverse mode: every access is an element access of the shadow; the
// broadcast's adjoint is the sum of its lanes', the extracted lane's is
// placed among zeros, the sum's adjoint is broadcast, the vector of
// scalars is split into lanes.
// CHECK-LABEL: func.func private @lanes.pullback.ad(
// CHECK-NOT: vector.load
// CHECK-NOT: vector.store
// CHECK-DAG: vector.reduction <add>
// CHECK-DAG: vector.insert %{{.*}}, %{{.*}} [1] : f64 into vector<3xf64>
// CHECK-DAG: vector.insert %{{.*}}, %{{.*}} [2] : f64 into vector<3xf64>
// CHECK-DAG: vector.broadcast %{{.*}} : f64 to vector<3xf64>
// CHECK-DAG: vector.extract %{{.*}}[0] : f64 from vector<3xf64>
// CHECK-DAG: memref.store %{{.*}}, %arg3[%c1, %c2] : memref<?x3xf64>
// CHECK: return

// A vector made in each iteration and needed by the reverse sweep.
func.func @loop(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %a = arith.mulf %acc, %x : f64
    %v = vector.from_elements %a, %x, %acc : vector<3xf64>
    %sq = arith.mulf %v, %v : vector<3xf64>
    %s = vector.reduction <add>, %sq : vector<3xf64> into f64
    %next = arith.addf %s, %x : f64
    scf.yield %next : f64
  }
  return %r : f64
}

// Taped: one slot per lane (the lanes' extractions fold to the scalars the
// vector was made of), popped last lane first.
// TAPE-LABEL: func.func private @loop.pullback.ac(
// TAPE: scf.for
// TAPE: %[[A:.*]] = arith.mulf %arg4, %arg0 : f64
// TAPE: ct.tape_push %{{.*}}, %[[A]] : f64
// TAPE-NEXT: ct.tape_push %{{.*}}, %arg0 : f64
// TAPE-NEXT: ct.tape_push %{{.*}}, %arg4 : f64
// TAPE: scf.for
// TAPE: ct.tape_pop
// TAPE-NEXT: %[[P2:.*]] = ct.tape_pop %{{.*}} : f64
// TAPE-NEXT: %[[P1:.*]] = ct.tape_pop %{{.*}} : f64
// TAPE-NEXT: %[[P0:.*]] = ct.tape_pop %{{.*}} : f64
// TAPE-NEXT: vector.from_elements %[[P0]], %[[P1]], %[[P2]] : vector<3xf64>

// Lanes of lanes, differentiated again: a broadcast of lanes along outer
// lanes reverses to the sum over the outer ones, a transpose to the inverse
// transpose, an extraction of a row to its insertion among zeros.
// CHECK-LABEL: func.func private @nested.pullback.aa(
// CHECK-DAG: vector.insert %{{.*}}, %{{.*}} [1] : vector<2xf64> into vector<3x2xf64>
// CHECK-DAG: vector.transpose %{{.*}}, [1, 0] : vector<3x2xf64> to vector<2x3xf64>
// CHECK-DAG: vector.extract %{{.*}}[1] : vector<3xf64> from vector<2x3xf64>
// CHECK-DAG: vector.extract %{{.*}}[2] : vector<2xf64> from vector<3x2xf64>
// CHECK: return
func.func @nested(%x: f64, %y: f64) -> f64 {
  %lanes = vector.broadcast %x : f64 to vector<2xf64>
  %outer = vector.broadcast %lanes : vector<2xf64> to vector<3x2xf64>
  %row = vector.broadcast %y : f64 to vector<3xf64>
  %spread = vector.broadcast %row : vector<3xf64> to vector<2x3xf64>
  %t = vector.transpose %spread, [1, 0] : vector<2x3xf64> to vector<3x2xf64>
  %m = arith.mulf %outer, %t : vector<3x2xf64>
  %one = vector.extract %m[1] : vector<2xf64> from vector<3x2xf64>
  %s = vector.reduction <add>, %one : vector<2xf64> into f64
  return %s : f64
}

func.func @requests(%x: f64, %t: memref<?x3xf64>, %dt: memref<?x3xf64>,
                    %n: index) -> (f64, f64, f64, f64) {
  %one = arith.constant 1.0 : f64
  %g:2 = ct.pullback @lanes(%x, %t) seeds(%one) shadows(%dt) activity [active, dup] : (f64, memref<?x3xf64>, f64, memref<?x3xf64>) -> (f64, f64)
  %y:2 = ct.jvp @lanes(%x, %t) tangents(%one, %dt) activity [active, dup] : (f64, memref<?x3xf64>, f64, memref<?x3xf64>) -> (f64, f64)
  %h:2 = ct.pullback @loop(%x, %n) seeds(%one) activity [active, const] : (f64, index, f64) -> (f64, f64)
  %nd:3 = ct.pullback @nested(%x, %x) seeds(%one) activity [active, active] : (f64, f64, f64) -> (f64, f64, f64)
  %sum = arith.addf %h#1, %nd#1 : f64
  return %g#1, %y#0, %y#1, %sum : f64, f64, f64, f64
}
