// A call whose later argument calls the same function again, where the
// callee is lowered in place (a function returning a reference, a functor
// holding a pointer, a lambda, an empty functor passed by reference as
// expression-template libraries do): the inner call binds the callee's
// parameters again, and the outer call must still see its own. (It once
// did not: `bigger(a, bigger(b, c))` read the inner call's `a`, a silent
// wrong value and derivative.) Reverse and forward mode at -O0 and -O2
// against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <type_traits>

static const double &bigger(const double &a, const double &b) {
  return a < b ? b : a;
}

// max(x0, max(x1, x2)) with x0 largest: the outer call's `a` is x0.
[[ct::differentiable]] double nestedReferences(const double *x) {
  return 10 * bigger(x[0], bigger(x[1], x[2])) + bigger(bigger(x[1], x[2]), x[0]);
}

// A functor holding a pointer is lowered in place (its field is the
// caller's memory): f(a, b) = a^2 + w0 b.
struct Weighted {
  const double *w;
  double operator()(double a, double b) const { return a * a + w[0] * b; }
};

// F = f(x0, f(x1, x2)) = x0^2 + w (x1^2 + w x2).
[[ct::differentiable]] double nestedFunctor(const double *x, const double *w) {
  Weighted f{w};
  return f(x[0], f(x[1], x[2]));
}

// The same through a lambda: h(a, b) = a^3 + 2b, H = h(x0, h(x1, h(x2, x0))).
[[ct::differentiable]] double nestedLambda(const double *x) {
  auto h = [](double a, double b) { return a * a * a + 2 * b; };
  return h(x[0], h(x[1], h(x[2], x[0])));
}

// An empty functor by reference and a sum unrolled by templates, as a
// reduction of an expression-template library is written: the sum of
// x[i] * x[i + 3].
struct Plus {
  double operator()(const double &a, const double &b) const { return a + b; }
};

template <int Start, int Length> struct Unrolled {
  static double run(const double *x, const Plus &plus) {
    return plus(Unrolled<Start, Length / 2>::run(x, plus),
                Unrolled<Start + Length / 2, Length - Length / 2>::run(x, plus));
  }
};

template <int Start> struct Unrolled<Start, 1> {
  static double run(const double *x, const Plus &) {
    return x[Start] * x[Start + 3];
  }
};

[[ct::differentiable]] double unrolledDot(const double *x) {
  Plus plus;
  return Unrolled<0, 3>::run(x, plus);
}

// A recursive function taking an empty class (a tag) by reference: calls
// involving empty classes are lowered in place, but recursion is called.
struct Tag {};
static double power(const Tag &tag, double x, int n) {
  return n == 0 ? 1.0 : x * power(tag, x, n - 1);
}

[[ct::differentiable]] double taggedRecursion(const double *x) {
  Tag tag;
  return power(tag, x[0], 3);
}

// A template selected by a defaulted `void *` parameter (enable_if), as
// libraries write overloads: the parameter is bytes nothing reads.
template <class T>
static T twice(const T &v,
               typename std::enable_if<std::is_floating_point<T>::value>::type
                   * = 0) {
  return 2 * v * v;
}

[[ct::differentiable]] double selectedOverload(const double *x) {
  return twice(x[0]) + twice(x[1] * x[0]);
}

static void checkReferences() {
  double x[3] = {0.9, 0.2, 0.3}, dx[3] = {};
  double v = ct::gradient<nestedReferences>(x, dx);
  check::near("references value", v, 11 * x[0], 1e-12);
  check::near("references d/dx0", dx[0], 11.0, 1e-12);
  check::near("references d/dx1", dx[1], 0.0, 1e-12);
  check::near("references d/dx2", dx[2], 0.0, 1e-12);
  double tx[3] = {1, 2, 3};
  check::near("references jvp", ct::jvp<nestedReferences>(x, tx).tangent, 11.0,
              1e-12);
}

static void checkFunctor() {
  double x[3] = {0.5, -1.5, 2.0}, w[1] = {3.0}, dx[3] = {}, dw[1] = {};
  double v = ct::gradient<nestedFunctor>(x, w, dx, dw);
  double inner = x[1] * x[1] + w[0] * x[2];
  check::near("functor value", v, x[0] * x[0] + w[0] * inner, 1e-12);
  check::near("functor d/dx0", dx[0], 2 * x[0], 1e-12);
  check::near("functor d/dx1", dx[1], 2 * w[0] * x[1], 1e-12);
  check::near("functor d/dx2", dx[2], w[0] * w[0], 1e-12);
  check::near("functor d/dw", dw[0], inner + w[0] * x[2], 1e-12);
  double tx[3] = {1, 1, 1}, tw[1] = {0};
  check::near("functor jvp", ct::jvp<nestedFunctor>(x, w, tx, tw).tangent,
              2 * x[0] + 2 * w[0] * x[1] + w[0] * w[0], 1e-12);
}

static void checkLambda() {
  double x[3] = {0.7, -0.4, 1.1}, dx[3] = {};
  double v = ct::gradient<nestedLambda>(x, dx);
  auto h = [](double a, double b) { return a * a * a + 2 * b; };
  check::near("lambda value", v, h(x[0], h(x[1], h(x[2], x[0]))), 1e-12);
  // H = x0^3 + 2 x1^3 + 4 x2^3 + 8 x0.
  check::near("lambda d/dx0", dx[0], 3 * x[0] * x[0] + 8, 1e-12);
  check::near("lambda d/dx1", dx[1], 6 * x[1] * x[1], 1e-12);
  check::near("lambda d/dx2", dx[2], 12 * x[2] * x[2], 1e-12);
  double tx[3] = {0, 0, 1};
  check::near("lambda jvp", ct::jvp<nestedLambda>(x, tx).tangent,
              12 * x[2] * x[2], 1e-12);
}

static void checkUnrolled() {
  double x[6] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, dx[6] = {};
  double v = ct::gradient<unrolledDot>(x, dx);
  check::near("unrolled value", v, 0.1 * 0.4 + 0.2 * 0.5 + 0.3 * 0.6, 1e-12);
  for (int i = 0; i < 6; ++i)
    check::near("unrolled gradient", dx[i], x[(i + 3) % 6], 1e-12);
  double tx[6] = {1, 0, 0, 0, 0, 1};
  check::near("unrolled jvp", ct::jvp<unrolledDot>(x, tx).tangent,
              x[3] + x[2], 1e-12);
}

static void checkTaggedRecursion() {
  double x[1] = {1.5}, dx[1] = {};
  double v = ct::gradient<taggedRecursion>(x, dx);
  check::near("recursion value", v, x[0] * x[0] * x[0], 1e-12);
  check::near("recursion gradient", dx[0], 3 * x[0] * x[0], 1e-12);
}

static void checkSelectedOverload() {
  double x[2] = {0.5, -1.5}, dx[2] = {};
  double v = ct::gradient<selectedOverload>(x, dx);
  // 2 x0^2 + 2 x0^2 x1^2.
  check::near("overload value", v, 2 * 0.25 + 2 * 0.25 * 2.25, 1e-12);
  check::near("overload d/dx0", dx[0], 4 * x[0] + 4 * x[0] * x[1] * x[1],
              1e-12);
  check::near("overload d/dx1", dx[1], 4 * x[0] * x[0] * x[1], 1e-12);
}

int main() {
  checkReferences();
  checkSelectedOverload();
  checkTaggedRecursion();
  checkFunctor();
  checkLambda();
  checkUnrolled();
  return check::report();
}
