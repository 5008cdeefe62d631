// A std::shared_ptr is two addresses kept in its object (docs/Memory.md,
// item 24): the object's and its control block's. std::make_shared makes
// the object and a block of three `long`s (0 where a library's block keeps
// its virtual table's address, the use count, 1, and the count of
// std::weak_ptrs, 0); a copy loads both addresses and, when the block is
// one the function made, counts one owner more; destruction counts one
// fewer, and the last owner frees the object, observing the block
// meanwhile (one std::weak_ptr more), then frees the block when nothing
// else observes it.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <memory>

struct Pair {
  double u, v;
};

// CHECK-LABEL: func.func @_Z6copiedPKd(
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[MINUS_ONE:.*]] = arith.constant -1 : i64
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[Q:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[P:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[OBJECT:.*]] = memref.alloc() : memref<2xf64>
// CHECK: %[[BLOCK:.*]] = memref.alloc() : memref<3xi64>
// CHECK: memref.store %[[ZERO]], %[[BLOCK]][%[[C0]]]
// CHECK: memref.store %[[ONE]], %[[BLOCK]][%[[C1]]]
// CHECK: memref.store %[[ZERO]], %[[BLOCK]][%[[C2]]]
// CHECK: ct.store_address %{{.*}}, %[[P]][%[[C0]]]
// CHECK: ct.store_address %{{.*}}, %[[P]][%[[C1]]]
// The copy: one owner more where the block is the function's.
// CHECK: %[[FROM:.*]] = ct.load_address %[[P]][%[[C0]]] : memref<2xf64> -> memref<?xf64
// CHECK: %[[COUNT:.*]] = ct.load_address %[[P]][%[[C1]]] : memref<2xf64> -> memref<?xi64
// CHECK: scf.if
// CHECK: %[[TABLE:.*]] = memref.load %[[COUNT]][%[[C0]]]
// CHECK: %[[OWN:.*]] = arith.cmpi eq, %[[TABLE]], %[[ZERO]]
// CHECK: scf.if %[[OWN]] {
// CHECK: %[[USE:.*]] = memref.load %[[COUNT]][%[[C1]]]
// CHECK: %[[MORE:.*]] = arith.addi %[[USE]], %[[ONE]]
// CHECK: memref.store %[[MORE]], %[[COUNT]][%[[C1]]]
// CHECK: ct.store_address %[[FROM]], %[[Q]][%[[C0]]]
// CHECK: ct.store_address %[[COUNT]], %[[Q]][%[[C1]]]
// Each owner let go where its scope ends; the last frees both.
// CHECK: %[[GONE:.*]] = ct.load_address %[[Q]][%[[C0]]]
// CHECK: %[[QCOUNT:.*]] = ct.load_address %[[Q]][%[[C1]]]
// CHECK: %[[LEFT:.*]] = arith.addi %{{.*}}, %[[MINUS_ONE]]
// CHECK: memref.store %[[LEFT]], %[[QCOUNT]][%[[C1]]]
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[LEFT]], %[[ZERO]]
// CHECK: scf.if %[[LAST]] {
// CHECK: %[[OBSERVERS:.*]] = memref.load %[[QCOUNT]][%[[C2]]]
// CHECK: %[[OBSERVING:.*]] = arith.addi %[[OBSERVERS]], %[[ONE]]
// CHECK: memref.store %[[OBSERVING]], %[[QCOUNT]][%[[C2]]]
// CHECK: memref.dealloc %[[GONE]]
// CHECK: %[[STILL:.*]] = memref.load %[[QCOUNT]][%[[C2]]]
// CHECK: %[[LEFT_OBSERVING:.*]] = arith.addi %[[STILL]], %[[MINUS_ONE]]
// CHECK: memref.store %[[LEFT_OBSERVING]], %[[QCOUNT]][%[[C2]]]
// CHECK: %[[UNOBSERVED:.*]] = arith.cmpi eq, %[[LEFT_OBSERVING]], %[[ZERO]]
// CHECK: scf.if %[[UNOBSERVED]] {
// CHECK: memref.dealloc %[[QCOUNT]]
// CHECK: arith.addi %{{.*}}, %[[MINUS_ONE]]
// CHECK: memref.dealloc
// CHECK: memref.dealloc
// CHECK: return
[[ct::differentiable]] double copied(const double *x) {
  auto p = std::make_shared<Pair>(Pair{x[0], x[1]});
  std::shared_ptr<Pair> q = p;
  return q->u * p->v;
}

// A copy of a std::shared_ptr the caller made is not counted (its block is
// the library's: the caller's owners keep the object alive), and never
// freed: the same code, whose test of the block's first word fails there.
// CHECK-LABEL: func.func @_Z8borrowedRKSt10shared_ptrI4PairE(
// CHECK: ct.load_address
// CHECK: arith.cmpi eq
// CHECK: arith.addi
// CHECK: return
[[ct::differentiable]] double borrowed(const std::shared_ptr<Pair> &given) {
  std::shared_ptr<Pair> mine = given;
  return mine->u * given->v;
}
