// CT_CUSTOM_VJP from C++: q(A, b) = b^T A^{-1} b for a symmetric positive
// definite 3x3 A. The forward half factorises A (Cholesky), solves for
// z = A^{-1} b and saves the factor and z as residuals; the backward half
// uses z alone: dq/db = 2 z, dq/dA = -z z^T. The function's own body
// (Gaussian elimination, no factor to reuse) is what the finite
// differences check. Each half prints a line per call: the counts show
// that the forward half runs once per call of q, inside a loop too (its
// residuals go on the tape or are used in place), and that the reverse
// sweep never factorises again. The residuals type may be any trivially
// copyable struct of one scalar type (the halves may be noexcept). A
// Hessian-vector product is reverse mode over forward mode: it goes through
// a forward-mode rule bound beside the split one.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 > %t0.out && FileCheck %s < %t0.out
// RUN: grep -c factorise %t0.out | FileCheck %s --check-prefix=FACTORISED
// RUN: grep -c backward %t0.out | FileCheck %s --check-prefix=BACKWARD
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 > %t2.out && FileCheck %s < %t2.out
// RUN: grep -c factorise %t2.out | FileCheck %s --check-prefix=FACTORISED
// RUN: grep -c backward %t2.out | FileCheck %s --check-prefix=BACKWARD
// CHECK-NOT: FAIL
// CHECK: checks: 10 passed, 0 failed
// One call of q, then three in a loop: four each.
// FACTORISED: {{^}}4{{$}}
// BACKWARD: {{^}}4{{$}}

#include <cotangent/cotangent.h>

#include "check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

/// b^T A^{-1} b by Gaussian elimination (no pivoting: A is SPD).
double quad(const double *A, const double *b) {
  double m[9], y[3];
  for (int i = 0; i < 9; ++i)
    m[i] = A[i];
  for (int i = 0; i < 3; ++i)
    y[i] = b[i];
  for (int k = 0; k < 3; ++k)
    for (int i = k + 1; i < 3; ++i) {
      double f = m[i * 3 + k] / m[k * 3 + k];
      for (int j = k; j < 3; ++j)
        m[i * 3 + j] -= f * m[k * 3 + j];
      y[i] -= f * y[k];
    }
  double z[3];
  for (int i = 2; i >= 0; --i) {
    double s = y[i];
    for (int j = i + 1; j < 3; ++j)
      s -= m[i * 3 + j] * z[j];
    z[i] = s / m[i * 3 + i];
  }
  return b[0] * z[0] + b[1] * z[1] + b[2] * z[2];
}

struct Factorised {
  double lower[9]; // Cholesky factor, row-major, upper part zero
  double solution[3];
};

double quadForward(const double *A, const double *b,
                   Factorised *res) noexcept {
  std::printf("factorise\n");
  double *L = res->lower;
  for (int i = 0; i < 9; ++i)
    L[i] = 0;
  for (int j = 0; j < 3; ++j) {
    double d = A[j * 3 + j];
    for (int k = 0; k < j; ++k)
      d -= L[j * 3 + k] * L[j * 3 + k];
    L[j * 3 + j] = std::sqrt(d);
    for (int i = j + 1; i < 3; ++i) {
      double s = A[i * 3 + j];
      for (int k = 0; k < j; ++k)
        s -= L[i * 3 + k] * L[j * 3 + k];
      L[i * 3 + j] = s / L[j * 3 + j];
    }
  }
  double y[3];
  for (int i = 0; i < 3; ++i) {
    double s = b[i];
    for (int k = 0; k < i; ++k)
      s -= L[i * 3 + k] * y[k];
    y[i] = s / L[i * 3 + i];
  }
  double *z = res->solution;
  for (int i = 2; i >= 0; --i) {
    double s = y[i];
    for (int k = i + 1; k < 3; ++k)
      s -= L[k * 3 + i] * z[k];
    z[i] = s / L[i * 3 + i];
  }
  return b[0] * z[0] + b[1] * z[1] + b[2] * z[2];
}

void quadBackward(const Factorised *res, const double *A, const double *b,
                  double dret, double *dA, double *db) {
  std::printf("backward\n");
  const double *z = res->solution;
  for (int i = 0; i < 3; ++i) {
    db[i] += 2 * z[i] * dret;
    for (int j = 0; j < 3; ++j)
      dA[i * 3 + j] -= z[i] * z[j] * dret;
  }
}

CT_CUSTOM_VJP(quad, quadForward, quadBackward);

/// sum_k q(A, b_k) over m right-hand sides: the rule inside a loop.
[[ct::differentiable]] double quadSum(const double *A, const double *B,
                                      int m) {
  double s = 0;
  for (int k = 0; k < m; ++k)
    s += std::sin(quad(A, B + 3 * k));
  return s;
}

