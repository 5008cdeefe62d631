//===- LstmAsWritten.cpp - The LSTM loss as GradBench's C++ writes it -----===//
//
// The same loss as Lstm.cpp, written the way GradBench's C++ writes it (for
// this benchmark, from its public formulation): weight structs whose
// pointers point into the parameter block, a std::vector of them built with
// emplace_back in a constructor, the state likewise, the characters as a
// std::vector of pointers, and the layer's input a pointer that moves from
// the scaled input to each layer's hidden state. Compiled with the
// Cotangent plugin.
//
//===----------------------------------------------------------------------===//

#include "Lstm.h"

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

namespace bench::lstm {
namespace {

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

/// The four gates' weights (or biases), each `width` long.
struct GateParams {
  const double *forget, *ingate, *outgate, *change;
  GateParams(const double *block, int width)
      : forget(block), ingate(block + width), outgate(block + 2 * width),
        change(block + 3 * width) {}
};

struct LayerParams {
  GateParams weight, bias;
  LayerParams(const double *block, int width)
      : weight(block, width), bias(block + 4 * width, width) {}
};

struct MainParams {
  std::vector<LayerParams> layers;
  MainParams(const double *main, int width, int count) {
    layers.reserve(count);
    for (int l = 0; l < count; ++l)
      layers.emplace_back(&main[8 * width * l], width);
  }
};

struct LayerState {
  double *hidden, *cell;
  LayerState(double *block, int width) : hidden(block), cell(block + width) {}
};

struct State {
  std::vector<LayerState> layers;
  State(double *state, int width, int count) {
    layers.reserve(count);
    for (int l = 0; l < count; ++l)
      layers.emplace_back(&state[2 * width * l], width);
  }
};

void cellStep(int width, const LayerParams &params, LayerState &state,
              const double *input) {
  for (int i = 0; i < width; ++i) {
    double forget =
        sigmoid(input[i] * params.weight.forget[i] + params.bias.forget[i]);
    double ingate = sigmoid(state.hidden[i] * params.weight.ingate[i] +
                            params.bias.ingate[i]);
    double outgate =
        sigmoid(input[i] * params.weight.outgate[i] + params.bias.outgate[i]);
    double change = std::tanh(state.hidden[i] * params.weight.change[i] +
                              params.bias.change[i]);
    state.cell[i] = state.cell[i] * forget + ingate * change;
    state.hidden[i] = outgate * std::tanh(state.cell[i]);
  }
}

void predict(int count, int width, const MainParams &main, const double *extra,
             State &state, const double *x, double *output) {
  for (int i = 0; i < width; ++i)
    output[i] = x[i] * extra[i];
  double *input = output;
  for (int l = 0; l < count; ++l) {
    cellStep(width, main.layers[l], state.layers[l], input);
    input = state.layers[l].hidden;
  }
  for (int i = 0; i < width; ++i)
    output[i] = input[i] * extra[width + i] + extra[2 * width + i];
}

double logSumExp(const double *x, int n) {
  double largest = x[0];
  for (int i = 1; i < n; ++i)
    largest = std::fmax(largest, x[i]);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += std::exp(x[i] - largest);
  return std::log(sum) + largest;
}

[[ct::differentiable]] void
lstmAsWritten(int count, int length, int width, const double *main,
              const double *extra, const double *state, const double *sequence,
              double *loss) {
  MainParams mainParams(main, width, count);
  std::vector<double> stateCopy(state, state + 2 * width * count);
  State layerStates(stateCopy.data(), width, count);
  std::vector<const double *> characters;
  characters.reserve(length);
  for (int t = 0; t < length; ++t)
    characters.push_back(&sequence[width * t]);
  std::vector<double> predicted(width), normalized(width);
  double total = 0;
  for (int t = 0; t < length - 1; ++t) {
    predict(count, width, mainParams, extra, layerStates, characters[t],
            predicted.data());
    double lse = logSumExp(predicted.data(), width);
    for (int i = 0; i < width; ++i)
      normalized[i] = predicted[i] - lse;
    const double *next = characters[t + 1];
    for (int i = 0; i < width; ++i)
      total += next[i] * normalized[i];
  }
  *loss = -total / ((length - 1) * width);
}

} // namespace

double objectiveAsWrittenAt(const Input &in, const double *params) {
  double loss;
  lstmAsWritten(in.layers, in.length, in.width, params, params + in.main.size(),
                in.state.data(), in.sequence.data(), &loss);
  return loss;
}

double objectiveAsWritten(const Input &in) {
  double loss;
  lstmAsWritten(in.layers, in.length, in.width, in.main.data(), in.extra.data(),
                in.state.data(), in.sequence.data(), &loss);
  return loss;
}

double gradientAsWritten(const Input &in, double *grad) {
  for (size_t i = 0; i < in.parameterCount(); ++i)
    grad[i] = 0;
  double loss, seed = 1;
  ct::pullback<lstmAsWritten, ct::wrt<3, 4, 7>>(
      in.layers, in.length, in.width, in.main.data(), in.extra.data(),
      in.state.data(), in.sequence.data(), &loss, grad, grad + in.main.size(),
      &seed);
  return loss;
}

} // namespace bench::lstm
