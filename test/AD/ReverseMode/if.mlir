// A branch is reversed by a branch on the same condition; each side
// accumulates into the adjoint of what it used. The else side's reverse
// needs exp's result: the forward branch passes it out as one more result
// (poison from the other side), since the level around it uses forward
// values directly; no tape. The clean-up then merges the two branches.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s
// RUN: %cotangent-opt %s --ct-differentiate | FileCheck %s --check-prefix=RAW
// RUN: %cotangent-opt %s "--ct-differentiate=recompute-values=false \
// RUN:   reload-memory=false eager-loops=false eager-calls=false \
// RUN:   recompute-iterations=false commuting-iterations=false" \
// RUN:   | FileCheck %s --check-prefix=PLAIN

// RAW-LABEL: func.func private @f.pullback.ac
// RAW-NOT: ct.tape
// RAW: %[[FWD:.*]]:2 = scf.if %{{.*}} -> (f64, f64) {
// RAW:   %[[SIN:.*]] = math.sin
// RAW:   %[[NONE:.*]] = ub.poison : f64
// RAW:   scf.yield %[[SIN]], %[[NONE]] : f64, f64
// RAW: } else {
// RAW:   %[[EXP:.*]] = math.exp
// RAW:   %[[M:.*]] = arith.mulf %[[EXP]]
// RAW:   scf.yield %[[M]], %[[EXP]] : f64, f64
// RAW: scf.if
// RAW: } else {
// RAW:   arith.mulf %[[FWD]]#1, %{{.*}} fastmath<contract>
// RAW-NOT: ct.tape
// RAW: return %[[FWD]]#0

func.func @f(%x: f64, %c: i1) -> f64 {
  %r = scf.if %c -> f64 {
    %s = math.sin %x : f64
    scf.yield %s : f64
  } else {
    %e = math.exp %x : f64
    %m = arith.mulf %e, %x : f64
    scf.yield %m : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func private @f.pullback.ac
// CHECK-SAME: (%[[X:.*]]: f64, %[[C:.*]]: i1, %[[SEED:.*]]: f64)
// CHECK-NOT: ct.tape
// CHECK: scf.if %[[C]] -> (f64) {
// CHECK:   math.sin %[[X]]
// CHECK:   math.cos %[[X]]
// CHECK: } else {
// CHECK:   %[[E:.*]] = math.exp %[[X]]
// CHECK:   arith.mulf %[[E]], %[[X]]
// CHECK:   arith.mulf %[[X]], %{{.*}}
// CHECK:   arith.mulf %[[E]], %{{.*}}
// CHECK: }
// CHECK-NOT: ct.tape
// CHECK: return

// Two values of one branch and one of a branch nested in it: the forward
// branch is rebuilt once per value (values passed before stay valid), and
// the nested one's value goes out through both branches.
func.func @g(%x: f64, %c: i1, %d: i1) -> f64 {
  %r = scf.if %c -> f64 {
    %a = math.exp %x : f64
    %b = math.sin %x : f64
    %m = arith.mulf %a, %b : f64
    %n = scf.if %d -> f64 {
      %t = math.tanh %m : f64
      %u = arith.mulf %t, %t : f64
      scf.yield %u : f64
    } else {
      scf.yield %m : f64
    }
    scf.yield %n : f64
  } else {
    scf.yield %x : f64
  }
  return %r : f64
}

// RAW-LABEL: func.func private @g.pullback.acc
// RAW-NOT: ct.tape
// RAW: %[[OUTER:.*]]:4 = scf.if %{{.*}} -> (f64, f64, f64, f64) {
// RAW:   %[[A:.*]] = math.exp
// RAW:   %[[B:.*]] = math.sin
// RAW:   %[[INNER:.*]]:2 = scf.if %{{.*}} -> (f64, f64) {
// RAW:     %[[T:.*]] = math.tanh
// RAW:     scf.yield %{{.*}}, %[[T]] : f64, f64
// RAW:   scf.yield %[[INNER]]#0, %{{.*}}, %{{.*}}, %{{.*}} : f64, f64, f64, f64
// RAW-NOT: ct.tape
// RAW: return %[[OUTER]]#0

func.func @main(%x: f64, %c: i1) -> (f64, f64) {
  %v, %dx = ct.gradient @f(%x, %c) activity [active, const]
      : (f64, i1) -> (f64, f64)
  %w, %dw = ct.gradient @g(%x, %c, %c) activity [active, const, const]
      : (f64, i1, i1) -> (f64, f64)
  %y, %dy = ct.gradient @h(%x, %c) activity [active, const]
      : (f64, i1) -> (f64, f64)
  return %v, %dx : f64, f64
}

// A condition computed inside a branch, tested again by the reverse code:
// it leaves the branch as `false` from the region that did not compute it,
// not poison, since the reverse code's `if (c) { if (d) }` is merged into
// `if (c && d)`, which must be false, not undefined, where c is false.
func.func @h(%x: f64, %c: i1) -> f64 {
  %zero = arith.constant 0.0 : f64
  %r = scf.if %c -> f64 {
    %d = arith.cmpf ogt, %x, %zero : f64
    %s = scf.if %d -> f64 {
      %e = math.exp %x : f64
      scf.yield %e : f64
    } else {
      scf.yield %x : f64
    }
    scf.yield %s : f64
  } else {
    scf.yield %zero : f64
  }
  return %r : f64
}

// Without the strategies that recompute it, %d is passed out:
// PLAIN-LABEL: func.func private @h.pullback.ac
// PLAIN: %[[FWD:.*]]:3 = scf.if %{{.*}} -> (f64, i1, f64) {
// PLAIN:   %[[D:.*]] = arith.cmpf ogt
// PLAIN:   scf.yield %{{.*}}, %[[D]], %{{.*}} : f64, i1, f64
// PLAIN: } else {
// PLAIN:   %[[FALSE:.*]] = arith.constant false
// PLAIN:   scf.yield %{{.*}}, %[[FALSE]], %{{.*}} : f64, i1, f64
// PLAIN: }
// PLAIN-NOT: ub.poison : i1
// PLAIN: scf.if %[[FWD]]#1
