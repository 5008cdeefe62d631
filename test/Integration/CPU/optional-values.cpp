// std::optional holding values that carry derivatives, lowered from the
// library's own code: its storage is a union of the value and an empty
// marker (a union with one member of data, docs/Memory.md item 21), its
// payload a class inheriting its base's constructors. Returned by helpers
// (a value or std::nullopt), tested (`if (p)`, has_value), read (`*p`,
// value_or, ->), assigned, emplaced, reset; optional structs. Reverse and
// forward mode at -O0 and -O2 against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O2 %s -o %t3 && %t3 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>
#include <optional>

static std::optional<double> rootOf(double v) {
  if (v < 0)
    return std::nullopt;
  return std::sqrt(v);
}

struct Point {
  double x, y;
};

static std::optional<Point> scaled(const double *p, int i, int n) {
  if (i >= n)
    return {};
  return Point{2 * p[i], p[i] * p[i]};
}

// f = sum over v_i >= 0 of sqrt(v_i) * 3, -1 per negative v_i (value_or),
// + the last root squared (assigned, emplaced, reset along the way).
[[ct::differentiable]] double roots(const double *v, int n) {
  double s = 0;
  std::optional<double> last;
  for (int i = 0; i < n; ++i) {
    std::optional<double> r = rootOf(v[i]);
    if (r)
      s += 3 * *r;
    s += r.has_value() ? 0.0 : -1.0;
    s += 0 * rootOf(v[i]).value_or(0.0);
    if (r.has_value())
      last = r;
  }
  std::optional<double> copy = last;
  if (copy)
    s += *copy * *copy;
  last.reset();
  last.emplace(2.0);
  return s * *last / 2;
}

// f = sum_i 2 p_i + p_i^2, through optional structs (-> and *).
[[ct::differentiable]] double points(const double *p, int n) {
  double s = 0;
  for (int i = 0; i <= n; ++i) {
    std::optional<Point> q = scaled(p, i, n);
    if (!q)
      break;
    s += q->x + (*q).y;
  }
  return s;
}

int main() {
  double v[4] = {4.0, -1.0, 2.25, 9.0}, dv[4] = {};
  // 3 (2 + 1.5 + 3) - 1 + 9 = 27.5.
  check::near("roots value", ct::gradient<roots>(v, 4, dv), 27.5, 1e-12);
  double expected[4] = {3 / (2 * 2.0), 0, 3 / (2 * 1.5), 3 / (2 * 3.0) + 1};
  for (int i = 0; i < 4; ++i)
    check::near("roots reverse", dv[i], expected[i], 1e-12);
  double t[4] = {0, 0, 0, 1};
  check::near("roots forward", ct::jvp<roots>(v, 4, t).tangent, expected[3],
              1e-12);

  double p[3] = {0.5, -1.5, 2.0}, dp[3] = {};
  check::near("points value", ct::gradient<points>(p, 3, dp),
              1 + 0.25 - 3 + 2.25 + 4 + 4, 1e-12);
  for (int i = 0; i < 3; ++i)
    check::near("points reverse", dp[i], 2 + 2 * p[i], 1e-12);
  double tp[3] = {0, 1, 0};
  check::near("points forward", ct::jvp<points>(p, 3, tp).tangent, 2 + 2 * p[1],
              1e-12);
  return check::report();
}