/// x^3 y with a split rule and a forward-mode rule: an HVP (reverse mode
/// over forward mode) differentiates the forward-mode rule's body.
double power(double x, double y) { return x * x * x * y; }
struct PowerResiduals {
  double xx, y;
};
double powerForward(double x, double y, PowerResiduals *res) {
  res->xx = x * x;
  res->y = y;
  return res->xx * x * y;
}
void powerBackward(const PowerResiduals *res, double x, double y,
                   double dret, double *dx, double *dy) {
  *dx += 3 * res->xx * res->y * dret;
  *dy += res->xx * x * dret;
}
ct::dual<double> powerTangent(double x, double y, double tx, double ty) {
  return {x * x * x * y, 3 * x * x * y * tx + x * x * x * ty};
}
CT_CUSTOM_VJP(power, powerForward, powerBackward);
CT_CUSTOM_JVP(power, powerTangent);

[[ct::differentiable]] double wave(double x, double y) {
  return std::sin(power(x, y));
}

double quadSumPlain(const double *A, const double *B, int m) {
  double s = 0;
  for (int k = 0; k < m; ++k)
    s += std::sin(quad(A, B + 3 * k));
  return s;
}

int main() {
  using check::near;
  const double A[9] = {4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2};
  double B[9] = {1, -2, 0.5, 0.3, 0.7, -1.1, 2, 0.1, 0.4};

  double dA[9] = {}, db[3] = {};
  double value = ct::gradient<quad>(A, B, dA, db);
  near("value", value, quad(A, B), 1e-12);
  // The largest |derivative - central difference| over p's n coordinates.
  auto worstError = [](const double *derivative, double *p, int n, auto f) {
    double worst = 0;
    for (int e = 0; e < n; ++e)
      worst = std::fmax(worst, std::fabs(derivative[e] -
                                         check::differenceAt(p, e, f)));
    return worst;
  };
  double Ah[9], Bh[9];
  std::copy(A, A + 9, Ah);
  std::copy(B, B + 9, Bh);
  auto q = [&] { return quad(Ah, Bh); };
  near("dq/dA against finite differences", worstError(dA, Ah, 9, q), 0, 1e-7);
  near("dq/db against finite differences", worstError(db, Bh, 3, q), 0, 1e-7);

  // Three right-hand sides in a loop.
  double dA3[9] = {}, dB3[9] = {};
  double sum = ct::gradient<quadSum>(A, B, 3, dA3, dB3);
  near("loop value", sum, quadSumPlain(A, B, 3), 1e-12);
  auto q3 = [&] { return quadSumPlain(Ah, Bh, 3); };
  near("loop: d/dB against finite differences", worstError(dB3, Bh, 9, q3), 0,
       1e-7);
  near("loop: d/dA against finite differences", worstError(dA3, Ah, 9, q3), 0,
       1e-7);
  // The closed forms, z = A^{-1} b by Cramer's rule.
  auto det = [](const double *M) {
    return M[0] * (M[4] * M[8] - M[5] * M[7]) -
           M[1] * (M[3] * M[8] - M[5] * M[6]) +
           M[2] * (M[3] * M[7] - M[4] * M[6]);
  };
  double z[3];
  for (int c = 0; c < 3; ++c) {
    double M[9];
    for (int i = 0; i < 9; ++i)
      M[i] = A[i];
    for (int r = 0; r < 3; ++r)
      M[r * 3 + c] = B[r];
    z[c] = det(M) / det(A);
  }
  double worst = 0;
  for (int i = 0; i < 3; ++i) {
    worst = std::fmax(worst, std::fabs(db[i] - 2 * z[i]));
    for (int j = 0; j < 3; ++j)
      worst = std::fmax(worst, std::fabs(dA[i * 3 + j] + z[i] * z[j]));
  }
  near("dq/db = 2 z, dq/dA = -z z^T", worst, 0, 1e-12);

  // sin(x^3 y): the HVP with v = (1, 0) is the first column of the Hessian.
  double x = 0.7, y = 1.3, hx = 0, hy = 0;
  ct::hvp<wave>(x, y, 1.0, 0.0, &hx, &hy);
  double u = x * x * x * y, ux = 3 * x * x * y;
  near("HVP through the rules, d2/dx2", hx,
       -std::sin(u) * ux * ux + std::cos(u) * 6 * x * y, 1e-12);
  near("HVP through the rules, d2/dxdy", hy,
       -std::sin(u) * ux * x * x * x + std::cos(u) * 3 * x * x, 1e-12);
  double gx = 0, gy = 0;
  ct::gradient<wave>(x, y, &gx, &gy);
  near("gradient through the split rule", gx, std::cos(u) * ux, 1e-12);
  return check::report();
}
