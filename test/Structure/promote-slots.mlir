// Stack slots read and written only by loads and stores at constant indices
// become SSA values, all in one walk; merges get block arguments only where
// the value is read afterwards.
// RUN: %cotangent-opt %s --pass-pipeline='builtin.module(func.func(ct-promote-slots))' | FileCheck %s

// CHECK-LABEL: func.func @straight
// CHECK-NOT: memref
// CHECK: %[[S:.*]] = arith.mulf %arg0, %arg0
// CHECK: return %[[S]]
func.func @straight(%x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %slot = memref.alloca() : memref<1xf64>
  memref.store %x, %slot[%c0] : memref<1xf64>
  %v = memref.load %slot[%c0] : memref<1xf64>
  %s = arith.mulf %v, %x : f64
  memref.store %s, %slot[%c0] : memref<1xf64>
  %r = memref.load %slot[%c0] : memref<1xf64>
  return %r : f64
}

// Two stores merge: one block argument. The slot `t` is dead after the
// merge, so it gets none.
// CHECK-LABEL: func.func @branches
// CHECK-NOT: memref
// CHECK: cf.cond_br %arg0, ^[[THEN:.*]], ^[[ELSE:.*]]
// CHECK: ^[[THEN]]:
// CHECK: %[[T:.*]] = math.sin %arg1
// CHECK: cf.br ^[[JOIN:.*]](%[[T]] : f64)
// CHECK: ^[[ELSE]]:
// CHECK: cf.br ^[[JOIN]](%arg1 : f64)
// CHECK: ^[[JOIN]](%[[V:.*]]: f64):
// CHECK: return %[[V]]
func.func @branches(%p: i1, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %slot = memref.alloca() : memref<1xf64>
  %t = memref.alloca() : memref<1xf64>
  cf.cond_br %p, ^then, ^else
^then:
  %s = math.sin %x : f64
  memref.store %s, %t[%c0] : memref<1xf64>
  %u = memref.load %t[%c0] : memref<1xf64>
  memref.store %u, %slot[%c0] : memref<1xf64>
  cf.br ^join
^else:
  memref.store %x, %slot[%c0] : memref<1xf64>
  memref.store %x, %t[%c0] : memref<1xf64>
  cf.br ^join
^join:
  %r = memref.load %slot[%c0] : memref<1xf64>
  return %r : f64
}

// A loop: the running sum and the counter become header arguments; the
// elements of a struct-like slot are promoted separately; a read before
// any store reads zero.
// CHECK-LABEL: func.func @loop
// CHECK-NOT: memref
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[I0:.*]] = arith.constant 0 : index
// CHECK: cf.br ^[[HEAD:.*]](%[[ZERO]], %[[I0]] : f64, index)
// CHECK: ^[[HEAD]](%[[SUM:.*]]: f64, %[[I:.*]]: index):
// CHECK: cf.cond_br %{{.*}}, ^[[BODY:.*]], ^[[EXIT:.*]]
// CHECK: ^[[BODY]]:
// CHECK: %[[NEXT:.*]] = arith.addf %[[SUM]], %arg0
// CHECK: %[[INEXT:.*]] = arith.addi %[[I]]
// CHECK: cf.br ^[[HEAD]](%[[NEXT]], %[[INEXT]] : f64, index)
// CHECK: ^[[EXIT]]:
// CHECK: %[[R:.*]] = arith.mulf %[[SUM]], %arg0
// CHECK: return %[[R]]
func.func @loop(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pair = memref.alloca() : memref<2xf64>
  %i = memref.alloca() : memref<1xindex>
  memref.store %x, %pair[%c1] : memref<2xf64>
  memref.store %c0, %i[%c0] : memref<1xindex>
  cf.br ^head
^head:
  %iv = memref.load %i[%c0] : memref<1xindex>
  %more = arith.cmpi slt, %iv, %n : index
  cf.cond_br %more, ^body, ^exit
^body:
  %sum = memref.load %pair[%c0] : memref<2xf64>
  %xv = memref.load %pair[%c1] : memref<2xf64>
  %next = arith.addf %sum, %xv : f64
  memref.store %next, %pair[%c0] : memref<2xf64>
  %inext = arith.addi %iv, %c1 : index
  memref.store %inext, %i[%c0] : memref<1xindex>
  cf.br ^head
^exit:
  %final = memref.load %pair[%c0] : memref<2xf64>
  %r = arith.mulf %final, %x : f64
  return %r : f64
}

// Slots whose address escapes, that are indexed at run time, or used in a
// nested region stay in memory (the last for upstream mem2reg).
// CHECK-LABEL: func.func @kept
// CHECK: %[[A:.*]] = memref.alloca() : memref<4xf64>
// CHECK: %[[B:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[C:.*]] = memref.alloca() : memref<1xf64>
// CHECK: memref.load %[[A]][%arg1]
// CHECK: call @use(%[[B]])
// CHECK: scf.if
// CHECK: memref.store %arg0, %[[C]]
func.func private @use(memref<1xf64>)
func.func @kept(%x: f64, %k: index, %p: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %a = memref.alloca() : memref<4xf64>
  %b = memref.alloca() : memref<1xf64>
  %c = memref.alloca() : memref<1xf64>
  memref.store %x, %a[%c0] : memref<4xf64>
  %v = memref.load %a[%k] : memref<4xf64>
  call @use(%b) : (memref<1xf64>) -> ()
  memref.store %v, %c[%c0] : memref<1xf64>
  scf.if %p {
    memref.store %x, %c[%c0] : memref<1xf64>
  }
  %r = memref.load %c[%c0] : memref<1xf64>
  return %r : f64
}

// Two edges from one block into the same block (one value: no argument),
// and a switch whose default edge and case block both reach the merge: each
// edge passes the value current at its source.
// CHECK-LABEL: func.func @edges
// CHECK-NOT: memref
// CHECK: cf.cond_br %arg0, ^[[J:bb[0-9]+]], ^[[J]]{{$}}
// CHECK: ^[[J]]:
// CHECK: %[[S:.*]] = math.sin %arg1
// CHECK: cf.switch %arg2 : i32, [
// CHECK-NEXT: default: ^[[K:bb[0-9]+]](%arg1 : f64),
// CHECK-NEXT: 0: ^[[C:bb[0-9]+]]{{$}}
// CHECK: ^[[C]]:
// CHECK-NEXT: cf.br ^[[K]](%[[S]] : f64)
// CHECK: ^[[K]](%[[V:.*]]: f64):
// CHECK: return %[[V]]
func.func @edges(%p: i1, %x: f64, %k: i32) -> f64 {
  %c0 = arith.constant 0 : index
  %slot = memref.alloca() : memref<1xf64>
  memref.store %x, %slot[%c0] : memref<1xf64>
  cf.cond_br %p, ^join, ^join
^join:
  %v = memref.load %slot[%c0] : memref<1xf64>
  %s = math.sin %v : f64
  cf.switch %k : i32, [
    default: ^last,
    0: ^store
  ]
^store:
  memref.store %s, %slot[%c0] : memref<1xf64>
  cf.br ^last
^last:
  %r = memref.load %slot[%c0] : memref<1xf64>
  return %r : f64
}
