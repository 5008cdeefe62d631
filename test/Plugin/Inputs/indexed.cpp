#include <cotangent/cotangent.h>

// Loads through a pointer: what AddressSanitizer checks.
[[ct::differentiable]] double scaled(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

double use(const double *x, int n, double *dx) {
  return ct::gradient<scaled>(x, n, dx);
}
