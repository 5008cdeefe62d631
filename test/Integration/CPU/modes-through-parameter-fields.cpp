// Vector mode (ct::lanes) and Hessian-vector products through parameters
// that are objects whose pointer, reference and std::vector fields designate
// the memory with derivatives: a
// span of the caller's numbers (by reference and by value), a model whose
// weights are a std::vector field, a buffer written through its pointer
// field, a reference field. As for memory parameters, the derivative
// object's fields designate K-lane memory: element i, lane k at i*K + k; a
// std::vector field's derivative vector holds K times its elements. Each
// lane against one-lane pullbacks and forward mode, and those against
// central differences, at -O0 and -O2 (and the dense Jacobian with the
// model left out); a derivative vector of the wrong size
// ends the program with a message (WRONG).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -DWRONG %s -o %tw && not --crash %tw 2>&1 | FileCheck %s --check-prefix=WRONG
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed
// WRONG: cotangent: the derivative of field 'weights' of parameter 'm' of 'predict' must be a std::vector of 2 times its size (ct::lanes<2>)

#include <cotangent/cotangent.h>
#include <cotangent/dense.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "check.h"

using check::centralDifference;
using check::near;

struct Span {
  const double *data;
  int size;
};

[[ct::differentiable]] double energy(const Span &s, const double *w) {
  double e = 0;
  for (int i = 0; i < s.size; ++i)
    e += w[i] * std::sin(s.data[i]) * s.data[(i + 1) % s.size];
  return e;
}

[[ct::differentiable]] double norm(Span s) {
  double e = 0;
  for (int i = 0; i < s.size; ++i)
    e += s.data[i] * s.data[i];
  return std::sqrt(e);
}

struct Model {
  std::vector<double> weights;
  int inputs;
};

[[ct::differentiable]] void predict(const Model &m, const double *x,
                                    double *y) {
  int outputs = static_cast<int>(m.weights.size()) / m.inputs;
  for (int j = 0; j < outputs; ++j) {
    double s = 0;
    for (int i = 0; i < m.inputs; ++i)
      s += m.weights[j * m.inputs + i] * x[i];
    y[j] = std::tanh(s);
  }
}

[[ct::differentiable]] double loss(const Model &m, const double *x) {
  double y[2];
  predict(m, x, y);
  return y[0] * y[0] + 3 * y[1];
}

struct Buffer {
  double *data;
  int size;
};

// Writes through the pointer field: in/out memory of the object's.
[[ct::differentiable]] void damp(const Buffer &b, double rate) {
  for (int i = 0; i < b.size; ++i)
    b.data[i] = b.data[i] * std::exp(-rate * i) + 0.5 * b.data[0];
}

struct Pair {
  const double &a;
  const double &b;
};

[[ct::differentiable]] double ratio(Pair p) { return p.a / (1 + p.b * p.b); }

constexpr int kN = 4;

void checkEnergy() {
  double x[kN] = {0.3, -1.2, 0.7, 2.1}, w[kN] = {1.5, -0.4, 0.9, 0.25};
  Span s{x, kN};
  // One lane per seed, each against differences of energy in x and w.
  double gx[kN] = {}, gw[kN] = {};
  Span gs{gx, kN};
  ct::gradient<energy>(s, w, &gs, gw);
  char label[96];
  for (int i = 0; i < kN; ++i) {
    std::snprintf(label, sizeof label, "energy d/dx%d", i);
    near(label, gx[i], check::differenceAt(x, i, [&] { return energy(s, w); }),
         1e-7);
    std::snprintf(label, sizeof label, "energy d/dw%d", i);
    near(label, gw[i], check::differenceAt(w, i, [&] { return energy(s, w); }),
         1e-7);
  }
  // Three seeds in one reverse sweep: lane k is seeds[k] times the gradient.
  constexpr int K = 3;
  double seeds[K] = {1, -2, 0.5}, lx[kN * K] = {}, lw[kN * K] = {};
  Span ls{lx, kN};
  ct::pullback<energy, ct::lanes<K>>(s, w, seeds, &ls, lw);
  for (int i = 0; i < kN; ++i)
    for (int k = 0; k < K; ++k) {
      std::snprintf(label, sizeof label, "energy pullback x%d lane %d", i, k);
      near(label, lx[i * K + k], seeds[k] * gx[i], 1e-13);
      std::snprintf(label, sizeof label, "energy pullback w%d lane %d", i, k);
      near(label, lw[i * K + k], seeds[k] * gw[i], 1e-13);
    }
  // Two tangents in one forward sweep: along x0, and along all of w.
  constexpr int L = 2;
  double tx[kN * L] = {}, tw[kN * L] = {};
  tx[0 * L + 0] = 1;
  for (int i = 0; i < kN; ++i)
    tw[i * L + 1] = 1;
  Span ts{tx, kN};
  auto d = ct::jvp<energy, ct::lanes<L>>(s, w, &ts, tw);
  near("energy value", d.value, energy(s, w), 1e-14);
  near("energy jvp lane 0", d.tangent[0], gx[0], 1e-13);
  near("energy jvp lane 1", d.tangent[1], gw[0] + gw[1] + gw[2] + gw[3],
       1e-13);
}

