// A class that owns memory, lowered from its own code (docs/Memory.md): the
// object's slots are doubles, its integer packed into one, its buffer's
// address kept in another; the constructor's `new[]` is stored there, each
// access loads it, and the destructor frees what it loads where the
// object's scope ends. A pointer variable assigned what another variable
// designates at run time keeps its address in a slot of its own.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

class Buffer {
public:
  explicit Buffer(int n) : n_(n) { data_ = new double[n]; }
  ~Buffer() { delete[] data_; }
  double &operator[](int i) { return data_[i]; }

private:
  int n_;
  double *data_;
};

// CHECK-LABEL: func.func @_Z5ownedPKd(
// CHECK-SAME: %[[X:arg0]]: memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[OBJECT:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[DATA:.*]] = memref.alloc() {ct.heap_function = "operator new[]"} : memref<2xf64>
// CHECK: %[[VIEW:.*]] = memref.cast %[[DATA]]
// CHECK: ct.store_address %[[VIEW]], %[[OBJECT]][%[[C1:[a-z0-9_]+]]]
// CHECK: %[[P:.*]] = ct.load_address %[[OBJECT]][%[[C1]]] : memref<2xf64> -> memref<?xf64, strided<[1], offset: ?>>
// CHECK: memref.store %{{.*}}, %[[P]][
// CHECK: %[[Q:.*]] = ct.load_address %[[OBJECT]][%[[C1]]]
// CHECK: %[[V:.*]] = memref.load %[[Q]][
// CHECK: memref.dealloc %[[Q]]
// CHECK: return %[[V]]
[[ct::differentiable]] double owned(const double *x) {
  Buffer b(2);
  b[1] = x[0] * x[1];
  return b[1];
}

// CHECK-LABEL: func.func @_Z8swappingPKdi(
// CHECK: %[[TO:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[FROM:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[V:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[U:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[UVIEW:.*]] = memref.cast %[[U]]
// CHECK: ct.store_address %[[UVIEW]], %[[FROM]][%c0]
// CHECK: %[[VVIEW:.*]] = memref.cast %[[V]]
// CHECK: ct.store_address %[[VVIEW]], %[[TO]][%c0]
// CHECK: scf.for
// CHECK:   arith.addf
// CHECK:   memref.store %{{.*}}, %{{.*}}[%c1]
// CHECK-NEXT:   %[[OLD:.*]] = ct.load_address %[[FROM]][%c0]
// CHECK-NEXT:   %[[NEW:.*]] = ct.load_address %[[TO]][%c0]
// CHECK-NEXT:   memref.dim %[[NEW]]
// CHECK-NEXT:   %[[NEWVIEW:.*]] = memref.subview %[[NEW]][0]
// CHECK-NEXT:   ct.store_address %[[NEWVIEW]], %[[FROM]][%c0]
// CHECK-NEXT:   memref.dim %[[OLD]]
// CHECK-NEXT:   %[[OLDVIEW:.*]] = memref.subview %[[OLD]][0]
// CHECK-NEXT:   ct.store_address %[[OLDVIEW]], %[[TO]][%c0]
[[ct::differentiable]] double swapping(const double *x, int steps) {
  double u[2] = {x[0], x[1]}, v[2];
  double *from = u, *to = v;
  for (int s = 0; s < steps; ++s) {
    to[0] = from[0] * from[1];
    to[1] = from[0] + from[1];
    double *t = from;
    from = to;
    to = t;
  }
  return from[0];
}

// An array of them: each element made by its constructor, then destroyed
// by its destructor where the scope ends, last first (element 1 - i, whose
// buffer's address is the object's second slot: 2 (1 - i) + 1).
// CHECK-LABEL: func.func @_Z4paird(
// CHECK: %[[ARRAY:.*]] = memref.alloca() : memref<4xf64>
// CHECK-COUNT-2: memref.alloc() {ct.heap_function = "operator new[]"} : memref<1xf64>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[LAST:.*]] = arith.subi %{{.*}}, %[[I]] : index
// CHECK: %[[SLOTS:.*]] = arith.muli %[[LAST]], %{{.*}} : index
// CHECK: %[[SLOT:.*]] = arith.addi %[[SLOTS]], %{{.*}} : index
// CHECK: %[[BUFFER:.*]] = ct.load_address %[[ARRAY]][%[[SLOT]]]
// CHECK: memref.dealloc %[[BUFFER]]
[[ct::differentiable]] double pair(double x) {
  Buffer b[2] = {Buffer(1), Buffer(1)};
  b[1][0] = x * x;
  return b[1][0];
}

// A pointer variable assigned memory `new` makes in a loop keeps its
// address in a slot too: `delete[]` frees what the slot holds (null the
// first time), `new` stores the fresh memory there, and the read after the
// loop loads the last one.
// CHECK-LABEL: func.func @_Z6remadePKdi(
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[NULL:.*]] = ct.pointer_view
// CHECK: ct.store_address %[[NULL]], %[[SLOT]][%c0]
// CHECK: scf.for
// CHECK:   %[[OLD:.*]] = ct.load_address %[[SLOT]][%c0]
// CHECK:   memref.dealloc %[[OLD]]
// CHECK:   %[[FRESH:.*]] = memref.alloc(%{{.*}}) {ct.heap_function = "operator new[]"} : memref<?xf64>
// CHECK:   %[[FRESHVIEW:.*]] = memref.cast %[[FRESH]]
// CHECK:   ct.store_address %[[FRESHVIEW]], %[[SLOT]][%c0]
// CHECK:   memref.store
// CHECK-NEXT: }
// CHECK-NEXT: %[[LAST:.*]] = ct.load_address %[[SLOT]][%c0]
// CHECK: %[[R:.*]] = memref.load %[[LAST]][%c0]
// CHECK: memref.dealloc %[[LAST]]
// CHECK: return %[[R]]
[[ct::differentiable]] double remade(const double *x, int n) {
  double *p = nullptr;
  for (int l = 0; l < 3; ++l) {
    delete[] p;
    p = new double[n];
    p[0] = x[l];
  }
  double r = p[0];
  delete[] p;
  return r;
}

// A class with a destructor of its own whose member owns memory: its
// destructor's body runs first, then the member's destructor frees the
// buffer (C++'s order), where the scope ends.
struct Counted {
  double *sink;
  Buffer buffer;
  explicit Counted(double *s) : sink(s), buffer(1) {}
  ~Counted() { *sink += 1.0; }
};

// CHECK-LABEL: func.func @_Z7countedPdd(
// CHECK-SAME: %[[SINK:arg0]]: memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[COUNTED:.*]] = memref.alloca() : memref<3xf64>
// CHECK: %[[BUFFER:.*]] = memref.alloc() {ct.heap_function = "operator new[]"} : memref<1xf64>
// CHECK: %[[PRODUCT:.*]] = arith.mulf
// CHECK: %[[OLD:.*]] = memref.load %[[SINK]][
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f64
// CHECK: memref.store %[[NEW]], %[[SINK]][
// CHECK: %[[FREED:.*]] = ct.load_address %[[COUNTED]][
// CHECK: memref.dealloc %[[FREED]]
// CHECK: return %[[PRODUCT]]
[[ct::differentiable]] double counted(double *sink, double x) {
  Counted c(sink);
  c.buffer[0] = x;
  return c.buffer[0] * x;
}
