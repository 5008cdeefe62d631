// Vector mode over code that itself runs in vector mode (lanes of lanes):
// the new lanes go innermost (a lane vector<K> of the inner code becomes
// vector<K x K'>). Checked against one lane at a time and finite
// differences:
//  - K' tangents through a function that calls ct::jvp with lanes;
//  - the Hessian of a function that calls ct::jacobian (forward-mode
//    lanes over reverse mode over reverse-mode lanes), against ct::hvp,
//    finite differences of gradients, and symmetry;
//  - the Jacobian of a function that computes a Jacobian;
//  - lanes over a gradient whose reverse sweep reads a tape of tangents
//    that another function (the first half of a split call) filled;
//  - lanes of lanes differentiated again (the gradient and a JVP of a
//    function of that Hessian), against Hessian-vector products.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// The third level (lanes of lanes differentiated again) makes a large
// function that LLVM takes minutes to optimise: -O2 leaves it out.
// RUN: %clangxx-ct -O2 -DSECOND_LEVEL_ONLY %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>

double bowl(const double *p) { return std::exp(p[0] * p[1]); }
/// A combination of three directional derivatives of bowl, one sweep.
double laneSum(const double *p) {
  double tangents[2 * 3] = {1, 0, 1, 0, 1, 1};
  ct::dual<double, 3> d = ct::jvp<bowl, ct::lanes<3>>(p, tangents);
  return d.tangent[0] + d.tangent[1] * d.tangent[2];
}

/// Three outputs, two inputs (plus the outputs' initial contents).
void spiral(const double (&p)[2], double *out) {
  for (int i = 0; i < 3; ++i)
    out[i] = std::cos(p[0] * i) * p[1] + p[0] * p[1] * p[1];
}
/// A norm of spiral's Jacobian.
double jacobianNorm(const double (&p)[2]) {
  double out[3], J[3 * 5];
  ct::jacobian<spiral>(ct::extents{3}, p, out, J);
  double r = 0;
  for (double j : J)
    r += j * j * j;
  return r;
}
/// spiral's Jacobian itself, an output in memory.
void jacobianOf(const double (&p)[2], double *J) {
  double out[3];
  ct::jacobian<spiral>(ct::extents{3}, p, out, J);
}

/// The gradient of a function of two seeds' pullbacks.
void square(const double (&p)[2], double *out) {
  out[0] = p[0] * p[1];
  out[1] = p[1] * p[1] * p[0];
}
double seeded(const double (&p)[2]) {
  double out[2], seeds[2 * 2] = {1, 0, 0.5, 1}, dp[2 * 2] = {};
  ct::pullback<square, ct::lanes<2>>(p, out, dp, seeds);
  return dp[0] * dp[1] + dp[2] * dp[3] * dp[3];
}
void seededGradient(const double (&p)[2], double *g) {
  g[0] = g[1] = 0;
  ct::gradient<seeded>(p, g);
}

#ifndef SECOND_LEVEL_ONLY
/// Lanes of lanes differentiated again: a function of the Hessian of
/// jacobianNorm (a third derivative through two vector-mode levels).
double hessianProduct(const double (&p)[2]) {
  double H[4];
  ct::hessian<jacobianNorm>(p, H);
  return H[0] * H[3] - H[1];
}
/// The same from Hessian-vector products (one lane at each level).
double hessianProductByHvp(const double (&p)[2]) {
  double H[4];
  for (int i = 0; i < 2; ++i) {
    double v[2] = {double(i == 0), double(i == 1)}, hv[2] = {};
    ct::hvp<jacobianNorm>(p, v, hv);
    H[2 * i] = hv[0];
    H[2 * i + 1] = hv[1];
  }
  return H[0] * H[3] - H[1];
}
#endif

int main() {
  double p[2] = {0.3, 0.7};
  {
    double t[2 * 2] = {1, 0.5, -2, 1};
    auto d = ct::jvp<laneSum, ct::lanes<2>>(p, t);
    for (int k = 0; k < 2; ++k) {
      double one[2] = {t[k], t[2 + k]};
      check::near("lanes of lanes value", d.value, laneSum(p), 1e-12);
      check::near("lanes of lanes tangent", d.tangent[k],
                  ct::jvp<laneSum>(p, one).tangent, 1e-12);
    }
  }
  {
    double H[4];
    ct::hessian<jacobianNorm>(p, H);
    check::near("hessian of a jacobian symmetric", H[1], H[2], 1e-10);
    for (int i = 0; i < 2; ++i) {
      double v[2] = {double(i == 0), double(i == 1)}, hv[2] = {};
      ct::hvp<jacobianNorm>(p, v, hv);
      for (int j = 0; j < 2; ++j) {
        check::near("hessian of a jacobian = hvp", H[i * 2 + j], hv[j], 1e-10);
        check::near("hessian of a jacobian = fd of gradient", H[i * 2 + j],
                    check::differenceAt(p, i,
                                        [&] {
                                          double g[2] = {};
                                          ct::gradient<jacobianNorm>(p, g);
                                          return g[j];
                                        }),
                    1e-6);
      }
    }
  }
  {
    double J[15] = {}, JJ[15 * 17];
    ct::jacobian<jacobianOf>(ct::extents{15}, p, J, JJ);
    for (int i = 0; i < 2; ++i)
      for (int r = 0; r < 15; ++r)
        check::near("jacobian of a jacobian", JJ[r * 17 + i],
                    check::differenceAt(p, i,
                                        [&] {
                                          double Jp[15];
                                          jacobianOf(p, Jp);
                                          return Jp[r];
                                        }),
                    1e-6);
  }
  {
    double g[2], t[2 * 2] = {1, 0, 0, 1}, tg[2 * 2] = {};
    ct::jvp<seededGradient, ct::lanes<2>>(p, g, t, tg);
    for (int k = 0; k < 2; ++k) {
      double one[2] = {t[k], t[2 + k]}, tone[2] = {};
      ct::jvp<seededGradient>(p, g, one, tone);
      for (int i = 0; i < 2; ++i)
        check::near("lanes over a tape of tangents", tg[i * 2 + k], tone[i],
                    1e-12);
    }
  }
#ifndef SECOND_LEVEL_ONLY
  {
    double dp[2] = {};
    ct::gradient<hessianProduct>(p, dp);
    double t[2] = {1, -0.5};
    check::near("lanes of lanes differentiated again: value", hessianProduct(p),
                hessianProductByHvp(p), 1e-10);
    for (int i = 0; i < 2; ++i)
      check::near(
          "lanes of lanes differentiated again: gradient", dp[i],
          check::differenceAt(p, i, [&] { return hessianProductByHvp(p); }),
          1e-5);
    check::near("lanes of lanes differentiated again: jvp",
                ct::jvp<hessianProduct>(p, t).tangent, dp[0] - 0.5 * dp[1],
                1e-10);
  }
#endif
  return check::report();
}
