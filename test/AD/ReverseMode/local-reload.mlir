// Caching policy for local buffers: in a combined pullback, a load from a
// local buffer that nothing writes after the load is repeated in the reverse
// sweep instead of taped. A write later in program order, or in a later
// iteration of a loop around both, makes it taped. The sums are squared
// before they are returned, so that their loops are reversed after the
// forward sweep, not in place (eager-loops.mlir).
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// t is filled by the first loop and only read by the second: the reverse of
// the second loop loads t[i] again. (The first loop tapes exp's result.)
// CHECK-LABEL: func.func private @written_before.pullback.dc
// CHECK: %[[T:.*]] = memref.alloca() : memref<16xf64>
// CHECK: scf.for
// CHECK: math.exp
// CHECK: ct.tape_push
// CHECK: scf.for
// CHECK-NOT: ct.tape_push
// CHECK: scf.for
// CHECK-NOT: ct.tape_pop
// CHECK: memref.load %[[T]][
// CHECK: scf.for
// CHECK: ct.tape_pop
func.func @written_before(%a: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %t = memref.alloca() : memref<16xf64>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf64>
    %e = math.exp %x : f64
    memref.store %e, %t[%i] : memref<16xf64>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %t[%i] : memref<16xf64>
    %v2 = arith.mulf %v, %v : f64
    %next = arith.addf %acc, %v2 : f64
    scf.yield %next : f64
  }
  %s2 = arith.mulf %s, %s : f64
  return %s2 : f64
}

// t[0] is rewritten by every iteration, before the load but also after it
// (in the next iteration): the loaded value is taped.
// CHECK-LABEL: func.func private @written_in_loop.pullback.dc
// CHECK: scf.for
// CHECK: memref.store
// CHECK: %[[V:.*]] = memref.load %{{.*}} : memref<16xf64>
// CHECK: ct.tape_push %{{.*}}, %[[V]]
// CHECK: scf.for
// CHECK: ct.tape_pop
func.func @written_in_loop(%a: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %t = memref.alloca() : memref<16xf64>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %x = memref.load %a[%i] : memref<?xf64>
    %e = math.exp %x : f64
    memref.store %e, %t[%c0] : memref<16xf64>
    %v = memref.load %t[%c0] : memref<16xf64>
    %v2 = arith.mulf %v, %v : f64
    %next = arith.addf %acc, %v2 : f64
    scf.yield %next : f64
  }
  %s2 = arith.mulf %s, %s : f64
  return %s2 : f64
}

// The loop reads t, then a later loop overwrites it: the values are taped.
// CHECK-LABEL: func.func private @written_after.pullback.dc
// CHECK: scf.for
// CHECK: %[[V:.*]] = memref.load %{{.*}} : memref<16xf64>
// CHECK: ct.tape_push %{{.*}}, %[[V]]
// CHECK: scf.for
// CHECK: memref.store
func.func @written_after(%a: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %t = memref.alloca() : memref<16xf64>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf64>
    %e = math.exp %x : f64
    memref.store %e, %t[%i] : memref<16xf64>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %t[%i] : memref<16xf64>
    %v2 = arith.mulf %v, %v : f64
    %next = arith.addf %acc, %v2 : f64
    scf.yield %next : f64
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %zero, %t[%i] : memref<16xf64>
  }
  return %s : f64
}

func.func @main(%a: memref<?xf64>, %da: memref<?xf64>, %n: index) -> f64 {
  %g0 = ct.gradient @written_before(%a, %n) shadows(%da) activity [dup, const] : (memref<?xf64>, index, memref<?xf64>) -> f64
  %g1 = ct.gradient @written_in_loop(%a, %n) shadows(%da) activity [dup, const] : (memref<?xf64>, index, memref<?xf64>) -> f64
  %g2 = ct.gradient @written_after(%a, %n) shadows(%da) activity [dup, const] : (memref<?xf64>, index, memref<?xf64>) -> f64
  %g3 = ct.gradient @freed(%a, %n) shadows(%da) activity [dup, const] : (memref<?xf64>, index, memref<?xf64>) -> f64
  %s = arith.addf %g0, %g1 : f64
  %s2 = arith.addf %s, %g3 : f64
  %r = arith.addf %s2, %g2 : f64
  return %r : f64
}

// A heap buffer freed at the end of the function (a std::vector local) is
// read back in the same way: the pullback frees it when it returns, after
// the reverse sweep, not where the primal does.
// CHECK-LABEL: func.func private @freed.pullback.dc
// CHECK: %[[H:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.for
// CHECK: math.exp
// CHECK-NOT: memref.dealloc %[[H]]
// CHECK: scf.for
// CHECK-NOT: ct.tape_push
// CHECK-NOT: memref.dealloc %[[H]]
// CHECK: scf.for
// CHECK-NOT: ct.tape_pop
// CHECK: memref.load %[[H]][
// CHECK: ct.tape_free
// CHECK-NEXT: memref.dealloc %[[H]]
// CHECK-NEXT: return
func.func @freed(%a: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %h = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf64>
    %e = math.exp %x : f64
    memref.store %e, %h[%i] : memref<?xf64>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %h[%i] : memref<?xf64>
    %x = memref.load %a[%i] : memref<?xf64>
    %p = arith.mulf %v, %x : f64
    %q = arith.addf %acc, %p : f64
    scf.yield %q : f64
  }
  memref.dealloc %h : memref<?xf64>
  %r = arith.mulf %s, %s : f64
  return %r : f64
}
