// A callee given memory without a derivative that it only frees and reads
// addresses from (a recursive helper deleting a list of constants) is
// called as it is: no scratch shadow is made for it (its derivative would
// free that scratch too, and the caller again). A callee that stores into
// such memory still gets one (it may read back what it stored).
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s --implicit-check-not=free_list.jvp

// CHECK-LABEL: func.func private @constant_list.jvp.a
// CHECK: call @free_list(%{{.*}}) : (memref<?xf64, strided<[1], offset: ?>>) -> ()
// CHECK: return
func.func private @free_list(%p: memref<?xf64, strided<[1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %address = memref.extract_aligned_pointer_as_index %p : memref<?xf64, strided<[1], offset: ?>> -> index
  %some = arith.cmpi ne, %address, %c0 : index
  scf.if %some {
    %next = ct.load_address %p[%c1] : memref<?xf64, strided<[1], offset: ?>> -> memref<?xf64, strided<[1], offset: ?>>
    func.call @free_list(%next) : (memref<?xf64, strided<[1], offset: ?>>) -> ()
    memref.dealloc %p : memref<?xf64, strided<[1], offset: ?>>
  }
  return
}
func.func @constant_list(%x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = arith.constant 0.5 : f64
  %node = memref.alloc() : memref<2xf64>
  memref.store %w, %node[%c0] : memref<2xf64>
  %null = llvm.mlir.zero : !llvm.ptr
  %none = ct.pointer_view %null : memref<?xf64, strided<[1], offset: ?>>
  ct.store_address %none, %node[%c1] : memref<?xf64, strided<[1], offset: ?>>, memref<2xf64>
  %head = memref.cast %node : memref<2xf64> to memref<?xf64, strided<[1], offset: ?>>
  func.call @free_list(%head) : (memref<?xf64, strided<[1], offset: ?>>) -> ()
  %y = math.sin %x : f64
  return %y : f64
}
func.func @main(%x: f64, %t: f64) -> (f64, f64) {
  %v:2 = ct.jvp @constant_list(%x) tangents(%t) activity [active] : (f64, f64) -> (f64, f64)
  return %v#0, %v#1 : f64, f64
}
