//===- scalar-derivatives.h - Checks of a function of one variable --------===//
//
// checkScalar<F>(name, closedForm, x): F's value, its primal, its reverse
// derivative (ct::gradient) and its forward derivative (ct::jvp) at x
// against a closed form written without the code under test, and against
// the closed form's central difference.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_TEST_SCALAR_DERIVATIVES_H
#define COTANGENT_TEST_SCALAR_DERIVATIVES_H

#include <cotangent/cotangent.h>

#include <cstdio>

#include "check.h"

namespace check {

template <double (*F)(double)>
void checkScalar(const char *name, double (*closedForm)(double), double x) {
  char label[128];
  double dx = 0;
  double value = ct::gradient<F>(x, &dx);
  double slope = centralDifference(closedForm, x);
  std::snprintf(label, sizeof label, "%s value", name);
  near(label, value, closedForm(x), 1e-13);
  std::snprintf(label, sizeof label, "%s primal", name);
  near(label, F(x), closedForm(x), 1e-13);
  std::snprintf(label, sizeof label, "%s reverse", name);
  near(label, dx, slope, 1e-7);
  std::snprintf(label, sizeof label, "%s forward", name);
  near(label, ct::jvp<F>(x, 1.0).tangent, slope, 1e-7);
}

} // namespace check

#endif // COTANGENT_TEST_SCALAR_DERIVATIVES_H
