// Loop-invariant loads leave scf.for loops, guarded by a non-empty trip, only
// when the loop cannot change the memory they read.
// RUN: %cotangent-opt %s --ct-hoist-invariant-loads | FileCheck %s

// c[k] is read from a local buffer while the loop writes another one.
// CHECK-LABEL: func.func @local_buffer
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi slt, %[[LB:.*]], %[[UB:.*]] : index
// CHECK: %[[C:.*]] = scf.if %[[NONEMPTY]] -> (f64) {
// CHECK-NEXT: %[[LOADED:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<8xf64>
// CHECK-NEXT: scf.yield %[[LOADED]]
// CHECK: } else {
// CHECK: scf.yield %{{.*}} : f64
// CHECK: scf.for
// CHECK-NOT: memref.load %{{.*}}[%{{.*}}] : memref<8xf64>
// CHECK: arith.mulf %{{.*}}, %[[C]]
func.func @local_buffer(%q: memref<?xf64>, %k: index, %lb: index, %ub: index) -> f64 {
  %c = memref.alloca() : memref<8xf64>
  %t = memref.alloca() : memref<8xf64>
  %c1 = arith.constant 1 : index
  scf.for %r = %lb to %ub step %c1 {
    %qr = memref.load %q[%r] : memref<?xf64>
    %ck = memref.load %c[%k] : memref<8xf64>
    %p = arith.mulf %qr, %ck : f64
    memref.store %p, %t[%r] : memref<8xf64>
  }
  %c0 = arith.constant 0 : index
  %r = memref.load %t[%c0] : memref<8xf64>
  return %r : f64
}

// The loop writes the buffer it reads: the load stays.
// CHECK-LABEL: func.func @written_in_loop
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<8xf64>
func.func @written_in_loop(%k: index, %n: index, %x: f64) {
  %c = memref.alloca() : memref<8xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %ck = memref.load %c[%k] : memref<8xf64>
    %s = arith.addf %ck, %x : f64
    memref.store %s, %c[%i] : memref<8xf64>
  }
  return
}

// Memory arguments may alias: a loop that writes one keeps its loads from
// any other.
// CHECK-LABEL: func.func @argument_written
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: memref.load %arg0[%arg2]
func.func @argument_written(%a: memref<?xf64>, %out: memref<?xf64>, %k: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %ak = memref.load %a[%k] : memref<?xf64>
    memref.store %ak, %out[%i] : memref<?xf64>
  }
  return
}
