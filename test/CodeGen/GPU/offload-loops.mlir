// ct-offload-loops: a parallel loop marked ct.device runs, when
// ct_gpu_begin() says a device answers, as a copy mapped to blocks and
// threads (256 iterations a block) on device copies of the memory it uses;
// reductions combine atomically into 1024 device cells that start from the
// identity (iteration i into cell i mod 1024; the host then combines the
// initial value with the cells in order), or into one that starts from the
// initial value when the combiner has no known identity; what the loop
// writes is copied back; otherwise (or after a
// driver error: ct_gpu_end) the CPU loop runs: the loop's twin for CPU
// threads if it has one. Loops a kernel cannot run stay on the CPU.
// RUN: %cotangent-opt %s --ct-offload-loops | FileCheck %s

!m = memref<?xf64, strided<[1], offset: ?>>

// The device copies are as long as the memrefs (a C pointer has a length
// when a map clause gave it one; ct_gpu_begin gets false, and the loop runs
// on the CPU, when the length is ct.pointer_view's placeholder): x is only
// read (copied in), y written (copied in and back).
// CHECK-LABEL: func.func @map_and_sum
// CHECK: %[[CELL:.*]] = memref.alloca() : memref<1024xf64>
// CHECK: %[[XN:.*]] = memref.dim %arg0
// CHECK: arith.cmpi ult, %[[XN]], %c1152921504606846976
// CHECK: %[[USE:.*]] = call @ct_gpu_begin
// CHECK: scf.if
// CHECK:   %[[X:[^,]*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xf64>
// CHECK:   %[[XP:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK:   call @ct_gpu_copy(%[[XP]], %{{.*}}, %{{.*}}, %c1_i32
// CHECK:   %[[Y:[^,]*]], %{{.*}} = gpu.alloc async
// CHECK:   %[[YP:.*]] = memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK:   call @ct_gpu_copy(%[[YP]], %{{.*}}, %{{.*}}, %c1_i32
// CHECK:   %[[ZERO:.*]] = arith.constant -0.000000e+00 : f64
// CHECK:   scf.for
// CHECK:     memref.store %[[ZERO]], %[[CELL]]
// CHECK:   %[[DCELL:[^,]*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<1024xf64>
// CHECK:   scf.parallel
// CHECK:     scf.parallel
// CHECK:       scf.if
// CHECK:         memref.load
// CHECK:         memref.store
// CHECK:         %[[STRIPE:.*]] = arith.remui %{{.*}}, %c1024
// CHECK:         memref.atomic_rmw addf %{{.*}}, %[[DCELL]][%[[STRIPE]]]
// CHECK:     } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:   } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK-NOT: call @ct_gpu_copy(%[[XP]], {{.*}}, %c0_i32
// CHECK:   call @ct_gpu_copy(%[[YP]], %{{.*}}, %{{.*}}, %c0_i32
// CHECK:   gpu.dealloc async
// CHECK: %[[RAN:.*]] = call @ct_gpu_end(%[[USE]])
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (f64) {
// CHECK:   %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} iter_args(%[[ACC:.*]] = %cst) -> (f64) {
// CHECK:     %[[PART:.*]] = memref.load %[[CELL]][%[[K]]]
// CHECK:     %[[NEXT:.*]] = arith.addf %[[ACC]], %[[PART]]
// CHECK:     scf.yield %[[NEXT]]
// CHECK:   scf.yield %[[SUM]]
// CHECK: } else {
// CHECK:   %[[CPU:.*]] = scf.parallel {{.*}} init
// CHECK:   scf.yield %[[CPU]]
// CHECK: return %[[R]]
func.func @map_and_sum(%x: !m, %y: !m, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init(%z) -> f64 {
    %v = memref.load %x[%i] : !m
    %w = arith.mulf %v, %v : f64
    memref.store %w, %y[%i] : !m
    scf.reduce(%w : f64) {
    ^bb0(%a: f64, %b: f64):
      %s = arith.addf %a, %b : f64
      scf.reduce.return %s : f64
    }
  } {ct.device}
  return %r : f64
}

// A max reduction (identity -inf): a compare-and-swap loop on the cell with
// the combiner.
// CHECK-LABEL: func.func @largest
// CHECK: arith.constant 0xFFF0000000000000 : f64
// CHECK: memref.generic_atomic_rmw
// CHECK:   arith.cmpf olt
// CHECK:   arith.select
// CHECK:   memref.atomic_yield
func.func @largest(%x: memref<100xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %low = arith.constant -1.0e300 : f64
  %r = scf.parallel (%i) = (%c0) to (%c100) step (%c1) init(%low) -> f64 {
    %v = memref.load %x[%i] : memref<100xf64>
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %wins = arith.cmpf olt, %a, %b : f64
      %m = arith.select %wins, %b, %a : f64
      scf.reduce.return %m : f64
    }
  } {ct.device}
  return %r : f64
}

