// Objectives in the style of GradBench's and ADBench's C++ (written for
// this test from their public formulas): templated over the number type,
// std::vector state, helpers filling scratch vectors, std:: algorithms,
// index vectors, recursion. The [[ct::differentiable]] double instances
// compile unchanged; their gradients match a forward-mode dual-number
// evaluation of the same templates, one direction per input, to 1e-10.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O2 %s -o %t3 && %t3 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[0-9]+}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "check.h"
#include "dual.h"

//===--- log-sum-exp ------------------------------------------------------===//
template <class T> T logsumexp(const std::vector<T> &x) {
  using std::exp;
  using std::log;
  T m = *std::max_element(x.begin(), x.end());
  T s = 0;
  for (const T &v : x)
    s += exp(v - m);
  return m + log(s);
}

//===--- linear least squares (GradBench llsq) -----------------------------===//
template <class T> T llsq(const std::vector<T> &x, int n) {
  int m = static_cast<int>(x.size());
  T sum = 0;
  for (int i = 0; i < n; ++i) {
    double t = -1 + 2.0 * i / (n - 1);
    double target = t > 0 ? 1.0 : -1.0;
    T fit = 0, power = 1;
    for (int j = 0; j < m; ++j) {
      fit += x[j] * power;
      power *= T(t);
    }
    T r = T(target) - fit;
    sum += r * r;
  }
  return sum / T(2);
}

//===--- k-means objective ------------------------------------------------===//
template <class T>
T kmeans(const std::vector<T> &centroids, const std::vector<double> &points,
         int k, int d) {
  int n = static_cast<int>(points.size()) / d;
  T total = 0;
  std::vector<T> distances(k);
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      T s = 0;
      for (int j = 0; j < d; ++j) {
        T diff = T(points[i * d + j]) - centroids[c * d + j];
        s += diff * diff;
      }
      distances[c] = s;
    }
    total += *std::min_element(distances.begin(), distances.end());
  }
  return total;
}

//===--- an ODE by RK4, the right-hand side filling a scratch vector ------===//
template <class T>
void rhs(const std::vector<T> &y, const std::vector<T> &p, std::vector<T> &dy) {
  // dy_0 = p_0, dy_i = p_i y_{i-1} - y_i.
  dy[0] = p[0];
  for (std::size_t i = 1; i < y.size(); ++i)
    dy[i] = p[i] * y[i - 1] - y[i];
}
template <class T> T ode(const std::vector<T> &p, int steps) {
  std::size_t n = p.size();
  std::vector<T> y(n, T(0)), k1(n), k2(n), k3(n), k4(n), tmp(n);
  T h = T(1.0 / steps);
  for (int s = 0; s < steps; ++s) {
    rhs(y, p, k1);
    for (std::size_t i = 0; i < n; ++i)
      tmp[i] = y[i] + h * T(0.5) * k1[i];
    rhs(tmp, p, k2);
    for (std::size_t i = 0; i < n; ++i)
      tmp[i] = y[i] + h * T(0.5) * k2[i];
    rhs(tmp, p, k3);
    for (std::size_t i = 0; i < n; ++i)
      tmp[i] = y[i] + h * k3[i];
    rhs(tmp, p, k4);
    for (std::size_t i = 0; i < n; ++i)
      y[i] += h / T(6) * (k1[i] + T(2) * k2[i] + T(2) * k3[i] + k4[i]);
  }
  return y.back();
}

//===--- the same ODE written C-like: restrict pointers, size_t bounds -----===//
template <class T>
void rhsC(std::size_t n, const T *__restrict__ p, const T *__restrict__ y,
          T *__restrict__ dy) {
  dy[0] = p[0];
  for (std::size_t i = 1; i < n; i++)
    dy[i] = p[i] * y[i - 1] - y[i];
}
template <class T>
void odeC(std::size_t n, const T *__restrict__ p, std::size_t steps,
          T *__restrict__ y) {
  T h = T(1.0) / T(double(steps));
  std::vector<T> k1(n), k2(n), k3(n), k4(n), tmp(n);
  std::fill(y, y + n, T(0));
  for (std::size_t s = 0; s < steps; s++) {
    rhsC(n, p, y, k1.data());
    for (std::size_t i = 0; i < n; i++)
      tmp[i] = y[i] + h * k1[i] / T(2);
    rhsC(n, p, tmp.data(), k2.data());
    for (std::size_t i = 0; i < n; i++)
      tmp[i] = y[i] + h * k2[i] / T(2);
    rhsC(n, p, tmp.data(), k3.data());
    for (std::size_t i = 0; i < n; i++)
      tmp[i] = y[i] + h * k3[i];
    rhsC(n, p, tmp.data(), k4.data());
    for (std::size_t i = 0; i < n; i++)
      y[i] += h * (k1[i] + T(2) * k2[i] + T(2) * k3[i] + k4[i]) / T(6);
  }
}

