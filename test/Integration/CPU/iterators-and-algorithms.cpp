// Loops over pointers and iterators instead of an index, and the standard
// algorithms numerical code calls on arrays and vectors (fill, fill_n,
// copy, copy_n, for_each, transform, accumulate, inner_product,
// max_element, min_element, sort, next, prev, advance, distance; sort,
// stable_sort, max_element and min_element of structs with a comparison,
// max_element of numbers with one; nth_element and partial_sort, whose
// postconditions a sorted range meets: a median and a trimmed sum), with
// lambdas, named functions, function objects whose call operator is a
// template (`std::greater<>`) and std::functions, and the user's own templates given a lambda
// or iterators; pointers one past the end of arrays (`a + n`, std::end)
// passed to helpers. Reverse and forward
// mode at -O0 and -O2, with libstdc++ and (where installed) libc++,
// against closed forms and central differences.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O0 %s -o %t3 && %t3 | FileCheck %s %}
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O2 %s -o %t4 && %t4 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <iterator>
#include <numeric>
#include <vector>

#include "check.h"

struct Point {
  double x, y;
};

// sum_i x_i^3 over [a, a + n) by pointer, plus sum_i a_i walked backwards.
[[ct::differentiable]] double pointerWalk(const double *a, int n) {
  double s = 0;
  for (const double *p = a; p != a + n; p++)
    s += *p * *p * *p;
  for (const double *p = a + n - 1; p >= a; --p)
    s += *p;
  return s + (a + n - a); // a pointer difference is a constant
}

// The user's own templates: one over any iterator, one given a lambda.
template <class It> double sumOfSquares(It first, It last) {
  double s = 0;
  for (; first != last; ++first)
    s += *first * *first;
  return s;
}
template <class F> double twice(F f, double x) { return f(x) + f(2 * x); }

// sum_i p_i.x p_i.y + sum_i (p_i.x p_i.y)^2 + a picked element, by
// iterators over a vector of structs and over a vector.
[[ct::differentiable]] double iteratorWalk(const std::vector<Point> &points,
                                           double w) {
  double s = 0;
  for (auto it = points.begin(); it != points.end(); ++it)
    s += it->x * (*it).y;
  std::vector<double> products(points.size());
  auto out = products.begin();
  for (const Point &p : points) {
    *out = p.x * p.y;
    out++;
  }
  s += sumOfSquares(products.begin(), products.end());
  auto middle = products.begin() + 1;
  s += middle[1] * w + (products.end() - products.begin());
  s += twice([&](double t) { return t * products[0]; }, w);
  return s;
}

static double cube(double v) { return v * v * v; }

// Every modelled algorithm once.
[[ct::differentiable]] double algorithms(const std::vector<double> &x,
                                         double w) {
  double s = 0;
  std::for_each(x.begin(), x.end(), [&](double v) { s += w * v * v; });
  std::vector<double> scaled(x.size());
  std::transform(x.begin(), x.end(), scaled.begin(),
                 [w](double v) { return v * w; });
  std::vector<double> cubes(x.size());
  std::transform(x.begin(), x.end(), cubes.begin(), cube);
  std::vector<double> sums(x.size());
  std::transform(x.begin(), x.end(), scaled.begin(), sums.begin(),
                 [](double a, double b) { return a + b; });
  s += std::accumulate(scaled.begin(), scaled.end(), 0.0);
  s += std::accumulate(cubes.begin(), cubes.end(), 1.0,
                       [](double acc, double v) { return acc * (1 + v); });
  s += std::inner_product(x.begin(), x.end(), sums.begin(), 0.0);
  s += std::inner_product(x.begin(), x.end(), cubes.begin(), 0.0,
                          [](double a, double b) { return a + b; },
                          [](double a, double b) { return a - b; });
  s += *std::max_element(x.begin(), x.end()) * w;
  s += *std::min_element(cubes.begin(), cubes.end());
  std::vector<double> copied(x.size() + 1);
  std::copy(x.begin(), x.end(), copied.begin() + 1);
  std::fill(copied.begin(), copied.begin() + 1, w);
  std::copy_n(copied.begin(), 2, scaled.begin());
  std::fill_n(sums.begin(), 1, 2.0);
  for (double v : copied)
    s += v * sums[0];
  s += scaled[0] * scaled[1];
  return s;
}

