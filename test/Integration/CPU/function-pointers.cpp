// Function pointers as values: chosen at run time (`c ? f : g`),
// reassigned, kept in arrays, in struct fields (a layer's activation) and
// in a global, compared (`g == f`, `!g`), passed to a helper that calls
// itself (so it is not lowered in place), returned by a helper, given by the
// caller as an argument of the differentiated function, `<cmath>`'s own
// functions among them (`{std::sin, std::tanh}`); a static function's
// address is the one the caller's code compares; a `std::vector` of them
// grown by `push_back`, a struct of the caller's holding them, a callback
// taking pointers; lambdas without captures passed as function pointers
// (`integrate([](double t) { ... }, a, b)`, `+[]`) and kept in variables,
// arrays and fields; C's callbacks taking a `void *` context, chosen at run
// time; `std::function`s made
// from the function's lambdas or from named functions, called and passed to
// helpers. Also
// `std::max` and
// `std::min` of braced lists. Every mode (reverse, forward, Hessian-vector
// products, vector lanes) against central differences, at -O0 and -O2
// (and at -O1 under AddressSanitizer).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"
#include "modes.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

double square(double t) { return t * t; }
static double cube(double t) { return t * t * t; }
double softplus(double t) { return std::log1p(std::exp(t)); }

using Activation = double (*)(double);

struct Layer {
  double w;
  Activation act;
  double b;
};

// Calls itself: a function of its own, whose `g` is an address it compares.
static double applyTimes(Activation g, double x, int n) {
  return n == 0 ? x : applyTimes(g, g(x) * 0.5, n - 1);
}

static Activation pick(int k) { return k > 0 ? square : softplus; }

Activation global = cube;

// A network whose layers carry their activation.
double layers(const double *x, int n) {
  Layer net[3] = {
      {x[0], square, 0.1}, {0.5, softplus, x[1]}, {x[2], cube, 0.0}};
  double h = 0.3;
  for (int i = 0; i < 3; ++i)
    h = net[i].act(net[i].w * h + net[i].b);
  return h;
}

// Pointers chosen, reassigned, compared, tested, passed and returned.
double chosen(const double *x, int n) {
  Activation g = n > 2 ? square : cube;
  double s = g(x[0]);
  if (g == square)
    s += x[2];
  g = softplus;
  s += (*g)(x[1]);
  Activation none = nullptr;
  if (!none && g)
    s += applyTimes(pick(n), x[2], 2);
  s += global(x[1]);
  return s;
}

// A table with the C library's functions in it.
double table(const double *x, int n) {
  Activation each[] = {square, std::sin, std::tanh, cube};
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += each[(i + 1) % 4](x[i]) * each[i % 4](x[(i + 1) % n]);
  return s;
}

// A pointer to an element of a global table of them.
Activation slots[2] = {square, cube};
double throughSlot(const double *x, int n) {
  Activation *slot = &slots[n % 2];
  return (*slot)(x[0]) + (**slot)(x[1]) * x[2];
}

// The caller's pointer: the address its code took.
double given(const double *x, Activation g) { return g(x[0]) * g(x[1]); }

// The caller's struct holds the pointers; a std::vector of them grows.
double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}
struct Model {
  Activation act;
  double w;
  double (*inner)(const double *, const double *, int);
};
double model(const Model &m, const double *x, int n) {
  std::vector<Activation> acts = {square, softplus};
  acts.push_back(m.act);
  double s = 0;
  for (size_t i = 0; i < acts.size(); ++i)
    s += acts[i](m.w * x[i % n]);
  return s + m.inner(x, x, n);
}
const Model kModel{cube, 0.7, dot};
double withModel(const double *x, int n) { return model(kModel, x, n); }

// Lambdas without captures given as function pointers: their bodies.
static double integrate(double (*f)(double), double a, double b, int n) {
  double h = (b - a) / n, s = 0;
  for (int i = 0; i < n; ++i)
    s += f(a + (i + 0.5) * h) * h;
  return s;
}
static double twice(double (*f)(double), double x) { return f(f(x)); }
double lambdas(const double *x, int n) {
  double s = integrate([](double t) { return t * t * t; }, 0.0, x[0], 8);
  return s + twice(+[](double t) { return std::sin(t) + t; }, x[1]) * x[2];
}

// Lambdas without captures kept as function pointers (their static
// invokers' addresses): in variables, `auto` of `+[]`, a table, a struct
// field, a choice, and a helper keeping the one it is given.
static double keepAndCall(Activation f, double t) {
  Activation kept = f;
  return kept(t) + kept(0.5 * t);
}
double keptLambdas(const double *x, int n) {
  Activation ratio = [](double t) { return t / (1 + t * t); };
  auto soft = +[](double t) { return std::log1p(std::exp(t)); };
  Layer net[2] = {{x[1], ratio, 0.1}, {x[n - 1], soft, -0.2}};
  double h = ratio(x[0]);
  for (const Layer &layer : net)
    h = layer.act(layer.w * h + layer.b);
  Activation chosen = x[0] > 0.5 ? ratio : soft;
  h += chosen(x[1]) + keepAndCall([](double t) { return t * t * t; }, x[n - 1]);
  return h * keepAndCall(n > 2 ? ratio : soft, x[0]);
}

