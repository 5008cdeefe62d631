//===- Lstm.cpp - The LSTM loss and its Cotangent gradient ----------------===//
//
// Compiled with the Cotangent plugin.
//
//===----------------------------------------------------------------------===//

#include "Lstm.h"
#include "Random.h"

#include <cotangent/cotangent.h>

#include <cmath>

namespace bench::lstm {
namespace {

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

/// One cell: updates hidden and cell in place from input.
void cellStep(int width, const double *weight, const double *bias,
              double *hidden, double *cell, const double *input) {
  for (int i = 0; i < width; ++i) {
    const double forget = sigmoid(input[i] * weight[i] + bias[i]);
    const double ingate =
        sigmoid(hidden[i] * weight[width + i] + bias[width + i]);
    const double outgate =
        sigmoid(input[i] * weight[2 * width + i] + bias[2 * width + i]);
    const double change =
        std::tanh(hidden[i] * weight[3 * width + i] + bias[3 * width + i]);
    cell[i] = cell[i] * forget + ingate * change;
    hidden[i] = outgate * std::tanh(cell[i]);
  }
}

/// The prediction for the next character from character x. `buffer` holds
/// the scaled input, then each layer's hidden and cell state, so that every
/// layer's input is a view of one array.
void predict(int layers, int width, const double *main, const double *extra,
             double *buffer, const double *x, double *prediction) {
  for (int i = 0; i < width; ++i)
    buffer[i] = x[i] * extra[i];
  for (int l = 0; l < layers; ++l) {
    const int inputAt = l == 0 ? 0 : (2 * l - 1) * width;
    const int hiddenAt = (2 * l + 1) * width;
    cellStep(width, main + 2 * l * 4 * width, main + (2 * l + 1) * 4 * width,
             buffer + hiddenAt, buffer + hiddenAt + width, buffer + inputAt);
  }
  const double *output = buffer + (2 * layers - 1) * width;
  for (int i = 0; i < width; ++i)
    prediction[i] = output[i] * extra[width + i] + extra[2 * width + i];
}

[[ct::differentiable]] double lstmLoss(int layers, int length, int width,
                                       const double *main, const double *extra,
                                       const double *initialState,
                                       const double *sequence) {
  // The scaled input, then the state.
  double buffer[3 * kMaxStateSize];
  for (int i = 0; i < 2 * layers * width; ++i)
    buffer[width + i] = initialState[i];
  double prediction[kMaxStateSize];
  double total = 0;
  for (int t = 0; t < length - 1; ++t) {
    predict(layers, width, main, extra, buffer, sequence + t * width,
            prediction);
    double largest = prediction[0];
    for (int i = 1; i < width; ++i)
      largest = std::fmax(largest, prediction[i]);
    double sum = 0;
    for (int i = 0; i < width; ++i)
      sum += std::exp(prediction[i] - largest);
    const double logSum = std::log(sum) + largest;
    const double *next = sequence + (t + 1) * width;
    for (int i = 0; i < width; ++i)
      total += next[i] * (prediction[i] - logSum);
  }
  return -total / ((length - 1) * width);
}

} // namespace

Input generate(int layers, int length, int width, uint64_t seed) {
  Random random(seed);
  Input in;
  in.layers = layers, in.length = length, in.width = width;
  in.main = random.uniformVector(size_t(2) * layers * 4 * width, -1, 1);
  in.extra = random.uniformVector(size_t(3) * width, -1, 1);
  in.state = random.uniformVector(size_t(2) * layers * width, -1, 1);
  in.sequence = random.uniformVector(size_t(length) * width, 0, 1);
  return in;
}

double objectiveAt(const Input &in, const double *params) {
  return lstmLoss(in.layers, in.length, in.width, params,
                  params + in.main.size(), in.state.data(), in.sequence.data());
}

double objective(const Input &in) {
  return lstmLoss(in.layers, in.length, in.width, in.main.data(),
                  in.extra.data(), in.state.data(), in.sequence.data());
}

double gradient(const Input &in, double *grad) {
  for (size_t i = 0; i < in.parameterCount(); ++i)
    grad[i] = 0;
  return ct::gradient<lstmLoss, ct::wrt<3, 4>>(
      in.layers, in.length, in.width, in.main.data(), in.extra.data(),
      in.state.data(), in.sequence.data(), grad, grad + in.main.size());
}

} // namespace bench::lstm
