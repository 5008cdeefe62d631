// Vector mode from C++: ct::pullback<f, ct::lanes<K>> takes K seeds through
// one reverse sweep, ct::jvp<f, ct::lanes<K>> K tangents through one forward
// sweep. Every derivative argument holds K lanes, element-interleaved
// (element i, lane k at d[i * K + k]). Each lane must equal the one-lane
// derivative with that lane's seed or tangent (stacked pullbacks and JVPs),
// and one lane of each is checked against finite differences. The
// functions cover loops that keep a tape, branches, local buffers, in/out
// memory, std::vector, aggregates by value, calls that stay calls
// (checkpointed, recursive), void functions, ct::wrt, and K = 1, 3, 4
// and 8.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <cmath>
#include <cstdio>
#include <vector>

/// A loop whose iterations read a local buffer and take a branch.
double energy(double s, const double *x, int n) {
  double local[8];
  double e = 0;
  for (int i = 0; i < n; ++i) {
    local[i % 8] = std::sin(x[i]) * s;
    if (x[i] > 0.3)
      e += local[i % 8] * x[i];
    else
      e += std::exp(local[i % 8]) / (1 + x[i] * x[i]);
  }
  return e * std::log(1 + s * s);
}

/// In/out memory: three sweeps of weighted Jacobi, updating y in place.
double relax(double w, double *y, const double *f, int n) {
  double r = 0;
  for (int sweep = 0; sweep < 3; ++sweep)
    for (int i = 1; i + 1 < n; ++i) {
      double next = (1 - w) * y[i] + w * 0.5 * (y[i - 1] + y[i + 1] + f[i]);
      r += (next - y[i]) * (next - y[i]);
      y[i] = next;
    }
  return r;
}

struct Decay {
  double a, b, c;
};

/// An aggregate by value and a std::vector.
double misfit(Decay p, const std::vector<double> &t) {
  double sum = 0;
  for (double ti : t) {
    double d = p.a * std::exp(-p.b * ti) + p.c - std::cos(ti);
    sum += d * d;
  }
  return sum;
}

/// A call that stays a call: its derivative is a function of its own,
/// widened separately.
[[ct::checkpoint]] double cell(double a, double b) {
  return std::sqrt(a * a + b * b + 1) * std::tanh(a - b);
}

/// Recursion: its derivative halves call themselves, widened together.
double series(double x, const double *c, int n) {
  if (n == 0)
    return c[0];
  return c[n] + x * std::sin(series(x, c, n - 1));
}

/// Outputs in memory only: two residuals of a tiny projection.
void project(const double *camera, const double *point, double *r) {
  double x = point[0] - camera[0], y = point[1] - camera[1];
  double z = point[2] - camera[2] + 4;
  double k = cell(camera[3], camera[4]);
  r[0] = k * x / z;
  r[1] = k * y / z;
}

