// Idioms of numerical libraries' internals (Eigen's): memset of typed
// memory is a loop storing the byte repeated across each scalar (a bool is
// a byte: zero is false), also in arrays of bools and ints (all ones
// in a double is a NaN, which the structuring folds `mask != mask` with);
// a condition that folds without running its calls
// (`RequireInitialization && hasData(t)`, as Clang's code generation folds
// it) lowers only the branch taken, calling nothing; pointers into views of
// different shapes (an address read back from memory and a fixed array)
// compare by where their elements are.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | %cotangent-opt > /dev/null

#include <cstring>

struct Traits {
  enum { RequireInitialization = 0 };
};
bool hasData(const double *p);

[[ct::differentiable]] double bytes(const double *x, int n) {
  double t[4] = {x[0], x[1], x[2], x[3]};
  std::memset(t, 0, 2 * sizeof(double));
  double mask;
  std::memset(&mask, 0xff, sizeof mask);
  // Folds to false without calling hasData: only the else branch.
  if (Traits::RequireInitialization && hasData(t))
    t[3] = 0;
  else
    t[3] *= 2;
  return t[0] + t[2] + t[3] + (mask != mask ? x[0] : 0.0);
}

struct Fixed {
  double v[3];
};
[[ct::differentiable]] double sameData(const double *x, int n) {
  Fixed a{{x[0], x[1], x[2]}};
  const double *view = a.v + 1;
  return (view - 1 == a.v) ? x[0] : x[1];
}

struct Holder {
  Fixed f;
  const double *p;
};
static bool aliases(const Holder &h) { return h.p == h.f.v; }
[[ct::differentiable]] double aliasTest(const double *x, int n) {
  Holder h{{{x[0], x[1], x[2]}}, x};
  Holder g{{{x[0], x[1], x[2]}}, nullptr};
  g.p = g.f.v;
  return (aliases(h) ? x[0] : x[1]) + (aliases(g) ? x[2] : 0.0);
}

// CHECK-LABEL: func.func @_Z5bytesPKdi
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[T:.*]] = memref.alloca() : memref<4xf64>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: memref.store %[[ZERO]], %[[T]][%[[I]]]
// CHECK-NOT: call
// CHECK: %[[T3:.*]] = memref.load %[[T]][%{{.*}}]
// CHECK-NEXT: arith.mulf %[[T3]]
// The mask is a NaN: x[0] is added.
// CHECK: %[[X0:.*]] = memref.load %arg0[%{{.*}}]
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %{{.*}}, %[[X0]]
// CHECK-NEXT: return %[[SUM]]

// CHECK-LABEL: func.func @_Z8sameDataPKdi
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[X0:.*]] = memref.load %arg0[%[[C0]]]
// CHECK-NEXT: return %[[X0]]

// CHECK-LABEL: func.func @_Z9aliasTestPKdi
// CHECK: %[[H:.*]] = memref.alloca() : memref<4xf64>
// CHECK: %[[P:.*]] = ct.load_address %[[H]][%{{.*}}] : memref<4xf64> -> memref<?xf64, strided<[1], offset: ?>>
// CHECK-NEXT: %[[PBASE:.*]] = memref.extract_aligned_pointer_as_index %[[P]]
// CHECK-NEXT: %{{.*}}, %[[POFFSET:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[P]]
// CHECK-NEXT: %[[PSCALARS:.*]] = arith.divui %[[PBASE]], %{{.*}}
// CHECK-NEXT: %[[PAT:.*]] = arith.addi %[[PSCALARS]], %[[POFFSET]]
// CHECK-NEXT: %[[FBASE:.*]] = memref.extract_aligned_pointer_as_index %[[H]] : memref<4xf64>
// CHECK-NEXT: %[[FAT:.*]] = arith.divui %[[FBASE]], %{{.*}}
// CHECK-NEXT: arith.cmpi eq, %[[PAT]], %[[FAT]]

[[ct::differentiable]] double flags(const double *x, int n) {
  bool seen[4];
  std::memset(seen, 0, sizeof seen);
  int counts[4];
  std::memset(counts, 0, 4 * sizeof(int));
  seen[1] = true;
  counts[2] = 3;
  return seen[1] ? x[0] * counts[2] : x[1];
}

// CHECK-LABEL: func.func @_Z5flagsPKdi
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[FALSE:.*]] = arith.constant false
// CHECK-DAG: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: %[[COUNTS:.*]] = memref.alloca() : memref<4xi32>
// CHECK: %[[SEEN:.*]] = memref.alloca() : memref<4xi1>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[FOUR]]
// CHECK-NEXT: memref.store %[[FALSE]], %[[SEEN]][%[[I]]]
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[FOUR]]
// CHECK-NEXT: memref.store %[[C0]], %[[COUNTS]][%[[J]]]