// std::fill and std::copy on plain arrays: y = 2 x, then the sum of y_i^2.
[[ct::differentiable]] double arrays(const double *x) {
  double y[4];
  std::copy(x, x + 4, y);
  std::for_each(y, y + 4, [](double &v) { v *= 2; });
  double z[4];
  std::fill(z, z + 4, 0.0);
  return std::inner_product(y, y + 4, y, z[3]);
}

// A helper over [first, last), given pointers one past the end.
static double sumOfSquares(const double *first, const double *last) {
  double s = 0;
  for (; first != last; ++first)
    s += *first * *first;
  return s;
}

// The two largest of x, sorted (by value and with a comparison), plus
// iterator arithmetic and ranges ending one past arrays.
[[ct::differentiable]] double ordered(const std::vector<double> &x) {
  std::vector<double> sorted(x);
  std::sort(sorted.begin(), sorted.end());
  double top = *std::prev(sorted.end()) + 2 * *std::prev(sorted.end(), 2);
  std::array<double, 4> a{x[0], x[1], x[2], x[3]};
  std::sort(a.begin(), a.end(), [](double u, double v) { return u > v; });
  auto it = a.begin();
  std::advance(it, 1);
  double second = *it * std::distance(a.begin(), std::next(it));
  double raw[4] = {x[3], x[2], x[1], x[0]};
  return top + second + sumOfSquares(raw, raw + 4) +
         sumOfSquares(std::begin(raw) + 2, std::end(raw)) +
         sumOfSquares(a.begin() + 3, a.end());
}

struct Item {
  double key;
  double weight;
  int index;
};

// Structs sorted with a comparison: by key (std::sort, a vector grown by
// push_back), and by a key with ties (std::stable_sort of an array keeps
// the tied items in their order: 1, 3, then 0, 2).
[[ct::differentiable]] double rankedItems(const std::vector<double> &x) {
  std::vector<Item> items;
  for (int i = 0; i < 4; ++i)
    items.push_back({x[i], x[i] * x[i], i});
  std::sort(items.begin(), items.end(),
            [](const Item &a, const Item &b) { return a.key < b.key; });
  double s = 0;
  for (int r = 0; r < 4; ++r)
    s += items[r].weight * (r + 1) + items[r].index * items[r].key;
  Item tied[4] = {{1, x[0], 0}, {0, x[1], 1}, {1, x[2], 2}, {0, x[3], 3}};
  std::stable_sort(tied, tied + 4,
                   [](const Item &a, const Item &b) { return a.key < b.key; });
  for (int r = 0; r < 4; ++r)
    s += tied[r].weight * (r + 1) * (r + 1);
  return s;
}

static void testRankedItems() {
  std::vector<double> x{0.5, 2.0, -1.0, 1.5}, dx(4, 0.0);
  double v = ct::gradient<rankedItems>(x, &dx);
  // Ranks by key: -1 (2), .5 (0), 1.5 (3), 2 (1): squares weighted 1..4,
  // plus index * key; tied order 1, 3, 0, 2 weighted 1, 4, 9, 16.
  double expected = 1 * 1.0 + 2 * 0.25 + 3 * 2.25 + 4 * 4.0 +
                    (2 * -1.0 + 0 * 0.5 + 3 * 1.5 + 1 * 2.0) +
                    (1 * 2.0 + 4 * 1.5 + 9 * 0.5 + 16 * -1.0);
  check::near("rankedItems value", v, expected, 1e-14);
  for (int i = 0; i < 4; ++i)
    check::near(
        "rankedItems gradient", dx[i],
        check::differenceAt(x.data(), i, [&] { return rankedItems(x); }),
        1e-7);
  std::vector<double> t{0, 0, 1, 0};
  check::near("rankedItems jvp", ct::jvp<rankedItems>(x, &t).tangent, dx[2],
              1e-12);
}

