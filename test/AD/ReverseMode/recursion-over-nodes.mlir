// Recursion over linked nodes (docs/Memory.md, item 4): a recursive call
// is split into a forward and a reverse half, and all address work is done
// in the forward sweep. So the forward half of a function that loads or
// stores addresses in the memory its arguments give access to takes their
// shadows too: it loads the successor's shadow address beside the
// successor's, passes both to the recursive call, and tapes both for its
// reverse half. A split function that keeps no addresses in its arguments
// keeps the forward half it had (arguments and tape only).
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @chain.rev.d
// CHECK-SAME: (%[[RP:.*]]: memref<?xf64, strided<[1], offset: ?>>, %[[RT:.*]]: !ct.tape, %[[RSEED:.*]]: f64, %[[RDP:.*]]: memref<?xf64, strided<[1], offset: ?>>)
// CHECK: scf.if
// CHECK:   %[[DNEXT:.*]] = ct.pointer_view {{.*}} {ct.taped_address = [[SHADOW:[0-9]+]] : i64}
// CHECK:   %[[RNEXT:.*]] = ct.pointer_view {{.*}} {ct.taped_address = [[NODE:[0-9]+]] : i64}
// CHECK:   func.call @chain.rev.d(%[[RNEXT]], %[[RT]], %{{.*}}, %[[DNEXT]])

// CHECK-LABEL: func.func private @chain.fwd.d
// CHECK-SAME: (%[[P:.*]]: memref<?xf64, strided<[1], offset: ?>>, %[[T:.*]]: !ct.tape, %[[DP:.*]]: memref<?xf64, strided<[1], offset: ?>>) -> f64
// CHECK: scf.if
// CHECK:   %[[NEXT:.*]] = ct.load_address %[[P]][%[[C1:.*]]]
// CHECK:   %[[DNEXTF:.*]] = ct.load_address %[[DP]][%[[C1]]]
// CHECK:   func.call @chain.fwd.d(%[[NEXT]], %[[T]], %[[DNEXTF]])
// CHECK:   memref.extract_aligned_pointer_as_index %[[NEXT]] {{.*}} {ct.taped_address = [[NODE]] : i64}
// CHECK:   ct.tape_push
// CHECK:   memref.extract_aligned_pointer_as_index %[[DNEXTF]] {{.*}} {ct.taped_address = [[SHADOW]] : i64}
// CHECK:   ct.tape_push

// CHECK-LABEL: func.func private @chain.pullback.d
// CHECK-SAME: (%[[HP:.*]]: memref<?xf64, strided<[1], offset: ?>>, %{{.*}}: f64, %[[HDP:.*]]: memref<?xf64, strided<[1], offset: ?>>)
// CHECK: %[[HNEXT:.*]] = ct.load_address %[[HP]]
// CHECK: %[[HDNEXT:.*]] = ct.load_address %[[HDP]]
// CHECK: func.call @chain.fwd.d(%[[HNEXT]], %{{.*}}, %[[HDNEXT]])
// CHECK: func.call @chain.rev.d(%[[HNEXT]], %{{.*}}, %{{.*}}, %[[HDNEXT]])
func.func private @chain(%node: memref<?xf64, strided<[1], offset: ?>>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %address = memref.extract_aligned_pointer_as_index %node : memref<?xf64, strided<[1], offset: ?>> -> index
  %present = arith.cmpi ne, %address, %c0 : index
  %r = scf.if %present -> (f64) {
    %v = memref.load %node[%c0] : memref<?xf64, strided<[1], offset: ?>>
    %s = math.sin %v : f64
    %next = ct.load_address %node[%c1] : memref<?xf64, strided<[1], offset: ?>> -> memref<?xf64, strided<[1], offset: ?>>
    %rest = func.call @chain(%next) : (memref<?xf64, strided<[1], offset: ?>>) -> f64
    %t = arith.addf %rest, %one : f64
    %m = arith.mulf %s, %t : f64
    scf.yield %m : f64
  } else {
    scf.yield %zero : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func private @powers.fwd.dc
// CHECK-SAME: (%{{.*}}: memref<?xf64>, %{{.*}}: index, %{{.*}}: !ct.tape) -> f64
func.func private @powers(%p: memref<?xf64>, %k: index) -> f64 {
  %one = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %done = arith.cmpi eq, %k, %c0 : index
  %r = scf.if %done -> (f64) {
    scf.yield %one : f64
  } else {
    %v = memref.load %p[%c0] : memref<?xf64>
    %square = arith.mulf %v, %v : f64
    memref.store %square, %p[%c1] : memref<?xf64>
    %less = arith.subi %k, %c1 : index
    %rest = func.call @powers(%p, %less) : (memref<?xf64>, index) -> f64
    %m = arith.mulf %v, %rest : f64
    scf.yield %m : f64
  }
  return %r : f64
}

func.func @entry(%list: memref<?xf64, strided<[1], offset: ?>>, %p: memref<?xf64>, %k: index, %s: f64, %dlist: memref<?xf64, strided<[1], offset: ?>>, %dp: memref<?xf64>) -> (f64, f64) {
  %r = ct.pullback @chain(%list) seeds(%s) shadows(%dlist) activity [dup] : (memref<?xf64, strided<[1], offset: ?>>, f64, memref<?xf64, strided<[1], offset: ?>>) -> f64
  %q = ct.pullback @powers(%p, %k) seeds(%s) shadows(%dp) activity [dup, const] : (memref<?xf64>, index, f64, memref<?xf64>) -> f64
  return %r, %q : f64, f64
}
