//===- modes.h - Every mode of one function, checked ----------------------===//
//
// checkModes<F>(name, x, n) for `double F(const double *x, int n)`: the
// value, the gradient against central differences, forward mode against the
// gradient, Hessian-vector products against differences of gradients, and
// two forward lanes against forward mode and the gradient (unless `Lanes`
// is false: for what vector mode does not support yet). `valueTolerance`
// bounds the derivative's value against F's own, relatively: more than
// rounding where the derivative computes the value in another order (a
// matrix product summed by other loops than the library's).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_TEST_MODES_H
#define COTANGENT_TEST_MODES_H

#include <cotangent/cotangent.h>

#include <cstdio>

#include "check.h"

namespace check {

template <double (*F)(const double *, int), bool Lanes = true>
void checkModes(const char *name, const double *point, int n,
                double valueTolerance = 1e-14) {
  constexpr int kMax = 16;
  char label[160];
  double x[kMax], dx[kMax] = {}, t[kMax];
  for (int i = 0; i < n; ++i) {
    x[i] = point[i];
    t[i] = 0.5 - 0.25 * i;
  }
  double value = ct::gradient<F>(x, n, dx);
  std::snprintf(label, sizeof label, "%s value", name);
  near(label, value, F(x, n), valueTolerance);
  double directional = 0;
  for (int i = 0; i < n; ++i) {
    std::snprintf(label, sizeof label, "%s d/dx%d", name, i);
    near(label, dx[i], differenceAt(x, i, [&] { return F(x, n); }), 1e-7);
    directional += dx[i] * t[i];
  }
  std::snprintf(label, sizeof label, "%s jvp", name);
  near(label, ct::jvp<F>(x, n, t).tangent, directional, 1e-12);
  // H t against the difference of gradients along t.
  double hv[kMax] = {};
  ct::hvp<F>(x, n, t, hv);
  for (int i = 0; i < n; ++i) {
    auto gradientAlong = [&](double h) {
      double moved[kMax], d[kMax] = {};
      for (int k = 0; k < n; ++k)
        moved[k] = x[k] + h * t[k];
      ct::gradient<F>(moved, n, d);
      return d[i];
    };
    std::snprintf(label, sizeof label, "%s hvp %d", name, i);
    near(label, hv[i], centralDifference(gradientAlong, 0.0, 1e-5), 1e-6);
  }
  // Two lanes: the tangents along t and along the first coordinate.
  if constexpr (Lanes) {
    double seeds[2 * kMax] = {};
    for (int i = 0; i < n; ++i) {
      seeds[2 * i] = t[i];
      seeds[2 * i + 1] = i == 0;
    }
    auto both = ct::jvp<F, ct::lanes<2>>(x, n, seeds);
    std::snprintf(label, sizeof label, "%s lane 0", name);
    near(label, both.tangent[0], directional, 1e-12);
    std::snprintf(label, sizeof label, "%s lane 1", name);
    near(label, both.tangent[1], dx[0], 1e-12);
  }
}

} // namespace check

#endif // COTANGENT_TEST_MODES_H