// The item of largest weight and of smallest key, by comparisons (the
// first of equal ones, as the standard says), and the largest number by
// absolute value.
[[ct::differentiable]] double extremeItems(const std::vector<double> &x) {
  std::vector<Item> items;
  for (int i = 0; i < 4; ++i)
    items.push_back({x[i], x[i] * x[i], i});
  auto heaviest =
      std::max_element(items.begin(), items.end(), [](const Item &a, const Item &b) {
        return a.weight < b.weight;
      });
  auto first = std::min_element(
      items.begin(), items.end(),
      [](const Item &a, const Item &b) { return a.key < b.key; });
  double widest = *std::max_element(
      x.begin(), x.end(),
      [](double a, double b) { return std::fabs(a) < std::fabs(b); });
  return heaviest->weight * (heaviest->index + 1) + 3 * first->key +
         widest * widest * widest;
}

static void testExtremeItems() {
  std::vector<double> x{0.5, 2.0, -1.0, -2.0}, dx(4, 0.0);
  // Heaviest: x1 (4, before the tie x3), index 1: 2 x1^2; first by key:
  // x3 = -2: 3 x3; widest: x1 = 2 (before -2): x1^3.
  double v = ct::gradient<extremeItems>(x, &dx);
  check::near("extremeItems value", v, 8.0 - 6.0 + 8.0, 1e-14);
  check::near("extremeItems d/dx0", dx[0], 0.0, 1e-14);
  check::near("extremeItems d/dx1", dx[1], 4 * 2.0 + 3 * 4.0, 1e-14);
  check::near("extremeItems d/dx2", dx[2], 0.0, 1e-14);
  check::near("extremeItems d/dx3", dx[3], 3.0, 1e-14);
  std::vector<double> t{1, 1, 1, 1};
  check::near("extremeItems jvp", ct::jvp<extremeItems>(x, &t).tangent,
              20.0 + 3.0, 1e-12);
}

// The median by nth_element, and the sum of the two smallest magnitudes by
// partial_sort with a comparison.
[[ct::differentiable]] double medianAndSmallest(const std::vector<double> &x) {
  std::vector<double> copy = x;
  std::nth_element(copy.begin(), copy.begin() + 2, copy.end());
  std::vector<double> magnitudes = x;
  std::partial_sort(magnitudes.begin(), magnitudes.begin() + 2,
                    magnitudes.end(), [](double a, double b) {
                      return std::fabs(a) < std::fabs(b);
                    });
  return copy[2] * copy[2] + magnitudes[0] * magnitudes[1];
}

// Function objects whose call operator is a template (the standard's
// transparent comparisons, `std::greater<>`, and the user's own), and a
// std::function given to std::transform.
struct Descending {
  template <class T> bool operator()(const T &a, const T &b) const {
    return a > b;
  }
};

[[ct::differentiable]] double transparent(const std::vector<double> &x) {
  std::vector<double> h(x);
  std::sort(h.begin(), h.end(), std::greater<>());
  double s = 3 * h[0] + h[1];
  std::sort(h.begin(), h.end(), std::less<>());
  std::function<double(double)> square = [](double v) { return v * v; };
  std::transform(h.begin(), h.end(), h.begin(), square);
  std::sort(h.begin(), h.end(), Descending());
  return s + 5 * h[0];
}

static void testTransparent() {
  std::vector<double> x{0.5, 2.0, -2.5, 1.5}, dx(4, 0.0);
  // Descending 2, 1.5, 0.5, -2.5: 3 x1 + x3; the largest square x2^2.
  double v = ct::gradient<transparent>(x, &dx);
  check::near("transparent value", v, 6 + 1.5 + 5 * 6.25, 1e-14);
  const double expected[4] = {0, 3, 5 * 2 * -2.5, 1};
  for (int i = 0; i < 4; ++i)
    check::near("transparent gradient", dx[i], expected[i], 1e-14);
  std::vector<double> t{1, 1, 1, 1};
  check::near("transparent jvp", ct::jvp<transparent>(x, &t).tangent,
              3 + 1 - 25, 1e-14);
}

static void testPartialOrders() {
  std::vector<double> x{0.5, 2.0, -1.5, -0.25, 3.0}, dx(5, 0.0);
  // Median x0 = 0.5: x0^2; smallest magnitudes x3 = -0.25, then x0 = 0.5.
  double v = ct::gradient<medianAndSmallest>(x, &dx);
  check::near("partial orders value", v, 0.25 - 0.125, 1e-14);
  const double expected[5] = {2 * 0.5 - 0.25, 0, 0, 0.5, 0};
  for (int i = 0; i < 5; ++i)
    check::near("partial orders gradient", dx[i], expected[i], 1e-14);
  std::vector<double> t{1, 1, 1, 1, 1};
  check::near("partial orders jvp",
              ct::jvp<medianAndSmallest>(x, &t).tangent, 1.0 - 0.25 + 0.5,
              1e-14);
}

