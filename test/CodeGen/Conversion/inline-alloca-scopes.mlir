// ct-inline-alloca-scopes: a scope's body runs between a stack save and a
// restore, its result the value the body returned.
// RUN: %cotangent-opt %s --ct-inline-alloca-scopes | FileCheck %s

// CHECK-LABEL: func.func @scoped
// CHECK: %[[SAVED:.*]] = llvm.intr.stacksave
// CHECK: %[[A:.*]] = memref.alloca() : memref<4xf64>
// CHECK: %[[V:.*]] = memref.load %[[A]]
// CHECK: llvm.intr.stackrestore %[[SAVED]]
// CHECK-NOT: alloca_scope
// CHECK: return %[[V]]
func.func @scoped(%n: index) -> f64 {
  %r = memref.alloca_scope -> f64 {
    %a = memref.alloca() : memref<4xf64>
    %c0 = arith.constant 0 : index
    %v = memref.load %a[%c0] : memref<4xf64>
    memref.alloca_scope.return %v : f64
  }
  return %r : f64
}
