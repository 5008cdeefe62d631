// Constructs of expression-template libraries (Eigen's CRTP bases,
// evaluators and alignment checks), lowered onto the memory they view:
// - a CRTP base is an empty class; `static_cast<const Derived *>(this)`
//   designates the object the base is part of (the same memory), so
//   `first()` loads the vector's own data[0];
// - an empty field (a functor) does not choose the slots of the struct
//   holding it, whose other parts hold only pointers: the pointers are
//   followed to x[0] and x[1];
// - a reference field keeps the place it was bound to (h.v.data[1] is
//   v.data[1], i.e. x[1]);
// - `reinterpret_cast<std::uintptr_t>(x)` is the address in bytes: the
//   aligned pointer plus the offset times 8;
// - placement new constructs a Vec where a `Vec *` points (w becomes a
//   copy of v, so w.data[1] is x[1] again).
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | %cotangent-opt > /dev/null

#include <cstdint>
#include <new>

// A CRTP base: empty, cast back to the derived class.
template <class Derived> struct Base {
  const Derived &derived() const { return *static_cast<const Derived *>(this); }
  double first() const { return derived().data[0]; }
};

struct Vec : Base<Vec> {
  double data[2];
};

// An empty functor field among pointer-holding parts.
struct Plus {
  double operator()(double a, double b) const { return a + b; }
};
struct View {
  const double *p;
};
struct Pair {
  Plus op;
  View lhs, rhs;
};

// An evaluator with a reference field, rebuilt in place.
struct Holder {
  const Vec &v;
  explicit Holder(const Vec &v) : v(v) {}
};

[[ct::differentiable]] double crtp(const double *x) {
  Vec v;
  v.data[0] = x[0];
  v.data[1] = x[1];
  Pair pair{{}, {x}, {x + 1}};
  Holder h(v);
  bool aligned = reinterpret_cast<std::uintptr_t>(x) % 8 == 0;
  Vec w;
  ::new (static_cast<Vec *>(&w)) Vec(v);
  return v.first() + pair.op(pair.lhs.p[0], pair.rhs.p[0]) + h.v.data[1] +
         (aligned ? w.data[1] : 0.0);
}

// CHECK-LABEL: func.func @_Z4crtpPKd(
// CHECK-SAME: %[[X:[^:]*]]: memref<?xf64, strided<[1], offset: ?>>)
// CHECK-DAG: %[[X0:.*]] = memref.load %[[X]][%c0]
// CHECK-DAG: %[[X1:.*]] = memref.load %[[X]][%c1]
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: %{{.*}}, %[[OFFSET:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[X]]
// CHECK: %[[BYTES:.*]] = arith.muli %[[OFFSET]], %c8
// CHECK: %[[ADDRESS:.*]] = arith.addi %[[BASE]], %[[BYTES]]
// CHECK: %[[INT:.*]] = arith.index_castui %[[ADDRESS]] : index to i64
// CHECK: %[[REM:.*]] = arith.remui %[[INT]], %c8_i64
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[REM]], %c0_i64
// CHECK: %[[PAIR:.*]] = arith.addf %[[X0]], %[[X1]]
// CHECK: %[[FIRST:.*]] = arith.addf %[[X0]], %[[PAIR]]
// CHECK: %[[REF:.*]] = arith.addf %[[FIRST]], %[[X1]]
// CHECK: %[[PLACED:.*]] = arith.select %[[ALIGNED]], %[[X1]], %cst
// CHECK: arith.addf %[[REF]], %[[PLACED]]
