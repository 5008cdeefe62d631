// A parameter marked active that cannot influence the result draws a
// warning by default, nothing with unconnected=zero, an error with
// unconnected=error. Its derivative is zero either way.
// RUN: %cotangent-opt %s --ct-differentiate -split-input-file -verify-diagnostics
// RUN: %cotangent-opt %s --ct-differentiate=unconnected=zero -split-input-file | FileCheck %s --check-prefix=ZERO
// RUN: not %cotangent-opt %s --ct-differentiate=unconnected=error -split-input-file 2>&1 | FileCheck %s --check-prefix=ERROR

// expected-note @below {{parameter declared here}}
func.func @f(%x: f64, %y: f64) -> f64 {
  %0 = arith.mulf %x, %x : f64
  return %0 : f64
}

func.func @main(%x: f64, %y: f64) -> (f64, f64, f64) {
  // expected-warning @below {{parameter #1 of @f does not influence its result; its derivative is zero}}
  %v, %dx, %dy = ct.gradient @f(%x, %y) activity [active, active]
      : (f64, f64) -> (f64, f64, f64)
  return %v, %dx, %dy : f64, f64, f64
}

// ZERO-LABEL: func.func private @f.pullback.aa
// ZERO: %[[ZERO:.*]] = arith.constant 0.0
// ZERO: return %{{.*}}, %{{.*}}, %[[ZERO]]
// ERROR: error: parameter #1 of @f does not influence its result; its derivative is zero

// -----

// A parameter that reaches the result only through ct.stop_gradient is not
// connected either.
// expected-note @below {{parameter declared here}}
func.func @g(%x: f64, %y: f64) -> f64 {
  %s = ct.stop_gradient %y : f64
  %0 = arith.mulf %x, %s : f64
  return %0 : f64
}

func.func @main(%x: f64, %y: f64) -> (f64, f64) {
  // expected-warning @below {{parameter #1 of @g does not influence its result; its derivative is zero}}
  %v, %t = ct.jvp @g(%x, %y) tangents(%x, %y) activity [active, active]
      : (f64, f64, f64, f64) -> (f64, f64)
  return %v, %t : f64, f64
}
