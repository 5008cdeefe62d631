// lgamma and tgamma differentiate through the polygamma functions, to any
// order: gradients against closed forms of digamma (ψ(1) = −γ, ψ(1/2) =
// −γ − 2 ln 2, ψ(n + 1/2), the reflection at negative x), Hessian-vector
// products against trigamma (ψ'(1) = π²/6, ψ'(1/2) = π²/2), and central
// differences of the gradient at points near the poles and far out, in
// double and float, reverse and forward mode, at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

[[ct::differentiable]] double logGamma(double x) { return std::lgamma(x); }
[[ct::differentiable]] double gammaOf(double x) { return std::tgamma(x); }
[[ct::differentiable]] float logGammaF(float x) { return lgammaf(x); }
[[ct::differentiable]] double mixed(double x, double y) {
  return std::lgamma(x * y) + std::tgamma(y) / (1 + x);
}

static constexpr double kEuler = 0.57721566490153286;
static constexpr double kPi = 3.14159265358979324;

static double digammaOf(double x) {
  double d = 0;
  ct::gradient<logGamma>(x, &d);
  return d;
}

int main() {
  using check::near;
  near("psi(1)", digammaOf(1.0), -kEuler, 1e-14);
  near("psi(1/2)", digammaOf(0.5), -kEuler - 2 * std::log(2.0), 1e-14);
  // ψ(n + 1/2) = −γ − 2 ln 2 + Σ_{k=1..n} 2 / (2k − 1).
  double sum = -kEuler - 2 * std::log(2.0);
  for (int k = 1; k <= 20; ++k) {
    sum += 2.0 / (2 * k - 1);
    near("psi(n + 1/2)", digammaOf(k + 0.5), sum, 1e-14);
  }
  // Reflection: ψ(−1/2) = ψ(3/2) (cot(−π/2) = 0); ψ(1 − x) − ψ(x) = π cot(πx).
  near("psi(-1/2)", digammaOf(-0.5), 2 - kEuler - 2 * std::log(2.0), 1e-13);
  for (double x : {-2.3, -0.7, 0.3, 4.6}) {
    near("reflection", digammaOf(1 - x) - digammaOf(x),
         kPi / std::tan(kPi * x), 1e-12);
  }
  // Γ'(x) = Γ(x) ψ(x): Γ'(1) = −γ, Γ'(2) = 1 − γ.
  double dg = 0;
  ct::gradient<gammaOf>(1.0, &dg);
  near("gamma'(1)", dg, -kEuler, 1e-14);
  dg = 0;
  ct::gradient<gammaOf>(2.0, &dg);
  near("gamma'(2)", dg, 1 - kEuler, 1e-14);
  near("gamma jvp", ct::jvp<gammaOf>(2.0, 1.0).tangent, 1 - kEuler, 1e-14);
  // Second order: trigamma.
  double h = 0;
  ct::hvp<logGamma>(1.0, 1.0, &h);
  near("psi'(1)", h, kPi * kPi / 6, 1e-13);
  h = 0;
  ct::hvp<logGamma>(0.5, 1.0, &h);
  near("psi'(1/2)", h, kPi * kPi / 2, 1e-13);
  // Near the poles and far out: the gradient's central difference.
  for (double x : {1e-3, 0.02, -0.999, -3.5, 11.9, 12.1, 95.0, 1e5}) {
    double step = 1e-6 * std::fmax(std::fabs(x), 1e-2);
    auto d = [&](double t) { return digammaOf(t); };
    double hv = 0;
    ct::hvp<logGamma>(x, 1.0, &hv);
    near("psi' by differences", hv, check::centralDifference(d, x, step),
         1e-6);
    near("psi by differences", digammaOf(x),
         check::centralDifference([](double t) { return std::lgamma(t); }, x,
                                  step),
         1e-6);
  }
  // float.
  float df = 0;
  ct::gradient<logGammaF>(3.5f, &df);
  near("float psi(7/2)", df, -kEuler - 2 * std::log(2.0) + 2 + 2.0 / 3 + 0.4,
       1e-6);
  // A composition, both parameters.
  double dx = 0, dy = 0;
  ct::gradient<mixed>(1.5, 2.5, &dx, &dy);
  near("mixed d/dx", dx,
       check::centralDifference([](double t) { return mixed(t, 2.5); }, 1.5),
       1e-8);
  near("mixed d/dy", dy,
       check::centralDifference([](double t) { return mixed(1.5, t); }, 2.5),
       1e-8);
  return check::report();
}