// Hessian-vector products: H v against central differences of gradients
// along v, for the span by reference (with w) and by value.
void checkSecondOrder() {
  double x[kN] = {0.3, -1.2, 0.7, 2.1}, w[kN] = {1.5, -0.4, 0.9, 0.25};
  double vx[kN] = {0.5, -1, 0.25, 2}, vw[kN] = {1, 0, -0.5, 0.75};
  double hx[kN] = {}, hw[kN] = {}, nx[kN] = {};
  Span s{x, kN}, vs{vx, kN}, hs{hx, kN}, hn{nx, kN};
  ct::hvp<energy>(s, w, &vs, vw, &hs, hw);
  ct::hvp<norm>(s, &vs, &hn);
  auto gradientsAlong = [&](double h, double *gx, double *gw, double *gn) {
    double mx[kN], mw[kN];
    for (int i = 0; i < kN; ++i) {
      mx[i] = x[i] + h * vx[i];
      mw[i] = w[i] + h * vw[i];
      gx[i] = gw[i] = gn[i] = 0;
    }
    Span ms{mx, kN}, dms{gx, kN}, dns{gn, kN};
    ct::gradient<energy>(ms, mw, &dms, gw);
    ct::gradient<norm>(ms, &dns);
  };
  char label[64];
  for (int i = 0; i < kN; ++i) {
    auto component = [&](int which) {
      return [&, which](double h) {
        double gx[kN], gw[kN], gn[kN];
        gradientsAlong(h, gx, gw, gn);
        return which == 0 ? gx[i] : which == 1 ? gw[i] : gn[i];
      };
    };
    std::snprintf(label, sizeof label, "energy hvp x%d", i);
    near(label, hx[i], centralDifference(component(0), 0.0, 1e-5), 1e-6);
    std::snprintf(label, sizeof label, "energy hvp w%d", i);
    near(label, hw[i], centralDifference(component(1), 0.0, 1e-5), 1e-6);
    std::snprintf(label, sizeof label, "norm hvp x%d", i);
    near(label, nx[i], centralDifference(component(2), 0.0, 1e-5), 1e-6);
  }
}

// The same through the model's vector field.
void checkModelSecondOrder() {
  constexpr int kIn = 3, kW = 6;
  Model m{{0.2, -0.5, 0.8, 1.1, 0.3, -0.7}, kIn};
  double x[kIn] = {0.4, -1.0, 0.6}, vx[kIn] = {1, 0.5, -1}, hx[kIn] = {};
  Model vm{{0.5, 0, -1, 0.25, 1, 0}, kIn}, hm{std::vector<double>(kW), kIn};
  ct::hvp<loss>(m, x, &vm, vx, &hm, hx);
  auto gradientAlong = [&](double h, int which) {
    Model moved = m, d{std::vector<double>(kW), kIn};
    double mx[kIn], dx[kIn] = {};
    for (int i = 0; i < kW; ++i)
      moved.weights[i] += h * vm.weights[i];
    for (int i = 0; i < kIn; ++i)
      mx[i] = x[i] + h * vx[i];
    ct::gradient<loss>(moved, mx, &d, dx);
    return which < kW ? d.weights[which] : dx[which - kW];
  };
  char label[64];
  for (int k = 0; k < kW + kIn; ++k) {
    std::snprintf(label, sizeof label, "loss hvp %d", k);
    near(label, k < kW ? hm.weights[k] : hx[k - kW],
         centralDifference([&](double h) { return gradientAlong(h, k); }, 0.0,
                           1e-5),
         1e-6);
  }
}

void checkNorm() {
  double x[kN] = {0.3, -1.2, 0.7, 2.1};
  constexpr int K = 2;
  double t[kN * K] = {};
  for (int i = 0; i < kN; ++i) {
    t[i * K + 0] = 1;
    t[i * K + 1] = i == 2;
  }
  Span s{x, kN}, ts{t, kN};
  auto d = ct::jvp<norm, ct::lanes<K>>(s, &ts);
  double n = norm(s);
  near("norm jvp lane 0", d.tangent[0], (x[0] + x[1] + x[2] + x[3]) / n, 1e-13);
  near("norm jvp lane 1", d.tangent[1], x[2] / n, 1e-13);
  double seeds[K] = {2, -1}, g[kN * K] = {};
  Span gs{g, kN};
  ct::pullback<norm, ct::lanes<K>>(s, seeds, &gs);
  for (int i = 0; i < kN; ++i) {
    char label[64];
    std::snprintf(label, sizeof label, "norm pullback %d", i);
    near(label, g[i * K + 1], -x[i] / n, 1e-13);
    near(label, g[i * K + 0], 2 * x[i] / n, 1e-13);
  }
}

