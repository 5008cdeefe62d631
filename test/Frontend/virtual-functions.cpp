// A class with virtual functions begins with its virtual-table pointer, an
// integer in the object's slots: a constructor stores the address point of
// its class's table (ct.vtable_address) after its bases' constructors. A
// virtual call calls a function of its own (`.virtual`) that compares the
// object's pointer with the address points of the translation unit's
// classes derived from the static class and calls the matching class's
// overrider; an object of any other class ends the program. Where C++ knows
// the object's class (a local object, a final class) the call is direct.
// `delete` through the base runs the destructor of the object's class when
// it does work.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | %cotangent-opt > /dev/null

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};
struct Circle : Shape {
  double r;
  explicit Circle(double r) : r(r) {}
  double area() const override { return 3.0 * r * r; }
};
struct Rect final : Shape {
  double w, h;
  Rect(double w, double h) : w(w), h(h) {}
  double area() const override { return w * h; }
};
struct Tally : Shape {
  double *sink, v;
  Tally(double *sink, double v) : sink(sink), v(v) {}
  ~Tally() override { *sink += v; }
  double area() const override { return v; }
};

// CHECK-LABEL: func.func @_Z6areaOfRK5Shape(
// CHECK-SAME: %[[S:.*]]: memref<?xf64, strided<[1], offset: ?>>
// CHECK: call @_ZNK5Shape4areaEv.virtual(%[[S]])
[[ct::differentiable]] double areaOf(const Shape &s) { return s.area(); }

// CHECK-LABEL: func.func @_Z10knownClassd(
// CHECK-NOT: .virtual
// CHECK: call @_ZNK6Circle4areaEv(
[[ct::differentiable]] double knownClass(double r) {
  Circle c(r);
  return c.area();
}

// CHECK-LABEL: func.func @_Z10finalClassRK4Rect(
// CHECK-NOT: .virtual
// CHECK: call @_ZNK4Rect4areaEv(
[[ct::differentiable]] double finalClass(const Rect &q) { return q.area(); }

// The destructor of a Tally adds into the sum: `delete` runs it when the
// object is one.
// CHECK-LABEL: func.func @_Z7deletedd(
// CHECK: %[[OBJ:.*]] = memref.alloc() {ct.heap_function = "operator new"} : memref<3xf64>
// CHECK: %[[TALLY:.*]] = ct.vtable_address "_ZTV5Tally" + 16
// CHECK: call @_ZNK5Shape4areaEv.virtual(
// CHECK: scf.if
// CHECK: %[[BITS:.*]] = memref.load %[[OBJ]][%{{.*}}] : memref<3xf64>
// CHECK: %[[TABLE:.*]] = arith.bitcast %[[BITS]] : f64 to i64
// CHECK: %[[IS:.*]] = arith.cmpi eq, %[[TABLE]], %[[TALLY]] : i64
// CHECK: scf.if %[[IS]] {
// CHECK: %[[SINK:.*]] = ct.load_address
// CHECK: memref.store %{{.*}}, %[[SINK]]
// CHECK: memref.dealloc %[[OBJ]]
[[ct::differentiable]] double deleted(double v) {
  double sum = 0;
  Shape *s = new Tally(&sum, v);
  sum += s->area();
  delete s;
  return sum;
}

// The dispatch: the object's table pointer against each class's, in the
// order the file defines them: Circle's overrider, Rect's, the Tally's, else
// abort.
// CHECK-LABEL: func.func private @_ZNK5Shape4areaEv.virtual(
// CHECK-SAME: %[[OBJECT:.*]]: memref<?xf64, strided<[1], offset: ?>>) -> f64
// CHECK: %[[POISON:.*]] = ub.poison : f64
// CHECK: %[[SLOT:.*]] = memref.load %[[OBJECT]][%{{.*}}]
// CHECK: %[[PTR:.*]] = arith.bitcast %[[SLOT]] : f64 to i64
// CHECK: %[[CIRCLE:.*]] = ct.vtable_address "_ZTV6Circle" + 16
// CHECK: %[[ISCIRCLE:.*]] = arith.cmpi eq, %[[PTR]], %[[CIRCLE]] : i64
// CHECK: %[[RESULT:.*]] = scf.if %[[ISCIRCLE]] -> (f64) {
// CHECK: %[[A:.*]] = func.call @_ZNK6Circle4areaEv(%[[OBJECT]])
// CHECK: scf.yield %[[A]] : f64
// CHECK: } else {
// CHECK: ct.vtable_address "_ZTV4Rect" + 16
// CHECK: func.call @_ZNK4Rect4areaEv(%[[OBJECT]])
// CHECK: ct.vtable_address "_ZTV5Tally" + 16
// CHECK: func.call @_ZNK5Tally4areaEv(%[[OBJECT]])
// CHECK: ct.abort "a virtual call of 'Shape::area' in differentiated code found an object of a class that its translation unit does not define; define the class there"
// CHECK-NEXT: scf.yield %[[POISON]] : f64
// CHECK: return %[[RESULT]] : f64

// The constructor: the base's, then the table pointer, then the fields.
// CHECK-LABEL: func.func @_ZN6CircleC2Ed(
// CHECK-SAME: %[[SELF:.*]]: memref<?xf64, strided<[1], offset: ?>>, %[[R:.*]]: f64
// CHECK: call @_ZN5ShapeC2Ev(%[[SELF]])
// CHECK: %[[POINT:.*]] = ct.vtable_address "_ZTV6Circle" + 16
// CHECK: %[[AS:.*]] = arith.bitcast %[[POINT]] : i64 to f64
// CHECK: memref.store %[[AS]], %[[SELF]][%{{.*}}]
// CHECK: memref.store %[[R]], %[[SELF]][%{{.*}}]

// CHECK-LABEL: func.func @_ZN5ShapeC2Ev(
// CHECK: ct.vtable_address "_ZTV5Shape" + 16
