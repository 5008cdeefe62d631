// nullptr whose shadow the reverse sweep asks for (a default-constructed
// Eigen matrix's data, chosen or kept alongside memory that carries
// derivatives, and viewed in a branch that never runs with it): nothing is
// read or written through it, so it is its own shadow.
// RUN: %cotangent-opt %s --ct-autodiff | FileCheck %s
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup > /dev/null

func.func @untaken(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %zero = llvm.mlir.zero : !llvm.ptr
  %null = ct.pointer_view %zero : memref<?xf64, strided<[1], offset: ?>>
  %none = arith.cmpi eq, %n, %c0 : index
  %sq = arith.mulf %x, %x : f64
  %chosen = scf.if %none -> (memref<?xf64, strided<[1], offset: ?>>) {
    scf.yield %null : memref<?xf64, strided<[1], offset: ?>>
  } else {
    %made = memref.alloc(%n) : memref<?xf64>
    %view = memref.cast %made : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
    scf.yield %view : memref<?xf64, strided<[1], offset: ?>>
  }
  %holder = memref.alloca() : memref<1xf64>
  ct.store_address %chosen, %holder[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<1xf64>
  %kept = ct.load_address %holder[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %never = arith.cmpi slt, %n, %c0 : index
  scf.if %never {
    %first = memref.subview %null[0] [%n] [1] : memref<?xf64, strided<[1], offset: ?>> to memref<?xf64, strided<[1], offset: ?>>
    memref.store %sq, %first[%c0] : memref<?xf64, strided<[1], offset: ?>>
  } else {
    memref.store %sq, %kept[%c0] : memref<?xf64, strided<[1], offset: ?>>
  }
  %v = memref.load %kept[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %r = arith.mulf %v, %x : f64
  return %r : f64
}
// The reverse of the branch that writes through a view of nullptr takes
// the same view of nullptr as its shadow.
// CHECK-LABEL: func.func private @untaken.pullback.ac
// CHECK: %[[ZERO:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[NULL:.*]] = ct.pointer_view %[[ZERO]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf64, strided<[1], offset: ?>>
// CHECK: memref.load
// CHECK: scf.if %[[NEVER:.*]] {
// CHECK-NEXT: %[[SHADOW:.*]] = memref.subview %[[NULL]][0] [%{{.*}}] [1]
// CHECK-NEXT: %[[ADJOINT:.*]] = memref.load %[[SHADOW]][%{{.*}}]
// CHECK-NEXT: memref.store %{{.*}}, %[[SHADOW]][%{{.*}}]
// CHECK: return

func.func @main(%x: f64, %n: index) -> (f64, f64) {
  %v:2 = ct.gradient @untaken(%x, %n) activity [active, const] : (f64, index) -> (f64, f64)
  return %v#0, %v#1 : f64, f64
}
