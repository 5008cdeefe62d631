// Logging is kept as the C library's calls (llvm.call, variadic, with the
// string literals as private constant globals and stderr read from the C
// library's variable). A std::unique_ptr from std::make_unique<T[]>(n) is
// a zeroed memref.alloc that the pointer variable walks, freed at the end
// of its scope.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s

#include <cstdio>
#include <memory>

// CHECK-DAG: llvm.mlir.global external @stderr() {{.*}} : !llvm.ptr
// CHECK-DAG: llvm.mlir.global private constant @[[DONE:ct\.str\.[0-9.]+]]("done\0A\00")
// CHECK-DAG: llvm.mlir.global private constant @[[FORMAT:ct\.str\.[0-9.]+]]("n = %d, first = %g\0A\00")
// CHECK-DAG: llvm.func @printf(!llvm.ptr, ...) -> i32
// CHECK-DAG: llvm.func @fprintf(!llvm.ptr, !llvm.ptr, ...) -> i32
// CHECK-LABEL: func.func @_Z5ownedPKdi(
// CHECK: %[[BUF:.*]] = memref.alloc(%{{.*}}) {ct.heap_function = "operator new[]"} : memref<?xf64>
// CHECK: scf.for
// CHECK:   memref.store %cst, %[[BUF]]
// CHECK: %[[FIRST:.*]] = memref.load %[[BUF]][%c0]
// CHECK: llvm.call @printf(%{{.*}}, %arg1, %[[FIRST]]) vararg(!llvm.func<i32 (ptr, ...)>)
// CHECK: %[[STDERR:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call @fprintf(%[[STDERR]], %{{.*}}) vararg(!llvm.func<i32 (ptr, ptr, ...)>)
// CHECK: memref.dealloc %[[BUF]]
// CHECK: return
[[ct::differentiable]] double owned(const double *x, int n) {
  auto buf = std::make_unique<double[]>(n);
  for (int i = 0; i < n; ++i)
    buf[i] = x[i] * x[i];
  std::printf("n = %d, first = %g\n", n, buf[0]);
  std::fprintf(stderr, "done\n");
  return buf.get()[n - 1];
}