static void testOrdered() {
  std::vector<double> x{0.5, 2.0, -1.0, 1.5}, dx(4, 0.0);
  double v = ct::gradient<ordered>(x, &dx);
  // sorted: -1, .5, 1.5, 2 -> top = 2 + 3; a descending: 2, 1.5, .5, -1
  // -> second = 1.5 * 2; raw squares 7.5; raw[2..4) = .25 + 4;
  // a[3]^2 = 1.
  check::near("ordered value", v, 5 + 3 + 7.5 + 4.25 + 1, 1e-14);
  for (int i = 0; i < 4; ++i)
    check::near("ordered gradient", dx[i],
                check::differenceAt(x.data(), i, [&] { return ordered(x); }),
                1e-7);
  std::vector<double> t{1, 0, 0, 0};
  check::near("ordered jvp", ct::jvp<ordered>(x, &t).tangent, dx[0], 1e-12);
}

static void testPointerWalk() {
  double a[3] = {1, 2, 3}, da[3] = {0, 0, 0};
  double v = ct::gradient<pointerWalk>(a, 3, da);
  check::near("pointerWalk value", v, 36 + 6 + 3, 1e-15);
  for (int i = 0; i < 3; ++i)
    check::near("pointerWalk gradient", da[i], 3 * a[i] * a[i] + 1, 1e-15);
}

static void testIteratorWalk() {
  std::vector<Point> points{{1, 2}, {3, 4}, {5, 6}};
  std::vector<Point> dpoints(3, Point{0, 0});
  double w = 0.5, dw = 0;
  double v = ct::gradient<iteratorWalk>(points, w, &dpoints, &dw);
  check::near("iteratorWalk value", v, iteratorWalk(points, w), 1e-13);
  // d/dw: products[2] + 3 products[0].
  check::near("iteratorWalk dw", dw, 30 + 3 * 2, 1e-13);
  for (int i = 0; i < 3; ++i) {
    double x = points[i].x, y = points[i].y;
    double extra = (i == 2 ? w : 0) + (i == 0 ? 3 * w : 0);
    check::near("iteratorWalk dx", dpoints[i].x,
                y + 2 * x * y * y + extra * y, 1e-12);
    check::near("iteratorWalk dy", dpoints[i].y,
                x + 2 * x * x * y + extra * x, 1e-12);
  }
}

static void testAlgorithms() {
  std::vector<double> x{0.5, -1.25, 2.0}, dx(3, 0.0);
  double w = 0.75, dw = 0;
  double v = ct::gradient<algorithms>(x, w, &dx, &dw);
  check::near("algorithms value", v, algorithms(x, w), 1e-13);
  check::near("algorithms dw", dw,
              check::centralDifference(
                  [&](double t) { return algorithms(x, t); }, w),
              1e-7);
  for (int i = 0; i < 3; ++i)
    check::near("algorithms gradient", dx[i],
                check::differenceAt(x.data(), i,
                                    [&] { return algorithms(x, w); }),
                1e-7);
  std::vector<double> tx{1.0, 0.0, -1.0};
  double expected = dx[0] - dx[2] + 0.5 * dw;
  check::near("algorithms jvp",
              ct::jvp<algorithms>(x, w, &tx, 0.5).tangent, expected, 1e-12);
}

static void testArrays() {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0, 0, 0, 0};
  double v = ct::gradient<arrays>(x, dx);
  check::near("arrays value", v, 4 * 30, 1e-15);
  for (int i = 0; i < 4; ++i)
    check::near("arrays gradient", dx[i], 8 * x[i], 1e-15);
}

int main() {
  testPointerWalk();
  testIteratorWalk();
  testAlgorithms();
  testArrays();
  testOrdered();
  testRankedItems();
  testExtremeItems();
  testPartialOrders();
  testTransparent();
  return check::report();
}
