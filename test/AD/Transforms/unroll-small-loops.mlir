// Loops with a small constant trip count become straight-line code; long or
// dynamic loops stay.
// RUN: %cotangent-opt %s --ct-unroll-small-loops --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @three
// CHECK-NOT: scf.for
// CHECK-COUNT-3: memref.store
// CHECK-NOT: scf.for
// CHECK: return
func.func @three(%p: memref<3xf64>, %x: f64) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  scf.for %i = %c0 to %c3 step %c1 : i32 {
    %k = arith.index_cast %i : i32 to index
    memref.store %x, %p[%k] : memref<3xf64>
  }
  return
}

// CHECK-LABEL: func.func @long
// CHECK: scf.for
func.func @long(%p: memref<100xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.for %i = %c0 to %c100 step %c1 {
    memref.store %x, %p[%i] : memref<100xf64>
  }
  return
}

// CHECK-LABEL: func.func @dynamic
// CHECK: scf.for
func.func @dynamic(%p: memref<?xf64>, %x: f64, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    memref.store %x, %p[%i] : memref<?xf64>
  }
  return
}

// A short loop whose body is large once unrolled stays a loop.
// CHECK-LABEL: func.func @big_body
// CHECK: scf.for
func.func @big_body(%p: memref<8xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %a = math.sin %x : f64
    %b = math.sin %a : f64
    %c = math.sin %b : f64
    %d = math.sin %c : f64
    %e = math.sin %d : f64
    %f = math.sin %e : f64
    %g = math.sin %f : f64
    %h = math.sin %g : f64
    %j = math.sin %h : f64
    %k = math.sin %j : f64
    %l = math.sin %k : f64
    %m = math.sin %l : f64
    %n = math.sin %m : f64
    %o = math.sin %n : f64
    %q = math.sin %o : f64
    %r = math.sin %q : f64
    memref.store %r, %p[%i] : memref<8xf64>
  }
  return
}
