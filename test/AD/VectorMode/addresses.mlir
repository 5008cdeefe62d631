// Vector mode over memory whose address is kept in memory (docs/Memory.md).
// Derivative memory carries the lanes as a trailing dimension; a holder
// keeps one address per slot whatever the lanes, so the views stored into
// and loaded from the derivative's holders are 2-D views (element i, lane
// k at i * K + k) and the holders stay as they are. In reverse mode a
// shadow whose address is on the tape is viewed again with its lanes.
// RUN: %cotangent-opt %s --ct-differentiate | FileCheck %s --check-prefix=REV
// RUN: %cotangent-opt %s --ct-differentiate | FileCheck %s --check-prefix=FWD
// RUN: %cotangent-opt %s --ct-differentiate --ct-lower-to-llvm > /dev/null

// A buffer made in each iteration, its address kept in a local holder's
// slot for the iteration, read back through the holder, then freed.
func.func @kept_in_loop(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %holder = memref.alloca(%n) : memref<?xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> f64 {
    %buffer = memref.alloc() : memref<1xf64>
    memref.store %acc, %buffer[%c0] : memref<1xf64>
    ct.store_address %buffer, %holder[%i] : memref<1xf64>, memref<?xf64>
    %p = ct.load_address %holder[%i] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
    %v = memref.load %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
    %w = arith.mulf %v, %acc : f64
    memref.dealloc %buffer : memref<1xf64>
    scf.yield %w : f64
  }
  return %r : f64
}

// Reverse mode, 2 seeds: the shadow made in the forward sweep has 2 lanes
// per element; its address is taped, and the reverse sweep views it again
// with its lanes, accumulates into it and frees it.
// REV-LABEL: func.func private @kept_in_loop.pullback.ac.lanes2.
// REV: scf.for
// REV:   %[[SHADOW:.*]] = memref.alloc() : memref<1x2xf64>
// REV:   ct.store_address %[[SHADOW]], %{{.*}} : memref<1x2xf64>, memref<?xf64>
// REV:   memref.extract_aligned_pointer_as_index %[[SHADOW]] : memref<1x2xf64> -> index {ct.taped_address = [[PAIR:[0-9]+]] : i64}
// REV: scf.for
// REV:   %[[MADE:.*]] = ct.pointer_view %{{.*}} {ct.taped_address = [[PAIR]] : i64} : memref<?x2xf64, strided<[2, 1], offset: ?>>
// REV:   %[[FREED:.*]] = memref.cast %[[MADE]] : memref<?x2xf64, strided<[2, 1], offset: ?>> to memref<1x2xf64>
// REV:   %[[VIEW:.*]] = ct.pointer_view %{{.*}} {ct.taped_address = {{[0-9]+}} : i64} : memref<?x2xf64, strided<[2, 1], offset: ?>>
// REV:   vector.load %[[VIEW]][%{{.*}}, %{{.*}}] : memref<?x2xf64, strided<[2, 1], offset: ?>>, vector<2xf64>
// REV:   memref.dealloc %[[FREED]] : memref<1x2xf64>
func.func @reverse(%x: f64, %n: index, %s: vector<2xf64>)
    -> (f64, vector<2xf64>) {
  %v, %dx = ct.pullback @kept_in_loop(%x, %n) seeds(%s) lanes 2
      activity [active, const]
      : (f64, index, vector<2xf64>) -> (f64, vector<2xf64>)
  return %v, %dx : f64, vector<2xf64>
}

// Forward mode, 3 tangents: the tangent buffer has 3 lanes per element, its
// address goes into the tangent holder, and the view loaded back from the
// tangent holder has the lanes; the primal's do not.
// FWD-LABEL: func.func private @kept_in_loop.jvp.ac.lanes3.
// FWD-DAG: %[[H:.*]] = memref.alloca(%{{.*}}) : memref<?xf64>
// FWD-DAG: %[[DH:.*]] = memref.alloca(%{{.*}}) : memref<?xf64>
// FWD: scf.for
// FWD:   %[[TANGENT:.*]] = memref.alloc() : memref<1x3xf64>
// FWD:   ct.store_address %{{.*}}, %[[H]][%{{.*}}] : memref<1xf64>, memref<?xf64>
// FWD:   ct.store_address %[[TANGENT]], %[[DH]][%{{.*}}] : memref<1x3xf64>, memref<?xf64>
// FWD:   ct.load_address %[[H]][%{{.*}}] : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
// FWD:   %[[DP:.*]] = ct.load_address %[[DH]][%{{.*}}] : memref<?xf64> -> memref<?x3xf64, strided<[3, 1], offset: ?>>
// FWD:   vector.load %[[DP]][%{{.*}}, %{{.*}}] : memref<?x3xf64, strided<[3, 1], offset: ?>>, vector<3xf64>
func.func @forward(%x: f64, %n: index, %tx: vector<3xf64>)
    -> (f64, vector<3xf64>) {
  %v, %t = ct.jvp @kept_in_loop(%x, %n) tangents(%tx) lanes 3
      activity [active, const]
      : (f64, index, vector<3xf64>) -> (f64, vector<3xf64>)
  return %v, %t : f64, vector<3xf64>
}

