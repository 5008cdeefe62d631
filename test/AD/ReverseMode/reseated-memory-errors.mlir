// Reverse mode's derivative argument of a memory parameter holds the seeds
// of the final contents of the memory the parameter designates. A function
// that stores into the caller's object the address of memory that is not
// the caller's (memory it makes, a local, null) makes it designate other
// memory, whose seeds have no place there: an error at the request, with a
// note at the store; also where a helper the function calls stores it.
// Addresses of the caller's own memory (a swap of its pointers, a pointer
// moved along its array, an address a local slot took from it) keep their
// shadows and are no error, nor are forward-mode requests.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup --split-input-file --verify-diagnostics

func.func @replaced(%x: f64, %holder: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %new = memref.alloc() : memref<2xf64>
  memref.store %x, %new[%c0] : memref<2xf64>
  // expected-note @below {{the pointer is stored here}}
  ct.store_address %new, %holder[%c0] : memref<2xf64>, memref<?xf64>
  return %x : f64
}

func.func @main(%x: f64, %h: memref<?xf64>, %dh: memref<?xf64>) -> f64 {
  %s = arith.constant 1.0 : f64
  // expected-error @below {{reverse mode: parameter #1 of @replaced is made to designate other memory}}
  %g:2 = ct.pullback @replaced(%x, %h) seeds(%s) shadows(%dh) activity [active, dup] : (f64, memref<?xf64>, f64, memref<?xf64>) -> (f64, f64)
  // Forward mode: the tangent object follows.
  %t:2 = ct.jvp @replaced(%x, %h) tangents(%s, %dh) activity [active, dup] : (f64, memref<?xf64>, f64, memref<?xf64>) -> (f64, f64)
  return %g#0 : f64
}

// -----

func.func @store_into(%holder: memref<?xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %new = memref.alloc() : memref<1xf64>
  memref.store %x, %new[%c0] : memref<1xf64>
  // expected-note @below {{the pointer is stored here}}
  ct.store_address %new, %holder[%c1] : memref<1xf64>, memref<?xf64>
  return
}

func.func @through_helper(%x: f64, %holder: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %row = ct.load_address %holder[%c0] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %cast = memref.cast %row : memref<?xf64, strided<[1], offset: ?>> to memref<?xf64>
  call @store_into(%cast, %x) : (memref<?xf64>, f64) -> ()
  return %x : f64
}

func.func @main(%x: f64, %h: memref<?xf64>, %dh: memref<?xf64>) -> f64 {
  %s = arith.constant 1.0 : f64
  // expected-error @below {{reverse mode: parameter #1 of @through_helper is made to designate other memory}}
  %g:2 = ct.pullback @through_helper(%x, %h) seeds(%s) shadows(%dh) activity [active, dup] : (f64, memref<?xf64>, f64, memref<?xf64>) -> (f64, f64)
  return %g#0 : f64
}

// -----

// The caller's own addresses: swapped between its objects, moved along
// an array, kept in a local slot first. No error.
func.func @own_addresses(%x: f64, %a: memref<?xf64>, %b: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pa = ct.load_address %a[%c0] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %pb = ct.load_address %b[%c0] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %slot = memref.alloca() : memref<1xf64>
  ct.store_address %pa, %slot[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<1xf64>
  ct.store_address %pb, %a[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<?xf64>
  %kept = ct.load_address %slot[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
  ct.store_address %kept, %b[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<?xf64>
  %dim = memref.dim %pb, %c0 : memref<?xf64, strided<[1], offset: ?>>
  %n = arith.subi %dim, %c1 : index
  %moved = memref.subview %pb[1] [%n] [1] : memref<?xf64, strided<[1], offset: ?>> to memref<?xf64, strided<[1], offset: ?>>
  ct.store_address %moved, %a[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<?xf64>
  %v = memref.load %moved[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %r = arith.mulf %v, %x : f64
  return %r : f64
}

func.func @main(%x: f64, %a: memref<?xf64>, %b: memref<?xf64>, %da: memref<?xf64>, %db: memref<?xf64>) -> f64 {
  %s = arith.constant 1.0 : f64
  %g:2 = ct.pullback @own_addresses(%x, %a, %b) seeds(%s) shadows(%da, %db) activity [active, dup, dup] : (f64, memref<?xf64>, memref<?xf64>, f64, memref<?xf64>, memref<?xf64>) -> (f64, f64)
  return %g#0 : f64
}
