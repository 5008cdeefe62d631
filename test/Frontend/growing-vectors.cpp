// A local vector that grows by push_back without a reserve is lowered on
// the general memory model (docs/Memory.md): the address of its memory in
// a slot of its own, its size and capacity in two index slots. push_back
// grows it when full: new memory of twice the capacity (at least the size
// asked for), the elements copied there, the old memory freed through the
// address loaded from the slot, the new address stored. Every use loads
// the address and views the first `size` elements; the memory the slot
// holds last is freed where the vector's scope ends. A vector reserved
// before it is pushed to is the same (C++ grows it past the capacity it
// reserved): the reserve makes its memory at once, if it asks for more
// than the vector has.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <vector>

// CHECK-LABEL: func.func @_Z6pushedPKdi(
// CHECK-DAG: %[[SLOT:.*]] = memref.alloca() : memref<1xf64>
// CHECK-DAG: %[[SIZE:.*]] = memref.alloca() : memref<1xindex>
// CHECK-DAG: %[[CAPACITY:.*]] = memref.alloca() : memref<1xindex>
// CHECK: %[[EMPTY:.*]] = memref.alloc() : memref<0xf64>
// CHECK: %[[EMPTYVIEW:.*]] = memref.cast %[[EMPTY]]
// CHECK: ct.store_address %[[EMPTYVIEW]], %[[SLOT]][%[[C0:[a-z0-9_]+]]]
// CHECK: scf.for
// CHECK: %[[OLDSIZE:.*]] = memref.load %[[SIZE]][%[[C0]]]
// CHECK: %[[NEEDED:.*]] = arith.addi %[[OLDSIZE]], %[[C1:[a-z0-9_]+]]
// CHECK: %[[HAVE:.*]] = memref.load %[[CAPACITY]][%[[C0]]]
// CHECK: %[[FULL:.*]] = arith.cmpi ugt, %[[NEEDED]], %[[HAVE]]
// CHECK: scf.if %[[FULL]] {
// CHECK: %[[DOUBLED:.*]] = arith.muli %[[HAVE]], %[[C2:[a-z0-9_]+]]
// CHECK: %[[NEW:.*]] = arith.maxui %[[DOUBLED]], %[[NEEDED]]
// CHECK: %[[FRESH:.*]] = memref.alloc(%[[NEW]]) : memref<?xf64>
// CHECK: %[[FRESHVIEW:.*]] = memref.cast %[[FRESH]]
// CHECK: %[[OLD:.*]] = ct.load_address %[[SLOT]][%[[C0]]]
// CHECK: %[[OLDELEMENTS:.*]] = memref.subview %[[OLD]][0]
// CHECK: scf.for
// CHECK: memref.load %[[OLDELEMENTS]]
// CHECK: memref.store %{{.*}}, %[[FRESH]]
// CHECK: %[[FREED:.*]] = ct.load_address %[[SLOT]][%[[C0]]]
// CHECK: memref.dealloc %[[FREED]]
// CHECK: ct.store_address %[[FRESHVIEW]], %[[SLOT]][%[[C0]]]
// CHECK: memref.store %[[NEW]], %[[CAPACITY]][%[[C0]]]
// CHECK: }
// CHECK: memref.store %[[NEEDED]], %[[SIZE]][%[[C0]]]
// CHECK: %[[NOW:.*]] = ct.load_address %[[SLOT]][%[[C0]]]
// CHECK: %[[ELEMENTS:.*]] = memref.subview %[[NOW]][0]
// CHECK: memref.store %{{.*}}, %[[ELEMENTS]][%[[OLDSIZE]]]
// CHECK: }
// CHECK: %[[LAST:.*]] = ct.load_address %[[SLOT]][%[[C0]]]
// CHECK: memref.load
// CHECK: memref.dealloc %[[LAST]]
// CHECK: return
[[ct::differentiable]] double pushed(const double *x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i)
    v.push_back(x[i]);
  return v[n - 1];
}

// CHECK-LABEL: func.func @_Z8reservedPKdi(
// CHECK: %[[ASKED:.*]] = arith.index_castui
// CHECK: %[[HAS:.*]] = memref.load %[[CAPACITY:.*]][%{{.*}}] : memref<1xindex>
// CHECK: %[[MORE:.*]] = arith.cmpi ugt, %[[ASKED]], %[[HAS]]
// CHECK: scf.if %[[MORE]] {
// CHECK: memref.alloc(
// CHECK: ct.store_address
// CHECK: memref.store %{{.*}}, %[[CAPACITY]]
// CHECK: }
// CHECK: scf.for
// CHECK: ct.load_address
// CHECK: return
[[ct::differentiable]] double reserved(const double *x, int n) {
  std::vector<double> v;
  v.reserve(n);
  for (int i = 0; i < n; ++i)
    v.push_back(x[i]);
  return v[n - 1];
}

// Erasing the first element moves element j + 1 to j, first first.
// CHECK-LABEL: func.func @_Z6erasedPKdi(
// CHECK: ct.load_address
// CHECK: %[[ELEMENTS:.*]] = memref.subview
// CHECK: scf.for %[[J:.*]] = %{{.*}} to
// CHECK: %[[FROM:.*]] = arith.addi %[[J]], %c1
// CHECK: %[[MOVED:.*]] = memref.load %[[ELEMENTS]][%[[FROM]]]
// CHECK: memref.store %[[MOVED]], %[[ELEMENTS]][%[[J]]]
// CHECK: return
[[ct::differentiable]] double erased(const double *x, int n) {
  std::vector<double> v(x, x + n);
  v.erase(v.begin());
  return v[0];
}

