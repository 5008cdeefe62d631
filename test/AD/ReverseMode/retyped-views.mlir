// Integers among floating-point slots (an `int ids[2]` in a struct of
// doubles, docs/Memory.md): the frontend reads and writes them through a
// view of their own type, ct.retype_view. Such a view has no shadow: a
// store of an integer through it overwrites no derivative (no reverse), a
// load of one is not active, and the doubles beside it keep theirs. A view
// of floating-point scalars has the same view of the shadow.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// Reverse: the index stored and read back through the int view selects
// the element of x whose adjoint receives w's partial; the weight's slot
// gets x[id]. Nothing is stored into a view of the shadow's integers.
// CHECK-LABEL: func.func private @pick.pullback.dac
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %[[W:.*]]: f64, %[[ID:.*]]: i32, %[[SEED:.*]]: f64, %[[DX:.*]]: memref<?xf64>)
// CHECK: %[[OBJ:.*]] = memref.alloca() : memref<3xf64>
// CHECK: %[[DOBJ:.*]] = memref.alloca() : memref<3xf64>
// CHECK: %[[IDS:.*]] = ct.retype_view %[[OBJ]][%{{.*}}] : memref<3xf64> -> memref<?xi32, strided<[1], offset: ?>>
// CHECK: memref.store %[[ID]], %[[IDS]][%{{.*}}]
// CHECK: %[[READ:.*]] = memref.load %[[IDS]][%{{.*}}]
// CHECK: %[[K:.*]] = arith.index_cast %[[READ]]
// CHECK: %[[XK:.*]] = memref.load %[[X]][%[[K]]]
// CHECK: %[[WEIGHT:.*]] = memref.load %[[OBJ]][%[[C2:.*]]]
// CHECK-NOT: ct.retype_view
// CHECK: %[[DW:.*]] = arith.mulf %[[XK]], %[[SEED]]
// CHECK: %[[PX:.*]] = arith.mulf %[[WEIGHT]], %[[SEED]]
// CHECK: memref.load %[[DOBJ]][%[[C2]]]
// CHECK: %[[OLD:.*]] = memref.load %[[DX]][%[[K]]]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[PX]]
// CHECK: memref.store %[[NEW]], %[[DX]][%[[K]]]
func.func @pick(%x: memref<?xf64>, %w: f64, %id: i32) -> f64 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %object = memref.alloca() : memref<3xf64>
  memref.store %w, %object[%c2] : memref<3xf64>
  %ids = ct.retype_view %object[%c0] : memref<3xf64> -> memref<?xi32, strided<[1], offset: ?>>
  memref.store %id, %ids[%c0] : memref<?xi32, strided<[1], offset: ?>>
  %read = memref.load %ids[%c0] : memref<?xi32, strided<[1], offset: ?>>
  %k = arith.index_cast %read : i32 to index
  %xk = memref.load %x[%k] : memref<?xf64>
  %weight = memref.load %object[%c2] : memref<3xf64>
  %r = arith.mulf %weight, %xk : f64
  return %r : f64
}

// Forward: the tangent object gets no int view; a view of floats is taken
// of the tangent memory too, at the same element.
// CHECK-LABEL: func.func private @floats.jvp.d
// CHECK-SAME: (%[[P:.*]]: memref<?xf64>, %[[TP:.*]]: memref<?xf64>)
// CHECK-DAG: %[[V:.*]] = ct.retype_view %[[P]][%[[C1:.*]]] : memref<?xf64> -> memref<?xf32, strided<[1], offset: ?>>
// CHECK-DAG: %[[TV:.*]] = ct.retype_view %[[TP]][%[[C1]]] : memref<?xf64> -> memref<?xf32, strided<[1], offset: ?>>
// CHECK-DAG: %[[IDS:.*]] = ct.retype_view %[[P]][%[[C0:.*]]] : memref<?xf64> -> memref<?xi32
// CHECK-NOT: ct.retype_view %[[TP]][%[[C0]]]
// CHECK: %[[T:.*]] = memref.load %[[TV]][%{{.*}}]
// CHECK: %[[PRODUCT:.*]] = arith.mulf %{{.*}}, %[[T]]
// CHECK: %[[TW:.*]] = arith.addf %[[PRODUCT]], %[[PRODUCT]]
// CHECK: return %{{.*}}, %[[TW]]
func.func @floats(%p: memref<?xf64>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ids = ct.retype_view %p[%c0] : memref<?xf64> -> memref<?xi32, strided<[1], offset: ?>>
  %id = memref.load %ids[%c0] : memref<?xi32, strided<[1], offset: ?>>
  %k = arith.index_cast %id : i32 to index
  %view = ct.retype_view %p[%c1] : memref<?xf64> -> memref<?xf32, strided<[1], offset: ?>>
  %v = memref.load %view[%k] : memref<?xf32, strided<[1], offset: ?>>
  %r = arith.mulf %v, %v : f32
  return %r : f32
}

func.func @main(%x: memref<?xf64>, %dx: memref<?xf64>, %w: f64, %id: i32) -> (f64, f32) {
  %s = arith.constant 1.0 : f64
  %r:2 = ct.pullback @pick(%x, %w, %id) seeds(%s) shadows(%dx) activity [dup, active, const] : (memref<?xf64>, f64, i32, f64, memref<?xf64>) -> (f64, f64)
  %f:2 = ct.jvp @floats(%x) tangents(%dx) activity [dup] : (memref<?xf64>, memref<?xf64>) -> (f32, f32)
  return %r#1, %f#1 : f64, f32
}
