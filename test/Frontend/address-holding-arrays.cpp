// A local array or vector of pointers given pointers into two or more
// memories, and indexed at run time, keeps the addresses it is given
// (ct.store_address) and reads them back (ct.load_address); so does one
// pointer field of an array of structs. An array given pointers into one
// memory keeps the memref model (offsets into that memory). A vector of
// pointers that grows by push_back keeps addresses, and its growth copies
// them as addresses. A pointer variable moved to one of several arrays a
// conditional chooses keeps the choice of their indices. An array given a
// conditional between memories keeps addresses whatever its indices, and so
// does an array of variable length of pointers.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | %cotangent-opt > /dev/null

#include <vector>

// CHECK-LABEL: func.func @_Z8rowTablePKdS0_ii(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<?xf64{{.*}}>, %[[B:[a-z0-9_]+]]: memref<?xf64{{.*}}>, %[[K:[a-z0-9_]+]]: i32
// CHECK: %[[ROWS:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[VA:.*]] = memref.subview %[[A]]
// CHECK: ct.store_address %[[VA]], %[[ROWS]][%{{.*}}]
// CHECK: %[[VB:.*]] = memref.subview %[[B]]
// CHECK: ct.store_address %[[VB]], %[[ROWS]][%{{.*}}]
// CHECK: %[[I:.*]] = arith.index_cast %[[K]]
// CHECK: %[[ROW:.*]] = ct.load_address %[[ROWS]][%[[I]]]
// CHECK: memref.load %[[ROW]][
[[ct::differentiable]] double rowTable(const double *a, const double *b, int k,
                                       int i) {
  const double *rows[2] = {a, b};
  return rows[k][i];
}

// CHECK-LABEL: func.func @_Z8oneArrayPKdi(
// CHECK-NOT: ct.store_address
// CHECK-NOT: ct.load_address
// CHECK: return
[[ct::differentiable]] double oneArray(const double *a, int k) {
  const double *rows[2] = {a, a + 2};
  return rows[k][0];
}

struct Edge {
  const double *from;
  double w;
};

// The field `from` keeps addresses; `w` stays a number in its slot.
// CHECK-LABEL: func.func @_Z5edgesPKdS0_i(
// CHECK: %[[E:.*]] = memref.alloca() : memref<4xf64>
// CHECK: ct.store_address %{{.*}}, %[[E]][%[[C0:[a-z0-9_]+]]]
// CHECK: memref.store %{{.*}}, %[[E]][%[[C1:[a-z0-9_]+]]]
// CHECK: ct.store_address %{{.*}}, %[[E]][%[[C2:[a-z0-9_]+]]]
// CHECK: %[[W:.*]] = memref.load %[[E]][%{{.*}}] : memref<4xf64>
// CHECK: %[[FROM:.*]] = ct.load_address %[[E]][%{{.*}}]
// CHECK: %[[V:.*]] = memref.load %[[FROM]][%{{.*}}]
// CHECK: arith.mulf %[[W]], %[[V]]
[[ct::differentiable]] double edges(const double *p, const double *q, int k) {
  Edge e[2] = {{p, 1.0}, {q, 2.0}};
  return e[k].w * *e[k].from;
}

// CHECK-LABEL: func.func @_Z5grownPKdS0_i(
// CHECK: scf.for
// CHECK: scf.if
// CHECK: %[[FRESH:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[NEW:.*]] = memref.cast %[[FRESH]]
// CHECK: scf.for %[[J:.*]] = %{{.*}} to
// CHECK-NEXT: %[[OLD:.*]] = ct.load_address %{{.*}}[%[[J]]]
// CHECK-NEXT: ct.store_address %[[OLD]], %[[NEW]][%[[J]]]
// CHECK: }
// CHECK: ct.store_address %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>
// CHECK: scf.for
// CHECK: %[[P:.*]] = ct.load_address %{{.*}}[%{{.*}}]
// CHECK-NEXT: memref.load %[[P]][
[[ct::differentiable]] double grown(const double *p, const double *q, int n) {
  std::vector<const double *> picks;
  for (int i = 0; i < n; ++i)
    picks.push_back(i % 2 ? p : q);
  double s = 0;
  for (const double *v : picks)
    s += *v;
  return s;
}

// A pointer variable moved to an array a conditional chooses: the choice of
// the arrays' indices (a: 0, b: 1), which every read selects by.
// CHECK-LABEL: func.func @_Z12chosenBufferPKdS0_i(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<?xf64{{.*}}>, %[[B:[a-z0-9_]+]]: memref<?xf64
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[WHICH:.*]] = %[[C0:[a-z0-9_]+]]) -> (f64, index)
// CHECK: %[[IS_B:.*]] = arith.cmpi eq, %[[WHICH]], %[[C1:[a-z0-9_]+]] : index
// CHECK: %[[FROM_B:.*]] = memref.load %[[B]]
// CHECK: %[[FROM_A:.*]] = memref.load %[[A]]
// CHECK: arith.select %[[IS_B]], %[[FROM_B]], %[[FROM_A]] : f64
// CHECK: %[[ODD:.*]] = arith.cmpi ne
// CHECK: %[[NEXT:.*]] = arith.select %[[ODD]], %[[C0]], %[[C1]] : index
// CHECK: scf.yield %{{.*}}, %[[NEXT]] : f64, index
[[ct::differentiable]] double chosenBuffer(const double *a, const double *b,
                                           int n) {
  const double *cur = a;
  double r = 0;
  for (int step = 0; step < n; ++step) {
    r += cur[0];
    cur = step % 2 ? a : b;
  }
  return r;
}

// A conditional between two memories stored into an element indexed only
// by constants: the choice is made at run time, so the array keeps
// addresses, and the stored address is the choice of the two views.
// CHECK-LABEL: func.func @_Z13chosenAtFirstPKdS0_b(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<?xf64{{.*}}>, %[[B:[a-z0-9_]+]]: memref<?xf64{{.*}}>, %[[C:[a-z0-9_]+]]: i1
// CHECK: %[[PAIR:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[PICK:.*]] = arith.select %[[C]], %[[A]], %[[B]]
// CHECK: ct.store_address %{{.*}}, %[[PAIR]][%{{.*}}]
// CHECK: ct.load_address %[[PAIR]][%{{.*}}]
[[ct::differentiable]] double chosenAtFirst(const double *a, const double *b,
                                            bool c) {
  const double *pair[2];
  pair[0] = c ? a + 1 : b;
  pair[1] = a;
  return pair[0][0] * pair[1][0];
}

// Arrays of variable length of pointers keep the addresses they are given.
// CHECK-LABEL: func.func @_Z10rowsOfGridPKdi(
// CHECK: %[[ROWS:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: ct.store_address %{{.*}}, %[[ROWS]][%{{.*}}]
// CHECK: ct.load_address %[[ROWS]][%{{.*}}]
// CHECK: memref.dealloc %[[ROWS]]
[[ct::differentiable]] double rowsOfGrid(const double *x, int n) {
  const double *rows[n];
  for (int i = 0; i < n; ++i)
    rows[i] = x + 2 * i;
  return rows[n - 1][1];
}