// A combiner without a known identity: one cell, from the initial value.
// CHECK-LABEL: func.func @unknown_identity
// CHECK: %[[ONE:.*]] = memref.alloca() : memref<1xf64>
// CHECK: memref.store %{{.*}}, %[[ONE]][%{{.*}}]
// CHECK: memref.generic_atomic_rmw
// CHECK: memref.load %[[ONE]]
func.func @unknown_identity(%x: memref<100xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %init = arith.constant 1.0 : f64
  %r = scf.parallel (%i) = (%c0) to (%c100) step (%c1) init(%init) -> f64 {
    %v = memref.load %x[%i] : memref<100xf64>
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %p = arith.mulf %a, %b : f64
      %s = arith.addf %p, %a : f64
      scf.reduce.return %s : f64
    }
  } {ct.device}
  return %r : f64
}

// The twin for CPU threads is the CPU path; the device loop is the kernel.
// CHECK-LABEL: func.func @with_twin
// CHECK: scf.if
// CHECK:   memref.atomic_rmw addf
// CHECK: call @ct_gpu_end
// CHECK: scf.if
// CHECK: } else {
// CHECK:   scf.for
// CHECK-NOT: ct.host_twin
// CHECK: return
func.func @with_twin(%x: !m, %h: memref<4xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : !m
    %k = arith.remui %i, %c3 : index
    %o = memref.atomic_rmw addf %v, %h[%k] : (f64, memref<4xf64>) -> f64
    scf.reduce
  } {ct.device, ct.device_twin = 0 : i64}
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : !m
    %k = arith.remui %i, %c3 : index
    %old = memref.load %h[%k] : memref<4xf64>
    %new = arith.addf %old, %v : f64
    memref.store %new, %h[%k] : memref<4xf64>
  } {ct.host_twin = 0 : i64}
  return
}

// A call a kernel cannot make: the loop stays on the CPU, and a device loop
// with a twin gives way to it.
// CHECK-LABEL: func.func @calls
// CHECK-NOT: ct_gpu_begin
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK-NOT: ct.host_twin
// CHECK: return
func.func private @opaque(f64) -> f64
func.func @calls(%x: !m, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : !m
    %w = func.call @opaque(%v) : (f64) -> f64
    memref.store %w, %x[%i] : !m
    scf.reduce
  } {ct.device, ct.device_twin = 1 : i64}
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : !m
    %w = func.call @opaque(%v) : (f64) -> f64
    memref.store %w, %x[%i] : !m
  } {ct.host_twin = 1 : i64}
  return
}

// Tape slots written by position into a block claimed before the loop: the
// block has a device copy (8-byte slots), copied back after the kernel.
// CHECK-LABEL: func.func @taped
// CHECK: %[[BLOCK:.*]] = ct.tape_claim
// CHECK: scf.if
// CHECK:   %[[SLOTS:[^,]*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xi64>
// CHECK:   llvm.ptrtoint %[[BLOCK]]
// CHECK:   scf.parallel
// CHECK:         %[[BITS:.*]] = arith.bitcast %{{.*}} : f64 to i64
// CHECK:         memref.store %[[BITS]], %[[SLOTS]]
// CHECK:   call @ct_gpu_copy(%{{.*}}, %{{.*}}, %{{.*}}, %c0_i32
func.func @taped(%x: !m, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tape = ct.tape_init : !ct.tape
  %block = ct.tape_claim %tape, %n
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : !m
    %e = math.exp %v : f64
    ct.tape_write %e, %block[%i] : f64
    scf.reduce
  } {ct.device}
  ct.tape_free %tape
  return
}

// Each offloaded loop is named in the runtime's messages (CT_VERBOSE).
// CHECK: llvm.mlir.global private constant @__ct_gpu_loop("the loop at offload-loops.mlir:{{[0-9]+}}\00")