//===--- determinant by minors, with index vectors ------------------------===//
template <class T>
T minorDet(const std::vector<T> &a, int n, const std::vector<int> &rows,
           std::vector<int> &used, int depth) {
  if (depth == n)
    return T(1);
  int row = rows[depth];
  T sum = 0;
  double sign = 1;
  for (int col = 0; col < n; ++col) {
    if (used[col])
      continue;
    used[col] = 1;
    sum += T(sign) * a[row * n + col] * minorDet(a, n, rows, used, depth + 1);
    used[col] = 0;
    sign = -sign;
  }
  return sum;
}
template <class T> T det(const std::vector<T> &a, int n) {
  std::vector<int> rows(n), used(n, 0);
  std::iota(rows.begin(), rows.end(), 0);
  return minorDet(a, n, rows, used, 0);
}

// The double instances Cotangent differentiates.
[[ct::differentiable]] double logsumexpD(const std::vector<double> &x) {
  return logsumexp(x);
}
[[ct::differentiable]] double llsqD(const std::vector<double> &x, int n) {
  return llsq(x, n);
}
[[ct::differentiable]] double kmeansD(const std::vector<double> &c,
                                      const std::vector<double> &points,
                                      int k, int d) {
  return kmeans(c, points, k, d);
}
[[ct::differentiable]] double odeD(const std::vector<double> &p, int steps) {
  return ode(p, steps);
}
[[ct::differentiable]] void odeCD(std::size_t n, const double *__restrict__ p,
                                  std::size_t steps, double *__restrict__ y) {
  odeC(n, p, steps, y);
}
[[ct::differentiable]] double detD(const std::vector<double> &a, int n) {
  return det(a, n);
}

/// d/dx_i of f by dual numbers, for each i, against `gradient`.
template <class F>
void againstDuals(const char *name, const std::vector<double> &x,
                  const std::vector<double> &gradient, F f) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::vector<Dual> seeded(x.begin(), x.end());
    seeded[i].d = 1;
    check::near(name, gradient[i], f(seeded).d, 1e-10);
  }
}

int main() {
  std::vector<double> x{0.3, -1.2, 2.5, 0.7, 1.1};
  std::vector<double> dx(x.size(), 0.0);
  check::near("logsumexp value", ct::gradient<logsumexpD>(x, &dx),
              logsumexp(x), 1e-14);
  againstDuals("logsumexp", x, dx, [](auto &v) { return logsumexp(v); });

  std::vector<double> coefficients{0.1, 0.9, -0.2, 0.4};
  std::vector<double> dc(coefficients.size(), 0.0);
  ct::gradient<llsqD, ct::wrt<0>>(coefficients, 16, &dc);
  againstDuals("llsq", coefficients, dc, [](auto &v) { return llsq(v, 16); });

  std::vector<double> points;
  for (int i = 0; i < 12; ++i)
    points.push_back(std::sin(1.7 * i) + (i % 3));
  std::vector<double> centroids{0.0, 1.0, 2.0, 0.5, 1.5, -0.5};
  std::vector<double> dcent(centroids.size(), 0.0);
  ct::gradient<kmeansD, ct::wrt<0>>(centroids, points, 3, 2, &dcent);
  againstDuals("kmeans", centroids, dcent, [&](auto &v) {
    return kmeans(v, points, 3, 2);
  });

  std::vector<double> p{0.5, 1.2, -0.7, 0.9};
  std::vector<double> dp(p.size(), 0.0);
  ct::gradient<odeD, ct::wrt<0>>(p, 20, &dp);
  againstDuals("ode", p, dp, [](auto &v) { return ode(v, 20); });

  // The C-like ODE: the last state's adjoint pulled back to p.
  std::vector<double> y(p.size()), dy(p.size(), 0.0), dpC(p.size(), 0.0);
  dy.back() = 1;
  ct::pullback<odeCD>(p.size(), p.data(), 20, y.data(), dpC.data(),
                      dy.data());
  againstDuals("ode, C-like", p, dpC, [](auto &v) {
    std::vector<Dual> out(v.size());
    odeC(v.size(), v.data(), 20, out.data());
    return out.back();
  });
  check::near("ode, C-like value", y.back(), ode(p, 20), 1e-12);

  std::vector<double> a{2.0, -1.0, 0.5, 1.0, 3.0, 0.25, -0.5, 1.5,
                        4.0, 0.75, 1.25, -2.0, 0.1, 0.2, 0.3, 1.0};
  std::vector<double> da(a.size(), 0.0);
  check::near("det value", ct::gradient<detD, ct::wrt<0>>(a, 4, &da),
              det(a, 4), 1e-12);
  againstDuals("det", a, da, [](auto &v) { return det(v, 4); });
  return check::report();
}
