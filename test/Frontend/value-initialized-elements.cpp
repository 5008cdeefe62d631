// Value-initialized elements (`std::vector<T> v(n)`, `new T[n]()`): each
// element zeroed, then its class's implicit default constructor (here, a
// default member initializer) run on it; a class that provides its own
// default constructor (`std::complex<double>`'s, whose parameters have
// default arguments) is only constructed, given those arguments.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null

#include <complex>
#include <vector>

struct Cell {
  double weight = 1.5;
  double value;
};

// CHECK-LABEL: func.func @_Z5cellsPKdi(
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[MEMORY:.*]] = memref.alloc(
// CHECK: scf.for %[[I:.*]] =
// CHECK:   %[[AT:.*]] = arith.muli %[[I]], %c2
// CHECK:   memref.store %[[ZERO]], %[[MEMORY]][%[[AT]]]
// CHECK:   memref.store %[[ZERO]], %[[MEMORY]][
// CHECK:   %[[CELL:.*]] = memref.subview %[[MEMORY]][%[[AT]]]
// CHECK:   func.call @_ZN4CellC2Ev(%[[CELL]])
[[ct::differentiable]] double cells(const double *x, int n) {
  std::vector<Cell> cells(n);
  return cells[0].weight * x[0] + cells[1].value;
}

// CHECK-LABEL: func.func @_Z6pointsPKdi(
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[MEMORY:.*]] = memref.alloc(
// CHECK-NEXT: scf.for %[[I:.*]] =
// CHECK-NEXT:   %[[AT:.*]] = arith.muli %[[I]], %c2
// CHECK-NOT:    memref.store
// CHECK:        %[[CELL:.*]] = memref.subview %[[MEMORY]][%[[AT]]]
// CHECK-NEXT:   func.call @_ZNSt7complexIdEC2Edd(%[[CELL]], %[[ZERO]], %[[ZERO]])
[[ct::differentiable]] double points(const double *x, int n) {
  std::vector<std::complex<double>> z(n);
  z[0] += x[0];
  return std::norm(z[0]);
}

// CHECK-LABEL: func.func @_Z9allocatedPKdi(
// CHECK: scf.for
// CHECK:   memref.store
// CHECK:   func.call @_ZN4CellC2Ev(
[[ct::differentiable]] double allocated(const double *x, int n) {
  Cell *cells = new Cell[n]();
  double v = cells[0].value + cells[0].weight * x[0];
  delete[] cells;
  return v;
}
