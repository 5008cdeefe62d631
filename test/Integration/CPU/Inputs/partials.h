//===- partials.h - Both partials of a function of two numbers ------------===//
//
// partials<F>(name, x, y, dx, dy, tol): F's partial derivatives at (x, y),
// reverse (ct::gradient) and forward (ct::jvp along each axis), against
// closed forms the test writes.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_TEST_PARTIALS_H
#define COTANGENT_TEST_PARTIALS_H

#include <cotangent/cotangent.h>

#include "check.h"

template <auto F, class T>
void partials(const char *name, T x, T y, double dx, double dy, double tol) {
  T gx = 0, gy = 0;
  ct::gradient<F>(x, y, &gx, &gy);
  check::near(name, gx, dx, tol);
  check::near(name, gy, dy, tol);
  check::near(name, ct::jvp<F>(x, y, T(1), T(0)).tangent, dx, tol);
  check::near(name, ct::jvp<F>(x, y, T(0), T(1)).tangent, dy, tol);
}

#endif // COTANGENT_TEST_PARTIALS_H
