// The address of constant memory (an argument left out of differentiation)
// kept beside the address of memory with derivatives, in forward mode
// (docs/Memory.md): the shadow holder keeps the constant memory's own
// address, and accesses through a shadow view read back from memory check
// whether it is the primal memory: a load's tangent is then zero, a
// tangent store (of a value without a derivative) is skipped, and the store of a value with a derivative,
// whose memory is read back, ends the program.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @chosen.jvp.{{[a-z]+}}
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %[[C:.*]]: memref<?xf64>, %[[I:.*]]: index, %[[TX:.*]]: memref<?xf64>)
// CHECK: %[[HOLDER:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[THOLDER:.*]] = memref.alloca() : memref<2xf64>
// CHECK: ct.store_address %[[X]], %[[HOLDER]]
// CHECK: ct.store_address %[[TX]], %[[THOLDER]]
// CHECK: ct.store_address %[[C]], %[[HOLDER]][%[[ONE:[a-z0-9_]+]]]
// CHECK: ct.store_address %[[C]], %[[THOLDER]][%[[ONE]]]
// CHECK: %[[P:.*]] = ct.load_address %[[HOLDER]][%[[I]]]
// CHECK: %[[TP:.*]] = ct.load_address %[[THOLDER]][%[[I]]]
// CHECK: %[[V:.*]] = memref.load %[[P]]
// CHECK: %[[TV:.*]] = memref.load %[[TP]]
// CHECK: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[P]]
// CHECK: %[[TB:.*]] = memref.extract_aligned_pointer_as_index %[[TP]]
// CHECK: %[[OWN:.*]] = arith.cmpi eq, %[[PB]], %[[TB]]
// CHECK: arith.select %[[OWN]], %{{.*}}, %[[TV]]
// CHECK: %[[NOTOWN:.*]] = arith.cmpi ne
// CHECK: scf.if %[[NOTOWN]] {
// CHECK-NEXT: memref.store %{{.*}}, %[[TP]]
// CHECK: return
func.func @chosen(%x: memref<?xf64>, %c: memref<?xf64>, %i: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %holder = memref.alloca() : memref<2xf64>
  ct.store_address %x, %holder[%c0] : memref<?xf64>, memref<2xf64>
  ct.store_address %c, %holder[%c1] : memref<?xf64>, memref<2xf64>
  %p = ct.load_address %holder[%i] : memref<2xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %v = memref.load %p[%c1] : memref<?xf64, strided<[1], offset: ?>>
  %k = arith.constant 2.0 : f64
  memref.store %k, %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %y = math.sin %v : f64
  %w = memref.load %x[%c0] : memref<?xf64>
  %r = arith.mulf %y, %w : f64
  return %r : f64
}

// A value with a derivative stored there, in memory that is read back:
// the derivative would be lost; the program ends with a message instead.
// CHECK-LABEL: func.func private @lost.jvp.{{[a-z]+}}
// CHECK: %[[OWN:.*]] = arith.cmpi eq
// CHECK: scf.if %[[OWN]] {
// CHECK-NEXT: ct.abort "{{.*}}a value that carries a derivative is stored, through an address kept in memory, into memory that is constant here
// CHECK: } else {
// CHECK-NEXT: memref.store
func.func @lost(%x: memref<?xf64>, %c: memref<?xf64>, %i: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %holder = memref.alloca() : memref<2xf64>
  ct.store_address %x, %holder[%c0] : memref<?xf64>, memref<2xf64>
  ct.store_address %c, %holder[%c1] : memref<?xf64>, memref<2xf64>
  %p = ct.load_address %holder[%i] : memref<2xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %v = memref.load %x[%c1] : memref<?xf64>
  %y = math.sin %v : f64
  memref.store %y, %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %w = memref.load %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  return %w : f64
}

func.func @main(%x: memref<?xf64>, %dx: memref<?xf64>, %c: memref<?xf64>, %i: index) -> f64 {
  %a:2 = ct.jvp @chosen(%x, %c, %i) tangents(%dx) activity [dup, const, const] : (memref<?xf64>, memref<?xf64>, index, memref<?xf64>) -> (f64, f64)
  %b:2 = ct.jvp @lost(%x, %c, %i) tangents(%dx) activity [dup, const, const] : (memref<?xf64>, memref<?xf64>, index, memref<?xf64>) -> (f64, f64)
  %s = arith.addf %a#1, %b#1 : f64
  return %s : f64
}

// An address read from a holder without a shadow (it held only constant
// memory) while memory with derivatives is kept elsewhere: the view is its
// own shadow, and freeing it frees the shadow only where that is not the
// primal memory (it would be freed twice).
// CHECK-LABEL: func.func private @freed.jvp.{{[a-z]+}}
// CHECK: ct.store_address %arg1, %[[HOLD:[a-z0-9_]+]][
// CHECK: %[[Q:.*]] = ct.load_address %[[HOLD]][
// CHECK-NOT: ct.load_address
// CHECK: memref.dealloc %[[Q]]
// CHECK-NEXT: %[[NOTOWN:.*]] = arith.cmpi ne
// CHECK-NEXT: scf.if %[[NOTOWN]] {
// CHECK-NEXT: memref.dealloc %[[Q]]
func.func @freed(%x: f64, %c: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %local = memref.alloc() : memref<1xf64>
  memref.store %x, %local[%c0] : memref<1xf64>
  %mine = memref.alloca() : memref<1xf64>
  ct.store_address %local, %mine[%c0] : memref<1xf64>, memref<1xf64>
  %hold = memref.alloca() : memref<1xf64>
  ct.store_address %c, %hold[%c0] : memref<?xf64>, memref<1xf64>
  %p = ct.load_address %mine[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %v = memref.load %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %q = ct.load_address %hold[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %w = memref.load %q[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %r = arith.mulf %v, %w : f64
  memref.dealloc %q : memref<?xf64, strided<[1], offset: ?>>
  memref.dealloc %local : memref<1xf64>
  return %r : f64
}
func.func @main_freed(%x: f64, %t: f64, %c: memref<?xf64>) -> (f64, f64) {
  %v:2 = ct.jvp @freed(%x, %c) tangents(%t) activity [active, const] : (f64, memref<?xf64>, f64) -> (f64, f64)
  return %v#0, %v#1 : f64, f64
}
