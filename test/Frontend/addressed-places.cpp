// Places whose address is taken. A pointer variable given to a reference
// parameter keeps its address in a slot of its own (a memref<1xf64>
// holding an address); the callee's `double *&` parameter is that slot, so
// reading it is a ct.load_address and assigning it a ct.store_address. An
// integer field packed among doubles, addressed (`&s.count`), is an element
// of a view of its own type over its slot (ct.retype_view), the int at byte
// 4 of slot 1 being element 1 of it.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | %cotangent-opt > /dev/null

#include <utility>

struct Sample {
  double w;
  int index;
  int count;
};

static void setTo(int *n, int v) { *n = v; }

static void swapReferences(double *&a, double *&b) {
  double *t = a;
  a = b;
  b = t;
}

[[ct::differentiable]] double addressed(double *x, double *y, double w) {
  double *a = x;
  double *b = y;
  swapReferences(a, b);
  Sample s{w, 0, 1};
  setTo(&s.count, 2);
  return a[0] * b[0] * s.w * s.count;
}

// CHECK-LABEL: func.func @_Z9addressedPdS_d(
// CHECK-SAME: %[[X:[^:]*]]: memref<?xf64, strided<[1], offset: ?>>, %[[Y:[^:]*]]: memref<?xf64, strided<[1], offset: ?>>, %[[W:[^:]*]]: f64)
// CHECK-DAG: %[[S:.*]] = memref.alloca() : memref<2xf64>
// CHECK-DAG: %[[B:.*]] = memref.alloca() : memref<1xf64>
// CHECK-DAG: %[[A:.*]] = memref.alloca() : memref<1xf64>
// CHECK: ct.store_address %{{.*}}, %[[A]][%c0]
// CHECK: ct.store_address %{{.*}}, %[[B]][%c0]
// CHECK: %[[AREF:.*]] = memref.cast %[[A]]
// CHECK: %[[BREF:.*]] = memref.cast %[[B]]
// CHECK: call @_ZL14swapReferencesRPdS0_(%[[AREF]], %[[BREF]])
// CHECK: %[[INTS:.*]] = ct.retype_view %[[S]][%c1] : memref<2xf64> -> memref<?xi32, strided<[1], offset: ?>>
// CHECK: %[[COUNT:.*]] = memref.subview %[[INTS]][1]
// CHECK: call @_ZL5setToPii(%[[COUNT]], %c2_i32)
// CHECK: %[[AP:.*]] = ct.load_address %[[A]][%c0]
// CHECK: memref.load %[[AP]][%c0]
// CHECK: %[[BP:.*]] = ct.load_address %[[B]][%c0]
// CHECK: memref.load %[[BP]][%c0]

// CHECK-LABEL: func.func @_ZL14swapReferencesRPdS0_(
// CHECK-SAME: %[[RA:[^:]*]]: memref<?xf64, strided<[1], offset: ?>>, %[[RB:[^:]*]]: memref<?xf64, strided<[1], offset: ?>>)
// CHECK: %[[T:.*]] = ct.load_address %[[RA]][%c0]
// CHECK: %[[NEW:.*]] = ct.load_address %[[RB]][%c0]
// CHECK: ct.store_address %[[NEW]], %[[RA]][%c0]
// CHECK: %[[TV:.*]] = memref.subview %[[T]]
// CHECK: ct.store_address %[[TV]], %[[RB]][%c0]
