// A derivative differentiated again, where the first derivative keeps
// addresses on its tape for its reverse sweep (a buffer doubled in a branch,
// its address kept in memory): the shadow of each such memory travels on the
// same tape, its address pushed right after the address it pairs with and
// popped right before it, and the view rebuilt from it is the rebuilt view's
// shadow. The pair's number (ct.taped_address) is the address's plus 2^40.
// Reverse over reverse (the tape is the second derivative's primal), then
// forward over reverse.
// RUN: %cotangent-opt %s --split-input-file --ct-differentiate %ad-cleanup | FileCheck %s

func.func @grow(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %holder = memref.alloca() : memref<1xf64>
  %null = llvm.mlir.zero : !llvm.ptr
  %none = ct.pointer_view %null : memref<?xf64, strided<[1], offset: ?>>
  ct.store_address %none, %holder[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<1xf64>
  %capacity = scf.for %i = %c0 to %n step %c1 iter_args(%held = %c0) -> index {
    %full = arith.cmpi eq, %i, %held : index
    %next = scf.if %full -> index {
      %twice = arith.muli %held, %c2 : index
      %grown = arith.maxui %twice, %c1 : index
      %old = ct.load_address %holder[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
      %new = memref.alloc(%grown) : memref<?xf64>
      scf.for %j = %c0 to %i step %c1 {
        %e = memref.load %old[%j] : memref<?xf64, strided<[1], offset: ?>>
        memref.store %e, %new[%j] : memref<?xf64>
      }
      memref.dealloc %old : memref<?xf64, strided<[1], offset: ?>>
      %cast = memref.cast %new : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
      ct.store_address %cast, %holder[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<1xf64>
      scf.yield %grown : index
    } else {
      scf.yield %held : index
    }
    %data = ct.load_address %holder[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
    %k = arith.index_cast %i : index to i64
    %kf = arith.sitofp %k : i64 to f64
    %v = arith.mulf %x, %kf : f64
    %s = math.sin %v : f64
    memref.store %s, %data[%i] : memref<?xf64, strided<[1], offset: ?>>
    scf.yield %next : index
  }
  %data = ct.load_address %holder[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %e = memref.load %data[%i] : memref<?xf64, strided<[1], offset: ?>>
    %sq = arith.mulf %e, %e : f64
    %a = arith.addf %acc, %sq : f64
    scf.yield %a : f64
  }
  memref.dealloc %data : memref<?xf64, strided<[1], offset: ?>>
  return %sum : f64
}
func.func @dgrow(%x: f64, %n: index) -> f64 {
  %v, %dx = ct.gradient @grow(%x, %n) activity [active, const] : (f64, index) -> (f64, f64)
  return %dx : f64
}
func.func @main(%x: f64, %n: index) -> (f64, f64) {
  %v, %ddx = ct.gradient @dgrow(%x, %n) activity [active, const] : (f64, index) -> (f64, f64)
  return %v, %ddx : f64, f64
}

// The first derivative's forward loop, in the forward half of its own
// derivative: each address, then its shadow's.
// CHECK-LABEL: func.func private @grow.pullback.ac.fwd.acc
// CHECK: %[[TAPE:.*]] = ct.tape_init
// CHECK: scf.for
// CHECK: scf.if
// CHECK: memref.extract_aligned_pointer_as_index {{.*}} {ct.taped_address = [[#NEW:]] : i64}
// CHECK-NEXT: ct.tape_push %[[TAPE]]
// CHECK-NEXT: memref.extract_aligned_pointer_as_index {{.*}} {ct.taped_address = [[#NEW + 1099511627776]] : i64}
// CHECK-NEXT: ct.tape_push %[[TAPE]]
// CHECK: memref.extract_aligned_pointer_as_index {{.*}} {ct.taped_address = [[#OLD:]] : i64}
// CHECK-NEXT: ct.tape_push %[[TAPE]]
// CHECK-NEXT: memref.extract_aligned_pointer_as_index {{.*}} {ct.taped_address = [[#OLD + 1099511627776]] : i64}
// CHECK-NEXT: ct.tape_push %[[TAPE]]
// Its reverse loop: the shadow's address first, then the address.
// CHECK: scf.if
// CHECK-NEXT: ct.tape_pop %[[TAPE]] : index
// CHECK: ct.pointer_view {{.*}} {ct.taped_address = [[#OLD + 1099511627776]] : i64}
// CHECK-NEXT: ct.tape_pop %[[TAPE]] : index
// CHECK: ct.pointer_view {{.*}} {ct.taped_address = [[#OLD]] : i64}
// CHECK-NEXT: ct.tape_pop %[[TAPE]] : index
// CHECK: ct.pointer_view {{.*}} {ct.taped_address = [[#NEW + 1099511627776]] : i64}
// CHECK-NEXT: ct.tape_pop %[[TAPE]] : index
// CHECK: ct.pointer_view {{.*}} {ct.taped_address = [[#NEW]] : i64}

// -----

func.func @grow(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %holder = memref.alloca() : memref<1xf64>
  %null = llvm.mlir.zero : !llvm.ptr
  %none = ct.pointer_view %null : memref<?xf64, strided<[1], offset: ?>>
  ct.store_address %none, %holder[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<1xf64>
  %capacity = scf.for %i = %c0 to %n step %c1 iter_args(%held = %c0) -> index {
    %full = arith.cmpi eq, %i, %held : index
    %next = scf.if %full -> index {
      %twice = arith.muli %held, %c2 : index
      %grown = arith.maxui %twice, %c1 : index
      %old = ct.load_address %holder[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
      %new = memref.alloc(%grown) : memref<?xf64>
      scf.for %j = %c0 to %i step %c1 {
        %e = memref.load %old[%j] : memref<?xf64, strided<[1], offset: ?>>
        memref.store %e, %new[%j] : memref<?xf64>
      }
      memref.dealloc %old : memref<?xf64, strided<[1], offset: ?>>
      %cast = memref.cast %new : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
      ct.store_address %cast, %holder[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<1xf64>
      scf.yield %grown : index
    } else {
      scf.yield %held : index
    }
    %data = ct.load_address %holder[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
    %k = arith.index_cast %i : index to i64
    %kf = arith.sitofp %k : i64 to f64
    %v = arith.mulf %x, %kf : f64
    %s = math.sin %v : f64
    memref.store %s, %data[%i] : memref<?xf64, strided<[1], offset: ?>>
    scf.yield %next : index
  }
  %data = ct.load_address %holder[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %e = memref.load %data[%i] : memref<?xf64, strided<[1], offset: ?>>
    %sq = arith.mulf %e, %e : f64
    %a = arith.addf %acc, %sq : f64
    scf.yield %a : f64
  }
  memref.dealloc %data : memref<?xf64, strided<[1], offset: ?>>
  return %sum : f64
}
func.func @dgrow(%x: f64, %n: index) -> f64 {
  %v, %dx = ct.gradient @grow(%x, %n) activity [active, const] : (f64, index) -> (f64, f64)
  return %dx : f64
}
func.func @main(%x: f64, %n: index, %t: f64) -> (f64, f64) {
  %r:2 = ct.jvp @dgrow(%x, %n) tangents(%t) activity [active, const] : (f64, index, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// Forward mode: the same pairs on the tape (the tangents of the numbers it
// holds go to a tape of their own).
// CHECK-LABEL: func.func private @grow.pullback.ac.jvp.acc
// CHECK: %[[TAPE:.*]] = ct.tape_init
// CHECK: scf.if
// CHECK: memref.extract_aligned_pointer_as_index {{.*}} {ct.taped_address = [[#NEW:]] : i64}
// CHECK-NEXT: ct.tape_push %[[TAPE]]
// CHECK-NEXT: memref.extract_aligned_pointer_as_index {{.*}} {ct.taped_address = [[#NEW + 1099511627776]] : i64}
// CHECK-NEXT: ct.tape_push %[[TAPE]]
// CHECK: scf.if
// CHECK: ct.tape_pop %[[TAPE]] : index
// CHECK: ct.pointer_view {{.*}} {ct.taped_address = [[#NEW + 1099511627776]] : i64}
// CHECK-NEXT: ct.tape_pop %[[TAPE]] : index
// CHECK: ct.pointer_view {{.*}} {ct.taped_address = [[#NEW]] : i64}
