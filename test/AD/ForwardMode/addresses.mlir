// Addresses kept in memory, in forward mode (docs/Memory.md): a store of
// an address stores the shadow's address in the holder's shadow, a load
// of an address loads the shadow's beside it, and the tangent is read
// through that.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @kept.jvp.ad
// CHECK-SAME: (%[[X:.*]]: f64, %[[Q:.*]]: memref<?xf64>, %[[TX:.*]]: f64, %[[TQ:.*]]: memref<?xf64>)
// CHECK: %[[HOLDER:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[THOLDER:.*]] = memref.alloca() : memref<2xf64>
// CHECK: ct.store_address %[[Q]], %[[HOLDER]][%[[C1:[a-z0-9_]+]]]
// CHECK: ct.store_address %[[TQ]], %[[THOLDER]][%[[C1]]]
// CHECK: %[[P:.*]] = ct.load_address %[[HOLDER]][%[[C1]]]
// CHECK: %[[TP:.*]] = ct.load_address %[[THOLDER]][%[[C1]]]
// CHECK: memref.store %{{.*}}, %[[P]][%[[C0:[a-z0-9_]+]]]
// CHECK: memref.store %{{.*}}, %[[TP]][%[[C0]]]
// CHECK: memref.load %[[Q]][%[[C0]]]
// CHECK: memref.load %[[TQ]][%[[C0]]]
func.func @kept(%x: f64, %q: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %holder = memref.alloca() : memref<2xf64>
  ct.store_address %q, %holder[%c1] : memref<?xf64>, memref<2xf64>
  %p = ct.load_address %holder[%c1] : memref<2xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %y = arith.mulf %x, %x : f64
  memref.store %y, %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %v = memref.load %q[%c0] : memref<?xf64>
  %r = math.sin %v : f64
  return %r : f64
}

// Memory of integers whose address is kept has no tangent: the tangent
// holder keeps its own address at that slot, and only the memory of
// numbers gets a tangent buffer.
// CHECK-LABEL: func.func private @typed_classes.jvp.ad
// CHECK-SAME: (%[[X:.*]]: f64, %[[H:.*]]: memref<?xf64>, %[[TX:.*]]: f64, %[[DH:.*]]: memref<?xf64>)
// CHECK: %[[INTS:.*]] = memref.alloc() : memref<2xi32>
// CHECK-NOT: memref.alloc() : memref<2xi32>
// CHECK: ct.store_address %[[INTS]], %[[H]][%[[C0:[a-z0-9_]+]]]
// CHECK: ct.store_address %[[INTS]], %[[DH]][%[[C0]]]
// CHECK: return
func.func @typed_classes(%x: f64, %holder: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 3 : i32
  %ints = memref.alloc() : memref<2xi32>
  %values = memref.alloc() : memref<2xf64>
  memref.store %k, %ints[%c0] : memref<2xi32>
  memref.store %x, %values[%c0] : memref<2xf64>
  ct.store_address %ints, %holder[%c0] : memref<2xi32>, memref<?xf64>
  ct.store_address %values, %holder[%c1] : memref<2xf64>, memref<?xf64>
  %pi = ct.load_address %holder[%c0] : memref<?xf64> -> memref<?xi32, strided<[1], offset: ?>>
  %pv = ct.load_address %holder[%c1] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %i = memref.load %pi[%c0] : memref<?xi32, strided<[1], offset: ?>>
  %v = memref.load %pv[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %f = arith.sitofp %i : i32 to f64
  %r = arith.mulf %v, %f : f64
  memref.dealloc %ints : memref<2xi32>
  memref.dealloc %values : memref<2xf64>
  return %r : f64
}

func.func @main(%x: f64, %p: memref<?xf64>, %dp: memref<?xf64>) -> f64 {
  %t = arith.constant 1.0 : f64
  %k:2 = ct.jvp @kept(%x, %p) tangents(%t, %dp) activity [active, dup] : (f64, memref<?xf64>, f64, memref<?xf64>) -> (f64, f64)
  %typed:2 = ct.jvp @typed_classes(%x, %p) tangents(%t, %dp) activity [active, dup] : (f64, memref<?xf64>, f64, memref<?xf64>) -> (f64, f64)
  %sum = arith.addf %k#1, %typed#1 : f64
  return %sum : f64
}
