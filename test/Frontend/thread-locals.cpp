// A thread-local variable is each thread's own: its memref.global is listed
// in the module's ct.thread_local_globals and is thread_local in LLVM IR. A
// function's thread-local variable whose initializer is not a constant, or
// that has a destructor, is initialized under a guard byte of the thread's
// own (`_ZGV` + its name, as Clang names it): where the byte is clear, the
// initializer, the destructor registered with __cxa_thread_atexit (run when
// the thread ends), then the byte set; no lock, since no other thread reads
// it. One outside any function defined here with a constant and nothing to
// destroy is named directly.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=llvm -- -std=c++20 -I%cotangent-include | FileCheck %s --check-prefix=LLVM

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

thread_local double gain = 1.5;
inline double seedScale(int n) { return std::sqrt(double(n)); }

[[ct::differentiable]] inline double seeded(const double *x, int n) {
  thread_local double scale = seedScale(n);
  return scale * gain * x[0] * x[0];
}
double useSeeded(const double *x, double *dx) {
  return ct::gradient<seeded>(x, 2, dx);
}

[[ct::differentiable]] inline double scratch(const double *x, int n) {
  thread_local std::vector<double> w;
  w.resize(n);
  for (int i = 0; i < n; ++i)
    w[i] = std::exp(x[i]);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * x[i];
  return s;
}
double useScratch(const double *x, double *dx) {
  return ct::gradient<scratch>(x, 2, dx);
}

// CHECK: module attributes {ct.thread_local_globals = ["_ZZ6seededPKdiE5scale", "_ZGVZ6seededPKdiE5scale", "gain", "_ZZ7scratchPKdiE1w", "_ZGVZ7scratchPKdiE1w"]}
// CHECK-DAG: memref.global "public" @_ZGVZ7scratchPKdiE1w : memref<1xi8>
// CHECK-DAG: memref.global "public" @_ZZ7scratchPKdiE1w : memref<3xf64>
// CHECK-DAG: memref.global "public" @gain : memref<1xf64>
// CHECK-DAG: memref.global "public" @_ZGVZ6seededPKdiE5scale : memref<1xi8>
// CHECK-DAG: memref.global "public" @_ZZ6seededPKdiE5scale : memref<1xf64>

// CHECK-LABEL: func.func @_Z6seededPKdi(
// CHECK-DAG: %[[SET:.*]] = arith.constant 1 : i8
// CHECK-DAG: %[[CLEAR:.*]] = arith.constant 0 : i8
// CHECK: %[[GUARD:.*]] = memref.get_global @_ZGVZ6seededPKdiE5scale : memref<1xi8>
// CHECK-NEXT: %[[BYTE:.*]] = memref.load %[[GUARD]]
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[BYTE]], %[[CLEAR]] : i8
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: %[[VALUE:.*]] = func.call @_Z9seedScalei(%arg1)
// CHECK-NEXT: memref.store %[[VALUE]], %arg2
// CHECK-NEXT: memref.store %[[SET]], %[[GUARD]]
// CHECK-NEXT: }
// CHECK: memref.get_global @gain

// CHECK-LABEL: func.func @_Z7scratchPKdi(
// CHECK: %[[VGUARD:.*]] = memref.get_global @_ZGVZ7scratchPKdiE1w : memref<1xi8>
// CHECK: scf.if
// CHECK: %[[DTOR:.*]] = ct.function_address "_ZNSt6vectorIdSaIdEED2Ev"
// CHECK-NEXT: %[[ITSELF:.*]] = memref.get_global @_ZZ7scratchPKdiE1w : memref<3xf64> {ct.variable_itself}
// CHECK: func.call @__cxa_thread_atexit(%[[DTOR]], {{.*}}) : (i64, i64, i64) -> i32
// CHECK-NEXT: memref.store {{.*}}, %[[VGUARD]]
// CHECK-NOT: __cxa_guard
// CHECK: func.func private @__cxa_thread_atexit(i64, i64, i64) -> i32

// LLVM-DAG: @_ZGVZ7scratchPKdiE1w = external thread_local global [1 x i8]
// LLVM-DAG: @_ZZ7scratchPKdiE1w = external thread_local global [3 x double]
// LLVM-DAG: @gain = external thread_local global [1 x double]
// LLVM-DAG: @_ZGVZ6seededPKdiE5scale = external thread_local global [1 x i8]
// LLVM-DAG: @_ZZ6seededPKdiE5scale = external thread_local global [1 x double]
