// In/out memory: squaring p[i] in place. The reverse of the store takes the
// shadow's value (the cotangent of the new contents) and zeroes it with -0
// (so that LLVM folds a later `-0 + x` to x), the reverse of the load adds
// the cotangent of the old contents back.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

func.func @f(%p: memref<?xf64>, %i: index) {
  %v = memref.load %p[%i] : memref<?xf64>
  %w = arith.mulf %v, %v : f64
  memref.store %w, %p[%i] : memref<?xf64>
  return
}

// CHECK-LABEL: func.func private @f.pullback.dc
// CHECK-SAME: (%[[P:.*]]: memref<?xf64>, %[[I:.*]]: index, %[[DP:.*]]: memref<?xf64>)
// CHECK: %[[ZERO:.*]] = arith.constant -0.0
// CHECK: %[[V:.*]] = memref.load %[[P]][%[[I]]]
// CHECK: %[[W:.*]] = arith.mulf %[[V]], %[[V]]
// CHECK: memref.store %[[W]], %[[P]][%[[I]]]
// CHECK: %[[DW:.*]] = memref.load %[[DP]][%[[I]]]
// CHECK: memref.store %[[ZERO]], %[[DP]][%[[I]]]
// CHECK: %[[H:.*]] = arith.mulf %[[V]], %[[DW]] fastmath<contract>
// CHECK: %[[DV:.*]] = arith.addf %[[H]], %[[H]] fastmath<reassoc,contract>
// CHECK: %[[OLD:.*]] = memref.load %[[DP]][%[[I]]]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[DV]] fastmath<reassoc,contract>
// CHECK: memref.store %[[NEW]], %[[DP]][%[[I]]]
// CHECK: return

func.func @main(%p: memref<?xf64>, %dp: memref<?xf64>, %i: index) {
  ct.pullback @f(%p, %i) shadows(%dp) activity [dup, const]
      : (memref<?xf64>, index, memref<?xf64>) -> ()
  return
}
