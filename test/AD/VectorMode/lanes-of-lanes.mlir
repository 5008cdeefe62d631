// Vector mode over code that itself runs in vector mode: the new lanes go
// innermost (vector<3xf64> becomes vector<3x2xf64>, memory of 3 lanes per
// element gains a trailing dimension of 2). A broadcast of a scalar with
// lanes spreads them along the old lanes; a vector without the new lanes
// that meets them is broadcast along a new leading dimension and
// transposed; one old lane is a vector of the new lanes; a vector of old
// lanes is built by insertions (which canonicalize to one vector of their
// elements); the sum of the old lanes adds their
// vectors. The inner code's whole-lane accesses become element accesses,
// which gain the new lanes as any.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// What vector mode makes, differentiated in forward mode with 2 lanes.
// CHECK-LABEL: func.func private @inner.jvp.ad.lanes2.
// CHECK-SAME: memref<?x3x2xf64>
// CHECK-DAG: vector.load %{{.*}} : memref<?x3x2xf64>, vector<2xf64>
// CHECK-DAG: vector.broadcast %{{.*}} : vector<2xf64> to vector<3x2xf64>
// CHECK-DAG: vector.broadcast %{{.*}} : vector<3xf64> to vector<2x3xf64>
// CHECK-DAG: vector.transpose %{{.*}}, [1, 0] : vector<2x3xf64> to vector<3x2xf64>
// CHECK-DAG: vector.from_elements {{.*}} : vector<3x2xf64>
// CHECK-DAG: vector.store %{{.*}} : memref<?x3x2xf64>, vector<2xf64>
// The sum of the old lanes: their vectors added (the primal's own sum of
// lanes stays a reduction).
// CHECK-DAG: %[[L0:.*]] = vector.extract %[[T:.*]][0] : vector<2xf64> from vector<3x2xf64>
// CHECK-DAG: %[[L1:.*]] = vector.extract %[[T]][1] : vector<2xf64> from vector<3x2xf64>
// CHECK-DAG: %[[S01:.*]] = arith.addf %[[L0]], %[[L1]] : vector<2xf64>
// CHECK-DAG: %[[L2:.*]] = vector.extract %[[T]][2] : vector<2xf64> from vector<3x2xf64>
// CHECK-DAG: arith.addf %[[S01]], %[[L2]] : vector<2xf64>
// CHECK-DAG: vector.reduction <add>, %{{.*}} : vector<3xf64> into f64
// CHECK: return
func.func @inner(%x: f64, %t: memref<?x3xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = vector.load %t[%c0, %c0] : memref<?x3xf64>, vector<3xf64>
  %b = vector.broadcast %x : f64 to vector<3xf64>
  %m = arith.mulf %b, %v : vector<3xf64>
  %e = vector.extract %m[1] : f64 from vector<3xf64>
  %s = vector.reduction <add>, %m : vector<3xf64> into f64
  %w = vector.from_elements %e, %s, %x : vector<3xf64>
  %u = arith.mulf %w, %m : vector<3xf64>
  %i = vector.insert %x, %u[2] : f64 into vector<3xf64>
  vector.store %i, %t[%c1, %c0] : memref<?x3xf64>, vector<3xf64>
  %r = arith.mulf %e, %s : f64
  return %r : f64
}

func.func @request(%x: f64, %t: memref<?x3xf64>, %tx: vector<2xf64>,
                   %tt: memref<?x3x2xf64>) -> vector<2xf64> {
  %y, %ty = ct.jvp @inner(%x, %t) tangents(%tx, %tt) lanes 2 activity [active, dup] : (f64, memref<?x3xf64>, vector<2xf64>, memref<?x3x2xf64>) -> (f64, vector<2xf64>)
  return %ty : vector<2xf64>
}
