// ct::jacobian, ct::hessian and ct::batch_jacobian from C++. Jacobians
// against stacked one-lane JVPs and pullbacks and finite differences, in
// both of the directions the driver picks (forward when there are no more
// inputs than outputs), with more inputs or outputs than one sweep's 4
// lanes (partial last chunks), raw pointers with ct::extents, fixed
// arrays, std::array, std::vector, aggregates by value, in/out memory and
// ct::wrt; Hessians against finite differences of gradients and closed
// forms, and symmetric; batches against one Jacobian per example; a
// Hessian through a recursive call in a loop (split halves sharing a tape
// of tangents) against Hessian-vector products.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <array>
#include <cmath>
#include <vector>

/// One output, 1 + n inputs: reverse mode.
double wave(double s, const double *x, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += std::sin(s * x[i]) * x[i];
  return r;
}

/// 3 inputs, 7 outputs in memory: forward mode, two chunks of columns.
void spiral(const double (&p)[3], double *out) {
  for (int i = 0; i < 7; ++i)
    out[i] = std::cos(p[0] * i) * p[1] + p[2] * p[2] * i;
}

struct Pose {
  double x, y, angle;
};

/// An aggregate by value, a std::array and a std::vector, an output in
/// a std::array: 3 + 2 + 3 inputs, 1 + 2 outputs.
double place(Pose pose, const std::array<double, 2> &offset,
             const std::vector<double> &weights,
             std::array<double, 2> &where) {
  double c = std::cos(pose.angle), s = std::sin(pose.angle);
  where[0] = pose.x + c * offset[0] - s * offset[1];
  where[1] = pose.y + s * offset[0] + c * offset[1];
  double r = 0;
  for (size_t i = 0; i < weights.size(); ++i)
    r += weights[i] * std::pow(where[i % 2], 2);
  return r;
}

/// A scalar function of a scalar and memory, for Hessians.
double energy(double k, const double *q, int n) {
  double e = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double d = q[i + 1] - q[i];
    e += k * std::exp(d) * d * d;
  }
  return e + k * k * q[0];
}

double saddle(double a, double b) { return a * a * b - std::sin(a * b); }

/// One example of a batch: fixed extents.
void example(const double (&u)[2], double scale, std::array<double, 3> &v) {
  v[0] = u[0] * u[1] * scale;
  v[1] = std::exp(u[0]) * scale;
  v[2] = u[1] * u[1];
}

/// A recursive call in a loop: its derivative is split into a forward and
/// a reverse half that share the tapes (of values, and in the Hessian's
/// forward mode of tangents), so the lanes must reach the reverse half's
/// tape of tangents from the forward half's pushes.
double chain(const double *p, int k) {
  return k == 0 ? p[0] * p[1] : std::sin(p[0] * k) * chain(p, k - 1);
}
double chains(const double *p) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += chain(p, i) * p[1];
  return s;
}

