// A library object kept as compiled inside a struct of numbers (a
// std::map field beside a double, docs/Memory.md item 11) is a view of the
// struct's bytes. What the numbers beside it carry does not enter it: a
// call on it reads nothing varied, so it is cloned in the forward sweep
// and the number it returns carries no derivative, while the number beside
// it does. A derivative stored through a reference it returned does enter
// it, and the read that brings it back out is an error.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func private @table.pullback.d(
// CHECK-SAME: %[[X:.*]]: memref<?xf64>, %[[SEED:.*]]: f64, %[[DX:.*]]: memref<?xf64>)
// CHECK: %[[MAP:.*]] = ct.retype_view %{{.*}} -> memref<?xi8, strided<[1], offset: ?>>
// CHECK: %[[ENTRY:.*]] = call @map_at(%[[MAP]])
// CHECK: %[[SCALE:.*]] = memref.load %[[ENTRY]]
// CHECK-NOT: call @map_at
// CHECK: %[[PARTIAL:.*]] = arith.mulf %[[SCALE]], %[[SEED]]
// CHECK: memref.store %{{.*}}, %[[DX]]
func.func private @map_at(memref<?xi8, strided<[1], offset: ?>>) -> memref<?xf64, strided<[1], offset: ?>> attributes {ct.external, ct.library_object = "std::map<int, double>", ct.source_name = "std::map<int, double>::at"}

func.func @table(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %object = memref.alloca() : memref<7xf64>
  %v = memref.load %x[%c0] : memref<?xf64>
  memref.store %v, %object[%c0] : memref<7xf64>
  %map = ct.retype_view %object[%c1] : memref<7xf64> -> memref<?xi8, strided<[1], offset: ?>>
  %entry = call @map_at(%map) : (memref<?xi8, strided<[1], offset: ?>>) -> memref<?xf64, strided<[1], offset: ?>>
  %scale = memref.load %entry[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %bias = memref.load %object[%c0] : memref<7xf64>
  %r = arith.mulf %scale, %bias : f64
  return %r : f64
}

func.func @main(%x: memref<?xf64>, %dx: memref<?xf64>) -> f64 {
  %s = arith.constant 1.0 : f64
  %r:1 = ct.pullback @table(%x) seeds(%s) shadows(%dx) activity [dup] : (memref<?xf64>, f64, memref<?xf64>) -> (f64)
  return %r#0 : f64
}

// -----

func.func private @map_at(memref<?xi8, strided<[1], offset: ?>>) -> memref<?xf64, strided<[1], offset: ?>> attributes {ct.external, ct.library_object = "std::map<int, double>", ct.source_name = "std::map<int, double>::at"}

func.func @stored(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %object = memref.alloca() : memref<7xf64>
  %v = memref.load %x[%c0] : memref<?xf64>
  %map = ct.retype_view %object[%c1] : memref<7xf64> -> memref<?xi8, strided<[1], offset: ?>>
  %entry = call @map_at(%map) : (memref<?xi8, strided<[1], offset: ?>>) -> memref<?xf64, strided<[1], offset: ?>>
  memref.store %v, %entry[%c0] : memref<?xf64, strided<[1], offset: ?>>
  // expected-error @+1 {{'std::map<int, double>::at' works on a 'std::map<int, double>', which differentiable code keeps as the library compiled it, and a derivative would have to come out of it here}}
  %again = call @map_at(%map) : (memref<?xi8, strided<[1], offset: ?>>) -> memref<?xf64, strided<[1], offset: ?>>
  %read = memref.load %again[%c0] : memref<?xf64, strided<[1], offset: ?>>
  return %read : f64
}

func.func @main(%x: memref<?xf64>, %dx: memref<?xf64>) -> f64 {
  %s = arith.constant 1.0 : f64
  %r:1 = ct.pullback @stored(%x) seeds(%s) shadows(%dx) activity [dup] : (memref<?xf64>, f64, memref<?xf64>) -> (f64)
  return %r#0 : f64
}
