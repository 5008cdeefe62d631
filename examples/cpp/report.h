// Prints each derivative next to central finite differences (h = 1e-6) and
// counts the ones that disagree: the examples' exit status.
#ifndef COTANGENT_EXAMPLES_REPORT_H
#define COTANGENT_EXAMPLES_REPORT_H

#include <cmath>
#include <cstdio>

inline int disagreements = 0;

inline void report(const char *what, int index, double value,
                   double reference) {
  double rel =
      std::fabs(value - reference) / std::fmax(1.0, std::fabs(reference));
  bool ok = rel < 1e-6;
  disagreements += !ok;
  std::printf("  %-9s [%d] % .12f   finite differences % .12f   rel. "
              "difference %.1e%s\n",
              what, index, value, reference, rel, ok ? "" : "  <-- DISAGREES");
}

/// Central difference of g along coordinate i of x (n doubles).
template <class G> double partial(G g, double *x, int i, double h = 1e-6) {
  double saved = x[i];
  x[i] = saved + h;
  double up = g(x);
  x[i] = saved - h;
  double down = g(x);
  x[i] = saved;
  return (up - down) / (2 * h);
}

/// Central difference of g along direction v from x (n doubles).
template <class G>
double directional(G g, const double *x, const double *v, int n,
                   double h = 1e-6) {
  double up[64], down[64];
  for (int i = 0; i < n; ++i) {
    up[i] = x[i] + h * v[i];
    down[i] = x[i] - h * v[i];
  }
  return (g(up) - g(down)) / (2 * h);
}

#endif
