// scf lowers to cf branches, last op of a block first (so each block split
// moves only the ops up to the previously lowered one): consecutive loops,
// a loop in a conditional, a while loop whose body holds a conditional.
// The result is the same control flow upstream's conversion builds.
// RUN: %cotangent-opt %s --ct-structured-to-branches | FileCheck %s
// RUN: %cotangent-opt %s --ct-structured-to-branches --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// LLVM-NOT: scf.
// LLVM-NOT: cf.
// LLVM-LABEL: llvm.func @sequence

// CHECK-LABEL: func.func @sequence
// CHECK-NOT: scf.
// CHECK: cf.br ^[[H1:bb[0-9]+]](%{{.*}}, %arg1 : index, f64)
// CHECK: ^[[H1]](%[[I:.*]]: index, %[[S:.*]]: f64):
// CHECK: cf.cond_br %{{.*}}, ^[[B1:bb[0-9]+]], ^[[E1:bb[0-9]+]]
// CHECK: ^[[B1]]:
// CHECK: arith.mulf %[[S]], %arg1
// CHECK: cf.br ^[[H1]]
// CHECK: ^[[E1]]:
// CHECK: cf.br ^[[H2:bb[0-9]+]](%{{.*}}, %[[S]] : index, f64)
// CHECK: ^[[H2]](%{{.*}}: index, %[[T:.*]]: f64):
// CHECK: cf.cond_br %{{.*}}, ^[[B2:bb[0-9]+]], ^[[E2:bb[0-9]+]]
// CHECK: ^[[B2]]:
// CHECK: math.sin %[[T]]
// CHECK: ^[[E2]]:
// CHECK: return %[[T]]
func.func @sequence(%n: index, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = scf.for %i = %c0 to %n step %c1 iter_args(%s = %x) -> f64 {
    %m = arith.mulf %s, %x : f64
    scf.yield %m : f64
  }
  %b = scf.for %i = %c0 to %n step %c1 iter_args(%t = %a) -> f64 {
    %m = math.sin %t : f64
    scf.yield %m : f64
  }
  return %b : f64
}

// CHECK-LABEL: func.func @nested
// CHECK-NOT: scf.
// CHECK: cf.cond_br %arg0, ^[[THEN:bb[0-9]+]], ^[[ELSE:bb[0-9]+]]
// CHECK: ^[[THEN]]:
// CHECK: cf.br ^[[HEAD:bb[0-9]+]](
// CHECK: ^[[HEAD]](
// CHECK: cf.cond_br
// CHECK: cf.br ^[[JOIN:bb[0-9]+]](%{{[0-9]+}} : f64)
// CHECK: ^[[ELSE]]:
// CHECK: cf.br ^[[JOIN]](%arg2 : f64)
// CHECK: ^[[JOIN]](%[[R:.*]]: f64):
// CHECK: return %[[R]]
func.func @nested(%p: i1, %n: index, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.if %p -> f64 {
    %a = scf.for %i = %c0 to %n step %c1 iter_args(%s = %x) -> f64 {
      %m = arith.mulf %s, %x : f64
      scf.yield %m : f64
    }
    scf.yield %a : f64
  } else {
    scf.yield %x : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func @while_with_branch
// CHECK-NOT: scf.
// CHECK: cf.br ^[[BEFORE:bb[0-9]+]](%arg0 : f64)
// CHECK: ^[[BEFORE]](%[[V:.*]]: f64):
// CHECK: cf.cond_br %{{.*}}, ^[[AFTER:bb[0-9]+]](%[[V]] : f64), ^[[DONE:bb[0-9]+]]
// CHECK: ^[[AFTER]](%[[W:.*]]: f64):
// CHECK: cf.cond_br
// CHECK: cf.br ^[[BEFORE]](
// CHECK: ^[[DONE]]:
// CHECK: return %[[V]]
func.func @while_with_branch(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = scf.while (%v = %x) : (f64) -> f64 {
    %more = arith.cmpf olt, %v, %one : f64
    scf.condition(%more) %v : f64
  } do {
  ^bb0(%w: f64):
    %big = arith.cmpf ogt, %w, %one : f64
    %next = scf.if %big -> f64 {
      scf.yield %w : f64
    } else {
      %d = arith.addf %w, %one : f64
      scf.yield %d : f64
    }
    scf.yield %next : f64
  }
  return %r : f64
}
