// Addresses kept in memory (docs/Memory.md). The holder's shadow holds the
// shadows' addresses at the same slots: the forward sweep loads the block's
// shadow address beside its address; the loop's reverse needs both, so the
// tape carries them as two addresses, viewed again as they were loaded
// (the read of an address and its view again carry one number).
// The loads through the loaded address are taped, not read again: memory
// reached through an address may be any memory whose address is kept.
// Functions that store into the caller's holder the addresses of memory
// they make mark it ct.final_seeds_taken, as the frontend marks a
// std::vector parameter whose final seeds the entry point takes out (the
// derivative argument then holds zeros): without it a request is an error
// (reseated-memory-errors.mlir).
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @blocks.pullback.dc
// CHECK-SAME: (%[[H:.*]]: memref<?xf64>, %[[N:.*]]: index, %[[SEED:.*]]: f64, %[[DH:.*]]: memref<?xf64>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]]
// CHECK:   %[[P:.*]] = ct.load_address %[[H]][%[[I]]]
// CHECK:   %[[DP:.*]] = ct.load_address %[[DH]][%[[I]]]
// CHECK:   %[[A:.*]] = memref.load %[[P]][%[[C0:[a-z0-9_]+]]]
// CHECK:   %[[B:.*]] = memref.load %[[P]][%[[C1:[a-z0-9_]+]]]
// CHECK:   ct.tape_push %{{.*}}, %[[B]] : f64
// CHECK:   ct.tape_push %{{.*}}, %[[A]] : f64
// CHECK:   %[[ADDRESS:.*]] = memref.extract_aligned_pointer_as_index %[[DP]] : {{.*}} -> index {ct.taped_address = [[PAIR:[0-9]+]] : i64}
// CHECK:   ct.tape_push %{{.*}}, %[[ADDRESS]] : index
// CHECK: scf.for
// CHECK:   %[[POPPED:.*]] = ct.tape_pop %{{.*}} : index
// CHECK:   %[[INT:.*]] = arith.index_cast %[[POPPED]] : index to i64
// CHECK:   %[[PTR:.*]] = llvm.inttoptr %[[INT]] : i64 to !llvm.ptr
// CHECK:   %[[SHADOW:.*]] = ct.pointer_view %[[PTR]] {ct.taped_address = [[PAIR]] : i64} : memref<?xf64, strided<[1], offset: ?>>
// CHECK:   %[[VA:.*]] = ct.tape_pop %{{.*}} : f64
// CHECK:   %[[VB:.*]] = ct.tape_pop %{{.*}} : f64
// CHECK:   %[[DA:.*]] = arith.mulf %[[VB]], %{{.*}}
// CHECK:   %[[DB:.*]] = arith.mulf %[[VA]], %{{.*}}
// CHECK:   %[[OLDB:.*]] = memref.load %[[SHADOW]][%[[C1]]]
// CHECK:   %[[NEWB:.*]] = arith.addf %[[OLDB]], %[[DB]]
// CHECK:   memref.store %[[NEWB]], %[[SHADOW]][%[[C1]]]
// CHECK:   %[[OLDA:.*]] = memref.load %[[SHADOW]][%[[C0]]]
// CHECK:   %[[NEWA:.*]] = arith.addf %[[OLDA]], %[[DA]]
// CHECK:   memref.store %[[NEWA]], %[[SHADOW]][%[[C0]]]
func.func @blocks(%holder: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %p = ct.load_address %holder[%i] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
    %a = memref.load %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
    %b = memref.load %p[%c1] : memref<?xf64, strided<[1], offset: ?>>
    %m = arith.mulf %a, %b : f64
    %t = arith.addf %acc, %m : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// A local holder keeps the address of the argument's memory and is read
// back: its shadow, a zeroed local buffer, keeps the shadow's address, and
// the adjoint reaches the argument's shadow through it.
// CHECK-LABEL: func.func private @kept.pullback.ad
// CHECK-SAME: (%[[X:.*]]: f64, %[[Q:.*]]: memref<?xf64>, %[[SEED:.*]]: f64, %[[DQ:.*]]: memref<?xf64>)
// CHECK: %[[HOLDER:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[DHOLDER:.*]] = memref.alloca() : memref<2xf64>
// CHECK: memref.store %{{.*}}, %[[DHOLDER]]
// CHECK: ct.store_address %[[Q]], %[[HOLDER]][%[[C1:[a-z0-9_]+]]]
// CHECK: ct.store_address %[[DQ]], %[[DHOLDER]][%[[C1]]]
// CHECK: %[[P:.*]] = ct.load_address %[[HOLDER]][%[[C1]]]
// CHECK: %[[DP:.*]] = ct.load_address %[[DHOLDER]][%[[C1]]]
// CHECK: %[[Y:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: memref.store %[[Y]], %[[P]][%[[C0:[a-z0-9_]+]]]
// CHECK: %[[V:.*]] = memref.load %[[Q]][%[[C0]]]
// CHECK: math.cos %[[V]]
// CHECK: memref.store %{{.*}}, %[[DQ]][%[[C0]]]
// CHECK: %[[DY:.*]] = memref.load %[[DP]][%[[C0]]]
// CHECK: memref.store %{{.*}}, %[[DP]][%[[C0]]]
// CHECK: arith.mulf %[[X]], %[[DY]]
// CHECK: return
func.func @kept(%x: f64, %q: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %holder = memref.alloca() : memref<2xf64>
  ct.store_address %q, %holder[%c1] : memref<?xf64>, memref<2xf64>
  %p = ct.load_address %holder[%c1] : memref<2xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %y = arith.mulf %x, %x : f64
  memref.store %y, %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %v = memref.load %q[%c0] : memref<?xf64>
  %r = math.sin %v : f64
  return %r : f64
}

// A heap buffer made in each iteration, its address kept in memory (a
// class that owns memory, constructed in a loop): the forward sweep makes
// its shadow beside it and keeps the shadow's address in the holder's
// shadow; the tape carries the shadow's address to the reverse of the
// iteration, which frees it where the buffer was made. A stack buffer
// (@kept_on_stack) gets a heap shadow alike: its iteration is over when
// the reverse sweep needs it.
// CHECK-LABEL: func.func private @kept_in_loop.pullback.adc
// CHECK: scf.for
// CHECK:   %[[BUFFER:.*]] = memref.alloc() : memref<1xf64>
// CHECK:   %[[SHADOW:.*]] = memref.alloc() : memref<1xf64>
// CHECK:   memref.store %{{.*}}, %[[SHADOW]]
// CHECK:   ct.store_address %[[BUFFER]], %[[HOLDER:[a-z0-9_]+]][
// CHECK:   ct.store_address %[[SHADOW]], %[[DHOLDER:[a-z0-9_]+]][
// CHECK:   memref.dealloc %[[BUFFER]]
// CHECK:   %[[ADDRESS:.*]] = memref.extract_aligned_pointer_as_index %[[SHADOW]]
// CHECK:   ct.tape_push %{{.*}}, %[[ADDRESS]] : index
// CHECK: scf.for
// CHECK:   %[[POPPED:.*]] = ct.tape_pop %{{.*}} : index
// CHECK:   %[[INT:.*]] = arith.index_cast %[[POPPED]]
// CHECK:   %[[PTR:.*]] = llvm.inttoptr %[[INT]]
// CHECK:   %[[VIEW:.*]] = ct.pointer_view %[[PTR]]
// CHECK:   memref.load %[[VIEW]][
// CHECK:   memref.dealloc %[[VIEW]] : memref<?xf64, strided<[1], offset: ?>>
func.func @kept_in_loop(%x: f64, %holder: memref<?xf64> {ct.final_seeds_taken}, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> f64 {
    %buffer = memref.alloc() : memref<1xf64>
    memref.store %acc, %buffer[%c0] : memref<1xf64>
    ct.store_address %buffer, %holder[%i] : memref<1xf64>, memref<?xf64>
    %p = ct.load_address %holder[%i] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
    %v = memref.load %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
    %w = arith.mulf %v, %acc : f64
    memref.dealloc %buffer : memref<1xf64>
    scf.yield %w : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func private @kept_on_stack.pullback.adc
// CHECK: scf.for
// CHECK:   %[[BUFFER:.*]] = memref.alloca() : memref<1xf64>
// CHECK:   %[[SHADOW:.*]] = memref.alloc() : memref<1xf64>
// CHECK:   ct.store_address %[[BUFFER]]
// CHECK:   ct.store_address %[[SHADOW]]
// CHECK:   memref.extract_aligned_pointer_as_index %[[SHADOW]]
// CHECK: scf.for
// CHECK:   %[[VIEW:.*]] = ct.pointer_view
// CHECK:   memref.dealloc %[[VIEW]]
func.func @kept_on_stack(%x: f64, %holder: memref<?xf64> {ct.final_seeds_taken}, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> f64 {
    %buffer = memref.alloca() : memref<1xf64>
    memref.store %acc, %buffer[%c0] : memref<1xf64>
    ct.store_address %buffer, %holder[%i] : memref<1xf64>, memref<?xf64>
    %p = ct.load_address %holder[%i] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
    %v = memref.load %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
    %w = arith.mulf %v, %acc : f64
    scf.yield %w : f64
  }
  return %r : f64
}

// Memory of integers whose address is kept beside memory of numbers (a
// vector of indices beside a vector of values) is never the same memory
// (C++ reads an object only through its own type): it joins no class with
// the numbers, has no shadow, and the shadow holder keeps its own address.
// CHECK-LABEL: func.func private @typed_classes.pullback.ad
// CHECK-SAME: (%[[X:.*]]: f64, %[[H:.*]]: memref<?xf64>, %[[SEED:.*]]: f64, %[[DH:.*]]: memref<?xf64>)
// CHECK: %[[INTS:.*]] = memref.alloc() : memref<2xi32>
// CHECK-NOT: memref<2xi32>
// CHECK: %[[VALUES:.*]] = memref.alloc() : memref<2xf64>
// CHECK: %[[DVALUES:.*]] = memref.alloc() : memref<2xf64>
// CHECK-NOT: memref.alloc() : memref<2xi32>
// CHECK: ct.store_address %[[INTS]], %[[H]][%[[C0:[a-z0-9_]+]]]
// CHECK: ct.store_address %[[INTS]], %[[DH]][%[[C0]]]
// CHECK: ct.store_address %[[VALUES]], %[[H]][%[[C1:[a-z0-9_]+]]]
// CHECK: ct.store_address %[[DVALUES]], %[[DH]][%[[C1]]]
// CHECK-NOT: ct.load_address %[[DH]][%[[C0]]]
// CHECK: return
func.func @typed_classes(%x: f64, %holder: memref<?xf64> {ct.final_seeds_taken}) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 3 : i32
  %ints = memref.alloc() : memref<2xi32>
  %values = memref.alloc() : memref<2xf64>
  memref.store %k, %ints[%c0] : memref<2xi32>
  memref.store %x, %values[%c0] : memref<2xf64>
  ct.store_address %ints, %holder[%c0] : memref<2xi32>, memref<?xf64>
  ct.store_address %values, %holder[%c1] : memref<2xf64>, memref<?xf64>
  %pi = ct.load_address %holder[%c0] : memref<?xf64> -> memref<?xi32, strided<[1], offset: ?>>
  %pv = ct.load_address %holder[%c1] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %i = memref.load %pi[%c0] : memref<?xi32, strided<[1], offset: ?>>
  %v = memref.load %pv[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %f = arith.sitofp %i : i32 to f64
  %r = arith.mulf %v, %f : f64
  memref.dealloc %ints : memref<2xi32>
  memref.dealloc %values : memref<2xf64>
  return %r : f64
}
func.func @main(%p: memref<?xf64>, %dp: memref<?xf64>, %n: index, %x: f64) -> (f64, f64) {
  %s = arith.constant 1.0 : f64
  %r = ct.pullback @blocks(%p, %n) seeds(%s) shadows(%dp) activity [dup, const] : (memref<?xf64>, index, f64, memref<?xf64>) -> f64
  %k:2 = ct.pullback @kept(%x, %p) seeds(%s) shadows(%dp) activity [active, dup] : (f64, memref<?xf64>, f64, memref<?xf64>) -> (f64, f64)
  %h:2 = ct.pullback @kept_in_loop(%x, %p, %n) seeds(%s) shadows(%dp) activity [active, dup, const] : (f64, memref<?xf64>, index, f64, memref<?xf64>) -> (f64, f64)
  %g:2 = ct.pullback @kept_on_stack(%x, %p, %n) seeds(%s) shadows(%dp) activity [active, dup, const] : (f64, memref<?xf64>, index, f64, memref<?xf64>) -> (f64, f64)
  %t:2 = ct.pullback @typed_classes(%x, %p) seeds(%s) shadows(%dp) activity [active, dup] : (f64, memref<?xf64>, f64, memref<?xf64>) -> (f64, f64)
  %partial = arith.addf %h#1, %g#1 : f64
  %sum = arith.addf %partial, %t#1 : f64
  return %r, %sum : f64, f64
}

// Memory reached through an address the caller's in/out object holds (a
// row of the caller's vector of vectors) is the caller's: its final
// contents are results, so what is written there is differentiated (k
// reaches the result, no warning) through the shadow address at the same
// slot.
// CHECK-LABEL: func.func private @scaleThrough.pullback.da
// CHECK-SAME: (%[[H:.*]]: memref<?xf64>, %[[K:.*]]: f64, %[[DH:.*]]: memref<?xf64>) -> f64
// CHECK: %[[P:.*]] = ct.load_address %[[H]][%[[C0:[a-z0-9_]+]]]
// CHECK: %[[DP:.*]] = ct.load_address %[[DH]][%[[C0]]]
// CHECK: %[[OLD:.*]] = memref.load %[[P]][%[[C0]]]
// CHECK: memref.store %{{.*}}, %[[P]][%[[C0]]]
// CHECK: %[[SEED:.*]] = memref.load %[[DP]][%{{.*}}]
// CHECK: %[[DK:.*]] = arith.mulf %[[OLD]], %[[SEED]]
// CHECK: %[[DA:.*]] = arith.mulf %[[K]], %[[SEED]]
// CHECK: memref.store %{{.*}}, %[[DP]]
func.func @scaleThrough(%holder: memref<?xf64>, %k: f64) {
  %c0 = arith.constant 0 : index
  %p = ct.load_address %holder[%c0] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %a = memref.load %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %m = arith.mulf %k, %a : f64
  memref.store %m, %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  return
}

func.func @runScaleThrough(%holder: memref<?xf64>, %k: f64,
                           %dholder: memref<?xf64>) -> f64 {
  %g = ct.pullback @scaleThrough(%holder, %k) shadows(%dholder) activity [dup, active]
      : (memref<?xf64>, f64, memref<?xf64>) -> f64
  return %g : f64
}

// The caller's holder given memory the function makes (a std::vector
// parameter grown): the forward sweep keeps the shadow address the new
// shadow's replaces in the caller's derivative object, and the reverse
// sweep puts it back before the reverse of the copy into the new memory
// (which adds into the old shadow) and the free of the new shadow, so that
// the caller's derivative object designates the derivatives of its initial
// memory again.
// CHECK-LABEL: func.func private @regrown.pullback.ad
// CHECK-SAME: (%[[X:.*]]: f64, %[[H:.*]]: memref<?xf64>, %[[SEED:.*]]: f64, %[[DH:.*]]: memref<?xf64>)
// CHECK: %[[OLDSHADOW:.*]] = ct.load_address %[[DH]][%[[C0:[a-z0-9_]+]]]
// CHECK: %[[NEW:.*]] = memref.alloc() : memref<2xf64>
// CHECK: %[[DNEW:.*]] = memref.alloc() : memref<2xf64>
// CHECK: ct.store_address %[[NEW]], %[[H]][%[[C0]]]
// CHECK: %[[REPLACED:.*]] = ct.load_address %[[DH]][%[[C0]]] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
// CHECK: ct.store_address %[[DNEW]], %[[DH]][%[[C0]]]
// CHECK: ct.store_address %[[REPLACED]], %[[DH]][%[[C0]]]
// CHECK: memref.load %[[DNEW]]
// CHECK: memref.dealloc %[[DNEW]]
// CHECK: memref.load %[[OLDSHADOW]][%[[C0]]]
// CHECK: memref.store %{{.*}}, %[[OLDSHADOW]][%[[C0]]]
func.func @regrown(%x: f64, %holder: memref<?xf64> {ct.final_seeds_taken}) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = ct.load_address %holder[%c0] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %a = memref.load %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %new = memref.alloc() : memref<2xf64>
  memref.store %a, %new[%c0] : memref<2xf64>
  memref.store %x, %new[%c1] : memref<2xf64>
  memref.dealloc %p : memref<?xf64, strided<[1], offset: ?>>
  ct.store_address %new, %holder[%c0] : memref<2xf64>, memref<?xf64>
  %q = ct.load_address %holder[%c0] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %b = memref.load %q[%c1] : memref<?xf64, strided<[1], offset: ?>>
  %c = memref.load %q[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %r = arith.mulf %b, %c : f64
  return %r : f64
}

func.func @runRegrown(%x: f64, %holder: memref<?xf64>,
                      %dholder: memref<?xf64>) -> (f64, f64) {
  %s = arith.constant 1.0 : f64
  %g:2 = ct.pullback @regrown(%x, %holder) seeds(%s) shadows(%dholder) activity [active, dup]
      : (f64, memref<?xf64>, f64, memref<?xf64>) -> (f64, f64)
  return %g#0, %g#1 : f64, f64
}
