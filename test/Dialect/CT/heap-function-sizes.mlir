// Canonicalization gives a named allocation (ct.heap_function) a constant
// size as MLIR's own pattern does, keeping the name, which that pattern
// would drop; unnamed allocations are MLIR's.
// RUN: %cotangent-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @named
// CHECK: %[[M:.*]] = memref.alloc() {alignment = 64 : i64, ct.heap_function = "operator new[]"} : memref<4xf64>
// CHECK: %[[C:.*]] = memref.cast %[[M]] : memref<4xf64> to memref<?xf64>
// CHECK: call @use(%[[C]])
// CHECK: memref.alloc(%arg0) {ct.heap_function = "malloc"} : memref<?x3xf32>
// CHECK: memref.alloc() : memref<4xf64>
func.func private @use(memref<?xf64>)
func.func private @use2(memref<?x3xf32>)
func.func @named(%n: index) {
  %c4 = arith.constant 4 : index
  %m = memref.alloc(%c4) {alignment = 64 : i64, ct.heap_function = "operator new[]"} : memref<?xf64>
  call @use(%m) : (memref<?xf64>) -> ()
  %k = memref.alloc(%n) {ct.heap_function = "malloc"} : memref<?x3xf32>
  call @use2(%k) : (memref<?x3xf32>) -> ()
  %u = memref.alloc(%c4) : memref<?xf64>
  call @use(%u) : (memref<?xf64>) -> ()
  return
}
