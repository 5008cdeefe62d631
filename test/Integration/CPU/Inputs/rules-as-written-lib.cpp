#include "rules-as-written-lib.h"

#include <cmath>

int solverCalls = 0;

void cholesky_solve(Matrix3 a, const double *b, double *x) {
  ++solverCalls;
  double l[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j <= i; ++j) {
      double s = a.m[i * 3 + j];
      for (int k = 0; k < j; ++k)
        s -= l[i * 3 + k] * l[j * 3 + k];
      l[i * 3 + j] = i == j ? std::sqrt(s) : s / l[j * 3 + j];
    }
  double y[3];
  for (int i = 0; i < 3; ++i) {
    double s = b[i];
    for (int k = 0; k < i; ++k)
      s -= l[i * 3 + k] * y[k];
    y[i] = s / l[i * 3 + i];
  }
  for (int i = 2; i >= 0; --i) {
    double s = y[i];
    for (int k = i + 1; k < 3; ++k)
      s -= l[k * 3 + i] * x[k];
    x[i] = s / l[i * 3 + i];
  }
}
