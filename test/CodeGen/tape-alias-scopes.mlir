// ct-tape-alias-scopes: in a function that uses a tape, the accesses of its
// slots are in one `tape` alias scope and every other load or store is
// noalias of it (nothing else reaches a tape's storage), so LLVM needs no
// run-time overlap checks between the tape and the caller's arrays. A
// function without tape slots is left alone.
// RUN: %cotangent-opt %s --convert-to-llvm --ct-tape-alias-scopes | FileCheck %s
// RUN: %cotangent-opt %s --convert-to-llvm --ct-tape-alias-scopes | FileCheck %s --check-prefix=NOMARK

// CHECK-DAG: #[[DOMAIN:.*]] = #llvm.alias_scope_domain<id = {{.*}}, description = "ct.tape">
// CHECK-DAG: #[[TAPE:.*]] = #llvm.alias_scope<id = {{.*}}, domain = #[[DOMAIN]], description = "tape slots">

// CHECK-LABEL: llvm.func @reverse_loop
func.func @reverse_loop(%x: memref<?xf64>, %dx: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = ct.tape_init : !ct.tape
  %b = ct.tape_release %t, %n
  scf.for %i = %c0 to %n step %c1 {
    // CHECK: llvm.load %{{.*}} {alias_scopes = [#[[TAPE]]]} : !llvm.ptr -> f64
    %saved = ct.tape_read %b[%i] : f64
    // CHECK: llvm.load %{{.*}} {noalias_scopes = [#[[TAPE]]]} : !llvm.ptr -> f64
    %v = memref.load %x[%i] : memref<?xf64>
    %p = arith.mulf %saved, %v : f64
    // CHECK: llvm.load %{{.*}} {noalias_scopes = [#[[TAPE]]]} : !llvm.ptr -> f64
    %old = memref.load %dx[%i] : memref<?xf64>
    %new = arith.addf %old, %p : f64
    // CHECK: llvm.store %{{.*}}, %{{.*}} {noalias_scopes = [#[[TAPE]]]} : f64, !llvm.ptr
    memref.store %new, %dx[%i] : memref<?xf64>
  }
  ct.tape_free %t
  return
}

// CHECK-LABEL: llvm.func @no_tape
// CHECK-NOT: alias_scopes
// CHECK-NOT: noalias_scopes
// CHECK: llvm.return
func.func @no_tape(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<?xf64>
  memref.store %v, %x[%c0] : memref<?xf64>
  return %v : f64
}

// The pass removes the lowering's marker.
// NOMARK-NOT: ct.tape_slot
