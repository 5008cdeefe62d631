// Arrays and structs of integers among the fields of a struct of doubles
// lie where C++ lays them out, inside the double slots: each is read and
// written through a view of its own scalars from the slot where it starts
// (ct.retype_view), indexed in those scalars (int v[3] at byte 8: slot 1,
// ints 0..2; bool on[2] at byte 20: slot 2, bytes 4 and 5; the shorts of a
// std::array at byte 22: slot 2, shorts 3 and 4). Copies copy the slots.
// A constant table of such structs holds its bytes in the slots as memory
// does (slot 3 holds the short 8 in its low bytes: 8 x 2^-1074).
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <array>

struct Triangle {
  double weight;
  int v[3];
  bool on[2];
  std::array<short, 2> tags;
};
constexpr Triangle unit{1.5, {1, 2, 3}, {true, false}, {7, 8}};

[[ct::differentiable]] double corner(const Triangle &t, const double *x,
                                     int k) {
  Triangle copy = t;
  copy.v[k] = copy.v[0];
  return t.on[1] ? 0.0 : copy.weight * x[copy.v[2]] + unit.weight * unit.tags[1];
}

// CHECK: memref.global "private" constant @__ct_constant.unit.0 : memref<4xf64> = dense<[1.500000e+00, {{.*}}, {{.*}}, 3.952530e-323]>
// CHECK-LABEL: func.func @_Z6cornerRK8TrianglePKdi(
// CHECK-SAME: %[[T:[^:]*]]: memref<?xf64, strided<[1], offset: ?>>, %[[X:[^:]*]]: memref<?xf64, strided<[1], offset: ?>>, %[[K:[^:]*]]: i32)
// CHECK: %[[COPY:.*]] = memref.alloca() : memref<4xf64>
// CHECK: memref.store %{{.*}}, %[[COPY]][%c3] : memref<4xf64>
// copy.v[k] = copy.v[0]
// CHECK: %[[V:.*]] = ct.retype_view %[[COPY]][%c1] : memref<4xf64> -> memref<?xi32, strided<[1], offset: ?>>
// CHECK: %[[FIRST:.*]] = memref.load %[[V]][%c0]
// CHECK: %[[AT:.*]] = arith.index_cast %[[K]] : i32 to index
// CHECK: memref.store %[[FIRST]], %[[V]][%[[AT]]]
// t.on[1]
// CHECK: %[[ON:.*]] = ct.retype_view %[[T]][%c2] : memref<?xf64, strided<[1], offset: ?>> -> memref<?xi1, strided<[1], offset: ?>>
// CHECK: memref.load %[[ON]][%c5]
// copy.weight * x[copy.v[2]]
// CHECK: %[[W:.*]] = memref.load %[[COPY]][%c0] : memref<4xf64>
// CHECK: %[[I:.*]] = memref.load %[[V]][%c2]
// CHECK: %[[J:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK: memref.load %[[X]][%[[J]]]
// unit.tags[1]
// CHECK: %[[UNIT:.*]] = memref.get_global @__ct_constant.unit.0
// CHECK: %[[TAGS:.*]] = ct.retype_view %[[UNIT]][%c2] : memref<4xf64> -> memref<?xi16, strided<[1], offset: ?>>
// CHECK: memref.load %[[TAGS]][%c4]
