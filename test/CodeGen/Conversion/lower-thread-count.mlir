// ct-lower-thread-count: ct.thread_count is OpenMP's thread count in a
// translation unit built with -fopenmp (one declaration of the runtime
// function for the module, one call per use), 1 otherwise.
// RUN: %cotangent-opt %s --ct-lower-thread-count | FileCheck %s --check-prefix=SERIAL
// RUN: %cotangent-opt %s --ct-lower-thread-count=openmp=true | FileCheck %s --check-prefix=OPENMP

// SERIAL-LABEL: func.func @chunks
// SERIAL-NOT: ct.thread_count
// SERIAL: %[[A:.*]] = arith.constant 1 : index
// SERIAL: %[[B:.*]] = arith.constant 1 : index
// SERIAL: return %[[A]], %[[B]] : index, index
// SERIAL-NOT: omp_get_max_threads

// OPENMP-LABEL: func.func @chunks
// OPENMP-NOT: ct.thread_count
// OPENMP: %[[N:.*]] = call @omp_get_max_threads() : () -> i32
// OPENMP: %[[A:.*]] = arith.index_cast %[[N]] : i32 to index
// OPENMP: %[[M:.*]] = call @omp_get_max_threads() : () -> i32
// OPENMP: %[[B:.*]] = arith.index_cast %[[M]] : i32 to index
// OPENMP: return %[[A]], %[[B]] : index, index
// OPENMP: func.func private @omp_get_max_threads() -> i32
// OPENMP-NOT: func.func private @omp_get_max_threads
func.func @chunks() -> (index, index) {
  %a = ct.thread_count
  %b = ct.thread_count
  return %a, %b : index, index
}
