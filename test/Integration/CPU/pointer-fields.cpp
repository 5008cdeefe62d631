// Structs whose fields point to, refer to or hold memory: Ceres-style
// functors holding data pointers and references, weight structs built over
// one parameter block (the LSTM style), an object with a std::vector
// field, copies and moves of such objects. Reverse and forward mode,
// checked against dual numbers and central differences.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O2 %s -o %t3 && %t3 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

#include "check.h"
#include "dual.h"

//===--- A functor holding pointers to its data (Ceres's curve fitting) ---===//

struct ExponentialResiduals {
  ExponentialResiduals(const double *x, const double *y, int n)
      : x_(x), y_(y), n_(n) {}
  template <typename T> bool operator()(const T *mc, T *residuals) const {
    using std::exp;
    for (int i = 0; i < n_; ++i)
      residuals[i] = T(y_[i]) - exp(mc[0] * T(x_[i]) + mc[1]);
    return true;
  }
  const double *x_;
  const double *y_;
  int n_;
};

void testDataPointers() {
  const double x[4] = {0.0, 0.5, 1.0, 1.5}, y[4] = {1.1, 1.4, 2.0, 2.9};
  ExponentialResiduals cost(x, y, 4);
  double mc[2] = {0.3, 0.1}, residuals[4];
  for (int row = 0; row < 4; ++row) {
    double dmc[2] = {}, seed[4] = {};
    seed[row] = 1;
    bool ok = ct::pullback<&ExponentialResiduals::operator()<double>>(
        cost, mc, residuals, dmc, seed);
    check::near("data pointers: result", ok, 1, 0);
    for (int k = 0; k < 2; ++k) {
      Dual m[2] = {Dual(mc[0], k == 0), Dual(mc[1], k == 1)}, r[4];
      cost(m, r);
      check::near("data pointers: residual", residuals[row], r[row].v, 1e-14);
      check::near("data pointers: jacobian", dmc[k], r[row].d, 1e-12);
    }
  }
}

//===--- A reference member ---------------------------------------------===//

struct Grid {
  double spacing;
  double values[4];
};

struct Interpolation {
  const Grid &grid;
  const double *weights;
  double at(double x) const {
    double sum = 0;
    for (int i = 0; i < 4; ++i)
      sum += weights[i] * grid.values[i] * std::sin(x * grid.spacing * (i + 1));
    return sum;
  }
};

[[ct::differentiable]] double interpolate(const Interpolation &f, double x) {
  return f.at(x) * x;
}

// The same, the object passed by value.
[[ct::differentiable]] double interpolateCopy(Interpolation f, double x) {
  return f.at(x);
}

void testReferenceMember() {
  Grid grid{0.5, {1, 2, 3, 4}};
  double weights[4] = {0.1, 0.2, 0.3, 0.4};
  Interpolation f{grid, weights};
  // The derivative object's fields designate the shadows.
  Grid dgrid{};
  double dweights[4] = {};
  Interpolation df{dgrid, dweights};
  double dx = 0;
  double value = ct::gradient<interpolate>(f, 0.7, &df, &dx);
  check::near("reference member: value", value, interpolate(f, 0.7), 1e-14);
  check::near("reference member: d/dx", dx,
              check::centralDifference(
                  [&](double t) { return interpolate(f, t); }, 0.7),
              1e-8);
  for (int i = 0; i < 4; ++i)
    check::near("reference member: d/dweight", dweights[i],
                check::differenceAt(weights, i,
                                    [&] { return interpolate(f, 0.7); }),
                1e-8);
  check::near("reference member: d/dspacing", dgrid.spacing,
              check::differenceAt(&grid.spacing, 0,
                                  [&] { return interpolate(f, 0.7); }),
              1e-8);
  check::near("reference member: d/dvalue", dgrid.values[2],
              check::differenceAt(grid.values, 2,
                                  [&] { return interpolate(f, 0.7); }),
              1e-8);

  // Forward mode: the tangent object's fields designate the tangents.
  Grid tgrid{1.0, {0, 0, 0, 0}};
  double tweights[4] = {0, 1, 0, 0};
  Interpolation tf{tgrid, tweights};
  auto jvp = ct::jvp<interpolate>(f, 0.7, &tf, 0.5);
  double expected = 0.5 * check::centralDifference(
                              [&](double t) { return interpolate(f, t); }, 0.7) +
                    check::differenceAt(&grid.spacing, 0,
                                        [&] { return interpolate(f, 0.7); }) +
                    check::differenceAt(weights, 1,
                                        [&] { return interpolate(f, 0.7); });
  check::near("reference member: jvp", jvp.tangent, expected, 1e-8);

  double dxCopy = 0;
  for (double &d : dweights)
    d = 0;
  ct::gradient<interpolateCopy>(f, 0.7, &df, &dxCopy);
  check::near("by value: d/dx", dxCopy,
              check::centralDifference(
                  [&](double t) { return interpolateCopy(f, t); }, 0.7),
              1e-8);
  check::near("by value: d/dweight", dweights[3],
              check::differenceAt(weights, 3,
                                  [&] { return interpolateCopy(f, 0.7); }),
              1e-8);
}

//===--- Weight structs over one parameter block (the LSTM style) --------===//

struct Gate {
  const double *weight;
  const double *bias;
  Gate(const double *params, int n) : weight(params), bias(params + n) {}
};

