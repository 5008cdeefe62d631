// The ct:: markers become ct ops; initializers of every kind write into the
// object they initialize: nested braces, array fillers, value-initialization
// to zero, default member initializers (run by the implicit constructor),
// and range-for loops that bind each element by reference.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null
#include <cmath>

// What <cotangent/cotangent.h> declares (it arrives with the plugin).
namespace ct {
template <typename T> T stop_gradient(T x) { return x; }
template <auto G, typename T> T pass_through(T x) { return G(x); }
} // namespace ct

static double round_down(double x) { return std::floor(x); }

// CHECK-LABEL: func.func @_Z7markersd
// CHECK-DAG: ct.stop_gradient %arg0 : f64
// CHECK-DAG: %[[C:.*]] = call @_ZL10round_downd(%arg0)
// CHECK-DAG: ct.pass_through %[[C]], %arg0 : f64
[[ct::differentiable]] double markers(double x) {
  return x * ct::stop_gradient(x) + ct::pass_through<round_down>(x);
}

struct Weights {
  double w[2][2] = {{1, 2}, {3, 4}};
  double bias = 0.5;
};

// The implicit constructor stores each default member initializer; `{}`
// value-initializes (zeros) the rest of an array.
// CHECK-LABEL: func.func @_Z5initsd
// CHECK-DAG: %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[W:.*]] = memref.alloca() : memref<5xf64>
// CHECK: memref.cast %[[W]]
// CHECK: call @_ZN7WeightsC2Ev(
// CHECK: memref.store %arg0, %[[A:.*]][%c0]
// CHECK: memref.store %[[Z]], %[[A]][%c1]
// CHECK: memref.store %[[Z]], %[[A]][%c3]
[[ct::differentiable]] double sum(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i];
  return s;
}

// (`a` and `m` are passed by address, so they stay in memory.)
[[ct::differentiable]] double inits(double x) {
  Weights weights;
  double a[4] = {x};
  double m[2][2] = {{x, 2}, {3, x}};
  return weights.w[1][0] * sum(a, 4) + weights.bias * sum(m[1], 2);
}

struct Point { double x, y; };

// Range-for by reference over an array of structs: element i starts at 2i.
// CHECK-LABEL: func.func @_Z5scaleR5Pointd
// CHECK: scf.for %[[I:.*]] = %c0 to %c3 step %c1
// CHECK:   %[[OFF:.*]] = arith.muli %[[I]], %c2
// CHECK:   memref.load %{{.*}}[%[[OFF]]]
[[ct::differentiable]] double scale(Point &out, double s) {
  Point points[3] = {{1, 2}, {3, 4}, {5, 6}};
  double total = 0;
  for (Point &p : points) {
    p.x *= s;
    total += p.x + p.y;
  }
  out = points[2];
  return total;
}

// A conditional initializes an object in either branch; `k + p`, `p - k`,
// `--q` and `q -= k` all move the same offset.
Point make(double x) { return {x, 2 * x}; }
// CHECK-LABEL: func.func @_Z6choosedbPKd
// CHECK: %[[V:.*]] = memref.alloca() : memref<2xf64>
// CHECK: scf.if %arg1 {
// CHECK:   func.call @_Z4maked(%arg0,
// CHECK: } else {
// CHECK:   %[[N:.*]] = arith.negf %arg0
// CHECK:   func.call @_Z4maked(%[[N]],
// CHECK: }
// CHECK: memref.load %[[V]][%c1]
// CHECK: %[[P1:.*]] = memref.load %arg2[%c1]
// CHECK: arith.addf %{{.*}}, %[[P1]]
// CHECK: arith.addf %{{.*}}, %[[P1]]
[[ct::differentiable]] double choose(double x, bool c, const double *p) {
  Point v = c ? make(x) : make(-x);
  const double *q = 1 + p;
  q -= 1;
  --q;
  ++q;
  return v.y + *(q + 1) + *(p + 2 - 1);
}

// CHECK-LABEL: func.func @_ZN7WeightsC2Ev(%arg0: memref<?xf64, strided<[1], offset: ?>>)
// CHECK-DAG: memref.store %{{.*}}, %arg0[%c3]
// CHECK-DAG: memref.store %{{.*}}, %arg0[%c4]
