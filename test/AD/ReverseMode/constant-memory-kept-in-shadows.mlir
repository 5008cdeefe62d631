// Constant memory a request gives whose address the function keeps beside
// addresses of memory with derivatives, read back and given to a function
// that is not inlined (a recursive one), which could not tell it from
// memory with a derivative: the request gives it a zeroed scratch shadow
// instead (a dup argument, its derivative discarded), made before the call
// of the pullback and freed after it (Differentiate.cpp,
// shadowConstantMemoryKeptInShadows). Forward mode gives it a zeroed
// scratch tangent the same way.
// RUN: %cotangent-opt %s --ct-differentiate --canonicalize | FileCheck %s

func.func @kept(%x: memref<?xf64, strided<[1], offset: ?>>, %c: memref<?xf64, strided<[1], offset: ?>>, %n: i32) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %holders = memref.alloca() : memref<2xf64>
  ct.store_address %x, %holders[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<2xf64>
  ct.store_address %c, %holders[%c1] : memref<?xf64, strided<[1], offset: ?>>, memref<2xf64>
  %sum = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %zero) -> (f64) {
    %p = ct.load_address %holders[%i] : memref<2xf64> -> memref<?xf64, strided<[1], offset: ?>>
    %t = func.call @total(%p, %n) : (memref<?xf64, strided<[1], offset: ?>>, i32) -> f64
    %next = arith.addf %s, %t : f64
    scf.yield %next : f64
  }
  return %sum : f64
}

func.func private @total(%p: memref<?xf64, strided<[1], offset: ?>>, %n: i32) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %fzero = arith.constant 0.0 : f64
  %done = arith.cmpi eq, %n, %zero : i32
  %r = scf.if %done -> (f64) {
    scf.yield %fzero : f64
  } else {
    %v = memref.load %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
    %sq = arith.mulf %v, %v : f64
    %dim = memref.dim %p, %c0 : memref<?xf64, strided<[1], offset: ?>>
    %rest = arith.subi %dim, %c1 : index
    %tail = memref.subview %p[1] [%rest] [1] : memref<?xf64, strided<[1], offset: ?>> to memref<?xf64, strided<[1], offset: ?>>
    %m = arith.subi %n, %one : i32
    %t = func.call @total(%tail, %m) : (memref<?xf64, strided<[1], offset: ?>>, i32) -> f64
    %s = arith.addf %sq, %t : f64
    scf.yield %s : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func @gradient
// CHECK-SAME: (%[[X:[a-z0-9]+]]: memref<?xf64{{.*}}>, %[[C:[a-z0-9]+]]: memref<?xf64{{.*}}>, %[[N:[a-z0-9]+]]: i32, %[[DX:[a-z0-9]+]]: memref
// The scratch shadow of %c: reserved address space for a C pointer's view,
// else a zeroed buffer of its size.
// CHECK: %[[SCRATCH:.*]] = scf.if
// CHECK:   func.call @ct_scratch_reserve
// CHECK: } else {
// CHECK:   memref.alloc
// CHECK:   scf.for
// CHECK:     memref.store
// CHECK: %[[V:.*]] = call @kept.pullback.ddc(%[[X]], %[[C]], %[[N]], %{{.*}}, %[[DX]], %[[SCRATCH]])
// CHECK: func.call @ct_scratch_release
// CHECK: memref.dealloc %[[SCRATCH]]
// CHECK: return %[[V]]
func.func @gradient(%x: memref<?xf64, strided<[1], offset: ?>>, %c: memref<?xf64, strided<[1], offset: ?>>, %n: i32, %dx: memref<?xf64, strided<[1], offset: ?>>) -> f64 {
  %v = ct.gradient @kept(%x, %c, %n) shadows(%dx) activity [dup, const, const] : (memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>, i32, memref<?xf64, strided<[1], offset: ?>>) -> f64
  return %v : f64
}

// CHECK-LABEL: func.func @tangent
// CHECK-SAME: (%[[X:[a-z0-9]+]]: memref<?xf64{{.*}}>, %[[C:[a-z0-9]+]]: memref<?xf64{{.*}}>, %[[N:[a-z0-9]+]]: i32, %[[TX:[a-z0-9]+]]: memref
// CHECK: %[[SCRATCH:.*]] = scf.if
// CHECK: %[[R:.*]]:2 = call @kept.jvp.ddc(%[[X]], %[[C]], %[[N]], %[[TX]], %[[SCRATCH]])
// CHECK: memref.dealloc %[[SCRATCH]]
func.func @tangent(%x: memref<?xf64, strided<[1], offset: ?>>, %c: memref<?xf64, strided<[1], offset: ?>>, %n: i32, %tx: memref<?xf64, strided<[1], offset: ?>>) -> (f64, f64) {
  %v, %t = ct.jvp @kept(%x, %c, %n) tangents(%tx) activity [dup, const, const] : (memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>, i32, memref<?xf64, strided<[1], offset: ?>>) -> (f64, f64)
  return %v, %t : f64, f64
}
