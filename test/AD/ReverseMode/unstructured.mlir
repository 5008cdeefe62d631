// A function with cf branches and several returns is differentiated
// through a copy lifted to structured control flow (@f.structured); the
// original is left alone. The execution test unstructured-early-exit.mlir
// checks the numbers.
// RUN: %cotangent-opt %s --ct-differentiate | FileCheck %s

// CHECK-LABEL: func.func @f
// CHECK: cf.cond_br
func.func @f(%x: f64, %c: i1) -> f64 {
  cf.cond_br %c, ^a, ^b
^a:
  %s = math.sin %x : f64
  return %s : f64
^b:
  %y = arith.mulf %x, %x : f64
  return %y : f64
}

// CHECK-LABEL: func.func private @f.structured
// CHECK-NOT: cf.
// CHECK: scf.if
// CHECK: return

// CHECK-LABEL: func.func private @f.pullback.ac
// CHECK-NOT: cf.
// CHECK: scf.if
// CHECK: return

func.func @main(%x: f64, %c: i1) -> (f64, f64) {
  %v, %dx = ct.gradient @f(%x, %c) activity [active, const]
      : (f64, i1) -> (f64, f64)
  return %v, %dx : f64, f64
}
