// Objectives in the style of GradBench's and ADBench's C++ (written for
// this test from their public formulas): templated over the number type,
// std::vector state, helpers filling scratch vectors, std:: algorithms,
// index vectors, recursion, a skinned hand mesh with vectors of bone
// transforms, particles in a vector of structs. The [[ct::differentiable]] double instances
// compile unchanged; their gradients match a forward-mode dual-number
// evaluation of the same templates, one direction per input, to 1e-10.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O2 %s -o %t3 && %t3 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

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
//===--- hand tracking: a skinned mesh (ADBench ht, small) -----------------===//
// Bones in a chain of parents, each posed by three angles: rotation
// matrices, relative transforms, absolutes by the parent's, vertices as
// weighted sums of bone transforms applied to the rest positions, then
// the distances to the measured points. Matrices are column-major
// std::vector<T> of 3x3 (rotations) and 3x4 (transforms).
template <class T>
void eulerToRotation(const T *xzy, std::vector<T> &r) {
  using std::cos;
  using std::sin;
  T tx = xzy[0], ty = xzy[2], tz = xzy[1];
  std::vector<T> rx(9, T(0)), ry(9, T(0)), rz(9, T(0)), tmp(9);
  rx[0] = 1, rx[4] = cos(tx), rx[5] = sin(tx), rx[7] = -rx[5], rx[8] = rx[4];
  ry[4] = 1, ry[0] = cos(ty), ry[6] = sin(ty), ry[2] = -ry[6], ry[8] = ry[0];
  rz[8] = 1, rz[0] = cos(tz), rz[1] = sin(tz), rz[3] = -rz[1], rz[4] = rz[0];
  auto multiply = [](const std::vector<T> &a, const std::vector<T> &b,
                     std::vector<T> &out) {
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) {
        T sum = 0;
        for (int k = 0; k < 3; ++k)
          sum += a[k * 3 + r] * b[c * 3 + k];
        out[c * 3 + r] = sum;
      }
  };
  multiply(rz, ry, tmp);
  multiply(tmp, rx, r);
}

/// out = a * b for 3x4 transforms (the last row 0 0 0 1 implied).
template <class T>
void compose(const std::vector<T> &a, const std::vector<T> &b,
             std::vector<T> &out) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 3; ++r) {
      T sum = c == 3 ? a[9 + r] : T(0);
      for (int k = 0; k < 3; ++k)
        sum += a[k * 3 + r] * b[c * 3 + k];
      out[c * 3 + r] = sum;
    }
}

struct HandModel {
  int bones = 0, vertices = 0;
  std::vector<int> parents;
  std::vector<double> baseRelatives; // 12 per bone
  std::vector<double> restPositions; // 3 per vertex
  std::vector<double> weights;       // bones per vertex
  std::vector<double> points;        // 3 per vertex
};

template <class T>
T handError(const std::vector<T> &theta, const HandModel &model) {
  const int bones = model.bones;
  std::vector<std::vector<T>> absolutes(bones, std::vector<T>(12));
  for (int b = 0; b < bones; ++b) {
    std::vector<T> rotation(9), relative(12);
    eulerToRotation(&theta[3 * b], rotation);
    std::vector<T> base(model.baseRelatives.begin() + 12 * b,
                        model.baseRelatives.begin() + 12 * b + 12);
    std::vector<T> posed(12, T(0));
    for (int i = 0; i < 9; ++i)
      posed[i] = rotation[i];
    compose(base, posed, relative);
    if (model.parents[b] < 0)
      absolutes[b] = relative;
    else
      compose(absolutes[model.parents[b]], relative, absolutes[b]);
  }
  T error = 0;
  for (int v = 0; v < model.vertices; ++v) {
    T position[3] = {0, 0, 0};
    for (int b = 0; b < bones; ++b) {
      const std::vector<T> &m = absolutes[b];
      T weight = model.weights[v * bones + b];
      for (int r = 0; r < 3; ++r) {
        T moved = m[9 + r];
        for (int k = 0; k < 3; ++k)
          moved += m[k * 3 + r] * model.restPositions[3 * v + k];
        position[r] += weight * moved;
      }
    }
    for (int r = 0; r < 3; ++r) {
      T d = model.points[3 * v + r] - position[r];
      error += d * d;
    }
  }
  return error;
}

//===--- particle: the acceleration from charges (GradBench particle) -----===//
template <class T> struct Point {
  T x, y;
};

template <class T>
T acceleration(const std::vector<Point<T>> &charges, const Point<T> &at) {
  using std::sqrt;
  T total = 0;
  for (const Point<T> &charge : charges) {
    T dx = charge.x - at.x, dy = charge.y - at.y;
    total += 1 / sqrt(dx * dx + dy * dy);
  }
  return total;
}

[[ct::differentiable]] double handD(const std::vector<double> &theta,
                                    const HandModel &model) {
  return handError(theta, model);
}

[[ct::differentiable]] double particleD(
    const std::vector<Point<double>> &charges, const Point<double> &at) {
  return acceleration(charges, at);
}

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

  HandModel hand;
  hand.bones = 3, hand.vertices = 4;
  hand.parents = {-1, 0, 1};
  for (int b = 0; b < hand.bones; ++b)
    for (int i = 0; i < 12; ++i)
      hand.baseRelatives.push_back(i % 4 == 0 && i < 9 ? 1.0
                                   : i >= 9           ? 0.3 * (b + 1)
                                                      : 0.1 * std::sin(i + b));
  for (int i = 0; i < 3 * hand.vertices; ++i) {
    hand.restPositions.push_back(std::cos(0.7 * i));
    hand.points.push_back(0.5 * std::sin(1.3 * i) + 0.2);
  }
  for (int v = 0; v < hand.vertices; ++v)
    for (int b = 0; b < hand.bones; ++b)
      hand.weights.push_back((v + b) % 3 == 0 ? 0.6 : 0.2);
  std::vector<double> theta(3 * hand.bones), dtheta(theta.size(), 0.0);
  for (std::size_t i = 0; i < theta.size(); ++i)
    theta[i] = 0.4 * std::sin(2.1 * i + 0.3);
  check::near("hand value", ct::gradient<handD, ct::wrt<0>>(theta, hand, &dtheta),
              handError(theta, hand), 1e-12);
  againstDuals("hand", theta, dtheta,
               [&](auto &v) { return handError(v, hand); });

  std::vector<Point<double>> charges{{0.0, 1.0}, {2.0, -1.0}, {-1.5, 0.5}};
  std::vector<Point<double>> dcharges(charges.size(), Point<double>{0, 0});
  Point<double> at{0.3, 0.2}, dat{0, 0};
  check::near("particle value",
              ct::gradient<particleD>(charges, at, &dcharges, &dat),
              acceleration(charges, at), 1e-14);
  std::vector<double> flat{at.x, at.y}, dflat{dat.x, dat.y};
  for (const Point<double> &c : charges)
    flat.push_back(c.x), flat.push_back(c.y);
  for (const Point<double> &c : dcharges)
    dflat.push_back(c.x), dflat.push_back(c.y);
  againstDuals("particle", flat, dflat, [](auto &v) {
    using T = std::decay_t<decltype(v[0])>;
    std::vector<Point<T>> cs;
    for (std::size_t i = 2; i < v.size(); i += 2)
      cs.push_back(Point<T>{v[i], v[i + 1]});
    return acceleration(cs, Point<T>{v[0], v[1]});
  });
  return check::report();
}
