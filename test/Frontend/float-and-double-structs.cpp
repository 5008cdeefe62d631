// A struct mixing `float` and `double` parts lies in `double` slots; its
// float parts are elements of an f32 view of the slots they lie in (its
// int part too, so that writing it leaves the floats beside it alone).
// Copies of the object move each run of slots in its own type: the float
// run through f32 views, the double slots as f64, also where a
// std::vector of such structs moves its elements to grow.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | %cotangent-opt > /dev/null

#include <vector>

struct Sample {
  float weight;
  double value;
  int id;
};

// CHECK-LABEL: func.func @_Z6copiedPK6Sample(
// CHECK-SAME: %[[S:[a-z0-9_]+]]: memref<?xf64
// CHECK: %[[T:.*]] = memref.alloca() : memref<3xf64>
// CHECK: %[[TO:.*]] = ct.retype_view %[[T]][%[[C0:[a-z0-9_]+]]] : memref<3xf64> -> memref<?xf32
// CHECK: %[[FROM:.*]] = ct.retype_view %[[S]][%[[C0]]] : {{.*}} -> memref<?xf32
// CHECK: %[[W:.*]] = memref.load %[[FROM]][%[[C0]]]
// CHECK-NEXT: memref.store %[[W]], %[[TO]][%[[C0]]]
// CHECK: %[[PAD:.*]] = memref.load %[[FROM]][%[[C1:[a-z0-9_]+]]]
// CHECK-NEXT: memref.store %[[PAD]], %[[TO]][%[[C1]]]
// CHECK: %[[V:.*]] = memref.load %[[S]][%[[C1]]] : memref<?xf64
// CHECK-NEXT: memref.store %[[V]], %[[T]][%[[C1]]] : memref<3xf64>
// CHECK: %[[ID:.*]] = ct.retype_view %[[T]][%[[C2:[a-z0-9_]+]]] : memref<3xf64> -> memref<?xi32
// CHECK: memref.store %{{.*}}, %[[ID]][%[[C0]]] : memref<?xi32
// CHECK: %[[READ:.*]] = memref.load %[[TO]][%[[C0]]] : memref<?xf32
// CHECK-NEXT: arith.extf %[[READ]] : f32 to f64
[[ct::differentiable]] double copied(const Sample *s) {
  Sample t = s[0];
  t.id = 2;
  return t.weight * t.value + t.id;
}

// Growth: each element moves through f32 views of its first slot.
// CHECK-LABEL: func.func @_Z5grownPKdi(
// CHECK: %[[NEW:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.for
// CHECK: ct.retype_view %{{.*}}[%{{.*}}] : memref<?xf64{{.*}}> -> memref<?xf32
// CHECK: ct.retype_view %{{.*}}[%{{.*}}] : memref<?xf64{{.*}}> -> memref<?xf32
// CHECK: memref.store %{{.*}}, %[[NEW]][%{{.*}}] : memref<?xf64>
[[ct::differentiable]] double grown(const double *x, int n) {
  std::vector<Sample> v;
  for (int i = 0; i < n; ++i)
    v.push_back({static_cast<float>(x[i]), x[i], i});
  return v[n - 1].weight;
}
