// Sums over pairs and triples (docs/AD.md, "Loops reversed in place"): a
// Lennard-Jones energy with a cutoff, whose running sum flows through the
// inner loop; per-particle partial sums added with a factor; a three-body
// sum three loops deep. The energy's adjoint is known before every loop, so
// every inner iteration is undone right after it ran, and nothing is
// taped (the AD run below). Gradients against central finite differences
// and, for the energy, the closed form; the energy's Hessian-vector product
// against a finite difference of the gradient. A pair sum whose inner loop
// fills scratch that the outer iteration reads afterwards: only the outer
// loop is reversed in place, the inner one after it within the iteration.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -I%check-include | FileCheck %s --check-prefix=AD
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed
// AD-LABEL: func.func private @_Z6energyPKddi.pullback
// AD-NOT: ct.tape
// AD-LABEL: func.func private @_Z11partialSumsPKdS0_i.pullback
// AD-NOT: ct.tape
// AD-LABEL: func.func private @_Z7triplesPKdi.pullback
// AD-NOT: ct.tape
// AD-LABEL: func.func private @_Z11withScratchPKdi.pullback

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>

constexpr double kCutoff2 = 6.25;

/// Lennard-Jones with well depth 1 and length sigma, cut off at 2.5: the
/// sum flows through the inner loop, and through a branch in it.
[[ct::differentiable]] double energy(const double *r, double sigma, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double dx = r[3 * i] - r[3 * j], dy = r[3 * i + 1] - r[3 * j + 1],
             dz = r[3 * i + 2] - r[3 * j + 2];
      double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < kCutoff2) {
        double s2 = sigma * sigma / r2;
        double s6 = s2 * s2 * s2;
        e += 4 * (s6 * s6 - s6);
      }
    }
  return e;
}

/// Each point's weighted sum of Gaussians, added times the point itself.
[[ct::differentiable]] double partialSums(const double *x, const double *w,
                                          int n) {
  double total = 0;
  for (int i = 0; i < n; ++i) {
    double near = 0;
    for (int j = 0; j < n; ++j) {
      double d = x[i] - x[j];
      near += w[j] * std::exp(-d * d);
    }
    total += x[i] * near;
  }
  return 2 * total;
}

/// A three-body sum, three loops deep.
[[ct::differentiable]] double triples(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int k = j + 1; k < n; ++k)
        s += std::sin(x[i] * x[j] + x[k]);
  return s;
}

/// The inner loop's scratch is read after it: that loop is reversed after
/// it ran, within the outer iteration, which is still reversed in place.
[[ct::differentiable]] double withScratch(const double *x, int n) {
  double products[8];
  double s = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      products[j] = x[i] * x[j];
      s += std::sin(products[j]);
    }
    s += products[0] * products[n - 1];
  }
  return s;
}

/// The energy's gradient, derived by hand: dE/dr2 = -12 (2 s6^2 - s6) / r2
/// per pair within the cutoff, and dE/dsigma = 24 (2 s6^2 - s6) / sigma.
void energyGradient(const double *r, double sigma, int n, double *dr,
                    double *dsigma) {
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double d[3], r2 = 0;
      for (int c = 0; c < 3; ++c) {
        d[c] = r[3 * i + c] - r[3 * j + c];
        r2 += d[c] * d[c];
      }
      if (r2 >= kCutoff2)
        continue;
      double s2 = sigma * sigma / r2, s6 = s2 * s2 * s2;
      double byR2 = -12 * (2 * s6 * s6 - s6) / r2;
      for (int c = 0; c < 3; ++c) {
        dr[3 * i + c] += byR2 * 2 * d[c];
        dr[3 * j + c] -= byR2 * 2 * d[c];
      }
      *dsigma += 24 * (2 * s6 * s6 - s6) / sigma;
    }
}

int main() {
  using check::differenceAt;
  using check::near;
  // Six particles on a distorted lattice at spacing 1.2: some pairs are
  // beyond the cutoff.
  constexpr int n = 6;
  double r[3 * n], sigma = 1.1;
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c)
      r[3 * i + c] = 1.2 * ((i >> c) & 1) + 1.2 * (c == 0 ? i / 4 : 0) +
                     0.1 * std::sin(3.0 * i + c);
  {
    double dr[3 * n] = {}, dsigma = 0, hr[3 * n] = {}, hsigma = 0;
    double value = ct::gradient<energy, ct::wrt<0, 1>>(r, sigma, n, dr, &dsigma);
    near("energy value", value, energy(r, sigma, n), 1e-14);
    energyGradient(r, sigma, n, hr, &hsigma);
    for (int i = 0; i < 3 * n; ++i) {
      near("energy closed form", dr[i], hr[i], 1e-10);
      near("energy gradient",
           dr[i], differenceAt(r, i, [&] { return energy(r, sigma, n); }),
           1e-6);
    }
    near("energy sigma closed form", dsigma, hsigma, 1e-10);
    near("energy sigma", dsigma,
         differenceAt(&sigma, 0, [&] { return energy(r, sigma, n); }), 1e-6);
  }
  { // Hessian-vector product on the positions.
    double v[3 * n], hv[3 * n] = {};
    for (int i = 0; i < 3 * n; ++i)
      v[i] = std::cos(0.7 * i);
    ct::hvp<energy, ct::wrt<0>>(r, sigma, n, v, hv);
    auto gradientAt = [&](double t, double *g) {
      double moved[3 * n];
      for (int i = 0; i < 3 * n; ++i)
        moved[i] = r[i] + t * v[i], g[i] = 0;
      ct::gradient<energy, ct::wrt<0>>(moved, sigma, n, g);
    };
    double plus[3 * n], minus[3 * n];
    gradientAt(1e-5, plus);
    gradientAt(-1e-5, minus);
    for (int i = 0; i < 3 * n; ++i)
      near("energy hvp", hv[i], (plus[i] - minus[i]) / 2e-5, 1e-5);
  }
  {
    constexpr int m = 7;
    double x[m], w[m], dx[m] = {}, dw[m] = {};
    for (int i = 0; i < m; ++i)
      x[i] = std::sin(1.3 * i + 0.2), w[i] = 0.5 + 0.1 * i;
    ct::gradient<partialSums, ct::wrt<0, 1>>(x, w, m, dx, dw);
    for (int i = 0; i < m; ++i) {
      near("partial sums x", dx[i],
           differenceAt(x, i, [&] { return partialSums(x, w, m); }), 1e-6);
      near("partial sums w", dw[i],
           differenceAt(w, i, [&] { return partialSums(x, w, m); }), 1e-6);
    }
    double dt[m] = {}, ds[m] = {};
    ct::gradient<triples>(x, m, dt);
    ct::gradient<withScratch>(x, m, ds);
    for (int i = 0; i < m; ++i) {
      near("triples", dt[i],
           differenceAt(x, i, [&] { return triples(x, m); }), 1e-6);
      near("scratch", ds[i],
           differenceAt(x, i, [&] { return withScratch(x, m); }), 1e-6);
    }
  }
  return check::report();
}
