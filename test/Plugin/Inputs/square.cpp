#include <cotangent/cotangent.h>

[[ct::differentiable]] double square(double x, double y) { return x * x + 3 * x * y; }

double use(double x, double y, double *grad) {
  return ct::gradient<square>(x, y, &grad[0], &grad[1]);
}