namespace {

constexpr double tolerance = 1e-12;

/// Seeds or tangents for lane k of a buffer of n elements.
double laneValue(int i, int k) { return std::sin(1.3 * i + 0.7 * k + 0.1); }

template <int K> void energyLanes() {
  const int n = 7;
  double x[n], s = 0.8;
  for (int i = 0; i < n; ++i)
    x[i] = 0.9 * std::cos(1.7 * i);
  // Reverse: K seeds through one sweep vs one pullback per seed.
  double seeds[K], ds[K] = {}, dx[n * K] = {};
  for (int k = 0; k < K; ++k)
    seeds[k] = laneValue(0, k) + 1.5;
  double value = ct::pullback<energy, ct::lanes<K>>(s, x, n, seeds, ds, dx);
  check::near("energy value", value, energy(s, x, n), tolerance);
  for (int k = 0; k < K; ++k) {
    double ds1 = 0, dx1[n] = {};
    ct::pullback<energy>(s, x, n, seeds[k], &ds1, dx1);
    check::near("energy pullback lane ds", ds[k], ds1, tolerance);
    for (int i = 0; i < n; ++i)
      check::near("energy pullback lane dx", dx[i * K + k], dx1[i], tolerance);
  }
  check::near("energy ds against differences", ds[0] / seeds[0],
              check::centralDifference([&](double t) { return energy(t, x, n); },
                                       s),
              1e-6);
  // Forward: K tangents through one sweep vs one JVP per tangent.
  double ts[K], tx[n * K];
  for (int k = 0; k < K; ++k) {
    ts[k] = laneValue(1, k);
    for (int i = 0; i < n; ++i)
      tx[i * K + k] = laneValue(i + 2, k);
  }
  ct::dual<double, K> d = ct::jvp<energy, ct::lanes<K>>(s, x, n, ts, tx);
  check::near("energy jvp value", d.value, energy(s, x, n), tolerance);
  for (int k = 0; k < K; ++k) {
    double txk[n];
    for (int i = 0; i < n; ++i)
      txk[i] = tx[i * K + k];
    ct::dual<double> one = ct::jvp<energy>(s, x, n, ts[k], txk);
    check::near("energy jvp lane", d.tangent[k], one.tangent, tolerance);
  }
  double fd = check::centralDifference(
      [&](double h) {
        double xh[n];
        for (int i = 0; i < n; ++i)
          xh[i] = x[i] + h * tx[i * K];
        return energy(s + h * ts[0], xh, n);
      },
      0.0);
  check::near("energy jvp against differences", d.tangent[0], fd, 1e-6);
}

template <int K> void relaxLanes() {
  const int n = 6;
  double y0[n], f[n], w = 0.7;
  for (int i = 0; i < n; ++i) {
    y0[i] = std::cos(0.9 * i);
    f[i] = 0.3 * i - 0.5;
  }
  // The seed of the result and of y's final contents, K lanes each.
  double seeds[K], dy[n * K], dw[K] = {}, df[n * K] = {};
  for (int k = 0; k < K; ++k) {
    seeds[k] = laneValue(3, k);
    for (int i = 0; i < n; ++i)
      dy[i * K + k] = laneValue(i, k + 5);
  }
  double dySeed[n * K];
  for (int i = 0; i < n * K; ++i)
    dySeed[i] = dy[i];
  double y[n];
  for (int i = 0; i < n; ++i)
    y[i] = y0[i];
  ct::pullback<relax, ct::lanes<K>>(w, y, f, n, seeds, dw, dy, df);
  for (int k = 0; k < K; ++k) {
    double dw1 = 0, dy1[n], df1[n] = {}, y1[n];
    for (int i = 0; i < n; ++i) {
      dy1[i] = dySeed[i * K + k];
      y1[i] = y0[i];
    }
    ct::pullback<relax>(w, y1, f, n, seeds[k], &dw1, dy1, df1);
    check::near("relax lane dw", dw[k], dw1, tolerance);
    for (int i = 0; i < n; ++i) {
      check::near("relax lane dy", dy[i * K + k], dy1[i], tolerance);
      check::near("relax lane df", df[i * K + k], df1[i], tolerance);
    }
  }
  // Lane 0 against differences of seed . (result, final y) in w.
  auto weighted = [&](double wt) {
    double yt[n];
    for (int i = 0; i < n; ++i)
      yt[i] = y0[i];
    double r = relax(wt, yt, f, n) * seeds[0];
    for (int i = 0; i < n; ++i)
      r += dySeed[i * K] * yt[i];
    return r;
  };
  check::near("relax dw against differences", dw[0],
              check::centralDifference(weighted, w), 1e-6);
}

template <int K> void misfitLanes() {
  Decay p{1.2, 0.4, -0.3};
  std::vector<double> t = {0.1, 0.5, 1.1, 2.0, 2.7};
  // An aggregate's derivative: its scalars, K lanes each, interleaved.
  double dp[3 * K] = {}, seeds[K];
  std::vector<double> dt(t.size() * K, 0.0);
  for (int k = 0; k < K; ++k)
    seeds[k] = 1.0 + k;
  ct::pullback<misfit, ct::lanes<K>>(p, t, seeds,
                                     reinterpret_cast<Decay *>(dp), &dt);
  for (int k = 0; k < K; ++k) {
    Decay dp1{};
    std::vector<double> dt1(t.size(), 0.0);
    ct::pullback<misfit>(p, t, seeds[k], &dp1, &dt1);
    check::near("misfit lane da", dp[0 * K + k], dp1.a, tolerance);
    check::near("misfit lane db", dp[1 * K + k], dp1.b, tolerance);
    check::near("misfit lane dc", dp[2 * K + k], dp1.c, tolerance);
    for (size_t i = 0; i < t.size(); ++i)
      check::near("misfit lane dt", dt[i * K + k], dt1[i], tolerance);
  }
  check::near("misfit db against differences", dp[1 * K],
              check::differenceAt(&p.b, 0, [&] { return misfit(p, t); }),
              1e-6);
  // Forward, with the aggregate's tangent interleaved the same way.
  double tp[3 * K];
  std::vector<double> tt(t.size() * K);
  for (int k = 0; k < K; ++k) {
    for (int j = 0; j < 3; ++j)
      tp[j * K + k] = laneValue(j, k);
    for (size_t i = 0; i < t.size(); ++i)
      tt[i * K + k] = laneValue(int(i) + 3, k);
  }
  ct::dual<double, K> d = ct::jvp<misfit, ct::lanes<K>>(
      p, t, reinterpret_cast<const Decay *>(tp), &tt);
  for (int k = 0; k < K; ++k) {
    Decay tpk{tp[k], tp[K + k], tp[2 * K + k]};
    std::vector<double> ttk(t.size());
    for (size_t i = 0; i < t.size(); ++i)
      ttk[i] = tt[i * K + k];
    check::near("misfit jvp lane", d.tangent[k],
                ct::jvp<misfit>(p, t, &tpk, &ttk).tangent, tolerance);
  }
}

/// A Jacobian of a void function by K = 8 forward lanes (all 8 inputs at
/// once) and by 2 reverse lanes (both outputs at once).
void projectJacobian() {
  double camera[5] = {0.1, -0.2, 0.3, 0.5, -0.4};
  double point[3] = {1.0, 2.0, 3.0};
  constexpr int K = 8;
  // Forward: lane j seeds input j (camera 0..4, point 0..2).
  double tc[5 * K] = {}, tq[3 * K] = {}, r[2], tr[2 * K] = {};
  for (int j = 0; j < 5; ++j)
    tc[j * K + j] = 1;
  for (int j = 0; j < 3; ++j)
    tq[j * K + 5 + j] = 1;
  ct::jvp<project, ct::lanes<K>>(camera, point, r, tc, tq, tr);
  // Reverse: lane m seeds output m.
  double rr[2], dr[2 * 2] = {1, 0, 0, 1}, dc[5 * 2] = {}, dq[3 * 2] = {};
  ct::pullback<project, ct::lanes<2>>(camera, point, rr, dc, dq, dr);
  for (int m = 0; m < 2; ++m)
    for (int j = 0; j < 8; ++j) {
      double *input = j < 5 ? &camera[j] : &point[j - 5];
      double fd = check::centralDifference(
          [&](double v) {
            double saved = *input, out[2];
            *input = v;
            project(camera, point, out);
            *input = saved;
            return out[m];
          },
          *input);
      check::near("project forward lanes", tr[m * K + j], fd, 1e-6);
      double reverse = j < 5 ? dc[j * 2 + m] : dq[(j - 5) * 2 + m];
      check::near("project reverse lanes", reverse, fd, 1e-6);
    }
}

/// A recursive function: 3 lanes in each mode against one lane.
void recursion() {
  double c[5] = {0.3, -0.2, 0.5, 0.1, 0.7}, x = 0.8;
  double seeds[3] = {1, -2, 0.5}, dx[3] = {}, dc[5 * 3] = {};
  ct::pullback<series, ct::lanes<3>>(x, c, 4, seeds, dx, dc);
  double tx[3] = {1, 0, 2}, tc[5 * 3];
  for (int i = 0; i < 15; ++i)
    tc[i] = laneValue(i, 1);
  ct::dual<double, 3> d = ct::jvp<series, ct::lanes<3>>(x, c, 4, tx, tc);
  for (int k = 0; k < 3; ++k) {
    double dx1 = 0, dc1[5] = {}, tck[5];
    ct::pullback<series>(x, c, 4, seeds[k], &dx1, dc1);
    check::near("recursion lane dx", dx[k], dx1, tolerance);
    for (int i = 0; i < 5; ++i) {
      check::near("recursion lane dc", dc[i * 3 + k], dc1[i], tolerance);
      tck[i] = tc[i * 3 + k];
    }
    check::near("recursion jvp lane", d.tangent[k],
                ct::jvp<series>(x, c, 4, tx[k], tck).tangent, tolerance);
  }
  check::near("recursion dx against differences", dx[0],
              check::centralDifference(
                  [&](double t) { return series(t, c, 4); }, x),
              1e-6);
}

/// ct::wrt with lanes, in either order, and one lane.
void selections() {
  const int n = 4;
  double x[n] = {0.2, 0.5, -0.1, 0.9}, s = 1.1;
  double seeds[3] = {1, 2, 3}, dx[n * 3] = {}, ds[3] = {};
  ct::pullback<energy, ct::wrt<1>, ct::lanes<3>>(s, x, n, seeds, dx);
  ct::pullback<energy, ct::lanes<3>, ct::wrt<0>>(s, x, n, seeds, ds);
  double one = 0, dxOne[n] = {}, dsOne = 0;
  ct::pullback<energy>(s, x, n, 1.0, &dsOne, dxOne);
  for (int k = 0; k < 3; ++k) {
    check::near("wrt lanes ds", ds[k], seeds[k] * dsOne, tolerance);
    for (int i = 0; i < n; ++i)
      check::near("wrt lanes dx", dx[i * 3 + k], seeds[k] * dxOne[i],
                  tolerance);
  }
  double seed1 = 2.0, ds1 = 0, dx1[n] = {};
  ct::pullback<energy, ct::lanes<1>>(s, x, n, &seed1, &ds1, dx1);
  check::near("one lane", ds1, 2 * dsOne, tolerance);
  (void)one;
}

} // namespace

int main() {
  energyLanes<1>();
  energyLanes<3>();
  energyLanes<4>();
  energyLanes<8>();
  relaxLanes<4>();
  relaxLanes<3>();
  misfitLanes<4>();
  projectJacobian();
  selections();
  recursion();
  return check::report();
}
