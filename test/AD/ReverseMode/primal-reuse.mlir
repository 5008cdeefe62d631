// A partial that the primal computed already is fetched, not computed again:
// the partials of cos and sin (-sin and cos of the same value) are the
// primal's own sin and cos when every run of the op runs them too.
// Arithmetic is redone rather than fetched (a fetch in a loop is a tape
// entry).
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// Both in the branch, cos first: its partial reads the sin computed after
// it. The branch is reversed after the square (its adjoint is not known
// before), and computes neither again.
// CHECK-LABEL: func.func private @rotation.pullback.ac
// CHECK-COUNT-1: math.cos
// CHECK-NOT: math.cos
// CHECK-LABEL: func.func
func.func @rotation(%x: f64, %c: i1) -> f64 {
  %zero = arith.constant 0.0 : f64
  %r = scf.if %c -> f64 {
    %cos = math.cos %x : f64
    %sin = math.sin %x : f64
    %p = arith.mulf %cos, %sin : f64
    scf.yield %p : f64
  } else {
    scf.yield %zero : f64
  }
  %r2 = arith.mulf %r, %r : f64
  return %r2 : f64
}

// The sin is in a branch that need not run: cos's partial computes its own.
// CHECK-LABEL: func.func private @sibling.pullback.ac
// CHECK: scf.if
// CHECK:   math.sin
// CHECK: math.cos
// CHECK: math.sin
// CHECK: return
func.func @sibling(%x: f64, %c: i1) -> f64 {
  %s = scf.if %c -> f64 {
    %sin = math.sin %x : f64
    scf.yield %sin : f64
  } else {
    scf.yield %x : f64
  }
  %cos = math.cos %x : f64
  %r = arith.addf %s, %cos : f64
  return %r : f64
}

// asin's partial 1/sqrt(1 - v*v) squares v again rather than taping the
// primal's v*v: one tape entry (v) per iteration.
// CHECK-LABEL: func.func private @squares.pullback.dc
// CHECK-COUNT-1: ct.tape_push
// CHECK-NOT: ct.tape_push
// CHECK: return
func.func @squares(%a: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    %q = arith.mulf %v, %v : f64
    %s = math.asin %v : f64
    %r = arith.addf %q, %s : f64
    memref.store %r, %a[%i] : memref<?xf64>
  }
  return
}

func.func @main(%x: f64, %c: i1, %a: memref<?xf64>, %da: memref<?xf64>,
                %n: index) -> (f64, f64) {
  %v1, %d1 = ct.gradient @rotation(%x, %c) activity [active, const]
      : (f64, i1) -> (f64, f64)
  %v2, %d2 = ct.gradient @sibling(%x, %c) activity [active, const]
      : (f64, i1) -> (f64, f64)
  ct.pullback @squares(%a, %n) shadows(%da) activity [dup, const]
      : (memref<?xf64>, index, memref<?xf64>) -> ()
  return %d1, %d2 : f64, f64
}
