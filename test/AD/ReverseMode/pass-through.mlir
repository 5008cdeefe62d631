// ct.pass_through differentiates as the identity of its input, also where
// the value it returns does not depend on the input (a library's result
// computed from numbers without derivatives: nextafter): the derivative
// flows from the input, in reverse and forward mode.
// RUN: %cotangent-opt %s --ct-autodiff | FileCheck %s

func.func private @library(f64) -> f64 attributes {ct.external}

// f(x) = pass_through(library(stop_gradient(x)), x) * x: f' = v + x.
func.func @passed(%x: f64) -> f64 {
  %s = ct.stop_gradient %x : f64
  %v = call @library(%s) : (f64) -> f64
  %p = ct.pass_through %v, %x : f64
  %r = arith.mulf %p, %x : f64
  return %r : f64
}
// CHECK-LABEL: func.func private @passed.jvp.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[T:.*]]: f64)
// CHECK: %[[P:.*]] = ct.pass_through
// CHECK-DAG: arith.mulf %[[X]], %[[T]]
// CHECK-DAG: arith.mulf %[[P]], %[[T]]
// CHECK: arith.addf

// CHECK-LABEL: func.func private @passed.pullback.a
// CHECK-SAME: (%[[X:.*]]: f64, %[[S:.*]]: f64)
// CHECK: %[[V:.*]] = call @library
// CHECK: %[[P:.*]] = ct.pass_through %[[V]], %[[X]]
// CHECK-DAG: %[[BY_X:.*]] = arith.mulf %[[P]], %[[S]]
// CHECK-DAG: %[[BY_P:.*]] = arith.mulf %[[X]], %[[S]]
// CHECK: %[[D:.*]] = arith.addf
// CHECK-SAME: %[[BY_P]]
// CHECK: return %{{.*}}, %[[D]]

func.func @entry(%x: f64) -> (f64, f64, f64) {
  %v, %d = ct.gradient @passed(%x) activity [active] : (f64) -> (f64, f64)
  %one = arith.constant 1.0 : f64
  %w, %t = ct.jvp @passed(%x) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  return %v, %d, %t : f64, f64, f64
}
