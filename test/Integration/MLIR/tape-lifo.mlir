// A tape returns values in reverse order of pushing, across growth of its
// buffer: push k = 0..N-1, pop N times; the j-th pop must be N-1-j, so
// sum_j j * pop_j = N(N-1)(N-2)/6, which is 4495501000 for N = 3000.
// The same with the loops' pushes and pops as blocks (ct-tape-blocks), and
// nested loops: an outer loop pushing one value per iteration around an
// inner loop pushing one per inner iteration, undone the same way; every
// pop is compared with the value pushed there (0 mismatches).
// RUN: %cotangent-opt %s --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s
// RUN: %cotangent-opt %s --ct-tape-blocks --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts \
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
  // CHECK: {{^}}4495501000{{$}}
  func.call @printI64(%sum) : (i64) -> ()
  func.call @printNewline() : () -> ()

  // Outer a < 50 pushes a after its inner loop pushed a * 70 + b and b,
// b < 70.
  %a_count = arith.constant 50 : index
  %b_count = arith.constant 70 : index
  %u = ct.tape_init : !ct.tape
  scf.for %a = %c0 to %a_count step %c1 {
    %base = arith.muli %a, %b_count : index
    scf.for %b = %c0 to %b_count step %c1 {
      %v = arith.addi %base, %b : index
      ct.tape_push %u, %v : index
      ct.tape_push %u, %b : index
    }
    ct.tape_push %u, %a : index
  }
  %last_a = arith.subi %a_count, %c1 : index
  %last_b = arith.subi %b_count, %c1 : index
  %one = arith.constant 1 : i64
  %wrong = scf.for %r = %c0 to %a_count step %c1 iter_args(%w = %zero) -> i64 {
    %a = arith.subi %last_a, %r : index
    %pa = ct.tape_pop %u : index
    %bad_a = arith.cmpi ne, %pa, %a : index
    %wa = arith.select %bad_a, %one, %zero : i64
    %w1 = arith.addi %w, %wa : i64
    %base = arith.muli %a, %b_count : index
    %w2 = scf.for %q = %c0 to %b_count step %c1 iter_args(%wi = %w1) -> i64 {
      %b = arith.subi %last_b, %q : index
      %expected = arith.addi %base, %b : index
      %pb = ct.tape_pop %u : index
      %pv = ct.tape_pop %u : index
      %bad_b = arith.cmpi ne, %pb, %b : index
      %bad_v = arith.cmpi ne, %pv, %expected : index
      %bad = arith.ori %bad_b, %bad_v : i1
      %wb = arith.select %bad, %one, %zero : i64
      %wn = arith.addi %wi, %wb : i64
      scf.yield %wn : i64
    }
    scf.yield %w2 : i64
  }
  ct.tape_free %u
  // CHECK-NEXT: {{^}}0{{$}}
  func.call @printI64(%wrong) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}