void checkPredict() {
  constexpr int kIn = 3, kOut = 2;
  Model m{{0.2, -0.5, 0.8, 1.1, 0.3, -0.7}, kIn};
  double x[kIn] = {0.4, -1.0, 0.6}, y[kOut];
  // The Jacobian's rows by one reverse sweep of two lanes: seeds e_0, e_1.
  constexpr int K = kOut;
  Model dm{std::vector<double>(m.weights.size() * K, 0.0), kIn};
#ifdef WRONG
  dm.weights.resize(m.weights.size());
#endif
  double dx[kIn * K] = {}, dy[kOut * K] = {1, 0, 0, 1};
  ct::pullback<predict, ct::lanes<K>>(m, x, y, &dm, dx, dy);
  char label[96];
  for (int j = 0; j < kOut; ++j) {
    auto output = [&] {
      double out[kOut];
      predict(m, x, out);
      return out[j];
    };
    for (int i = 0; i < kIn; ++i) {
      std::snprintf(label, sizeof label, "predict dy%d/dx%d", j, i);
      near(label, dx[i * K + j], check::differenceAt(x, i, output), 1e-7);
    }
    for (int w = 0; w < kIn * kOut; ++w) {
      std::snprintf(label, sizeof label, "predict dy%d/dw%d", j, w);
      near(label, dm.weights[w * K + j],
           check::differenceAt(m.weights.data(), w, output), 1e-7);
    }
  }
  // The Jacobian in x alone by the dense driver (the model left out).
  double J[kOut * kIn];
  ct::jacobian<predict, ct::wrt<1>>(ct::extents{kIn, kOut}, m, x, y, J);
  for (int j = 0; j < kOut; ++j)
    for (int i = 0; i < kIn; ++i) {
      std::snprintf(label, sizeof label, "predict jacobian %d %d", j, i);
      near(label, J[j * kIn + i], dx[i * K + j], 1e-13);
    }
  // Columns by forward lanes: along weight 4, and along x.
  Model tm{std::vector<double>(m.weights.size() * K, 0.0), kIn};
  tm.weights[4 * K + 0] = 1;
  double tx[kIn * K] = {}, ty[kOut * K] = {};
  for (int i = 0; i < kIn; ++i)
    tx[i * K + 1] = 1;
  ct::jvp<predict, ct::lanes<K>>(m, x, y, &tm, tx, ty);
  for (int j = 0; j < kOut; ++j) {
    std::snprintf(label, sizeof label, "predict jvp y%d lane 0", j);
    near(label, ty[j * K + 0], dm.weights[4 * K + j], 1e-13);
    std::snprintf(label, sizeof label, "predict jvp y%d lane 1", j);
    near(label, ty[j * K + 1], dx[0 * K + j] + dx[1 * K + j] + dx[2 * K + j],
         1e-13);
  }
}

void checkDamp() {
  constexpr int K = 2;
  const double start[kN] = {1.0, -0.5, 2.0, 0.25};
  double rate = 0.3;
  // Lane 0 seeds output 2, lane 1 outputs 0 and 3.
  double data[kN], seeds[kN * K] = {}, drate[K] = {};
  seeds[2 * K + 0] = 1;
  seeds[0 * K + 1] = 1;
  seeds[3 * K + 1] = 1;
  for (int i = 0; i < kN; ++i)
    data[i] = start[i];
  Buffer b{data, kN}, db{seeds, kN};
  ct::pullback<damp, ct::lanes<K>>(b, rate, &db, drate);
  auto output = [&](int lane) {
    double copy[kN];
    for (int i = 0; i < kN; ++i)
      copy[i] = start[i];
    damp(Buffer{copy, kN}, rate);
    return lane == 0 ? copy[2] : copy[0] + copy[3];
  };
  char label[64];
  for (int lane = 0; lane < K; ++lane) {
    std::snprintf(label, sizeof label, "damp d/drate lane %d", lane);
    near(label, drate[lane], centralDifference(
                                 [&](double r) {
                                   double saved = rate;
                                   rate = r;
                                   double v = output(lane);
                                   rate = saved;
                                   return v;
                                 },
                                 rate),
         1e-7);
    for (int i = 0; i < kN; ++i) {
      std::snprintf(label, sizeof label, "damp d/dstart%d lane %d", i, lane);
      double moved[kN];
      auto at = [&](double v) {
        for (int k = 0; k < kN; ++k)
          moved[k] = start[k];
        moved[i] = v;
        damp(Buffer{moved, kN}, rate);
        return lane == 0 ? moved[2] : moved[0] + moved[3];
      };
      near(label, seeds[i * K + lane], centralDifference(at, start[i]), 1e-7);
    }
  }
}

void checkRatio() {
  double a = 1.5, bValue = 0.5;
  constexpr int K = 2;
  double da[K] = {1, 0}, dbValue[K] = {0, 1};
  Pair p{a, bValue}, t{da[0], dbValue[0]};
  auto d = ct::jvp<ratio, ct::lanes<K>>(p, &t);
  near("ratio d/da", d.tangent[0], 1 / (1 + bValue * bValue), 1e-14);
  near("ratio d/db", d.tangent[1],
       -a * 2 * bValue / ((1 + bValue * bValue) * (1 + bValue * bValue)),
       1e-14);
}

int main() {
  checkEnergy();
  checkNorm();
  checkSecondOrder();
  checkModelSecondOrder();
  checkPredict();
  checkDamp();
  checkRatio();
  return check::report();
}
