// A custom rule's pullback reads its memory arguments in the reverse sweep,
// as the call left them: where code after the call writes that memory, the
// forward sweep pushes the elements the rule's function reads right after
// the call, and the reverse sweep pops them into a fresh copy that it
// passes to the pullback and frees after. Memory nothing writes after the
// call is passed as it is. (Before, the pullback read what the later code
// had written: a wrong derivative.)
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @changed.pullback.a
// CHECK: %[[TAPE:.*]] = ct.tape_init
// CHECK: %[[P:.*]] = memref.alloca() : memref<2xf64>
// CHECK: call @rule_target(%[[P]], %{{.*}})
// CHECK-NEXT: scf.for
// CHECK-NEXT: %[[KEPT:.*]] = memref.load %[[P]]
// CHECK-NEXT: ct.tape_push %[[TAPE]], %[[KEPT]] : f64
// CHECK: memref.store %{{.*}}, %[[P]]
// CHECK: %[[COPY:.*]] = memref.alloc() : memref<2xf64>
// CHECK: scf.for
// CHECK: %[[POPPED:.*]] = ct.tape_pop %[[TAPE]] : f64
// CHECK: memref.store %[[POPPED]], %[[COPY]]
// CHECK: call @rule_pullback(%[[COPY]],
// CHECK-NEXT: memref.dealloc %[[COPY]]

// CHECK-LABEL: func.func private @unchanged.pullback.a
// CHECK-NOT: ct.tape
// CHECK: %[[Q:.*]] = memref.alloca() : memref<2xf64>
// CHECK: call @rule_pullback(%[[Q]],
// CHECK: return

func.func private @rule_target(%p: memref<2xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %p[%c0] : memref<2xf64>
  %y = arith.mulf %v, %x : f64
  return %y : f64
}
func.func private @rule_pullback(%p: memref<2xf64>, %x: f64, %dret: f64, %dp: memref<2xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %p[%c0] : memref<2xf64>
  %d = arith.mulf %v, %dret : f64
  return %d : f64
}
ct.custom_gradient @rule_target pullback @rule_pullback
// The buffer is overwritten after the call: kept.
func.func @changed(%x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %p = memref.alloca() : memref<2xf64>
  memref.store %x, %p[%c0] : memref<2xf64>
  %y = func.call @rule_target(%p, %x) : (memref<2xf64>, f64) -> f64
  memref.store %y, %p[%c0] : memref<2xf64>
  %w = memref.load %p[%c0] : memref<2xf64>
  %z = arith.mulf %w, %x : f64
  return %z : f64
}
// Nothing writes it after the call: passed as it is.
func.func @unchanged(%x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %p = memref.alloca() : memref<2xf64>
  memref.store %x, %p[%c0] : memref<2xf64>
  %y = func.call @rule_target(%p, %x) : (memref<2xf64>, f64) -> f64
  %z = arith.mulf %y, %x : f64
  return %z : f64
}
func.func @main(%x: f64) -> (f64, f64, f64, f64) {
  %v, %dx = ct.gradient @changed(%x) activity [active] : (f64) -> (f64, f64)
  %u, %du = ct.gradient @unchanged(%x) activity [active] : (f64) -> (f64, f64)
  return %v, %dx, %u, %du : f64, f64, f64, f64
}
