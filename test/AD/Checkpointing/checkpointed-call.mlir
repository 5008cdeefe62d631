// Reverse mode of a call of a function marked ct.checkpoint
// ([[ct::checkpoint]]), inside a loop. The callee updates the in/out
// buffer %u in place. The forward sweep pushes the elements of %u the
// callee touches ([0, 3]: %u may be a C pointer's memory) on the tape and
// calls the callee itself: no forward half, nothing of what it computes is
// recorded. The reverse sweep pops them into a fresh copy, last first, and
// calls the callee's combined pullback on the copy, with %u's own shadow.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

func.func private @relax(%u: memref<?xf64, strided<[1], offset: ?>>, %a: f64) -> f64 attributes {ct.checkpoint} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%s = %zero) -> (f64) {
    %x = memref.load %u[%i] : memref<?xf64, strided<[1], offset: ?>>
    %y = arith.mulf %x, %x : f64
    %z = arith.mulf %y, %a : f64
    memref.store %z, %u[%i] : memref<?xf64, strided<[1], offset: ?>>
    %t = arith.addf %s, %z : f64
    scf.yield %t : f64
  }
  return %r : f64
}

func.func @f(%u: memref<?xf64, strided<[1], offset: ?>>, %a: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %t = %c0 to %n step %c1 iter_args(%s = %zero) -> (f64) {
    %c = func.call @relax(%u, %a) {no_inline} : (memref<?xf64, strided<[1], offset: ?>>, f64) -> f64
    %p = arith.mulf %c, %c : f64
    %next = arith.addf %s, %p : f64
    scf.yield %next : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func private @f.pullback.dac
// CHECK-SAME: (%[[U:.*]]: memref<?xf64, strided<[1], offset: ?>>, %{{.*}}: f64, %{{.*}}: index, %{{.*}}: f64, %[[DU:.*]]: memref<?xf64, strided<[1], offset: ?>>)
// CHECK: %[[TAPE:.*]] = ct.tape_init
// Forward: the kept elements, then the callee itself.
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[X:.*]] = memref.load %[[U]]
// CHECK: ct.tape_push %[[TAPE]], %[[X]] : f64
// CHECK: call @relax(%[[U]], %{{.*}}) : (memref<?xf64, strided<[1], offset: ?>>, f64) -> f64
// CHECK-NOT: call @relax.fwd
// The kept count goes on the tape too; the first index (0) does not.
// CHECK: ct.tape_push %[[TAPE]], %{{.*}} : f64
// CHECK-NEXT: ct.tape_push %[[TAPE]], %{{.*}} : index
// CHECK-NEXT: scf.yield
// Reverse: the copy from the tape, last element first, and the pullback.
// CHECK: %[[COPY:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[SHIFTED:.*]] = memref.reinterpret_cast %[[COPY]] to offset: [0]
// CHECK: %[[VIEW:.*]] = memref.cast %[[SHIFTED]]
// CHECK: scf.for
// CHECK: %[[Y:.*]] = ct.tape_pop %[[TAPE]] : f64
// CHECK: memref.store %[[Y]], %[[COPY]]
// CHECK: call @relax.pullback.da(%[[VIEW]], %{{.*}}, %{{.*}}, %[[DU]])
// CHECK: memref.dealloc %[[COPY]]
// CHECK: ct.tape_free %[[TAPE]]

func.func @main(%u: memref<?xf64, strided<[1], offset: ?>>, %a: f64, %n: index, %du: memref<?xf64, strided<[1], offset: ?>>) -> (f64, f64) {
  %v, %da = ct.gradient @f(%u, %a, %n) shadows(%du) activity [dup, active, const]
      : (memref<?xf64, strided<[1], offset: ?>>, f64, index, memref<?xf64, strided<[1], offset: ?>>) -> (f64, f64)
  return %v, %da : f64, f64
}
