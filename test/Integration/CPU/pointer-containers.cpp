// Pointers kept in containers the function creates: arrays and vectors of
// pointers (also a vector made from a list of pointers), arrays and vectors of structs holding pointers (objects chosen
// at run time), structs holding std::vectors built in their constructors
// (reserve, emplace_back), their copies, and a pointer variable moving
// between arrays. An RNN written the way GradBench's LSTM is written (weight
// structs over one parameter block, vectors of them, a vector of pointers
// to the inputs, a pointer that moves from the input to each layer's state)
// closes it. Reverse mode against central differences, forward mode
// against dual numbers.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %if libcxx %{ %clangxx-ct -stdlib=libc++ -O2 %s -o %t3 && %t3 | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <string>
#include <vector>

#include "check.h"
#include "dual.h"

//===--- Arrays and vectors of pointers ------------------------------------===//

[[ct::differentiable]] double pairProducts(const double *x) {
  const double *rows[3];
  for (int i = 0; i < 3; i++)
    rows[i] = &x[2 * i];
  std::vector<const double *> kept;
  kept.reserve(3);
  for (int i = 2; i >= 0; i--)
    kept.push_back(rows[i]);
  double sum = 0;
  for (int i = 0; i < 3; i++) {
    const double *row = kept[i];
    sum += row[0] * std::sin(row[1]) * (i + 1);
  }
  for (const double *row : kept)
    sum += row[0] * row[0];
  return sum;
}

// A vector of pointers made from a list: each designates what the list's
// does.
[[ct::differentiable]] double listedRows(const double *x) {
  std::vector<const double *> rows = {&x[0], &x[2], x + 3};
  double sum = 0;
  for (const double *row : rows)
    sum += row[0] * std::cos(row[1]);
  for (size_t k = 0; k < rows.size(); ++k)
    sum += *rows[k] * (k + 1);
  return sum;
}

//===--- Structs holding pointers, chosen at run time ----------------------===//

struct Span {
  const double *first;
  int length;
};

[[ct::differentiable]] double spanSums(const double *x, int pick) {
  Span spans[3];
  for (int i = 0; i < 3; i++)
    spans[i] = Span{&x[i], 3 - i};
  double sum = 0;
  for (int j = 0; j < spans[pick].length; j++)
    sum += spans[pick].first[j] * spans[pick].first[j];
  return sum;
}

//===--- Structs holding vectors, built in the function --------------------===//

struct Polynomial {
  std::vector<double> coefficients;
  explicit Polynomial(const double *c, int degree) {
    coefficients.reserve(degree + 1);
    for (int i = 0; i <= degree; i++)
      coefficients.push_back(c[i]);
  }
  double at(double t) const {
    double value = 0;
    for (int i = int(coefficients.size()) - 1; i >= 0; i--)
      value = value * t + coefficients[i];
    return value;
  }
};

[[ct::differentiable]] double polynomialCopy(const double *c, double t) {
  Polynomial p(c, 3);
  Polynomial q = p; // a copy of the vector, not of where it is
  q.coefficients[0] = 10 * q.coefficients[0];
  return p.at(t) * q.at(t);
}

//===--- An RNN in GradBench's LSTM style ----------------------------------===//

template <typename T> T sigmoid(T x) { return 1 / (1 + exp(-x)); }

template <typename T> struct Gates {
  const T *forget, *input, *output, *change;
  Gates(const T *block, int h)
      : forget(block), input(block + h), output(block + 2 * h),
        change(block + 3 * h) {}
};

template <typename T> struct Layer {
  const Gates<T> weight, bias;
  Layer(const T *block, int h) : weight(block, h), bias(block + 4 * h, h) {}
};

template <typename T> struct Model {
  std::vector<Layer<T>> layers;
  Model(const T *params, int h, int depth) {
    layers.reserve(depth);
    for (int i = 0; i < depth; i++)
      layers.emplace_back(&params[8 * h * i], h);
  }
};

template <typename T> struct Cell {
  T *hidden, *memory;
  Cell(T *block, int h) : hidden(block), memory(block + h) {}
};

template <typename T> struct CellStates {
  std::vector<Cell<T>> cells;
  CellStates(T *state, int h, int depth) {
    cells.reserve(depth);
    for (int i = 0; i < depth; i++)
      cells.emplace_back(&state[2 * h * i], h);
  }
};

template <typename T>
void step(int h, const Layer<T> &layer, Cell<T> &cell, const T *in) {
  for (int i = 0; i < h; i++) {
    T f = sigmoid(in[i] * layer.weight.forget[i] + layer.bias.forget[i]);
    T g = sigmoid(cell.hidden[i] * layer.weight.input[i] + layer.bias.input[i]);
    T o = sigmoid(in[i] * layer.weight.output[i] + layer.bias.output[i]);
    T c = tanh(cell.hidden[i] * layer.weight.change[i] + layer.bias.change[i]);
    cell.memory[i] = cell.memory[i] * f + g * c;
    cell.hidden[i] = o * tanh(cell.memory[i]);
  }
}

template <typename T>
void predict(int depth, int h, const Model<T> &model, const T *scale,
             CellStates<T> &states, const T *x, T *out) {
  for (int i = 0; i < h; i++)
    out[i] = x[i] * scale[i];
  T *in = out; // then each layer's hidden state
  for (int k = 0; k < depth; k++) {
    step(h, model.layers[k], states.cells[k], in);
    in = states.cells[k].hidden;
  }
  for (int i = 0; i < h; i++)
    out[i] = in[i] * scale[h + i] + scale[2 * h + i];
}

