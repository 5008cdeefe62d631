// The address of constant memory (an argument left out of differentiation)
// kept beside the address of memory with derivatives, in reverse mode
// (docs/Memory.md): the shadow holder keeps the constant memory's own
// address, and the reverse sweep writes into a shadow view read back from
// memory (the adjoint a load accumulates, the zero a store leaves) only
// where it is not the primal memory.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @chosen.pullback.{{[a-z]+}}
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %[[C:.*]]: memref<?xf64>, %[[I:.*]]: index, %{{.*}}: f64, %[[DX:.*]]: memref<?xf64>)
// CHECK: %[[HOLDER:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[DHOLDER:.*]] = memref.alloca() : memref<2xf64>
// CHECK: ct.store_address %[[X]], %[[HOLDER]]
// CHECK: ct.store_address %[[DX]], %[[DHOLDER]]
// CHECK: ct.store_address %[[C]], %[[HOLDER]][%[[ONE:[a-z0-9_]+]]]
// CHECK: ct.store_address %[[C]], %[[DHOLDER]][%[[ONE]]]
// CHECK: %[[P:.*]] = ct.load_address %[[HOLDER]][%[[I]]]
// CHECK: %[[DP:.*]] = ct.load_address %[[DHOLDER]][%[[I]]]
// CHECK: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[P]]
// CHECK: %[[DB:.*]] = memref.extract_aligned_pointer_as_index %[[DP]]
// CHECK: %[[NOTOWN:.*]] = arith.cmpi ne, %[[PB]], %[[DB]]
// CHECK: scf.if %[[NOTOWN]] {
// CHECK-NEXT: memref.store %{{.*}}, %[[DP]][%[[ZERO:[a-z0-9_]+]]]
// CHECK: scf.if %[[NOTOWN]] {
// CHECK-NEXT: memref.load %[[DP]][%[[ONE]]]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: memref.store %{{.*}}, %[[DP]][%[[ONE]]]
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
func.func @main(%x: memref<?xf64>, %dx: memref<?xf64>, %c: memref<?xf64>, %i: index) -> f64 {
  %a = ct.gradient @chosen(%x, %c, %i) shadows(%dx) activity [dup, const, const] : (memref<?xf64>, memref<?xf64>, index, memref<?xf64>) -> f64
  return %a : f64
}

// The address of memory the caller declared constant, kept where the
// addresses of memory with derivatives are (the caller's holder), and a
// value with a derivative stored through it and read back: the reverse
// sweep ends the program with a message where the memory is the constant
// one (this used to be refused when compiling, whatever the memory).
// CHECK-LABEL: func.func private @f.pullback.{{[a-z]+}}
// CHECK: %[[OWN:.*]] = arith.cmpi eq
// CHECK: scf.if %[[OWN]] {
// CHECK-NEXT: ct.abort "{{.*}}a value that carries a derivative is stored, through an address kept in memory, into memory that is constant here
// CHECK: } else {
// CHECK-NEXT: memref.store
func.func @f(%x: f64, %q: memref<?xf64>, %holder: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  ct.store_address %q, %holder[%c0] : memref<?xf64>, memref<?xf64>
  %p = ct.load_address %holder[%c0] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
  memref.store %x, %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %v = memref.load %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %w = arith.mulf %v, %x : f64
  return %w : f64
}
func.func @main_f(%x: f64, %q: memref<?xf64>, %h: memref<?xf64>, %dh: memref<?xf64>) -> (f64, f64) {
  %s = arith.constant 1.0 : f64
  %v:2 = ct.pullback @f(%x, %q, %h) seeds(%s) shadows(%dh) activity [active, const, dup] : (f64, memref<?xf64>, memref<?xf64>, f64, memref<?xf64>) -> (f64, f64)
  return %v#0, %v#1 : f64, f64
}

// A choice between memory with derivatives and constant memory, stored as
// an address (a table of rows `c ? x + 1 : c`, as the tangent code of a
// Hessian-vector product stores the direction's memory): the forward sweep
// stores the same choice between the first's shadow and the constant memory
// itself, its own shadow, and accesses through the address read back test
// for it.
// CHECK-LABEL: func.func private @picked.pullback.{{[a-z]+}}
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %[[C:.*]]: memref<?xf64>, %[[B:.*]]: i1, %{{.*}}: f64, %[[DX:.*]]: memref<?xf64>)
// CHECK: %[[HOLDER:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[DHOLDER:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[PICK:.*]] = arith.select %[[B]], %[[X]], %[[C]]
// CHECK: ct.store_address %[[PICK]], %[[HOLDER]][%[[ZERO:[a-z0-9_]+]]]
// CHECK: %[[DPICK:.*]] = arith.select %[[B]], %[[DX]], %[[C]]
// CHECK: ct.store_address %[[DPICK]], %[[DHOLDER]][%[[ZERO]]]
// CHECK: %[[P:.*]] = ct.load_address %[[HOLDER]][%[[ZERO]]]
// CHECK: %[[DP:.*]] = ct.load_address %[[DHOLDER]][%[[ZERO]]]
// CHECK: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[P]]
// CHECK: %[[DB:.*]] = memref.extract_aligned_pointer_as_index %[[DP]]
// CHECK: %[[NOTOWN:.*]] = arith.cmpi ne, %[[PB]], %[[DB]]
// CHECK: scf.if %[[NOTOWN]] {
// CHECK: memref.store %{{.*}}, %[[DP]]
// CHECK: return
func.func @picked(%x: memref<?xf64>, %c: memref<?xf64>, %b: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %holder = memref.alloca() : memref<1xf64>
  %pick = arith.select %b, %x, %c : memref<?xf64>
  ct.store_address %pick, %holder[%c0] : memref<?xf64>, memref<1xf64>
  %p = ct.load_address %holder[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %v = memref.load %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %y = math.sin %v : f64
  return %y : f64
}
func.func @main_picked(%x: memref<?xf64>, %dx: memref<?xf64>, %c: memref<?xf64>, %b: i1) -> f64 {
  %a = ct.gradient @picked(%x, %c, %b) shadows(%dx) activity [dup, const, const] : (memref<?xf64>, memref<?xf64>, i1, memref<?xf64>) -> f64
  return %a : f64
}