// A holder that keeps a number with a derivative beside an address (slot 0
// the address of a buffer, slot 1 a square): the derivative holder carries
// the lanes as a whole, and its address slot is the slot's first lane (a
// view of lane 0), in both modes; the primal holder stays as it is.
func.func @kept_beside_number(%x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %holder = memref.alloca() : memref<2xf64>
  %buffer = memref.alloc() : memref<1xf64>
  memref.store %x, %buffer[%c0] : memref<1xf64>
  ct.store_address %buffer, %holder[%c0] : memref<1xf64>, memref<2xf64>
  %square = arith.mulf %x, %x : f64
  memref.store %square, %holder[%c1] : memref<2xf64>
  %p = ct.load_address %holder[%c0] : memref<2xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %v = memref.load %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %s = memref.load %holder[%c1] : memref<2xf64>
  %w = arith.mulf %v, %s : f64
  memref.dealloc %buffer : memref<1xf64>
  return %w : f64
}

// FWD-LABEL: func.func private @kept_beside_number.jvp.a.lanes2.
// FWD-DAG: %[[H:.*]] = memref.alloca() : memref<2xf64>
// FWD-DAG: %[[DH:.*]] = memref.alloca() : memref<2x2xf64>
// FWD: ct.store_address %{{.*}}, %[[H]][%{{.*}}] : memref<1xf64>, memref<2xf64>
// FWD: %[[LANE0:.*]] = memref.subview %[[DH]][0, 0] [2, 1] [1, 1] : memref<2x2xf64> to memref<2xf64, strided<[2]>>
// FWD: ct.store_address %{{.*}}, %[[LANE0]][%{{.*}}] : memref<1x2xf64>, memref<2xf64, strided<[2]>>
// FWD: vector.store %{{.*}}, %[[DH]][%{{.*}}, %{{.*}}] : memref<2x2xf64>, vector<2xf64>
// FWD: %[[LANE0_AGAIN:.*]] = memref.subview %[[DH]][0, 0] [2, 1] [1, 1]
// FWD: ct.load_address %[[LANE0_AGAIN]][%{{.*}}] : memref<2xf64, strided<[2]>> -> memref<?x2xf64, strided<[2, 1], offset: ?>>
func.func @forward_beside(%x: f64, %tx: vector<2xf64>) -> (f64, vector<2xf64>) {
  %v, %t = ct.jvp @kept_beside_number(%x) tangents(%tx) lanes 2
      activity [active] : (f64, vector<2xf64>) -> (f64, vector<2xf64>)
  return %v, %t : f64, vector<2xf64>
}

// REV-LABEL: func.func private @kept_beside_number.pullback.a.lanes2.
// REV: %[[DH:.*]] = memref.alloca() : memref<2x2xf64>
// REV: %[[LANE0:.*]] = memref.subview %[[DH]][0, 0] [2, 1] [1, 1] : memref<2x2xf64> to memref<2xf64, strided<[2]>>
// REV: ct.store_address %{{.*}}, %[[LANE0]][%{{.*}}] : memref<1x2xf64>, memref<2xf64, strided<[2]>>
func.func @reverse_beside(%x: f64, %s: vector<2xf64>) -> (f64, vector<2xf64>) {
  %v, %dx = ct.pullback @kept_beside_number(%x) seeds(%s) lanes 2
      activity [active] : (f64, vector<2xf64>) -> (f64, vector<2xf64>)
  return %v, %dx : f64, vector<2xf64>
}