struct Cell {
  Gate forget, output;
  Cell(const double *params, int n)
      : forget(params, n), output(&params[2 * n], n) {}
};

struct State {
  double *hidden;
  double *memory;
};

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

void step(int n, const Cell &cell, State &state, const double *input) {
  for (int i = 0; i < n; ++i) {
    double f = sigmoid(input[i] * cell.forget.weight[i] + cell.forget.bias[i]);
    double o = sigmoid(state.hidden[i] * cell.output.weight[i] +
                       cell.output.bias[i]);
    state.memory[i] = state.memory[i] * f + (1 - f) * input[i];
    state.hidden[i] = o * std::tanh(state.memory[i]);
  }
}

[[ct::differentiable]] double sequenceLoss(const double *params,
                                           const double *inputs, int n,
                                           int steps) {
  Cell cell(params, n);
  double hidden[3] = {0.1, -0.2, 0.3}, memory[3] = {0, 0, 0};
  State state{hidden, memory};
  double loss = 0;
  for (int t = 0; t < steps; ++t) {
    step(n, cell, state, &inputs[t * n]);
    for (int i = 0; i < n; ++i)
      loss += state.hidden[i] * state.hidden[i];
  }
  return loss;
}

void testWeightStructs() {
  double params[12], inputs[12], dparams[12] = {}, dinputs[12] = {};
  for (int i = 0; i < 12; ++i) {
    params[i] = 0.1 * (i % 5) - 0.2;
    inputs[i] = 0.05 * i - 0.3;
  }
  auto loss = [&] { return sequenceLoss(params, inputs, 3, 4); };
  double value = ct::gradient<sequenceLoss>(params, inputs, 3, 4, dparams,
                                            dinputs);
  check::near("weight structs: value", value, loss(), 1e-14);
  for (int i = 0; i < 12; ++i) {
    check::near("weight structs: d/dparam", dparams[i],
                check::differenceAt(params, i, loss), 1e-8);
    check::near("weight structs: d/dinput", dinputs[i],
                check::differenceAt(inputs, i, loss), 1e-8);
  }
}

//===--- Copies, moves, arrays of such structs, results ---------------===//

struct Span {
  const double *first;
  const double *second;
};

Span makeSpan(const double *a, const double *b) { return Span{a, b}; }

[[ct::differentiable]] double spans(const double *a, const double *b, int n) {
  Span span = makeSpan(a, b);
  Span copy = span;
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += copy.first[i] * span.second[i];
  span.first = a + 1; // moves within the same array
  sum += span.first[0] * 3;
  Span pair[2] = {{a, b}, {b, a}};
  sum += pair[1].first[0] * pair[0].second[1];
  return sum;
}

void testCopiesAndArrays() {
  double a[3] = {1, 2, 3}, b[3] = {4, 5, 6}, da[3] = {}, db[3] = {};
  double value = ct::gradient<spans, ct::wrt<0, 1>>(a, b, 3, da, db);
  // sum a_i b_i + 3 a_1 + b_0 b_1
  check::near("spans: value", value, 32 + 6 + 20, 1e-14);
  const double expectA[3] = {4, 5 + 3, 6}, expectB[3] = {1 + 5, 2 + 4, 3};
  for (int i = 0; i < 3; ++i) {
    check::near("spans: d/da", da[i], expectA[i], 1e-14);
    check::near("spans: d/db", db[i], expectB[i], 1e-14);
  }
}

//===--- A std::vector field ---------------------------------------------===//

struct Model {
  std::vector<double> weights;
  double scale;
  const double *data;
  int n;
};

double weightedSum(const std::vector<double> &w, const double *data) {
  double sum = 0;
  for (size_t i = 0; i < w.size(); ++i)
    sum += w[i] * data[i];
  return sum;
}

[[ct::differentiable]] double modelLoss(const Model &m) {
  double sum = 0;
  for (double w : m.weights)
    sum += m.scale * w * w;
  return sum + weightedSum(m.weights, m.data) * m.n;
}

void testVectorField() {
  double data[3] = {1, 2, 3}, ddata[3] = {};
  Model m{{1.0, -2.0, 0.5}, 0.5, data, 2};
  Model dm{{0, 0, 0}, 0, ddata, 0};
  double value = ct::gradient<modelLoss>(m, &dm);
  // scale * sum w^2 + n * sum w_i data_i
  check::near("vector field: value", value, 0.5 * 5.25 + 2 * (1 - 4 + 1.5),
              1e-14);
  for (int i = 0; i < 3; ++i) {
    check::near("vector field: d/dw", dm.weights[i],
                2 * 0.5 * m.weights[i] + 2 * data[i], 1e-14);
    check::near("vector field: d/ddata", ddata[i], 2 * m.weights[i], 1e-14);
  }
  check::near("vector field: d/dscale", dm.scale, 5.25, 1e-14);

  std::vector<double> tw = {1, 0, 0};
  Model tm{tw, 1.0, ddata, 0};
  for (double &d : ddata)
    d = 0;
  auto jvp = ct::jvp<modelLoss>(m, &tm);
  check::near("vector field: jvp", jvp.tangent,
              2 * 0.5 * m.weights[0] + 2 * data[0] + 5.25, 1e-14);
}

int main() {
  testDataPointers();
  testReferenceMember();
  testWeightStructs();
  testCopiesAndArrays();
  testVectorField();
  return check::report();
}
