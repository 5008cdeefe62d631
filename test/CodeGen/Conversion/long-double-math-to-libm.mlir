// Math ops on x86's long double (f80) become calls of the C library's `l`
// functions, declared once per module; other types are left to
// math-to-libm and math-to-llvm.
// RUN: %cotangent-opt --ct-long-double-math-to-libm %s | FileCheck %s

// CHECK-LABEL: func.func @special
// CHECK-SAME: (%[[X:.*]]: f80, %[[Y:.*]]: f80, %[[D:.*]]: f64)
func.func @special(%x: f80, %y: f80, %d: f64) -> (f80, f80, f80, f80, f64) {
  // CHECK: %[[A:.*]] = call @acoshl(%[[X]]) : (f80) -> f80
  %a = math.acosh %x : f80
  // CHECK: %[[E:.*]] = call @erfl(%[[A]]) : (f80) -> f80
  %e = math.erf %a : f80
  // CHECK: %[[T:.*]] = call @atan2l(%[[E]], %[[Y]]) : (f80, f80) -> f80
  %t = math.atan2 %e, %y : f80
  // CHECK: %[[B:.*]] = call @acoshl(%[[T]]) : (f80) -> f80
  %b = math.acosh %t : f80
  // CHECK: %[[DD:.*]] = math.acosh %[[D]] : f64
  %dd = math.acosh %d : f64
  // CHECK: return %[[A]], %[[E]], %[[T]], %[[B]], %[[DD]]
  return %a, %e, %t, %b, %dd : f80, f80, f80, f80, f64
}

// CHECK-DAG: func.func private @acoshl(f80) -> f80
// CHECK-DAG: func.func private @erfl(f80) -> f80
// CHECK-DAG: func.func private @atan2l(f80, f80) -> f80
// CHECK-NOT: func.func private @acoshl
