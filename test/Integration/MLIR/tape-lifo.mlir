// A tape returns values in reverse order of pushing, across growth of its
// buffer: push k = 0..N-1, pop N times; the j-th pop must be N-1-j, so
// sum_j j * pop_j = N(N-1)(N-2)/6, which is 4495501000 for N = 3000.
// RUN: %cotangent-opt %s --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s

func.func private @printI64(i64)
func.func private @printNewline()

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 3000 : index
  %zero = arith.constant 0 : i64
  %t = ct.tape_init : !ct.tape
  scf.for %k = %c0 to %n step %c1 {
    ct.tape_push %t, %k : index
  }
  %sum = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> i64 {
    %v = ct.tape_pop %t : index
    %vi = arith.index_cast %v : index to i64
    %ji = arith.index_cast %j : index to i64
    %p = arith.muli %vi, %ji : i64
    %s = arith.addi %acc, %p : i64
    scf.yield %s : i64
  }
  ct.tape_free %t
  // CHECK: 4495501000
  func.call @printI64(%sum) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}