int main() {
  // Reverse: 1 x 6.
  const int n = 5;
  double x[n] = {0.1, -0.4, 0.3, 0.8, -0.2}, s = 0.7, J[1 + n];
  ct::jacobian<wave>(ct::extents{n}, s, x, n, J);
  double ds = 0, dx[n] = {};
  ct::gradient<wave>(s, x, n, &ds, dx);
  check::near("wave J = gradient", J[0], ds, 1e-14);
  for (int i = 0; i < n; ++i) {
    check::near("wave J = gradient", J[1 + i], dx[i], 1e-14);
    check::near("wave J vs differences", J[1 + i],
                check::differenceAt(x, i, [&] { return wave(s, x, n); }),
                1e-7);
  }

  // Forward: 7 x 3 (ct::wrt leaves out the initial contents of out),
  // columns by stacked JVPs.
  double p[3] = {0.3, 1.2, -0.5}, out[7], J2[7 * 3];
  ct::jacobian<spiral, ct::wrt<0>>(ct::extents{7}, p, out, J2);
  for (int c = 0; c < 3; ++c) {
    double t[3] = {}, o[7], to[7];
    t[c] = 1;
    ct::jvp<spiral>(p, o, t, to);
    for (int r = 0; r < 7; ++r) {
      check::near("spiral J = stacked JVPs", J2[r * 3 + c], to[r], 1e-14);
      check::near("spiral J vs differences", J2[r * 3 + c],
                  check::differenceAt(p, c,
                                      [&] {
                                        double y[7];
                                        spiral(p, y);
                                        return y[r];
                                      }),
                  1e-7);
    }
  }

  // Aggregates, std::array, std::vector, in/out memory (whose initial
  // contents are inputs that nothing reads: zero columns), rows by stacked
  // pullbacks.
  Pose pose{0.5, -1.0, 0.3};
  std::array<double, 2> offset{0.2, 0.7}, where{};
  std::vector<double> weights{1.0, 2.0, 0.5};
  const int inputs = 3 + 2 + 3 + 2, outputs = 1 + 2;
  double J3[outputs * inputs];
  ct::jacobian<place>(pose, offset, weights, where, J3);
  for (int r = 0; r < outputs; ++r) {
    double seed = r == 0 ? 1 : 0;
    double dpose[3] = {};
    std::array<double, 2> doff{};
    std::vector<double> dw(3, 0.0);
    std::array<double, 2> w2{}, dwhere{r == 1 ? 1.0 : 0.0, r == 2 ? 1.0 : 0.0};
    ct::pullback<place>(pose, offset, weights, w2, seed,
                        reinterpret_cast<Pose *>(dpose), &doff, &dw, &dwhere);
    double row[inputs] = {dpose[0], dpose[1], dpose[2], doff[0], doff[1],
                          dw[0],    dw[1],    dw[2],    dwhere[0], dwhere[1]};
    for (int c = 0; c < inputs; ++c)
      check::near("place J = stacked pullbacks", J3[r * inputs + c], row[c],
                  1e-14);
  }
  check::near("place d where_x / d angle",
              J3[1 * inputs + 2],
              -std::sin(0.3) * 0.2 - std::cos(0.3) * 0.7, 1e-14);

  // ct::wrt: only the weights.
  double J4[outputs * 3];
  ct::jacobian<place, ct::wrt<2>>(pose, offset, weights, where, J4);
  for (int r = 0; r < outputs; ++r)
    for (int c = 0; c < 3; ++c)
      check::near("place wrt J", J4[r * 3 + c], J3[r * inputs + 5 + c],
                  1e-14);

  // Hessians: closed form, then finite differences of the gradient.
  double H[4], a = 1.5, b = 0.5;
  ct::hessian<saddle>(a, b, H);
  check::near("saddle H_aa", H[0], 2 * b + b * b * std::sin(a * b), 1e-13);
  check::near("saddle H_ab", H[1],
              2 * a - std::cos(a * b) + a * b * std::sin(a * b), 1e-13);
  check::near("saddle H_bb", H[3], a * a * std::sin(a * b), 1e-13);
  check::near("saddle symmetric", H[1], H[2], 1e-14);

  const int m = 6;
  double q[m] = {0.1, 0.3, -0.2, 0.4, 0.0, 0.5}, k = 1.3;
  double H6[(1 + m) * (1 + m)];
  ct::hessian<energy>(ct::extents{m}, k, q, m, H6);
  auto gradient = [&](double *g) {
    double dk = 0;
    for (int i = 0; i < m; ++i)
      g[1 + i] = 0;
    ct::gradient<energy>(k, q, m, &dk, g + 1);
    g[0] = dk;
  };
  for (int c = 0; c < 1 + m; ++c)
    for (int r = 0; r < 1 + m; ++r) {
      double *coordinate = c == 0 ? &k : &q[c - 1];
      double fd = check::centralDifference(
          [&](double v) {
            double saved = *coordinate, g[1 + m];
            *coordinate = v;
            gradient(g);
            *coordinate = saved;
            return g[r];
          },
          *coordinate);
      check::near("energy H vs differences of gradients",
                  H6[r * (1 + m) + c], fd, 1e-6);
      check::near("energy H symmetric", H6[r * (1 + m) + c],
                  H6[c * (1 + m) + r], 1e-12);
    }

  // A batch of 3 examples: 3 blocks of (3 outputs) x (2 + 1 + 3 inputs).
  double us[3][2] = {{0.1, 0.2}, {1.0, -0.5}, {0.3, 0.3}};
  double scales[3] = {1.0, 2.0, 0.5};
  std::array<double, 3> vs[3];
  const int block = 3 * 6;
  double JB[3 * block];
  ct::batch_jacobian<example>(3, us, scales, vs, JB);
  for (int e = 0; e < 3; ++e) {
    double J1[block];
    std::array<double, 3> v;
    ct::jacobian<example>(us[e], scales[e], v, J1);
    for (int i = 0; i < block; ++i)
      check::near("batch block = one Jacobian", JB[e * block + i], J1[i],
                  1e-14);
    check::near("batch dv1/du0", JB[e * block + 1 * 6 + 0],
                std::exp(us[e][0]) * scales[e], 1e-14);
  }
  {
    double p[2] = {0.3, 0.7}, H[4];
    ct::hessian<chains>(ct::extents{2}, p, H);
    for (int i = 0; i < 2; ++i) {
      double v[2] = {double(i == 0), double(i == 1)}, hv[2] = {};
      ct::hvp<chains>(p, v, hv);
      for (int j = 0; j < 2; ++j)
        check::near("hessian through split recursive calls = hvp",
                    H[2 * i + j], hv[j], 1e-12);
    }
  }
  return check::report();
}
