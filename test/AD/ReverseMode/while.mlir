// scf.while: the forward loop counts the executions N of its body in an
// extra iter_arg; the reverse is an scf.for over the N + 1 executions of the
// condition region, each followed (but the last) by the reversed body.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

func.func @f(%x: f64, %limit: f64) -> f64 {
  %r = scf.while (%y = %x) : (f64) -> f64 {
    %c = arith.cmpf olt, %y, %limit : f64
    scf.condition(%c) %y : f64
  } do {
  ^bb0(%y: f64):
    %s = arith.mulf %y, %y : f64
    scf.yield %s : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func private @f.pullback.ac
// CHECK: %[[TAPE:.*]] = ct.tape_init
// CHECK: %[[W:.*]]:2 = scf.while (%[[Y:.*]] = %{{.*}}, %[[K:.*]] = %[[C0:.*]]) : (f64, index) -> (f64, index) {
// CHECK:   scf.condition(%{{.*}}) %[[Y]], %[[K]] : f64, index
// CHECK: } do {
// CHECK: ^bb0(%[[Y2:.*]]: f64, %[[K2:.*]]: index):
// CHECK:   %[[NEXT:.*]] = arith.addi %[[K2]], %[[C1:.*]] : index
// CHECK:   ct.tape_push %[[TAPE]], %[[Y2]] : f64
// CHECK:   scf.yield %{{.*}}, %[[NEXT]] : f64, index
// CHECK: }
// CHECK: %[[EXECS:.*]] = arith.addi %[[W]]#1, %[[C1]] : index
// CHECK: scf.for %[[I:.*]] = %[[C0]] to %[[EXECS]] step %[[C1]] {
// CHECK:   %[[MORE:.*]] = arith.cmpi ult, %[[I]], %[[W]]#1 : index
// CHECK:   scf.if %[[MORE]] {
// CHECK:     ct.tape_pop %[[TAPE]] : f64
// CHECK:   }
// CHECK: }
// CHECK: ct.tape_free %[[TAPE]]

func.func @main(%x: f64, %limit: f64) -> (f64, f64) {
  %v, %dx = ct.gradient @f(%x, %limit) activity [active, const]
      : (f64, f64) -> (f64, f64)
  return %v, %dx : f64, f64
}

// A value the condition region computes and passes on (%n) gets its adjoint
// from the reversed body of the iteration before (through the after
// argument), emitted after the reverse of sin that reads it: it needs a
// slot, not an SSA sum of its block (which would have read 0 there).
func.func @passed(%x: f64) -> f64 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r:3 = scf.while (%i = %c0, %a = %x) : (i32, f64) -> (i32, f64, f64) {
    %more = arith.cmpi slt, %i, %c3 : i32
    %n = math.sin %a : f64
    %i1 = arith.addi %i, %c1 : i32
    scf.condition(%more) %i1, %n, %a : i32, f64, f64
  } do {
  ^bb0(%j: i32, %n: f64, %a: f64):
    scf.yield %j, %n : i32, f64
  }
  return %r#2 : f64
}

// CHECK-LABEL: func.func private @passed.pullback.a
// CHECK: ct.tape_init
// CHECK: %[[NSLOT:.*]] = memref.alloca() : memref<f64>
// CHECK: scf.while
// CHECK: scf.for
// CHECK:   %[[A:.*]] = ct.tape_pop
// CHECK:   %[[DN:.*]] = memref.load %[[NSLOT]][]
// CHECK:   %[[COS:.*]] = math.cos %[[A]]
// CHECK:   arith.mulf %[[COS]], %[[DN]]
// CHECK:   scf.if
// CHECK:     %[[FROMBODY:.*]] = memref.load %[[NSLOT]][]
// CHECK:     %[[SUM:.*]] = arith.addf %[[FROMBODY]], %{{.*}}
// CHECK:     memref.store %[[SUM]], %[[NSLOT]][]

func.func @main_passed(%x: f64) -> (f64, f64) {
  %v, %dx = ct.gradient @passed(%x) activity [active] : (f64) -> (f64, f64)
  return %v, %dx : f64, f64
}