template <typename T>
T rnnLoss(int depth, int length, int h, const T *params, const T *scale,
          const T *state, const T *text) {
  Model<T> model(params, h, depth);
  std::vector<T> stateCopy(state, state + 2 * h * depth);
  CellStates<T> states(stateCopy.data(), h, depth);
  std::vector<const T *> characters;
  characters.reserve(length);
  for (int t = 0; t < length; t++)
    characters.push_back(&text[h * t]);
  std::vector<T> predicted(h), normalized(h);
  T total = 0;
  for (int t = 0; t + 1 < length; t++) {
    predict(depth, h, model, scale, states, characters[t], predicted.data());
    T sum = 0;
    for (int i = 0; i < h; i++)
      sum += exp(predicted[i]);
    T lse = log(sum + 2);
    for (int i = 0; i < h; i++)
      normalized[i] = predicted[i] - lse;
    const T *next = characters[t + 1];
    for (int i = 0; i < h; i++)
      total += next[i] * normalized[i];
  }
  return -total / ((length - 1) * h);
}

[[ct::differentiable]] double rnn(int depth, int length, int h,
                                  const double *params, const double *scale,
                                  const double *state, const double *text) {
  return rnnLoss<double>(depth, length, h, params, scale, state, text);
}

//===--- Checks -------------------------------------------------------------===//

template <class F>
void checkGradient(const std::string &name, double *x, const double *dx,
                   int n, F f) {
  for (int i = 0; i < n; i++)
    check::near((name + "[" + std::to_string(i) + "]").c_str(), dx[i],
                check::differenceAt(x, i, f), 1e-7);
}

int main() {
  double x[6] = {0.3, -0.7, 1.1, 0.4, -0.2, 0.9};
  {
    double dx[6] = {};
    double value = ct::gradient<listedRows>(x, dx);
    check::near("listed pointers: value", value, listedRows(x), 1e-14);
    checkGradient("listed pointers: d/dx", x, dx, 6,
                  [&] { return listedRows(x); });
    double tx[6] = {0, 0, 0, 1, 0, 0};
    check::near("listed pointers: jvp", ct::jvp<listedRows>(x, tx).tangent,
                dx[3], 1e-12);
  }
  {
    double dx[6] = {};
    double value = ct::gradient<pairProducts>(x, dx);
    check::near("pointers: value", value, pairProducts(x), 1e-14);
    checkGradient("pointers: d/dx", x, dx, 6, [&] { return pairProducts(x); });
    double tx[6] = {1, 0, 0, 1, 0, 0};
    auto jvp = ct::jvp<pairProducts>(x, tx);
    check::near("pointers: jvp", jvp.tangent,
                check::differenceAt(x, 0, [&] { return pairProducts(x); }) +
                    check::differenceAt(x, 3, [&] { return pairProducts(x); }),
                1e-7);
  }
  for (int pick = 0; pick < 3; pick++) {
    double dx[6] = {};
    ct::gradient<spanSums>(x, pick, dx);
    checkGradient("spans: d/dx", x, dx, 6, [&] { return spanSums(x, pick); });
  }
  {
    double c[4] = {0.5, -1.0, 0.25, 2.0}, dc[4] = {};
    double dt = 0;
    double value = ct::gradient<polynomialCopy, ct::wrt<0, 1>>(c, 0.6, dc, &dt);
    check::near("vector field: value", value, polynomialCopy(c, 0.6), 1e-14);
    checkGradient("vector field: d/dc", c, dc, 4,
                  [&] { return polynomialCopy(c, 0.6); });
    check::near("vector field: d/dt", dt,
                check::centralDifference(
                    [&](double t) { return polynomialCopy(c, t); }, 0.6),
                1e-7);
  }
  {
    const int depth = 2, length = 5, h = 3;
    std::vector<double> params(8 * h * depth), scale(3 * h),
        state(2 * h * depth), text(length * h);
    int k = 0;
    for (std::vector<double> *v : {&params, &scale, &state, &text})
      for (double &e : *v)
        e = std::sin(1.7 * ++k);
    std::vector<double> dparams(params.size()), dscale(scale.size());
    auto f = [&] {
      return rnn(depth, length, h, params.data(), scale.data(), state.data(),
                 text.data());
    };
    double value = ct::gradient<rnn, ct::wrt<3, 4>>(
        depth, length, h, params.data(), scale.data(), state.data(),
        text.data(), dparams.data(), dscale.data());
    check::near("rnn: value", value, f(), 1e-14);
    checkGradient("rnn: d/dparams", params.data(), dparams.data(),
                  int(params.size()), f);
    checkGradient("rnn: d/dscale", scale.data(), dscale.data(),
                  int(scale.size()), f);
    // Forward mode along every parameter at once, against duals.
    std::vector<double> tparams(params.size(), 1.0), tscale(scale.size(), 0.5);
    auto jvp = ct::jvp<rnn, ct::wrt<3, 4>>(
        depth, length, h, params.data(), scale.data(), state.data(),
        text.data(), tparams.data(), tscale.data());
    std::vector<Dual> dp(params.size()), ds(scale.size()), dst(state.size()),
        dtext(text.size());
    for (size_t i = 0; i < params.size(); i++)
      dp[i] = Dual(params[i], 1.0);
    for (size_t i = 0; i < scale.size(); i++)
      ds[i] = Dual(scale[i], 0.5);
    for (size_t i = 0; i < state.size(); i++)
      dst[i] = Dual(state[i]);
    for (size_t i = 0; i < text.size(); i++)
      dtext[i] = Dual(text[i]);
    Dual reference = rnnLoss<Dual>(depth, length, h, dp.data(), ds.data(),
                                   dst.data(), dtext.data());
    check::near("rnn: jvp value", jvp.value, reference.v, 1e-12);
    check::near("rnn: jvp", jvp.tangent, reference.d, 1e-10);
  }
  return check::report();
}
