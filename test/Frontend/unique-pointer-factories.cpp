// A helper returning a std::unique_ptr (a factory) is lowered in place:
// its local keeps the address of what it owns in a slot; `return s` moves
// that address to the caller's variable (its own slot) and leaves null
// behind, so the local's clean-up at the end of the helper frees nothing
// (free of the null address), and the caller's frees the memory where its
// scope ends. A helper taking it by const reference reads the caller's slot.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | %cotangent-opt > /dev/null

#include <memory>

static std::unique_ptr<double[]> squares(const double *x, int n) {
  std::unique_ptr<double[]> s(new double[n]);
  for (int i = 0; i < n; ++i)
    s[i] = x[i] * x[i];
  return s;
}

static double first(const std::unique_ptr<double[]> &s) { return s[0]; }

[[ct::differentiable]] double owned(const double *x, int n) {
  auto s = squares(x, n);
  return first(s) + s[1];
}

// CHECK-LABEL: func.func @_Z5ownedPKdi(
// CHECK-DAG: %[[CALLER:.*]] = memref.alloca() : memref<1xf64>
// CHECK-DAG: %[[LOCAL:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[MADE:.*]] = memref.alloc(%{{.*}}) {ct.heap_function = "operator new[]"} : memref<?xf64>
// CHECK: %[[MADEVIEW:.*]] = memref.cast %[[MADE]]
// CHECK: ct.store_address %[[MADEVIEW]], %[[LOCAL]][%c0]
// CHECK: scf.for
// CHECK:   %[[S:.*]] = ct.load_address %[[LOCAL]][%c0]
// CHECK:   memref.store %{{.*}}, %[[S]]
// return s: the address out, null left behind and freed with the local.
// CHECK: %[[OUT:.*]] = ct.load_address %[[LOCAL]][%c0]
// CHECK: %[[NULL:.*]] = ct.pointer_view %{{.*}}
// CHECK: ct.store_address %[[NULL]], %[[LOCAL]][%c0]
// CHECK: %[[LEFT:.*]] = ct.load_address %[[LOCAL]][%c0]
// CHECK: memref.dealloc %[[LEFT]]
// CHECK: ct.store_address %[[OUT]], %[[CALLER]][%c0]
// first(s) + s[1], through the caller's slot.
// CHECK: %[[READ:.*]] = ct.load_address %[[CALLER]][%c0]
// CHECK: memref.load %[[READ]][%c0]
// CHECK: memref.load %[[READ]][%c1]
// CHECK: memref.dealloc %[[READ]]
// CHECK: return
