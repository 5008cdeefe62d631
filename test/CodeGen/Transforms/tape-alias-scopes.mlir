// ct-tape-alias-scopes: in a function that uses a tape, the accesses of its
// slots are in one `tape` alias scope and every other load or store is
// noalias of it (nothing else reaches a tape's storage), so LLVM needs no
// run-time overlap checks between the tape and the caller's arrays. A
// function without tape slots is left alone.
// RUN: %cotangent-opt %s --convert-to-llvm --ct-tape-alias-scopes | FileCheck %s
// RUN: %cotangent-opt %s --convert-to-llvm --ct-tape-alias-scopes | FileCheck %s --check-prefix=NOMARK

// CHECK-DAG: #[[DOMAIN:.*]] = #llvm.alias_scope_domain<id = {{.*}}, description = "ct.tape">
// CHECK-DAG: #[[TAPE:.*]] = #llvm.alias_scope<id = {{.*}}, domain = #[[DOMAIN]], description = "tape slots">

// The header's stores and the helper calls touch tape memory too: a helper
// that grows the tape copies its slots, and LLVM gives an inlined body the
// call's scopes, so none of them may be noalias of the tape.
// CHECK-LABEL: llvm.func @reverse_loop
// CHECK-COUNT-3: llvm.store %{{.*}}, %{{.*}} {alias_scopes = [#[[TAPE]]]} : {{.*}}, !llvm.ptr
// CHECK: llvm.call @__ct_tape_release({{.*}}) {alias_scopes = [#[[TAPE]]]}
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
  // CHECK: llvm.call @__ct_tape_free({{.*}}) {alias_scopes = [#[[TAPE]]]}
  ct.tape_free %t
  return
}

// CHECK-LABEL: llvm.func @pushes
// CHECK: %[[SLOT:.*]] = llvm.call @__ct_tape_push({{.*}}) {alias_scopes = [#[[TAPE]]]}
// CHECK: llvm.store %{{.*}}, %[[SLOT]] {alias_scopes = [#[[TAPE]]]} : f64, !llvm.ptr
// CHECK: %[[POP:.*]] = llvm.call @__ct_tape_pop({{.*}}) {alias_scopes = [#[[TAPE]]]}
// CHECK: llvm.load %[[POP]] {alias_scopes = [#[[TAPE]]]} : !llvm.ptr -> f64
func.func @pushes(%v: f64) -> f64 {
  %t = ct.tape_init : !ct.tape
  ct.tape_push %t, %v : f64
  %r = ct.tape_pop %t : f64
  ct.tape_free %t
  return %r : f64
}

// A call handed the tape (a split pullback's forward half, recursion)
// writes it: it gets no scope at all.
// CHECK-LABEL: llvm.func @passes_tape
// CHECK: llvm.call @forward_half(%{{[0-9]+}}, %arg0) : (!llvm.ptr, f64) -> ()
func.func private @forward_half(%t: !ct.tape, %x: f64)
func.func @passes_tape(%x: f64) -> f64 {
  %t = ct.tape_init : !ct.tape
  call @forward_half(%t, %x) : (!ct.tape, f64) -> ()
  %r = ct.tape_pop %t : f64
  ct.tape_free %t
  return %r : f64
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