// A loop that reads a growing vector but cannot change it views it once,
// before the loop; one that changes it (here through a lambda it calls)
// loads the address at every use.
// CHECK-LABEL: func.func @_Z6pinnedPKdi(
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[VIEW:.*]] = ct.load_address %[[SLOT]]
// CHECK: %[[ELEMENTS:.*]] = memref.subview %[[VIEW]][0]
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: ct.load_address
// CHECK: memref.load %[[ELEMENTS]]
// CHECK: scf.yield
// CHECK: scf.for
// CHECK: ct.load_address %[[SLOT]]
// CHECK: return
[[ct::differentiable]] double pinned(const double *x, int n) {
  std::vector<double> v(x, x + n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i] * v[i];
  v.insert(v.begin(), s);
  auto grow = [&](double value) { v.push_back(value); };
  for (int i = 0; i < n; ++i)
    grow(v[i] * s);
  return s + v.back();
}

// A helper that grows a vector it takes by non-const reference is lowered
// in place: no call, the push_back growing the caller's slots.
// CHECK-LABEL: func.func @_Z8appendedd(
// CHECK-SAME: %[[X:.*]]: f64
// CHECK-NOT: call
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[SIZE:.*]] = memref.alloca() : memref<1xindex>
// CHECK: scf.if
// CHECK:   %[[FRESH:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:   ct.store_address %{{.*}}, %[[SLOT]][%c0]
// CHECK: memref.store %{{.*}}, %[[SIZE]][%c0]
// CHECK: %[[ELEMENTS:.*]] = ct.load_address %[[SLOT]][%c0]
// CHECK: memref.store %[[X]]
// CHECK-NOT: call
// CHECK: return
static void append(std::vector<double> &v, double value) { v.push_back(value); }

[[ct::differentiable]] double appended(double x) {
  std::vector<double> v;
  append(v, x);
  return v[0];
}

// A vector field the program resizes keeps its three addresses in its
// struct's slots (first, end, end of capacity; null when empty), as a
// vector held by a vector does: push_back grows it through them, and the
// memory the first slot holds last is freed where the struct's scope ends.
struct Trace {
  std::vector<double> xs;
  double scale;
};

// CHECK-LABEL: func.func @_Z6tracedd(
// CHECK-SAME: %[[X:.*]]: f64
// CHECK: %[[TRACE:.*]] = memref.alloca() : memref<4xf64>
// CHECK: ct.store_address %[[NULL:.*]], %[[TRACE]][%c0]
// CHECK: ct.store_address %[[NULL]], %[[TRACE]][%c1]
// CHECK: ct.store_address %[[NULL]], %[[TRACE]][%c2]
// CHECK: memref.store %[[X]], %[[TRACE]][%c3]
// CHECK: scf.if
// CHECK:   %[[FRESH:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:   ct.store_address %{{.*}}, %[[TRACE]][%c0]
// CHECK: %[[ELEMENTS:.*]] = ct.load_address %[[TRACE]][%c0]
// CHECK: memref.store %[[X]], %[[ELEMENTS]]
// CHECK: %[[LAST:.*]] = ct.load_address %[[TRACE]][%c0]
// CHECK: memref.dealloc %[[LAST]]
// CHECK: return
[[ct::differentiable]] double traced(double x) {
  Trace t{{}, x};
  t.xs.push_back(x);
  return t.xs[0] * t.scale;
}

// A vector made from two iterators into such a field: each views the
// field's elements afresh, so the count is the distance between where
// they point, from address 0 (one array, as C++ requires).
// CHECK-LABEL: func.func @_Z6rangedRK5Trace(
// CHECK-SAME: %[[T:.*]]: memref<?xf64, strided<[1], offset: ?>>)
// CHECK: %[[ELEMENTS:.*]] = ct.load_address %[[T]][%c0]
// CHECK: memref.extract_aligned_pointer_as_index %[[ELEMENTS]]
// CHECK: memref.extract_strided_metadata %[[ELEMENTS]]
// CHECK: %[[COUNT:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[COPY:.*]] = memref.alloc(%[[COUNT]]) : memref<?xf64>
// CHECK: scf.for
// CHECK:   memref.load %[[ELEMENTS]][
// CHECK:   memref.store %{{.*}}, %[[COPY]][
[[ct::differentiable]] double ranged(const Trace &t) {
  std::vector<double> middle(t.xs.begin() + 1, t.xs.end());
  return middle[0];
}

// A struct whose field only a helper given the field by reference grows:
// the field is kept in the struct too (its first address stored, null),
// and the helper is lowered in place on it.
struct Gathered {
  std::vector<double> values;
};
static void gather(std::vector<double> &out, double v) { out.push_back(v); }

// CHECK-LABEL: func.func @_Z8gatheredd(
// CHECK: %[[GATHERED:.*]] = memref.alloca() : memref<3xf64>
// CHECK: ct.store_address %{{.*}}, %[[GATHERED]][%c0]
// CHECK-NOT: call
// CHECK: %[[FRESH:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: return
[[ct::differentiable]] double gathered(double x) {
  Gathered g;
  gather(g.values, x);
  return g.values[0];
}
