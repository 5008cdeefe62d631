//===- Lstm.h - A character-level LSTM's loss (ADBench "lstm") ------------===//
//
// `layers` stacked LSTM cells with elementwise (diagonal) weights over a
// sequence of `length` characters of width `width`. Parameters:
//   main:  per layer, weight[4*width] then bias[4*width] (gates: forget,
//          input, output, candidate; forget and output see the layer's
//          input, input and candidate its previous hidden state);
//   extra: input scale[width], output scale[width], output bias[width].
// The state (per layer hidden[width] then cell[width]) starts from data.
// The loss is the mean negative log-softmax likelihood of each next
// character given the prediction from the current one.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_BENCH_LSTM_H
#define COTANGENT_BENCH_LSTM_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench::lstm {

/// The largest layers * width the loss's fixed-size state buffer holds.
constexpr int kMaxStateSize = 256;

struct Input {
  int layers = 0, length = 0, width = 0;
  std::vector<double> main, extra, state, sequence;
  /// main then extra.
  size_t parameterCount() const { return main.size() + extra.size(); }
};

Input generate(int layers, int length, int width, uint64_t seed);

double objective(const Input &in);
double objectiveAt(const Input &in, const double *params);
double gradient(const Input &in, double *grad);
double gradientManual(const Input &in, double *grad);
/// The same loss written the way GradBench's C++ writes it
/// (LstmAsWritten.cpp), and its Cotangent gradient.
double objectiveAsWritten(const Input &in);
double objectiveAsWrittenAt(const Input &in, const double *params);
double gradientAsWritten(const Input &in, double *grad);

} // namespace bench::lstm

#endif // COTANGENT_BENCH_LSTM_H
