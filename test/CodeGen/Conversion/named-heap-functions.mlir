// The program's heap memory goes through the function its source names
// (ct.heap_function): an allocation becomes the call, a view of its
// address and a reinterpret_cast to the allocation's type; a free the
// call, of the aligned pointer (a named allocation's memory begins there).
// Over-aligned memory gets the aligned forms. An unnamed free of memory a
// named allocation made (the derivative code freeing the program's memory)
// calls the matching function; the engine's own memory keeps the generic
// functions.
// RUN: %cotangent-opt %s --ct-named-heap-functions | FileCheck %s
// RUN: %cotangent-opt %s --ct-lower-to-llvm | FileCheck %s --check-prefix=LLVM

// The functions named, declared once each.
// LLVM-DAG: llvm.func @_Znam(i64) -> !llvm.ptr
// LLVM-DAG: llvm.func @_ZdaPv(!llvm.ptr)
// LLVM-DAG: llvm.func @malloc(i64) -> !llvm.ptr
// LLVM-DAG: llvm.func @free(!llvm.ptr)

// CHECK-LABEL: func.func @array
// CHECK: %[[BYTES:.*]] = arith.muli %{{.*}}, %c8
// CHECK: %[[I64:.*]] = arith.index_cast %[[BYTES]] : index to i64
// CHECK: %[[P:.*]] = llvm.call @_Znam(%[[I64]]) : (i64) -> !llvm.ptr
// CHECK: %[[V:.*]] = ct.pointer_view %[[P]]
// CHECK: %[[M:.*]] = memref.reinterpret_cast %[[V]] to offset: [0], sizes: [%{{.*}}], strides: [1]{{.*}} to memref<?xf64>
// CHECK: memref.store %{{.*}}, %[[M]]
// CHECK: %[[A:.*]] = memref.extract_aligned_pointer_as_index %[[M]]
// CHECK: llvm.call @_ZdaPv
func.func @array(%n: index, %x: f64) {
  %m = memref.alloc(%n) {ct.heap_function = "operator new[]"} : memref<?xf64>
  %c0 = arith.constant 0 : index
  memref.store %x, %m[%c0] : memref<?xf64>
  memref.dealloc %m {ct.heap_function = "operator delete[]"} : memref<?xf64>
  return
}

// C's memory, freed by the derivative code without a name: free.
// CHECK-LABEL: func.func @c_memory
// CHECK: llvm.call @malloc
// CHECK: llvm.call @free
// CHECK-NOT: memref.dealloc
func.func @c_memory(%n: index) {
  %m = memref.alloc(%n) {ct.heap_function = "malloc"} : memref<?xf32>
  %v = memref.subview %m[0] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
  memref.dealloc %m : memref<?xf32>
  return
}

// The caller's memory (an address read from its object), freed by name.
// CHECK-LABEL: func.func @callers
// CHECK: llvm.call @_ZdlPv
func.func @callers(%holder: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %m = ct.load_address %holder[%c0] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
  memref.dealloc %m {ct.heap_function = "operator delete"} : memref<?xf64, strided<[1], offset: ?>>
  return
}

// Over-aligned: the aligned forms, with the alignment; a 2-D allocation
// (vector lanes) counts all its scalars.
// CHECK-LABEL: func.func @aligned
// CHECK: %[[C64:.*]] = llvm.mlir.constant(64 : i64)
// CHECK: llvm.call @_ZnwmSt11align_val_t(%{{.*}}, %[[C64]])
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%{{.*}}, 4], strides: [4, 1]
// CHECK: llvm.call @aligned_alloc(%{{.*}}, %{{.*}})
// CHECK: llvm.call @_ZdlPvSt11align_val_t
// CHECK: llvm.call @free
func.func @aligned(%n: index) {
  %m = memref.alloc(%n) {alignment = 64 : i64, ct.heap_function = "operator new"} : memref<?x4xf64>
  %c = memref.alloc(%n) {alignment = 32 : i64, ct.heap_function = "malloc"} : memref<?xi8>
  memref.dealloc %m : memref<?x4xf64>
  memref.dealloc %c {ct.heap_function = "free"} : memref<?xi8>
  return
}

// The engine's own memory: the generic functions.
// CHECK-LABEL: func.func @engine
// CHECK: memref.alloc
// CHECK: memref.dealloc
// LLVM-LABEL: llvm.func @engine
// LLVM: llvm.call @_mlir_memref_to_llvm_alloc
// LLVM: llvm.call @_mlir_memref_to_llvm_free
func.func @engine(%n: index) {
  %m = memref.alloc(%n) : memref<?xf64>
  memref.dealloc %m : memref<?xf64>
  return
}

// Eigen's own aligned malloc (AVX's 32 bytes), and its free, unnamed here
// (the derivative code freeing it): the module's private functions laying
// memory out as Eigen does, so that the caller's Eigen frees it.
// CHECK-LABEL: func.func @eigen
// CHECK: %[[ALIGN:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: llvm.call @ct.eigen.handmade_malloc(%{{.*}}, %[[ALIGN]])
// CHECK: llvm.call @ct.eigen.handmade_free
// CHECK-NOT: memref.dealloc
func.func @eigen(%n: index) {
  %m = memref.alloc(%n) {alignment = 32 : i64, ct.heap_function = "Eigen::internal::handmade_aligned_malloc"} : memref<?xf64>
  memref.dealloc %m : memref<?xf64>
  return
}

// malloc of the size and the alignment, rounded up past the alignment, and
// malloc's address kept in the word below; the free reads it back.
// (The free is made first: frees are lowered before allocations.)
// CHECK-LABEL: llvm.func internal @ct.eigen.handmade_free(
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %{{.*}}[-1]
// CHECK: %[[ORIGINAL:.*]] = llvm.load %[[SLOT]]
// CHECK: llvm.call @free(%[[ORIGINAL]])
// CHECK-LABEL: llvm.func internal @ct.eigen.handmade_malloc(
// CHECK-SAME: %[[BYTES:.*]]: i64, %[[ALIGNMENT:.*]]: i64) -> !llvm.ptr
// CHECK: %[[TOTAL:.*]] = llvm.add %[[BYTES]], %[[ALIGNMENT]]
// CHECK: %[[ORIGINAL:.*]] = llvm.call @malloc(%[[TOTAL]])
// CHECK: llvm.icmp "eq" %[[ORIGINAL]]
// CHECK: %[[ADDRESS:.*]] = llvm.ptrtoint %[[ORIGINAL]]
// CHECK: %[[LOW:.*]] = llvm.and %[[ADDRESS]]
// CHECK: %[[UP:.*]] = llvm.add %[[LOW]], %[[ALIGNMENT]]
// CHECK: %[[ALIGNED:.*]] = llvm.inttoptr %[[UP]]
// CHECK: %[[BELOW:.*]] = llvm.getelementptr %[[ALIGNED]][-1]
// CHECK: llvm.store %[[ORIGINAL]], %[[BELOW]]
// CHECK: llvm.return %[[ALIGNED]]
