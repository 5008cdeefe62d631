// A std::vector parameter the function resizes is the caller's vector
// object: f takes its address (three address slots) and grows it as a
// vector kept in memory, its memory through ct.load_address and
// ct.store_address (no grows_caller_memory mark: the entry point seeds it).
// Reverse mode's entry point takes the derivative vector's memory out (the
// seeds of the final contents), gives it zeros of the parameter's size (its
// three pointers stored in the object), and differentiates f seeded: f,
// then the seeds' dot product with the final contents into a cell whose
// seed is 1 (an empty seed vector, or one of the final size).
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null
#include <cotangent/cotangent.h>

#include <vector>

// CHECK-LABEL: func.func @_Z8appendedRKSt6vectorIdSaIdEERS1_(
// CHECK-SAME: %[[X:.*]]: memref<?xf64, strided<[1], offset: ?>>, %[[OUT:.*]]: memref<?xf64, strided<[1], offset: ?>>) -> f64
// CHECK: scf.for
// CHECK:   scf.if
// CHECK:     %[[GROWN:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK-NOT: grows_caller_memory
// CHECK:     %[[OLD:.*]] = ct.load_address %[[OUT]][%{{.*}}] : {{.*}} -> memref<?xf64, strided<[1], offset: ?>>
// CHECK:     memref.dealloc %[[OLD]]
// CHECK:     ct.store_address %{{.*}}, %[[OUT]][%{{.*}}]
// CHECK:   %[[ELEMENTS:.*]] = ct.load_address %[[OUT]]
// CHECK:   memref.store %{{.*}}, %[[ELEMENTS]]
[[ct::differentiable]] double appended(const std::vector<double> &x,
                                       std::vector<double> &out) {
  for (double v : x)
    out.push_back(v * v);
  return out[0];
}

// CHECK-LABEL: func.func @_ZN2ct6detail5entryINS0_11gradient_of
// CHECK-SAME: (%[[PX:.*]]: !llvm.ptr, %[[POUT:.*]]: !llvm.ptr, %[[PDX:.*]]: !llvm.ptr, %[[PDOUT:.*]]: !llvm.ptr)
// CHECK: %[[SEEDS:.*]] = ct.vector_view %[[PDOUT]] {begin = 0 : i64, end = 8 : i64}
// CHECK: %[[INITIAL:.*]] = ct.vector_view %[[POUT]]
// CHECK: %[[N:.*]] = memref.dim %[[INITIAL]]
// CHECK: %[[ZEROS:.*]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK: memref.store %{{.*}}, %[[ZEROS]]
// CHECK: llvm.store %{{.*}}, %[[PDOUT]]
// CHECK: llvm.store
// CHECK: llvm.store
// CHECK: %[[CELL:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[ONE:.*]] = memref.alloca() : memref<1xf64>
// CHECK: ct.gradient @[[SEEDED:.*\.seeded]](%{{.*}}, %{{.*}}, %[[SEEDS]], %[[CELL]]) shadows(%{{.*}}, %{{.*}}, %[[ONE]]) activity [dup, dup, const, dup]
// CHECK: memref.dealloc %[[SEEDS]]

// CHECK: func.func private @[[SEEDED]](%[[A0:.*]]: memref<?xf64, strided<[1], offset: ?>>, %[[A1:.*]]: memref<?xf64, strided<[1], offset: ?>> {ct.final_seeds_taken}, %[[W:.*]]: memref<?xf64, strided<[1], offset: ?>>, %[[C:.*]]: memref<1xf64>) -> f64
// CHECK: %[[R:.*]] = call @_Z8appendedRKSt6vectorIdSaIdEERS1_(%[[A0]], %[[A1]])
// CHECK: %[[FINAL:.*]] = ct.load_address %[[A1]][%{{.*}}] : {{.*}} -> memref<?xf64
// CHECK: ct.abort "cotangent: parameter 'out' of 'appended' is a std::vector whose size the call decides: its derivative argument holds the seeds of its final contents, and must be empty or have the size it has after the call"
// CHECK: %[[SUM:.*]] = scf.for
// CHECK:   memref.load %[[W]]
// CHECK:   memref.load %[[FINAL]]
// CHECK: memref.store %[[SUM]], %[[C]]
// CHECK: return %[[R]]
double run(const std::vector<double> &x, std::vector<double> &out,
           std::vector<double> *dx, std::vector<double> *dout) {
  return ct::gradient<appended>(x, out, dx, dout);
}
