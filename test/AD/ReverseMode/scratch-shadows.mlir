// A rule takes a derivative for every memref argument; where the call's
// argument has none (constant here), the caller passes scratch memory. A
// 1-D memref of dynamic size may view a C pointer (ct.pointer_view: size
// 2^60, less the offset of a view of `p + k`; any size from 2^59 up is
// taken for one): then the scratch is reserved address space
// (ct_scratch_reserve, cotangent/scratch.h), released after the call;
// otherwise a zeroed buffer of the argument's size, freed after.
// RUN: %cotangent-opt %s --ct-differentiate --canonicalize | FileCheck %s

func.func private @rule_target(%p: memref<?xf64, strided<[1], offset: ?>>, %x: f64) -> f64
func.func private @rule_pullback(%p: memref<?xf64, strided<[1], offset: ?>>, %x: f64, %dret: f64, %dp: memref<?xf64, strided<[1], offset: ?>>) -> f64
ct.custom_gradient @rule_target pullback @rule_pullback
func.func @f(%p: memref<?xf64, strided<[1], offset: ?>>, %x: f64) -> f64 {
  %y = func.call @rule_target(%p, %x) : (memref<?xf64, strided<[1], offset: ?>>, f64) -> f64
  %z = arith.mulf %y, %x : f64
  return %z : f64
}
func.func @main(%p: memref<?xf64, strided<[1], offset: ?>>, %x: f64) -> (f64, f64) {
  %v, %dx = ct.gradient @f(%p, %x) activity [const, active] : (memref<?xf64, strided<[1], offset: ?>>, f64) -> (f64, f64)
  return %v, %dx : f64, f64
}

// CHECK-LABEL: func.func private @f.pullback.ca
// CHECK-SAME: (%[[P:[a-z0-9]+]]: memref<?xf64
// CHECK: %[[UNKNOWN:.*]] = arith.constant 576460752303423488 : index
// CHECK: %[[SIZE:.*]] = memref.dim %[[P]]
// CHECK: %[[IS_POINTER:.*]] = arith.cmpi uge, %[[SIZE]], %[[UNKNOWN]]
// CHECK: %[[SCRATCH:.*]] = scf.if %[[IS_POINTER]]
// CHECK:   %[[MEMORY:.*]] = func.call @ct_scratch_reserve() : () -> !llvm.ptr
// CHECK:   %[[VIEW:.*]] = ct.pointer_view %[[MEMORY]]
// CHECK:   scf.yield %[[VIEW]]
// CHECK: } else {
// CHECK:   %[[BUFFER:.*]] = memref.alloc
// CHECK:   scf.for
// CHECK:     memref.store
// CHECK: call @rule_pullback(%[[P]], %{{.*}}, %{{.*}}, %[[SCRATCH]])
// CHECK: scf.if
// CHECK:   func.call @ct_scratch_release
// CHECK: } else {
// CHECK:   memref.dealloc %[[SCRATCH]]
// CHECK: func.func private @ct_scratch_reserve() -> !llvm.ptr
// CHECK: func.func private @ct_scratch_release(!llvm.ptr)
