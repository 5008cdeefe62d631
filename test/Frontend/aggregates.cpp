// Structs, classes and std::array whose fields share one scalar type live
// in 1-D memrefs of that scalar, laid out as the C++ compiler lays them out
// (fields and bases at their offsets, arrays row-major). Member functions
// and constructors take the object's address first; an aggregate result is
// built at an address the caller passes last; by-value aggregates are
// copied by the caller. Accessors that return references (std::array's
// operator[]) are inlined into views.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null
#include <array>
#include <cmath>

struct Vec3 {
  double x, y, z;
  double dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  double norm() const { return std::sqrt(dot(*this)); }
  Vec3 &operator+=(const Vec3 &o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
};
Vec3 operator*(double s, const Vec3 &v) { return {s * v.x, s * v.y, s * v.z}; }

struct Particle {
  Vec3 position;
  double mass;
  Particle(const Vec3 &p, double m) : position(p), mass(m) {}
};

// A derived class: its base's fields first, then its own.
struct Body : Particle {
  double radius[2];
};

// CHECK-LABEL: func.func @_Z6energyPK4Vec3id(%arg0: memref<?xf64, strided<[1], offset: ?>>, %arg1: i32, %arg2: f64) -> f64
// The accumulator, a Vec3 temporary per iteration, the std::array, the
// Particle (position and mass: 4 doubles).
// CHECK-DAG: memref.alloca() : memref<4xf64>
// CHECK-DAG: memref.alloca() : memref<3xf64>
// points[i] is 3 doubles further per i.
// CHECK: scf.for
// CHECK:   %[[I:.*]] = arith.index_cast
// CHECK:   %[[OFF:.*]] = arith.muli %[[I]], %c3 : index
// CHECK:   memref.subview %arg0[%[[OFF]]]
// CHECK:   func.call @_ZmldRK4Vec3(%arg2,
// The range-for over std::array is a counted loop over its elements.
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// The constructor runs on the Particle's memory; w[1] is a load of the
// array's own element: operator[], which returns a reference, was lowered
// in place.
// CHECK: %[[W1:.*]] = memref.load %{{.*}}[%c1] : memref<3xf64>
// CHECK: call @_ZN8ParticleC2ERK4Vec3d({{.*}}, %[[W1]])
// CHECK: call @_ZNK4Vec34normEv(
// CHECK-NOT: call @_ZNSt5arrayIdLm3EEixEm
// CHECK: return
[[ct::differentiable]] double energy(const Vec3 *points, int n, double k) {
  Vec3 sum{0, 0, 0};
  for (int i = 0; i < n; ++i)
    sum += k * points[i];
  std::array<double, 3> w = {1.0, 2.0, 3.0};
  double acc = 0;
  for (double v : w)
    acc += v;
  Particle p(sum, w[1]);
  return sum.norm() * p.mass + acc;
}

// A by-value Vec3 arrives by address; the result is written through the
// trailing address argument. operator+= returns a reference, so it is
// inlined: its updates are stores to the parameter's memory.
// CHECK-LABEL: func.func @_Z7combine4Vec3RKS_d(%arg0: memref<?xf64, strided<[1], offset: ?>> {ct.by_value}, %arg1: memref<?xf64, strided<[1], offset: ?>>, %arg2: f64, %arg3: memref<?xf64, strided<[1], offset: ?>>) attributes
// CHECK: call @_ZmldRK4Vec3(%arg2, %arg1, %{{.*}}) :
// CHECK-NOT: call
// CHECK: memref.store %{{.*}}, %arg0[%c2]
// CHECK: memref.store %{{.*}}, %arg3[%c0]
// CHECK: memref.store %{{.*}}, %arg3[%c1]
// CHECK: memref.store %{{.*}}, %arg3[%c2]
[[ct::differentiable]] Vec3 combine(Vec3 a, const Vec3 &b, double t) {
  a += t * b;
  return a;
}

// The base part of Body, then its array member: radius[1] is double 5.
// CHECK-LABEL: func.func @_Z4bulkRK4Body(
// CHECK-DAG: memref.load %arg0[%c3]
// CHECK-DAG: memref.load %arg0[%c5]
[[ct::differentiable]] double bulk(const Body &body) {
  return body.mass * body.radius[1];
}

// Constructors store each member initializer at its field's offset.
// CHECK-LABEL: func.func @_ZN8ParticleC2ERK4Vec3d(%arg0: memref<?xf64, strided<[1], offset: ?>>, %arg1: memref<?xf64, strided<[1], offset: ?>>, %arg2: f64)
// CHECK: memref.store %arg2, %arg0[%c3]

// Member functions take `this` first; `*this` and fields are its memory.
// CHECK-LABEL: func.func @_ZNK4Vec33dotERKS_(%arg0: memref<?xf64, strided<[1], offset: ?>>, %arg1: memref<?xf64, strided<[1], offset: ?>>) -> f64
// CHECK: memref.load %arg0[%c2]
// CHECK: memref.load %arg1[%c2]

// A struct mixing double and int fields keeps C++'s layout in 8-byte slots
// of its floating type: the int is the low 4 bytes of slot 1 (its padding
// the high ones), read as the slot's bits and written back into them.
struct Tagged {
  double w;
  int n;
};
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s --check-prefix=TAGGED
// TAGGED-LABEL: func.func @_Z6taggedR6Taggedd
// TAGGED: %[[SLOT:.*]] = memref.load %arg0[%c1] : memref<?xf64, strided<[1], offset: ?>>
// TAGGED: %[[BITS:.*]] = arith.bitcast %[[SLOT]] : f64 to i64
// TAGGED: %[[N:.*]] = arith.trunci %[[BITS]] : i64 to i32
// TAGGED: %[[KEPT:.*]] = arith.andi %[[BITS]], %{{.*}} : i64
// TAGGED: %[[WIDE:.*]] = arith.extui %{{.*}} : i32 to i64
// TAGGED: %[[MERGED:.*]] = arith.ori %[[KEPT]], %[[WIDE]] : i64
// TAGGED: %[[BACK:.*]] = arith.bitcast %[[MERGED]] : i64 to f64
// TAGGED: memref.store %[[BACK]], %arg0[%c1]
[[ct::differentiable]] double tagged(Tagged &t, double x) {
  int n = t.n;
  t.n = n + 1;
  return t.w * x * n;
}
