// std::valarray, lowered from the library's own code as the program's own
// classes that own memory are (its storage comes from '::operator new' and
// goes back to '::operator delete', which differentiable code lowers as
// malloc and free): construction from a pointer and from a value, compound
// assignment, the library's expression templates (sums, products, scalars),
// <cmath>'s functions of valarrays, sum/min/max, slices read and written,
// cshift, apply, resize; a valarray parameter with a valarray derivative;
// a class of the program's own that allocates through '::operator new'.
// Value, gradient against central differences, forward mode,
// Hessian-vector products and lanes (modes.h). -O0 and -O2, and under
// AddressSanitizer (no leak).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address,undefined %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <new>
#include <valarray>

#include "check.h"
#include "modes.h"

using check::near;

static double square(double t) { return t * t; }

/// Expression templates and <cmath> over valarrays.
[[ct::differentiable]] double expressions(const double *x, int n) {
  std::valarray<double> v(x, n), w(1.5, n);
  w += v;
  w *= 0.5;
  std::valarray<double> e =
      std::exp(-v) + std::sqrt(w) * std::log(w) + std::pow(v, 2.0);
  return e.sum() + e.max() - 0.5 * e.min() + std::abs(v - 0.25).sum();
}

/// Slices read and written, cshift, apply, resize.
[[ct::differentiable]] double slicesAndShifts(const double *x, int n) {
  std::valarray<double> v(x, n);
  std::valarray<double> s = v[std::slice(1, 2, 2)];
  double a = (s * s).sum();
  std::valarray<double> c = v.cshift(1) * v;
  a += c.sum() + v.apply(square).sum();
  v[std::slice(0, 2, 1)] = 3.0;
  a += (v * v * v).sum();
  v.resize(3, 1.0);
  return a + std::sin(v).sum();
}

/// A valarray copied, assigned and reassigned in a loop (a state updated
/// step by step, each step's temporaries freed).
[[ct::differentiable]] double steps(const double *x, int n) {
  std::valarray<double> state(x, n), velocity(0.0, n);
  for (int k = 0; k < 4; ++k) {
    std::valarray<double> force = -std::sin(state);
    velocity += 0.1 * force;
    state = state + 0.1 * velocity;
  }
  std::valarray<double> last = state;
  return (last * last).sum();
}

[[ct::differentiable]] double weighted(const std::valarray<double> &x) {
  std::valarray<double> y = x * x;
  return (y * std::sin(x)).sum();
}

/// A buffer of the program's own allocating through '::operator new'.
class Buffer {
public:
  explicit Buffer(int n)
      : size(n), data(static_cast<double *>(::operator new(n * sizeof(double)))) {
  }
  Buffer(const Buffer &) = delete;
  ~Buffer() { ::operator delete(data); }
  double &operator[](int i) { return data[i]; }
  int size;

private:
  double *data;
};

[[ct::differentiable]] double rawStorage(const double *x, int n) {
  Buffer b(n);
  for (int i = 0; i < n; ++i)
    b[i] = x[i] * std::exp(0.5 * x[i]);
  double s = 0;
  for (int i = 0; i + 1 < b.size; ++i)
    s += b[i] * b[i + 1];
  double *extra = static_cast<double *>(::operator new[](sizeof(double) * 2));
  extra[0] = s;
  extra[1] = std::cos(s);
  double r = extra[0] * extra[1];
  ::operator delete[](extra);
  return r;
}

int main() {
  const double point[5] = {0.3, -0.7, 1.1, 0.45, -0.2};
  check::checkModes<expressions>("expressions", point, 5);
  check::checkModes<slicesAndShifts>("slices", point, 5);
  check::checkModes<steps>("steps", point, 5);
  check::checkModes<rawStorage>("operator new", point, 5);

  // A valarray parameter: its derivative is a valarray of the same size.
  std::valarray<double> x(point, 5), dx(0.0, 5);
  double value = ct::gradient<weighted>(x, &dx);
  near("valarray parameter value", value, weighted(x), 1e-14);
  for (int i = 0; i < 5; ++i) {
    double xi = point[i];
    near("valarray parameter d/dx",
         dx[i], 2 * xi * std::sin(xi) + xi * xi * std::cos(xi), 1e-12);
  }
  return check::report();
}
