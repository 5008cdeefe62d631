// The Rosenbrock function in 4 variables: value, gradient, JVP and HVP,
// each against central finite differences.
#include <cotangent/cotangent.h>

#include "report.h"

constexpr int N = 4;

[[ct::differentiable]] double rosenbrock(const double *x) {
  double s = 0;
  for (int i = 0; i + 1 < N; ++i) {
    double a = x[i + 1] - x[i] * x[i];
    double b = 1 - x[i];
    s += 100 * a * a + b * b;
  }
  return s;
}

int main() {
  double x[N] = {-1.2, 1.0, 0.8, 1.1}, v[N] = {1.0, -0.5, 0.25, 2.0};
  double grad[N] = {}, hv[N] = {};
  std::printf("Rosenbrock, n = %d\n", N);
  double value = ct::gradient<rosenbrock>(x, grad);
  report("value", 0, value, rosenbrock(x));
  for (int i = 0; i < N; ++i)
    report("gradient", i, grad[i], partial(rosenbrock, x, i));
  report("JVP", 0, ct::jvp<rosenbrock>(x, v).tangent,
         directional(rosenbrock, x, v, N));
  ct::hvp<rosenbrock>(x, v, hv);
  for (int i = 0; i < N; ++i) {
    // (H v)_i = d/dt [df/dx_i](x + t v) at t = 0.
    auto gradientAlongV = [&](double t) {
      double y[N], g[N] = {};
      for (int j = 0; j < N; ++j)
        y[j] = x[j] + t * v[j];
      ct::gradient<rosenbrock>(y, g);
      return g[i];
    };
    report("HVP", i, hv[i],
           (gradientAlongV(1e-6) - gradientAlongV(-1e-6)) / 2e-6);
  }
  return disagreements != 0;
}
