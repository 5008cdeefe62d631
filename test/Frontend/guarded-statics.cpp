// A static local whose initializer is not a constant is the variable
// itself (an external memref.global of its linkage name), initialized at
// its declaration under the C++ ABI's guard: __cxa_guard_acquire on the
// guard variable (`_ZGV` + the variable's name), and where it returns
// non-zero the initializer stored into the variable, then
// __cxa_guard_release. The pullback keeps the guarded initialization once,
// in its forward sweep. A function holding one keeps its variables in
// place (no per-call copy: another thread may wait on the guard).
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include | FileCheck %s --check-prefix=AD

#include <cotangent/cotangent.h>

#include <cmath>

inline double scaleOf(int n) { return std::sqrt(static_cast<double>(n)); }

[[ct::differentiable]] inline double scaled(const double *x, int n) {
  static double scale = scaleOf(n);
  return x[0] * x[0] / scale;
}

double use(const double *x, double *dx) {
  return ct::gradient<scaled>(x, 2, dx);
}

// CHECK: memref.global "public" @_ZGVZ6scaledPKdiE5scale : memref<1xi64>
// CHECK: memref.global "public" @[[VAR:_ZZ6scaledPKdiE5scale]] : memref<1xf64> {ct.kept_in_place = "the function initializes a static variable on its first call, under a guard other threads may wait on", ct.source_name = "scale"}
// CHECK-LABEL: func.func @_Z6scaledPKdi(
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[SCALE:.*]] = memref.get_global @[[VAR]] : memref<1xf64>
// CHECK: %[[GUARD:.*]] = memref.get_global @_ZGVZ6scaledPKdiE5scale : memref<1xi64>
// CHECK: %[[FIRST:.*]] = call @__cxa_guard_acquire(%[[GUARD]]) : (memref<1xi64>) -> i32
// CHECK: %[[COND:.*]] = arith.cmpi ne, %[[FIRST]], %[[ZERO]] : i32
// CHECK: scf.if %[[COND]] {
// CHECK-NEXT: %[[VALUE:.*]] = func.call @_Z7scaleOfi(%arg1)
// CHECK-NEXT: memref.store %[[VALUE]], %[[SCALE]]
// CHECK-NEXT: func.call @__cxa_guard_release(%[[GUARD]])
// CHECK-NEXT: }
// CHECK: memref.load %[[SCALE]]
// CHECK: func.func private @__cxa_guard_acquire(memref<1xi64>) -> i32 attributes {ct.external, ct.static_guard}
// CHECK: func.func private @__cxa_guard_release(memref<1xi64>) attributes {ct.external, ct.static_guard}

// AD-LABEL: func.func private @_Z6scaledPKdi.pullback
// AD: call @__cxa_guard_acquire
// AD-NOT: call @__cxa_guard_acquire
// AD: func.call @__cxa_guard_release
// AD-NOT: __cxa_guard
// AD: return
