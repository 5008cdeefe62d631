// Caching policy for memory: a combined pullback whose function writes no
// memory argument reads its inputs again in the reverse sweep instead of
// taping the loaded values; a function that writes an argument tapes them
// (the write could alias the input) unless the input is marked ct.noalias
// (C's restrict).
// RUN: %cotangent-opt %s --ct-autodiff | FileCheck %s

// sum_i a[i] * a[i]: the reverse loop loads a[i] again; nothing is taped.
// CHECK-LABEL: func.func private @sum_squares.pullback.dc
// CHECK-NOT: ct.tape_push
// CHECK: scf.for
// CHECK: memref.load %arg0[
// CHECK-NOT: ct.tape_pop
// CHECK: return
func.func @sum_squares(%a: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %x = memref.load %a[%i] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    %next = arith.addf %acc, %x2 : f64
    scf.yield %next : f64
  }
  return %s : f64
}
func.func @grad_sum_squares(%a: memref<?xf64>, %da: memref<?xf64>, %n: index) -> f64 {
  %v = ct.gradient @sum_squares(%a, %n) shadows(%da) activity [dup, const] : (memref<?xf64>, index, memref<?xf64>) -> f64
  return %v : f64
}

// The same loop, but the function also writes out[i]: loads are taped
// (as one block per loop, ct-tape-blocks).
// CHECK-LABEL: func.func private @sum_squares_out.pullback.dcd
// CHECK: ct.tape_claim
// CHECK: scf.for
// CHECK: ct.tape_write
// CHECK: ct.tape_release
// CHECK: ct.tape_read
func.func @sum_squares_out(%a: memref<?xf64>, %n: index, %out: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %x = memref.load %a[%i] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    memref.store %x2, %out[%i] : memref<?xf64>
    %next = arith.addf %acc, %x2 : f64
    scf.yield %next : f64
  }
  return %s : f64
}
func.func @grad_sum_squares_out(%a: memref<?xf64>, %da: memref<?xf64>, %n: index, %out: memref<?xf64>, %dout: memref<?xf64>) -> f64 {
  %v = ct.gradient @sum_squares_out(%a, %n, %out) shadows(%da, %dout) activity [dup, const, dup] : (memref<?xf64>, index, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> f64
  return %v : f64
}

// The same, with `a` marked ct.noalias (C's restrict): writes through `out`
// cannot change it, so the reverse loop reads a[i] again; nothing is taped.
// CHECK-LABEL: func.func private @sum_squares_restrict.pullback.dcd
// CHECK-NOT: ct.tape_write
// CHECK: scf.for
// CHECK: memref.load %arg0[
// CHECK-NOT: ct.tape_read
// CHECK: return
func.func @sum_squares_restrict(%a: memref<?xf64> {ct.noalias}, %n: index, %out: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %x = memref.load %a[%i] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    memref.store %x2, %out[%i] : memref<?xf64>
    %next = arith.addf %acc, %x2 : f64
    scf.yield %next : f64
  }
  return %s : f64
}
func.func @grad_sum_squares_restrict(%a: memref<?xf64>, %da: memref<?xf64>, %n: index, %out: memref<?xf64>, %dout: memref<?xf64>) -> f64 {
  %v = ct.gradient @sum_squares_restrict(%a, %n, %out) shadows(%da, %dout) activity [dup, const, dup] : (memref<?xf64>, index, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> f64
  return %v : f64
}

// A restrict argument the function itself writes after the read: taped.
// CHECK-LABEL: func.func private @overwrite_restrict.pullback.dc
// CHECK: ct.tape_write
// CHECK: ct.tape_read
func.func @overwrite_restrict(%a: memref<?xf64> {ct.noalias}, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %x = memref.load %a[%i] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    memref.store %x2, %a[%i] : memref<?xf64>
    %next = arith.addf %acc, %x2 : f64
    scf.yield %next : f64
  }
  return %s : f64
}
func.func @grad_overwrite_restrict(%a: memref<?xf64>, %da: memref<?xf64>, %n: index) -> f64 {
  %v = ct.gradient @overwrite_restrict(%a, %n) shadows(%da) activity [dup, const] : (memref<?xf64>, index, memref<?xf64>) -> f64
  return %v : f64
}
