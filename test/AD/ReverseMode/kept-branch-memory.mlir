// Memory a branch makes and chooses, whose address is then kept in memory
// (a helper lowered in place returning null early, or memory it made,
// stored in an object's field): the forward sweep's branch also yields the
// shadow of what it chose (the null pointer is its own shadow: nothing is
// there; forward mode yields tangents alike), and keeps that shadow's address where the primal keeps the
// address, so that the loads of the address read the shadow too.
// RUN: %cotangent-opt %s --ct-autodiff | FileCheck %s
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup > /dev/null

func.func @kept(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %holder = memref.alloca() : memref<1xf64>
  %zero = llvm.mlir.zero : !llvm.ptr
  %null = ct.pointer_view %zero : memref<?xf64, strided<[1], offset: ?>>
  %none = arith.cmpi eq, %n, %c0 : index
  %chosen = scf.if %none -> (memref<?xf64, strided<[1], offset: ?>>) {
    scf.yield %null : memref<?xf64, strided<[1], offset: ?>>
  } else {
    %made = memref.alloc(%n) : memref<?xf64>
    %view = memref.cast %made : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
    scf.yield %view : memref<?xf64, strided<[1], offset: ?>>
  }
  ct.store_address %chosen, %holder[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<1xf64>
  %p = ct.load_address %holder[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %sq = arith.mulf %x, %x : f64
  memref.store %sq, %p[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %q = ct.load_address %holder[%c0] : memref<1xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %v = memref.load %q[%c0] : memref<?xf64, strided<[1], offset: ?>>
  %r = arith.mulf %v, %x : f64
  memref.dealloc %q : memref<?xf64, strided<[1], offset: ?>>
  return %r : f64
}

// Forward mode: the null pointer is its own tangent.
// CHECK-LABEL: func.func private @kept.jvp.ac
// CHECK: %[[TNULL:.*]] = ct.pointer_view
// CHECK: scf.if %{{.*}} -> (memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>) {
// CHECK-NEXT: scf.yield %[[TNULL]], %[[TNULL]]

// CHECK-LABEL: func.func private @kept.pullback.ac
// CHECK: %[[NULL:.*]] = ct.pointer_view
// CHECK: %[[BOTH:.*]]:3 = scf.if %[[NONE:.*]] -> (memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>, memref<?xf64>) {
// CHECK-NEXT: scf.yield %[[NULL]], %[[NULL]], %{{.*}}
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[MADE:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK-NEXT: %[[SHADOW:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[VIEW:.*]] = memref.cast %[[MADE]]
// CHECK-NEXT: %[[SHADOW_VIEW:.*]] = memref.cast %[[SHADOW]]
// CHECK-NEXT: scf.yield %[[VIEW]], %[[SHADOW_VIEW]], %[[SHADOW]]
// CHECK: ct.store_address %[[BOTH]]#0, %[[HOLDER:.*]][%{{.*}}]
// CHECK-NEXT: ct.store_address %[[BOTH]]#1, %[[SHADOW_HOLDER:.*]][%{{.*}}]
// The shadow made in the branch is freed where the reverse sweep ends.
// CHECK: scf.if %[[NONE]] {
// CHECK-NEXT: } else {
// CHECK-NEXT: memref.dealloc %[[BOTH]]#2
// CHECK: return

func.func @main(%x: f64, %n: index) -> (f64, f64, f64) {
  %v:2 = ct.gradient @kept(%x, %n) activity [active, const] : (f64, index) -> (f64, f64)
  %t:2 = ct.jvp @kept(%x, %n) tangents(%x) activity [active, const] : (f64, index, f64) -> (f64, f64)
  return %v#0, %v#1, %t#1 : f64, f64, f64
}

// Memory made and kept by a branch nested in the branch that passes it on
// (a first derivative's shadow buffer, made where its vector grows inside
// the user's branch, read by its reverse sweep): both branches yield its
// shadow.
func.func @keptNested(%x: f64, %c: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %holder = memref.alloca() : memref<1xf64>
  %m = scf.if %c -> memref<?xf64> {
    %positive = arith.cmpf ogt, %x, %zero : f64
    %inner = scf.if %positive -> memref<?xf64> {
      %a = memref.alloc(%c1) : memref<?xf64>
      %s = math.sin %x : f64
      memref.store %s, %a[%c0] : memref<?xf64>
      %cast = memref.cast %a : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
      ct.store_address %cast, %holder[%c0] : memref<?xf64, strided<[1], offset: ?>>, memref<1xf64>
      scf.yield %a : memref<?xf64>
    } else {
      %p = ub.poison : memref<?xf64>
      scf.yield %p : memref<?xf64>
    }
    scf.yield %inner : memref<?xf64>
  } else {
    %p = ub.poison : memref<?xf64>
    scf.yield %p : memref<?xf64>
  }
  %positive = arith.cmpf ogt, %x, %zero : f64
  %both = arith.andi %c, %positive : i1
  %r = scf.if %both -> f64 {
    %e = memref.load %m[%c0] : memref<?xf64>
    %sq = arith.mulf %e, %e : f64
    memref.dealloc %m : memref<?xf64>
    scf.yield %sq : f64
  } else {
    scf.yield %x : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func private @keptNested.pullback.ac
// CHECK: %[[OUTER:.*]]:{{[23]}} = scf.if %{{.*}} -> (memref<?xf64>, memref<?xf64>{{.*}}) {
// CHECK: %[[INNER:.*]]:{{[23]}} = scf.if %{{.*}} -> (memref<?xf64>, memref<?xf64>{{.*}}) {
// CHECK: memref.alloc
// CHECK: memref.alloc
// CHECK: scf.yield
// CHECK: scf.yield %[[INNER]]#0, %[[INNER]]#1
// The reverse sweep accumulates into it and frees it.
// CHECK: memref.store %{{.*}}, %[[OUTER]]#1
// CHECK: memref.dealloc %[[OUTER]]#{{[12]}}
// CHECK: return

func.func @mainNested(%x: f64, %c: i1) -> (f64, f64) {
  %v, %dx = ct.gradient @keptNested(%x, %c) activity [active, const] : (f64, i1) -> (f64, f64)
  return %v, %dx : f64, f64
}
