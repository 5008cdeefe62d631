//===- LstmManual.cpp - Hand-written LSTM gradient ------------------------===//
//
// The forward pass records, per step and layer, the cell's input, previous
// hidden and cell state, and its four gates; the backward pass walks the
// steps and layers in reverse, carrying the adjoints of each layer's hidden
// and cell state back in time.
//
//===----------------------------------------------------------------------===//

#include "Lstm.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace bench::lstm {
namespace {

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

/// What the backward pass needs of one cell at one step.
struct CellRecord {
  std::vector<double> input, hidden, cell, forget, ingate, outgate, change,
      newCell;
  explicit CellRecord(int width)
      : input(width), hidden(width), cell(width), forget(width), ingate(width),
        outgate(width), change(width), newCell(width) {}
};

} // namespace

double gradientManual(const Input &in, double *grad) {
  const int layers = in.layers, width = in.width, steps = in.length - 1;
  const double *main = in.main.data(), *extra = in.extra.data();
  double *dMain = grad, *dExtra = grad + in.main.size();
  std::fill(grad, grad + in.parameterCount(), 0.0);

  std::vector<double> state = in.state;
  std::vector<CellRecord> records(size_t(steps) * layers, CellRecord(width));
  std::vector<double> outputs(size_t(steps) * width),
      softmax(size_t(steps) * width), scaled(width);
  double total = 0;
  for (int t = 0; t < steps; ++t) {
    const double *x = &in.sequence[size_t(t) * width];
    for (int i = 0; i < width; ++i)
      scaled[i] = x[i] * extra[i];
    const double *input = scaled.data();
    for (int l = 0; l < layers; ++l) {
      const double *weight = main + 2 * l * 4 * width,
                   *bias = weight + 4 * width;
      double *hidden = &state[2 * l * width], *cell = hidden + width;
      CellRecord &r = records[size_t(t) * layers + l];
      for (int i = 0; i < width; ++i) {
        r.input[i] = input[i];
        r.hidden[i] = hidden[i];
        r.cell[i] = cell[i];
        r.forget[i] = sigmoid(input[i] * weight[i] + bias[i]);
        r.ingate[i] = sigmoid(hidden[i] * weight[width + i] + bias[width + i]);
        r.outgate[i] =
            sigmoid(input[i] * weight[2 * width + i] + bias[2 * width + i]);
        r.change[i] =
            std::tanh(hidden[i] * weight[3 * width + i] + bias[3 * width + i]);
        cell[i] = cell[i] * r.forget[i] + r.ingate[i] * r.change[i];
        r.newCell[i] = cell[i];
        hidden[i] = r.outgate[i] * std::tanh(cell[i]);
      }
      input = hidden;
    }
    double *prediction = &outputs[size_t(t) * width];
    for (int i = 0; i < width; ++i)
      prediction[i] = input[i] * extra[width + i] + extra[2 * width + i];
    const double largest = *std::max_element(prediction, prediction + width);
    double sum = 0;
    for (int i = 0; i < width; ++i)
      sum += std::exp(prediction[i] - largest);
    const double logSum = std::log(sum) + largest;
    const double *next = x + width;
    for (int i = 0; i < width; ++i) {
      total += next[i] * (prediction[i] - logSum);
      softmax[size_t(t) * width + i] = std::exp(prediction[i] - logSum);
    }
  }
  const double scale = -1.0 / (double(steps) * width);

  // Adjoints of each layer's hidden and cell state after the current step.
  std::vector<double> dHidden(size_t(layers) * width, 0.0),
      dCell(size_t(layers) * width, 0.0), dInput(width);
  for (int t = steps - 1; t >= 0; --t) {
    const double *next = &in.sequence[size_t(t + 1) * width];
    double goldSum = 0;
    for (int i = 0; i < width; ++i)
      goldSum += next[i];
    const CellRecord &top = records[size_t(t) * layers + layers - 1];
    for (int i = 0; i < width; ++i) {
      const double dPrediction =
          scale * (next[i] - softmax[size_t(t) * width + i] * goldSum);
      const double output = top.outgate[i] * std::tanh(top.newCell[i]);
      dExtra[width + i] += dPrediction * output;
      dExtra[2 * width + i] += dPrediction;
      dHidden[(layers - 1) * width + i] += dPrediction * extra[width + i];
    }
    for (int l = layers - 1; l >= 0; --l) {
      const double *weight = main + 2 * l * 4 * width;
      double *dWeight = dMain + 2 * l * 4 * width, *dBias = dWeight + 4 * width;
      const CellRecord &r = records[size_t(t) * layers + l];
      double *dh = &dHidden[l * width], *dc = &dCell[l * width];
      for (int i = 0; i < width; ++i) {
        const double tanhCell = std::tanh(r.newCell[i]);
        const double dOut = dh[i] * tanhCell;
        const double dNewCell =
            dc[i] + dh[i] * r.outgate[i] * (1 - tanhCell * tanhCell);
        const double dForget = dNewCell * r.cell[i];
        const double dIngate = dNewCell * r.change[i];
        const double dChange = dNewCell * r.ingate[i];
        const double aForget = dForget * r.forget[i] * (1 - r.forget[i]);
        const double aIngate = dIngate * r.ingate[i] * (1 - r.ingate[i]);
        const double aOut = dOut * r.outgate[i] * (1 - r.outgate[i]);
        const double aChange = dChange * (1 - r.change[i] * r.change[i]);
        dWeight[i] += aForget * r.input[i];
        dBias[i] += aForget;
        dWeight[width + i] += aIngate * r.hidden[i];
        dBias[width + i] += aIngate;
        dWeight[2 * width + i] += aOut * r.input[i];
        dBias[2 * width + i] += aOut;
        dWeight[3 * width + i] += aChange * r.hidden[i];
        dBias[3 * width + i] += aChange;
        dInput[i] = aForget * weight[i] + aOut * weight[2 * width + i];
        dc[i] = dNewCell * r.forget[i];
        dh[i] = aIngate * weight[width + i] + aChange * weight[3 * width + i];
      }
      if (l > 0) {
        for (int i = 0; i < width; ++i)
          dHidden[(l - 1) * width + i] += dInput[i];
      } else {
        const double *x = &in.sequence[size_t(t) * width];
        for (int i = 0; i < width; ++i)
          dExtra[i] += dInput[i] * x[i];
      }
    }
  }
  return -total / (double(steps) * width);
}

} // namespace bench::lstm
