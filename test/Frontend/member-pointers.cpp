// A pointer to a data member is its byte offset: `p.*m` is the object's
// place moved by m / sizeof(double) slots. A pointer to a member function is
// its function's address: a call through it compares the address with each
// member function of the class whose address the file takes and calls the
// one that matches on the object.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

struct Point {
  double x, y, z;
};

// CHECK-LABEL: func.func @_Z6chosenRK5Pointb(
// CHECK-DAG: %[[Z:.*]] = arith.constant 16 : i64
// CHECK-DAG: %[[Y:.*]] = arith.constant 8 : i64
// CHECK: %[[M:.*]] = arith.select %arg1, %[[Y]], %[[Z]] : i64
// CHECK: %[[SLOTS:.*]] = arith.divsi %[[M]], %[[Y]] : i64
// CHECK: %[[AT:.*]] = arith.index_cast %[[SLOTS]] : i64 to index
// CHECK: memref.load %arg0[%[[AT]]]
[[ct::differentiable]] double chosen(const Point &p, bool second) {
  double Point::*m = second ? &Point::y : &Point::z;
  return p.*m * p.x;
}

class Model {
public:
  double square(double x) const { return k * x * x; }
  double scaled(double x) const { return k * x; }
  double k;
};

// CHECK-LABEL: func.func @_Z5termsRK5Modeldb(
// CHECK: %[[F:.*]] = scf.if %arg2 -> (i64)
// CHECK: ct.function_address "_ZNK5Model6squareEd"
// CHECK: ct.function_address "_ZNK5Model6scaledEd"
// CHECK: %[[SQUARE:.*]] = ct.function_address "_ZNK5Model6squareEd"
// CHECK: %[[IS:.*]] = arith.cmpi eq, %[[F]], %[[SQUARE]] : i64
// CHECK: scf.if %[[IS]]
// CHECK-NEXT: func.call @_ZNK5Model6squareEd(%arg0, %arg1)
// CHECK: func.call @_ZNK5Model6scaledEd(%arg0, %arg1)
// CHECK: ct.abort "{{.*}}a call through a function pointer in a derivative found a function whose address its file does not take; aborting"
[[ct::differentiable]] double terms(const Model &m, double x, bool square) {
  double (Model::*f)(double) const = square ? &Model::square : &Model::scaled;
  return (m.*f)(x);
}
