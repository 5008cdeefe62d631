// ct-lower-vectors-to-llvm runs the vector dialect's own lowering only
// where a module needs it: a module of one-dimensional loads, stores,
// broadcasts of scalars, shuffles and reductions is left to ConvertToLLVM's
// patterns, unchanged here; one with a vector of two dimensions (vector
// mode over vector-mode code) is lowered by convert-vector-to-llvm.
// RUN: cotangent-opt %s --split-input-file --ct-lower-vectors-to-llvm | FileCheck %s

// CHECK-LABEL: func.func @one_dimension
// CHECK: vector.load
// CHECK: vector.broadcast
// CHECK: vector.shuffle
// CHECK: vector.reduction <add>
// CHECK: vector.store
// CHECK-NOT: llvm.
func.func @one_dimension(%m: memref<4xf64>, %s: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%c0] : memref<4xf64>, vector<4xf64>
  %b = vector.broadcast %s : f64 to vector<4xf64>
  %w = vector.shuffle %v, %b [0, 5, 2, 7] : vector<4xf64>, vector<4xf64>
  %r = vector.reduction <add>, %w : vector<4xf64> into f64
  vector.store %w, %m[%c0] : memref<4xf64>, vector<4xf64>
  return %r : f64
}

// -----

// CHECK-LABEL: func.func @two_dimensions
// CHECK-NOT: vector.broadcast
// CHECK: llvm.insertvalue
func.func @two_dimensions(%v: vector<2xf64>) -> vector<3x2xf64> {
  %b = vector.broadcast %v : vector<2xf64> to vector<3x2xf64>
  return %b : vector<3x2xf64>
}