// C's callbacks: a function taking a `void *` context that it casts to its
// parameters, called through a pointer chosen at run time (each candidate
// is lowered where the pointer is compared with it).
struct Params {
  double a, b;
};
using Callback = double (*)(double, void *);
static double quadratic(double t, void *context) {
  const Params *p = static_cast<const Params *>(context);
  return p->a * t * t + p->b;
}
static double wave(double t, void *context) {
  Params *p = (Params *)context;
  return std::sin(p->a * t) * p->b;
}
static double integrateC(Callback f, void *context, double lo, double hi) {
  double h = (hi - lo) / 10, s = 0;
  for (int i = 0; i < 10; ++i)
    s += f(lo + (i + 0.5) * h, context) * h;
  return s;
}
double callbacks(const double *x, int n) {
  Params p{x[0], x[1]};
  Callback table[2] = {&quadratic, &wave};
  double s = 0;
  for (int k = 0; k < 2; ++k)
    s += integrateC(table[k], &p, 0.0, x[n - 1]);
  return s + integrateC(table[n > 2], &p, x[0], x[n - 1]);
}

// std::function made from lambdas of the function: the lambdas' calls.
static double integrateFn(const std::function<double(double)> &h, double a,
                          double b) {
  double step = (b - a) / 6, s = 0;
  for (int i = 0; i < 6; ++i)
    s += h(a + (i + 0.5) * step) * step;
  return s;
}
static double applyTwice(std::function<double(double)> g, double t) {
  return g(g(t));
}
double functions(const double *x, int n) {
  std::function<double(double)> h = [&](double t) {
    return x[0] * t * t + x[1];
  };
  double s = integrateFn(h, 0.0, x[2]) + h(x[1]);
  s += applyTwice([x](double t) { return std::sin(t) * x[2]; }, x[0]);
  // Made from named functions, called and passed on.
  std::function<double(double)> named = softplus;
  return s + named(x[2]) * integrateFn(square, x[0], x[1]);
}

double lists(const double *x, int n) {
  double largest = std::max({x[0], x[1] * x[1], x[2], 0.25});
  double smallest = std::min({x[0] + 1.0, x[1], x[2] * x[2]});
  return largest * smallest + std::max({x[0]}) * x[2];
}

int main() {
  const double point[3] = {0.4, 0.7, 1.1};
  check::checkModes<layers>("layers", point, 3);
  check::checkModes<chosen>("chosen", point, 3);
  check::checkModes<table>("table", point, 3);
  check::checkModes<throughSlot>("slot", point, 3);
  check::checkModes<lists>("lists", point, 3);
  check::checkModes<withModel>("model", point, 3);
  check::checkModes<lambdas>("lambdas", point, 3);
  check::checkModes<functions>("std::function", point, 3);
  check::checkModes<keptLambdas>("kept lambdas", point, 3);
  check::checkModes<keptLambdas>("kept lambdas n=2", point, 2);
  check::checkModes<callbacks>("callbacks", point, 3);
  check::checkModes<callbacks>("callbacks n=2", point, 2);
  // The other branch of `n > 2 ? square : cube`.
  check::checkModes<chosen>("chosen n=2", point, 2);

  // Every mode of a function given a pointer, against differences.
  for (Activation g : {&square, &cube, &softplus}) {
    double x[2] = {0.4, 0.7}, dx[2] = {};
    double value = ct::gradient<given>(x, g, dx);
    check::near("given value", value, given(x, g), 1e-14);
    for (int i = 0; i < 2; ++i)
      check::near("given d/dx",
                  dx[i], check::differenceAt(x, i, [&] { return given(x, g); }),
                  1e-7);
    double t[2] = {1.0, -0.5};
    check::near("given jvp", ct::jvp<given>(x, g, t).tangent,
                dx[0] - 0.5 * dx[1], 1e-12);
    double seeds[4] = {1, 0, 0, 1};
    auto lanes = ct::jvp<given, ct::lanes<2>>(x, g, seeds);
    check::near("given lane 0", lanes.tangent[0], dx[0], 1e-12);
    check::near("given lane 1", lanes.tangent[1], dx[1], 1e-12);
    double hv[2] = {};
    ct::hvp<given>(x, g, t, hv);
    for (int i = 0; i < 2; ++i) {
      auto gradientAlong = [&](double h) {
        double moved[2] = {x[0] + h * t[0], x[1] + h * t[1]}, d[2] = {};
        ct::gradient<given>(moved, g, d);
        return d[i];
      };
      check::near("given hvp", hv[i],
                  check::centralDifference(gradientAlong, 0.0, 1e-5), 1e-6);
    }
  }
  // The caller's struct of pointers, as a constant parameter.
  double x[3] = {0.4, 0.7, 1.1}, dx[3] = {};
  double value = ct::gradient<model, ct::wrt<1>>(kModel, x, 3, dx);
  check::near("model value", value, model(kModel, x, 3), 1e-14);
  for (int i = 0; i < 3; ++i)
    check::near("model d/dx", dx[i],
                check::differenceAt(x, i, [&] { return model(kModel, x, 3); }),
                1e-7);
  return check::report();
}
