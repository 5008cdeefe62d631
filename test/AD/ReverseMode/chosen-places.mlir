// A choice between two places (arith.select of memrefs: `c ? a : b` as an
// lvalue, std::min's reference) is followed by activity and by both
// modes: its shadow is the same choice between the places' shadows, and a
// store through it may change either place.
// RUN: %cotangent-opt %s --ct-autodiff | FileCheck %s

func.func @scale_smaller(%x: f64, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f64
  %a = memref.alloca() : memref<1xf64>
  %b = memref.alloca() : memref<1xf64>
  %xx = arith.mulf %x, %x : f64
  memref.store %xx, %a[%c0] : memref<1xf64>
  memref.store %y, %b[%c0] : memref<1xf64>
  %less = arith.cmpf olt, %xx, %y : f64
  %place = arith.select %less, %a, %b : memref<1xf64>
  %v = memref.load %place[%c0] : memref<1xf64>
  %w = arith.mulf %v, %two : f64
  memref.store %w, %place[%c0] : memref<1xf64>
  %ra = memref.load %a[%c0] : memref<1xf64>
  %rb = memref.load %b[%c0] : memref<1xf64>
  %r = arith.addf %ra, %rb : f64
  return %r : f64
}

// Each place and its shadow: the primal choice and the shadows' choice.
// CHECK-LABEL: func.func private @scale_smaller.jvp.aa
// CHECK: %[[A:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[TA:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[B:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[TB:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[LESS:.*]] = arith.cmpf olt
// CHECK-DAG: %[[PLACE:.*]] = arith.select %[[LESS]], %[[A]], %[[B]] : memref<1xf64>
// CHECK-DAG: %[[TANGENT:.*]] = arith.select %[[LESS]], %[[TA]], %[[TB]] : memref<1xf64>
// CHECK: memref.store %{{.*}}, %[[PLACE]]
// CHECK: memref.store %{{.*}}, %[[TANGENT]]

// CHECK-LABEL: func.func private @scale_smaller.pullback.aa
// CHECK: %[[A:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[DA:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[B:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[DB:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[LESS:.*]] = arith.cmpf olt
// CHECK-DAG: %[[SHADOW:.*]] = arith.select %[[LESS]], %[[DA]], %[[DB]] : memref<1xf64>
// CHECK-DAG: %[[PLACE:.*]] = arith.select %[[LESS]], %[[A]], %[[B]] : memref<1xf64>
// CHECK: memref.store %{{.*}}, %[[PLACE]]
// The adjoint of the chosen place is read and doubled through the choice.
// CHECK: memref.load %[[SHADOW]]
// CHECK: memref.store %{{.*}}, %[[SHADOW]]

func.func @main(%x: f64, %y: f64) {
  %g:3 = ct.gradient @scale_smaller(%x, %y) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %j:2 = ct.jvp @scale_smaller(%x, %y) tangents(%x, %y) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  return
}
