// std::vector in differentiable code, written the way numerical C++ uses it:
// const and non-const reference parameters, a by-value parameter, vectors
// of structs and of ints, local vectors (sized, filled, copied, from a list
// or an iterator range, resized, assigned, one per loop iteration), `[]`,
// `at`, `size`, `data`, `front`, `back`, range-for, calls passing vectors
// on and functions returning them, push_back within a reserved capacity. Reverse and forward mode at -O0 and -O2 against closed forms
// and central differences.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O2 %s -o %t3 && %t3 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <vector>

#include "check.h"

// sum x_i^2.
[[ct::differentiable]] double sumOfSquares(const std::vector<double> &x) {
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    s += x[i] * x[i];
  return s;
}

// A helper on raw memory, called with a vector's data.
[[ct::differentiable]] double sumOfCubes(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * p[i] * p[i];
  return s;
}

// sum_i a_i * 2 b_i; b is f's own copy, doubled in place.
[[ct::differentiable]] double doubledDot(const std::vector<double> &a,
                                         std::vector<double> b) {
  for (double &v : b)
    v *= 2;
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}

struct Point {
  double x, y;
};

// Scratch vectors, copies, a vector per iteration, selected indices.
[[ct::differentiable]] double scratchWork(const std::vector<Point> &points,
                                          const std::vector<int> &picked,
                                          double w) {
  std::vector<double> radius;
  radius.resize(points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    radius[i] = std::hypot(points[i].x, points[i].y) * w;
  std::vector<double> copy = radius;
  double s = sumOfCubes(copy.data(), static_cast<int>(copy.size()));
  for (int step = 0; step < 3; ++step) {
    std::vector<double> t(radius.size(), 1.0);
    for (std::size_t i = 0; i < t.size(); ++i)
      t[i] = t[i] * radius[i] + step;
    s += doubledDot(t, radius);
  }
  for (int k : picked)
    s += radius[k] * points[k].x;
  for (double c : {1.0, 2.0})
    s += c * w;
  std::vector<double> range(radius.begin() + 1, radius.end());
  s += range.front() * range.back();
  range.assign(2, w);
  s += range.at(1) * range[0];
  return s;
}

// A vector captured by copy keeps the values it had where the lambda was
// defined: s = sum_i x_i * y_i with y = 2 x afterwards.
[[ct::differentiable]] double capturedCopy(const std::vector<double> &x) {
  std::vector<double> y(x);
  auto weighted = [=](const std::vector<double> &z) {
    double s = 0;
    for (std::size_t i = 0; i < z.size(); ++i)
      s += y[i] * z[i];
    return s;
  };
  for (double &v : y)
    v *= 2;
  return weighted(y);
}

// Functions returning vectors by value (the caller owns and frees the
// memory), called once, per loop iteration, and as a temporary.
static std::vector<double> logistic(const std::vector<double> &x) {
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    y[i] = 1 / (1 + std::exp(-x[i]));
  return y;
}
static std::vector<double> filled(std::size_t n, double a) {
  return std::vector<double>(n, a);
}
[[ct::differentiable]] double returnedVectors(const std::vector<double> &x,
                                              double a) {
  std::vector<double> s = logistic(x);
  double t = 0;
  for (int k = 0; k < 2; ++k) {
    std::vector<double> u = logistic(s);
    t += u[0] * a;
  }
  s = filled(s.size(), a);
  return t + s[1] * s[0] + logistic(x)[1];
}

// y_i <- a * y_i^2: in/out memory in a vector.
[[ct::differentiable]] void squareScaled(std::vector<double> &y, double a) {
  for (auto &v : y)
    v = a * v * v;
}

static void testSumOfSquares() {
  std::vector<double> x{1.0, 2.0, 3.0}, dx(3, 0.0);
  double v = ct::gradient<sumOfSquares>(x, &dx);
  check::near("sumOfSquares value", v, 14.0, 1e-15);
  for (int i = 0; i < 3; ++i)
    check::near("sumOfSquares gradient", dx[i], 2 * x[i], 1e-15);
  std::vector<double> t{1.0, 0.5, -1.0};
  check::near("sumOfSquares jvp", ct::jvp<sumOfSquares>(x, &t).tangent,
              2 * (1.0 + 1.0 - 3.0), 1e-15);
  // A larger vector than any stack buffer would hold comfortably.
  std::vector<double> big(100000, 0.5), dbig(100000, 0.0);
  check::near("sumOfSquares big", ct::gradient<sumOfSquares>(big, &dbig),
              25000.0, 1e-12);
  check::near("sumOfSquares big gradient", dbig[99999], 1.0, 1e-15);
}

static void testByValue() {
  std::vector<double> a{1.0, 2.0}, b{3.0, -1.0};
  std::vector<double> da{0.0, 0.0}, db{10.0, 10.0};
  double v = ct::gradient<doubledDot>(a, b, &da, &db);
  check::near("doubledDot value", v, 2.0, 1e-15);
  check::near("doubledDot da0", da[0], 6.0, 1e-15);
  check::near("doubledDot da1", da[1], -2.0, 1e-15);
  // By value: the adjoint is added to what the caller's vector held.
  check::near("doubledDot db0", db[0], 12.0, 1e-15);
  check::near("doubledDot db1", db[1], 14.0, 1e-15);
  check::near("doubledDot caller's copy unchanged", b[0], 3.0, 0);
}

static void testScratchWork() {
  std::vector<Point> points{{1, 2}, {0.5, -1}, {3, 0.25}};
  std::vector<int> picked{0, 2};
  std::vector<Point> dpoints(3, Point{0, 0});
  double w = 0.7, dw = 0;
  double v = ct::gradient<scratchWork, ct::wrt<0, 2>>(points, picked, w,
                                                       &dpoints, &dw);
  check::near("scratchWork value", v, scratchWork(points, picked, w), 1e-13);
  auto at = [&](std::vector<Point> p, double ww) {
    return scratchWork(p, picked, ww);
  };
  check::near("scratchWork dw",
              dw, check::centralDifference([&](double t) { return at(points, t); }, w),
              1e-7);
  for (int i = 0; i < 3; ++i) {
    auto moved = [&](double Point::*field) {
      return check::centralDifference(
          [&](double t) {
            std::vector<Point> p = points;
            p[i].*field = t;
            return at(p, w);
          },
          points[i].*field);
    };
    check::near("scratchWork dx", dpoints[i].x, moved(&Point::x), 1e-7);
    check::near("scratchWork dy", dpoints[i].y, moved(&Point::y), 1e-7);
  }
  std::vector<Point> tangent(3, Point{0, 0});
  check::near("scratchWork jvp",
              ct::jvp<scratchWork, ct::wrt<0, 2>>(points, picked, w, &tangent,
                                                  1.0)
                  .tangent,
              dw, 1e-12);
}

// Double buffering: each step reads one vector and writes the other, then
// swaps them (std::swap, and the member), in a loop; and a vector assigned
// the one the step built.
[[ct::differentiable]] double doubleBuffered(const std::vector<double> &x,
                                             int steps) {
  std::vector<double> current(x), next(x.size());
  const size_t n = x.size();
  for (int t = 0; t < steps; ++t) {
    for (size_t i = 0; i < n; ++i)
      next[i] = std::sin(current[i]) + 0.5 * current[(i + 1) % n];
    if (t % 2 == 0)
      std::swap(current, next);
    else
      current.swap(next);
  }
  std::vector<double> last(n);
  for (int t = 0; t < 2; ++t) {
    std::vector<double> step(n);
    for (size_t i = 0; i < n; ++i)
      step[i] = current[i] * last[i] + current[i];
    last = step;
  }
  double sum = 0;
  for (double v : last)
    sum += v * v;
  return sum;
}

static void testDoubleBuffered() {
  std::vector<double> x{0.3, -0.8, 1.2, 0.5}, dx(4, 0.0);
  double value = ct::gradient<doubleBuffered, ct::wrt<0>>(x, 5, &dx);
  check::near("doubleBuffered value", value, doubleBuffered(x, 5), 1e-14);
  for (int i = 0; i < 4; ++i)
    check::near("doubleBuffered d/dx", dx[i],
                check::differenceAt(x.data(), i,
                                    [&] { return doubleBuffered(x, 5); }),
                1e-7);
  std::vector<double> tx{1.0, 0.0, -1.0, 0.5};
  auto jvp = ct::jvp<doubleBuffered, ct::wrt<0>>(x, 5, &tx);
  double expected = 0;
  for (int i = 0; i < 4; ++i)
    expected += tx[i] * dx[i];
  check::near("doubleBuffered jvp", jvp.tangent, expected, 1e-12);
}

static void testInOut() {
  std::vector<double> y{1.0, 2.0}, dy{1.0, 1.0};
  double da = 0;
  ct::pullback<squareScaled>(y, 3.0, &dy, &da);
  check::near("squareScaled y0", y[0], 3.0, 0);
  check::near("squareScaled y1", y[1], 12.0, 0);
  // d(a y^2)/dy = 2 a y, d/da = y^2 summed.
  check::near("squareScaled dy0", dy[0], 6.0, 1e-15);
  check::near("squareScaled dy1", dy[1], 12.0, 1e-15);
  check::near("squareScaled da", da, 5.0, 1e-15);
}

static void testCapturedCopy() {
  // s = sum x_i * 2 x_i = 2 sum x_i^2: d/dx_i = 4 x_i.
  std::vector<double> x{1.0, -2.0}, dx{0.0, 0.0};
  check::near("capturedCopy value", ct::gradient<capturedCopy>(x, &dx), 10.0,
              1e-15);
  check::near("capturedCopy d0", dx[0], 4.0, 1e-15);
  check::near("capturedCopy d1", dx[1], -8.0, 1e-15);
}

static void testReturnedVectors() {
  std::vector<double> x{0.5, -1.0}, dx{0.0, 0.0};
  double a = 0.3, da = 0;
  double v = ct::gradient<returnedVectors>(x, a, &dx, &da);
  check::near("returnedVectors value", v, returnedVectors(x, a), 1e-14);
  check::near("returnedVectors d a", da,
              check::centralDifference(
                  [&](double t) { return returnedVectors(x, t); }, a),
              1e-7);
  for (int i = 0; i < 2; ++i)
    check::near("returnedVectors d x", dx[i],
                check::differenceAt(x.data(), i,
                                    [&] { return returnedVectors(x, a); }),
                1e-7);
}

// Vectors filled by push_back within a reserved capacity: some elements
// only (a branch in the loop), structs, emplace_back, pop_back, back, and a
// growing vector passed on and returned.
struct Sample {
  double value, weight;
};

static double sumOfSines(const std::vector<double> &v) {
  double s = 0;
  for (double x : v)
    s += std::sin(x);
  return s;
}

static std::vector<double> positiveSquares(const double *x, int n) {
  std::vector<double> out;
  out.reserve(n);
  for (int i = 0; i < n; ++i)
    if (x[i] > 0)
      out.push_back(x[i] * x[i]);
  return out;
}

[[ct::differentiable]] double grown(const double *x, int n) {
  std::vector<double> squares = positiveSquares(x, n);
  double s = sumOfSines(squares);
  std::vector<Sample> samples;
  samples.reserve(squares.size() + 1);
  for (std::size_t i = 0; i < squares.size(); ++i)
    samples.push_back(Sample{squares[i], x[i]});
  samples.emplace_back(Sample{1.0, x[0]}).weight *= 2;
  for (const Sample &sample : samples)
    s += sample.value * sample.weight;
  squares.reserve(2 * squares.size()); // keeps the elements
  squares.pop_back();
  return s + squares.size() + squares.back() + samples.capacity();
}

static void testGrown() {
  double x[5] = {0.5, -1, 2, 0.3, -0.1}, dx[5] = {};
  double v = ct::gradient<grown>(x, 5, dx);
  check::near("grown value", v, grown(x, 5), 1e-14);
  for (int i = 0; i < 5; ++i)
    check::near("grown d x", dx[i],
                check::differenceAt(x, i, [&] { return grown(x, 5); }), 1e-7);
  double t[5] = {0, 0, 1, 0, 0};
  auto jvp = ct::jvp<grown>(x, 5, t);
  check::near("grown jvp", jvp.tangent, dx[2], 1e-12);
}

// Vectors returned from more than one place: an early `return {}`, and a
// choice between two vectors each branch builds; also inside a loop of a
// trip count known only at run time (the vector's derivative lives in the
// loop's reverse iteration).
static std::vector<double> scaledRamp(int n, double x) {
  if (n <= 0)
    return {};
  std::vector<double> v(n, x);
  for (int i = 0; i < n; ++i)
    v[i] *= i;
  return v;
}

static std::vector<double> pick(bool first, double x) {
  if (first) {
    std::vector<double> a(2, x);
    a[1] *= x;
    return a;
  }
  std::vector<double> b(3, 2 * x);
  return b;
}

[[ct::differentiable]] double branchVectors(double x, int n) {
  std::vector<double> v = scaledRamp(n, x);
  double s = 0;
  for (double e : v)
    s += e * e;
  std::vector<double> w = pick(n > 2, x);
  for (double e : w)
    s += 3 * e;
  for (int k = 0; k < n; ++k) {
    std::vector<double> u = scaledRamp(n - k, x * (k + 1));
    for (double e : u)
      s += e * x;
  }
  return s;
}

static void testBranchVectors() {
  for (int n : {0, 2, 3}) {
    double dx = 0;
    double v = ct::gradient<branchVectors, ct::wrt<0>>(1.5, n, &dx);
    check::near("branchVectors value", v, branchVectors(1.5, n), 1e-14);
    check::near("branchVectors gradient", dx,
                check::centralDifference(
                    [&](double t) { return branchVectors(t, n); }, 1.5),
                1e-7);
    check::near("branchVectors jvp",
                ct::jvp<branchVectors, ct::wrt<0>>(1.5, n, 1.0).tangent, dx,
                1e-12);
  }
}

int main() {
  testGrown();
  testBranchVectors();
  testSumOfSquares();
  testReturnedVectors();
  testCapturedCopy();
  testByValue();
  testScratchWork();
  testInOut();
  testDoubleBuffered();
  return check::report();
}
