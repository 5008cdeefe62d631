// std::unique_ptr parameters of the differentiated function itself: by
// const reference (an input: the derivative argument is a std::unique_ptr
// owning the derivatives), by reference, written in place (seeds of the
// final contents in, cotangents of the initial ones out), and by value
// (the caller's temporary, which the function owns: read, moved into a
// local, reset). Reverse and forward mode, -O0 and -O2, against closed
// forms and central differences. (A function that gives the caller's
// std::unique_ptr a new object is a reverse-mode error:
// Diagnostics/reseated-memory.cpp; forward mode:
// Integration/CPU/reseated-memory.cpp.)
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <memory>
#include <utility>

#include "check.h"

using check::near;

struct Pair {
  double a, b;
};

// sum (i + 1) x_i^2.
[[ct::differentiable]] double weighted(const std::unique_ptr<double[]> &x,
                                       int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (i + 1) * x[i] * x[i];
  return s;
}

// (a, b) -> (a x, b + a x^2).
[[ct::differentiable]] void updated(std::unique_ptr<Pair> &p, double x) {
  p->a *= x;
  (*p).b += p.get()->a * x;
}

// By value: sum x_i^3, the array freed by the caller.
[[ct::differentiable]] double cubes(std::unique_ptr<double[]> x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i] * x[i];
  return s;
}

// By value, moved into a local (which frees it) and the parameter reset.
[[ct::differentiable]] double product(std::unique_ptr<Pair> p, double x) {
  std::unique_ptr<Pair> mine = std::move(p);
  double r = mine->a * mine->b * x;
  p.reset();
  return r;
}

static std::unique_ptr<double[]> array(std::initializer_list<double> v) {
  auto made = std::make_unique<double[]>(v.size());
  int i = 0;
  for (double e : v)
    made[i++] = e;
  return made;
}

int main() {
  {
    auto x = array({1.5, -2, 0.5});
    auto dx = array({0, 0, 0});
    double value = ct::gradient<weighted>(x, 3, &dx);
    near("weighted value", value, 2.25 + 8 + 0.75, 1e-14);
    for (int i = 0; i < 3; ++i)
      near("weighted gradient", dx[i], 2 * (i + 1) * x[i], 1e-14);
    auto t = array({1, 1, 1});
    near("weighted jvp", ct::jvp<weighted>(x, 3, &t).tangent,
         2 * 1.5 - 8 + 3, 1e-14);
  }
  {
    // Seeds (1, 1) on the final (a x, b + a x^2).
    double a = 2, b = 3, x = 1.5;
    auto p = std::make_unique<Pair>(Pair{a, b});
    auto dp = std::make_unique<Pair>(Pair{1, 1});
    double dx = 0;
    ct::pullback<updated>(p, x, &dp, &dx);
    near("updated a", p->a, a * x, 1e-14);
    near("updated b", p->b, b + a * x * x, 1e-14);
    near("updated cotangent a", dp->a, x + x * x, 1e-14);
    near("updated cotangent b", dp->b, 1, 1e-14);
    near("updated cotangent x", dx, a + 2 * a * x, 1e-14);
    auto q = std::make_unique<Pair>(Pair{a, b});
    auto tq = std::make_unique<Pair>(Pair{1, 0});
    ct::jvp<updated>(q, x, &tq, 0.0);
    near("updated tangent a", tq->a, x, 1e-14);
    near("updated tangent b", tq->b, x * x, 1e-14);
  }
  {
    auto dx = array({0, 0});
    double value = ct::gradient<cubes>(array({2, -1}), 2, &dx);
    near("cubes value", value, 7, 1e-14);
    near("cubes gradient 0", dx[0], 12, 1e-14);
    near("cubes gradient 1", dx[1], 3, 1e-14);
    auto t = array({1, 2});
    near("cubes jvp", ct::jvp<cubes>(array({2, -1}), 2, &t).tangent,
         12 + 6, 1e-14);
  }
  {
    auto dp = std::make_unique<Pair>(Pair{0, 0});
    double dx = 0;
    double value = ct::gradient<product>(std::make_unique<Pair>(Pair{2, 3}),
                                         1.5, &dp, &dx);
    near("product value", value, 9, 1e-14);
    near("product gradient a", dp->a, 3 * 1.5, 1e-14);
    near("product gradient b", dp->b, 2 * 1.5, 1e-14);
    near("product gradient x", dx, 6, 1e-14);
    double fd = check::centralDifference(
        [](double x) {
          return product(std::make_unique<Pair>(Pair{2, 3}), x);
        },
        1.5);
    near("product difference x", dx, fd, 1e-7);
  }
  return check::report();
}
