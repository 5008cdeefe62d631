// The adjoint of x sums one contribution per iteration. No source order
// exists for that sum, so it is marked reassociable (LLVM may vectorise it
// as a reduction) and contractible with the product feeding it (an FMA);
// the primal's own arithmetic keeps strict semantics.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

func.func @f(%x: f64, %a: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %a[%i] : memref<?xf64>
    %m = arith.mulf %x, %v : f64
    %s = arith.addf %acc, %m : f64
    scf.yield %s : f64
  }
  return %r : f64
}

// The loop's iterations are reversed in place (eager-loops.mlir): the
// primal sum, then in the same iteration the adjoint of x.
// CHECK-LABEL: func.func private @f.pullback.acc
// CHECK: scf.for
// CHECK:   %[[V:.*]] = memref.load
// CHECK:   %[[M:.*]] = arith.mulf %{{.*}}, %[[V]] : f64
// CHECK:   arith.addf %{{.*}}, %[[M]] : f64
// CHECK:   %[[P:.*]] = arith.mulf %[[V]], %{{.*}} fastmath<contract> : f64
// CHECK:   %[[OLD:.*]] = memref.load %[[SLOT:.*]][] : memref<f64>
// CHECK:   %[[NEW:.*]] = arith.addf %[[OLD]], %[[P]] fastmath<reassoc,contract> : f64
// CHECK:   memref.store %[[NEW]], %[[SLOT]][] : memref<f64>

func.func @main(%x: f64, %a: memref<?xf64>, %n: index) -> (f64, f64) {
  %v, %dx = ct.gradient @f(%x, %a, %n) activity [active, const, const]
      : (f64, memref<?xf64>, index) -> (f64, f64)
  return %v, %dx : f64, f64
}
