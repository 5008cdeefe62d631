// A static local whose initializer is not a constant is the variable
// itself (an external memref.global of its linkage name), initialized at
// its declaration under the C++ ABI's guard: __cxa_guard_acquire on the
// guard variable (`_ZGV` + the variable's name), and where it returns
// non-zero the initializer stored into the variable, then
// __cxa_guard_release. The pullback keeps the guarded initialization once,
// in its forward sweep. A variable nothing changes after its initializer
// keeps its place (no per-call copy: another thread may wait on the
// guard). A std::vector so initialized is made in its slots, and its
// destructor registered with __cxa_atexit, with the variable itself (not
// a call's copy) and the unit's DSO handle, as Clang's code does.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s --check-prefix=VECTOR
// RUN: %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include | FileCheck %s --check-prefix=AD

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

inline double scaleOf(int n) { return std::sqrt(static_cast<double>(n)); }

[[ct::differentiable]] inline double scaled(const double *x, int n) {
  static double scale = scaleOf(n);
  return x[0] * x[0] / scale;
}

double use(const double *x, double *dx) {
  return ct::gradient<scaled>(x, 2, dx);
}

inline std::vector<double> tabulate(int n) {
  return std::vector<double>(n, 0.5);
}

[[ct::differentiable]] inline double tabled(const double *x, int n) {
  static const std::vector<double> table = tabulate(n);
  return table[0] * x[0] * x[0];
}

double useTable(const double *x, double *dx) {
  return ct::gradient<tabled>(x, 2, dx);
}

// VECTOR: memref.global "public" @__dso_handle : memref<1xi8>
// VECTOR: memref.global "public" @[[TABLE:_ZZ6tabledPKdiE5table]] : memref<3xf64> {ct.initialized_once, ct.kept_in_place = {{.*}}, ct.vector_slots = array<i64: 0, 1, 2>}
// VECTOR-LABEL: func.func @_Z6tabledPKdi(
// VECTOR: %[[GUARD:.*]] = memref.get_global @_ZGVZ6tabledPKdiE5table
// VECTOR: call @__cxa_guard_acquire(%[[GUARD]])
// VECTOR: scf.if
// VECTOR: ct.store_address
// VECTOR: %[[DTOR:.*]] = ct.function_address "_ZNSt6vectorIdSaIdEED2Ev"
// VECTOR-NEXT: %[[ITSELF:.*]] = memref.get_global @[[TABLE]] : memref<3xf64> {ct.variable_itself}
// VECTOR-NEXT: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[ITSELF]]
// VECTOR-NEXT: %[[OBJECT:.*]] = arith.index_cast %[[PTR]] : index to i64
// VECTOR-NEXT: %[[HANDLE:.*]] = memref.get_global @__dso_handle : memref<1xi8> {ct.variable_itself}
// VECTOR-NEXT: %[[HPTR:.*]] = memref.extract_aligned_pointer_as_index %[[HANDLE]]
// VECTOR-NEXT: %[[DSO:.*]] = arith.index_cast %[[HPTR]] : index to i64
// VECTOR-NEXT: func.call @__cxa_atexit(%[[DTOR]], %[[OBJECT]], %[[DSO]]) : (i64, i64, i64) -> i32
// VECTOR: func.call @__cxa_guard_release(%[[GUARD]])
// VECTOR: func.func private @__cxa_atexit(i64, i64, i64) -> i32 attributes {ct.external, ct.static_guard}

// CHECK: memref.global "public" @_ZGVZ6scaledPKdiE5scale : memref<1xi64>
// CHECK: memref.global "public" @[[VAR:_ZZ6scaledPKdiE5scale]] : memref<1xf64> {ct.initialized_once, ct.kept_in_place = "it is a static variable initialized on the function's first call, under a guard other threads may wait on", ct.source_name = "scale"}
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
