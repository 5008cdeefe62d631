// ct-lower-to-llvm{openmp=1} (a translation unit built with -fopenmp) runs
// scf.parallel loops as OpenMP worksharing loops, their reductions as
// OpenMP reductions, atomic adds as LLVM atomics, and ct.thread_count asks
// OpenMP; without OpenMP the same loops lower to serial branches and the
// thread count is 1.
// RUN: %cotangent-opt %s --pass-pipeline='builtin.module(ct-lower-to-llvm{openmp=1})' | FileCheck %s
// RUN: %cotangent-opt %s --pass-pipeline='builtin.module(ct-lower-to-llvm)' | FileCheck %s --check-prefix=SERIAL
// RUN: %cotangent-opt %s --pass-pipeline='builtin.module(ct-lower-to-llvm{openmp=1})' | FileCheck %s --check-prefix=MAX

// CHECK: omp.declare_reduction
// CHECK-LABEL: llvm.func @sum_and_scatter
// CHECK: omp.parallel
// CHECK: omp.wsloop
// CHECK-SAME: reduction(
// CHECK: omp.loop_nest
// CHECK: llvm.atomicrmw fadd
// CHECK: llvm.call @omp_get_max_threads()
// CHECK: llvm.func @omp_get_max_threads() -> i32
// SERIAL-LABEL: llvm.func @sum_and_scatter
// SERIAL-NOT: omp.
// SERIAL: llvm.atomicrmw fadd
// SERIAL-NOT: omp.
// SERIAL-NOT: omp_get_max_threads
func.func @sum_and_scatter(%x: memref<?xf64>, %h: memref<?xf64>,
                           %bins: memref<?xindex>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %b = memref.load %bins[%i] : memref<?xindex>
    %old = memref.atomic_rmw addf %v, %h[%b] : (f64, memref<?xf64>) -> f64
    scf.reduce(%v : f64) {
    ^bb0(%lhs: f64, %rhs: f64):
      %sum = arith.addf %lhs, %rhs : f64
      scf.reduce.return %sum : f64
    }
  }
  %threads = ct.thread_count
  %t = arith.index_cast %threads : index to i64
  %tf = arith.sitofp %t : i64 to f64
  %r = arith.addf %s, %tf : f64
  return %r : f64
}

// The max reduction as ct-structure and ct-parallelize-loops write it (the
// later value wins only if strictly greater) is an OpenMP reduction too.
// MAX: llvm.func @sum_and_scatter
// MAX: omp.declare_reduction @{{.*}} : f64 init
// MAX: combiner
// MAX: llvm.fcmp "olt"
// MAX: llvm.select
// MAX: llvm.func @largest
// MAX: omp.wsloop
// MAX-SAME: reduction(
func.func @largest(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %low = arith.constant 0xFFF0000000000000 : f64
  %m = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%low) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%lhs: f64, %rhs: f64):
      %wins = arith.cmpf olt, %lhs, %rhs : f64
      %max = arith.select %wins, %rhs, %lhs : f64
      scf.reduce.return %max : f64
    }
  }
  return %m : f64
}
