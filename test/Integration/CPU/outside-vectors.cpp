// std::vector variables outside the differentiable function: a global
// workspace resized and filled by the function, a static local history
// grown by push_back without reserve, a static data member assigned a
// range, a global vector of structs, a float buffer, a global filled by a
// helper the function calls, and global tables only read (non-const and
// const). Each derivative call gives a vector the function changes a copy of
// its own (docs/Memory.md): value, gradient against central differences,
// forward mode, Hessian-vector products and vector lanes (modes.h); the
// vector ends as the primal leaves it (size and elements), and a call with
// more elements than its capacity grows it. -O0 and -O2.
// A parameter given the elements of such a vector would see the variable,
// not the call's copy: that call stops with a message naming both.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: not --crash %t2 aliased 2>&1 | FileCheck %s --check-prefix=ALIASED
// ALIASED: cotangent: 'aliased' writes 'work' by name and is given its memory through parameter 'p': a derivative call keeps such a variable in a copy of its own, which the parameter would not see; reach the variable one way only
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "check.h"
#include "modes.h"

using check::near;

std::vector<double> work;

// work = sin(x); sum of neighbours' products.
[[ct::differentiable]] double workspace(const double *x, int n) {
  work.resize(n);
  for (int i = 0; i < n; ++i)
    work[i] = std::sin(x[i]);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += work[i] * work[(i + 1) % n];
  return s;
}

// A history of squares kept between calls, cleared and grown each call.
[[ct::differentiable]] double history(const double *x, int n) {
  static std::vector<double> seen;
  seen.clear();
  double acc = 0;
  for (int i = 0; i < n; ++i) {
    acc = 0.5 * acc + x[i] * x[i];
    seen.push_back(acc);
  }
  double s = 0;
  for (double v : seen)
    s += std::exp(-v) * v;
  return s + seen.back() * static_cast<double>(seen.size());
}

struct Solver {
  static std::vector<double> residuals;
};
std::vector<double> Solver::residuals;

[[ct::differentiable]] double staticMember(const double *x, int n) {
  Solver::residuals.assign(x, x + n);
  for (int i = 1; i < n; ++i)
    Solver::residuals[i] -= 0.3 * Solver::residuals[i - 1] * x[i];
  double s = 0;
  for (int i = 0; i < static_cast<int>(Solver::residuals.size()); ++i)
    s += Solver::residuals[i] * Solver::residuals[i];
  return s;
}

struct Point {
  double a, b;
};
std::vector<Point> points;

[[ct::differentiable]] double structs(const double *x, int n) {
  points.clear();
  for (int i = 0; i + 1 < n; ++i)
    points.push_back({x[i] * x[i + 1], std::cos(x[i])});
  double s = 0;
  for (const Point &p : points)
    s += p.a * p.b;
  return s;
}

std::vector<float> buffer;

[[ct::differentiable]] double floats(const double *x, int n) {
  buffer.resize(n);
  for (int i = 0; i < n; ++i)
    buffer[i] = static_cast<float>(x[i]) * 2.0f;
  double s = 0;
  for (float v : buffer)
    s += static_cast<double>(v) * v;
  return s;
}

std::vector<double> scratch;

static void fill(const double *x, int n) {
  scratch.resize(n);
  for (int i = 0; i < n; ++i)
    scratch[i] = x[i] * (i + 1);
}

[[ct::differentiable]] double throughHelper(const double *x, int n) {
  fill(x, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::tanh(scratch[i]) * x[(i + 2) % n];
  return s;
}

std::vector<double> weights = {0.5, 1.5, -2.0, 3.0, 0.25, 1.0, -1.0, 2.0};
const std::vector<double> offsets = {0.1, -0.2, 0.3, 0.0, 0.5, -0.5, 1.0, 2.0};

// Tables only read: no copy, no derivative.
[[ct::differentiable]] double tables(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += weights[i] * (x[i] - offsets[i]) * (x[i] - offsets[i]);
  return s + static_cast<double>(weights.size());
}

[[ct::differentiable]] double aliased(const double *p, double x) {
  work.assign(3, x);
  return p[0] * x;
}

/// Each mode, then the vector as the primal leaves it.
template <double (*F)(const double *, int)>
static void checkLeftAsPrimal(const char *name, const std::vector<double> &in,
                              const std::vector<double> &variable) {
  check::checkModes<F>(name, in.data(), static_cast<int>(in.size()));
  std::vector<double> g(in.size());
  ct::gradient<F>(in.data(), static_cast<int>(in.size()), g.data());
  std::vector<double> afterDerivative = variable;
  F(in.data(), static_cast<int>(in.size()));
  near(name, static_cast<double>(afterDerivative.size()),
       static_cast<double>(variable.size()), 0);
  for (size_t i = 0; i < variable.size(); ++i)
    near(name, afterDerivative[i], variable[i], 0);
}

int main(int argc, char **argv) {
  if (argc > 1 && !std::strcmp(argv[1], "aliased")) {
    work.assign(3, 1.0);
    double d = 0, dx = 0;
    ct::gradient<aliased>(work.data(), 2.0, &d, &dx);
    return 0;
  }
  std::vector<double> small = {0.3, -0.7, 1.1, 0.4};
  std::vector<double> large = {0.2, 0.9, -0.4, 1.3, 0.6, -1.1, 0.8, 0.5, -0.3};
  checkLeftAsPrimal<workspace>("workspace", small, work);
  // More elements than the capacity the last call left: the copy grows it.
  work.shrink_to_fit();
  checkLeftAsPrimal<workspace>("workspace grown", large, work);
  checkLeftAsPrimal<workspace>("workspace shrunk", small, work);
  check::checkModes<history>("static local", large.data(), 9);
  checkLeftAsPrimal<staticMember>("static member", large,
                                  Solver::residuals);
  check::checkModes<structs>("structs", large.data(), 9);
  // (float rounding: against the closed form 8 x, not differences.)
  std::vector<double> g(4);
  ct::gradient<floats>(small.data(), 4, g.data());
  double tangent[4] = {1, -1, 2, 0.5}, dot = 0;
  for (int i = 0; i < 4; ++i) {
    near("floats: gradient", g[i], 8 * small[i], 1e-6);
    dot += 8 * small[i] * tangent[i];
  }
  near("floats: jvp", ct::jvp<floats>(small.data(), 4, tangent).tangent, dot,
       1e-6);
  near("floats: left as the primal", buffer[3],
       static_cast<float>(small[3]) * 2.0f, 0);
  checkLeftAsPrimal<throughHelper>("helper", large, scratch);
  check::checkModes<tables>("tables", large.data(), 8);
  return check::report();
}
