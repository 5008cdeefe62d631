// A library object kept as compiled (std::string, std::map) as a field of
// the program's struct lies in the struct's slots as C++ lays it out: it
// is a view of its bytes there (ct.retype_view to i8), which the library's
// constructors, destructor and functions are given. The numbers beside it
// stay ordinary slots. A std::vector of such structs moves its elements
// (growth, insert, erase) by their move constructors and destructors, not
// as their bytes: a short string points into its own object.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <map>
#include <string>
#include <vector>

struct Param {
  std::string name;
  double w;
};

// CHECK-LABEL: func.func @_Z5locald(
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[Q:.*]] = memref.alloca() : memref<5xf64>
// CHECK: %[[P:.*]] = memref.alloca() : memref<5xf64>
// CHECK: %[[NAME:.*]] = ct.retype_view %[[P]][%[[C0]]] : memref<5xf64> -> memref<?xi8
// CHECK: call @{{.*}}basic_string{{.*}}C2{{.*}}(%[[NAME]],
// CHECK: memref.store %arg0, %[[P]][%[[C4]]] : memref<5xf64>
// The copy is Param's own copy constructor (the string's, then the number).
// CHECK: call @_ZN5ParamC2ERKS_(
// CHECK: %[[QNAME:.*]] = ct.retype_view %[[Q]][%[[C0]]]
// CHECK: call @{{.*}}basic_string{{.*}}D2Ev(%[[QNAME]])
// CHECK: call @{{.*}}basic_string{{.*}}D2Ev(%[[NAME]])
[[ct::differentiable]] double local(double x) {
  Param p{"alpha", x};
  Param q = p;
  return q.w * p.w;
}

// Growth: each element moved into the new memory by the string's move
// constructor and its number, then the old one destroyed, then the old
// memory freed.
// CHECK-LABEL: func.func @_Z5growndi(
// CHECK: scf.if
// CHECK: %[[NEW:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.for
// CHECK: %[[TO:.*]] = ct.retype_view %{{.*}} -> memref<?xi8
// CHECK: %[[FROM:.*]] = ct.retype_view %{{.*}} -> memref<?xi8
// CHECK: func.call @{{.*}}basic_string{{.*}}C2EO{{.*}}(%[[TO]], %[[FROM]])
// CHECK: memref.store %{{.*}}, %[[NEW]][%{{.*}}] : memref<?xf64>
// CHECK: func.call @{{.*}}basic_string{{.*}}D2Ev(
// CHECK: }
// CHECK: memref.dealloc
[[ct::differentiable]] double grown(double x, int n) {
  std::vector<Param> ps;
  for (int i = 0; i < n; ++i)
    ps.push_back(Param{"p", x});
  return ps[0].w;
}

struct Table {
  double bias;
  std::map<int, double> scale;
};

// The map is the bytes after the number.
// CHECK-LABEL: func.func @_Z5tabled(
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[T:.*]] = memref.alloca() : memref<7xf64>
// CHECK: call @_ZN5TableC2Ev(
// CHECK: memref.store %arg0, %[[T]][%{{.*}}] : memref<7xf64>
// CHECK: %[[MAP:.*]] = ct.retype_view %[[T]][%[[C1]]] : memref<7xf64> -> memref<?xi8
// CHECK: call @{{.*}}mapIidSt4less{{.*}}ixEOi(%[[MAP]],
// CHECK: call @{{.*}}mapIidSt4less{{.*}}2atERS3_(%[[MAP]],
// CHECK: call @{{.*}}mapIidSt4less{{.*}}D2Ev(%[[MAP]])
[[ct::differentiable]] double table(double x) {
  Table t;
  t.bias = x;
  t.scale[1] = 2.0;
  return t.scale.at(1) * t.bias;
}

double use(double x, int n) {
  return ct::gradient<local>(x, &x) + ct::gradient<grown>(x, n, &x) +
         ct::gradient<table>(x, &x);
}
