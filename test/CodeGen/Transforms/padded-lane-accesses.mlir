// Whole-lane accesses of 80-bit floats (x86's long double: 16 bytes in
// memory, 10 in an LLVM vector) become element accesses; those of doubles
// stay vector accesses.
// RUN: %cotangent-opt %s --ct-padded-lane-accesses | FileCheck %s

// CHECK-LABEL: func.func @long_doubles
// CHECK-NOT: vector.load
// CHECK: %[[A:.*]] = memref.load %arg0[%arg1, %c0] : memref<?x2xf80>
// CHECK: %[[I:.*]] = arith.addi %c0, %c1
// CHECK: %[[B:.*]] = memref.load %arg0[%arg1, %[[I]]] : memref<?x2xf80>
// CHECK: %[[V:.*]] = vector.from_elements %[[A]], %[[B]] : vector<2xf80>
// CHECK: %[[E0:.*]] = vector.extract %[[V]][0] : f80 from vector<2xf80>
// CHECK: memref.store %[[E0]], %arg0[%arg1, %c0] : memref<?x2xf80>
// CHECK: %[[E1:.*]] = vector.extract %[[V]][1] : f80 from vector<2xf80>
// CHECK: memref.store %[[E1]], %arg0[%arg1, %{{.*}}] : memref<?x2xf80>
// CHECK-NOT: vector.store
func.func @long_doubles(%m: memref<?x2xf80>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = vector.load %m[%i, %c0] : memref<?x2xf80>, vector<2xf80>
  vector.store %v, %m[%i, %c0] : memref<?x2xf80>, vector<2xf80>
  return
}

// CHECK-LABEL: func.func @doubles
// CHECK: vector.load %arg0[%arg1, %c0] : memref<?x2xf64>, vector<2xf64>
// CHECK: vector.store
func.func @doubles(%m: memref<?x2xf64>, %i: index) {
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%i, %c0] : memref<?x2xf64>, vector<2xf64>
  vector.store %v, %m[%i, %c0] : memref<?x2xf64>, vector<2xf64>
  return
}
