//===- Mlp.cpp - A multilayer perceptron's loss, differentiated -----------===//

#include "Mlp.h"

#include "Random.h"

#include <cotangent/cotangent.h>

#include <algorithm>
#include <cmath>

namespace bench::mlp {
namespace {

[[ct::differentiable]] double loss(const double *w, const double *inputs,
                                   const double *targets, const int *widths,
                                   int layers, int samples) {
  double total = 0;
  for (int s = 0; s < samples; ++s) {
    std::vector<double> a(inputs + s * widths[0], inputs + (s + 1) * widths[0]);
    int offset = 0;
    for (int l = 0; l < layers; ++l) {
      int in = widths[l], out = widths[l + 1];
      std::vector<double> next(out);
      for (int o = 0; o < out; ++o) {
        double z = w[offset + in * out + o];
        for (int i = 0; i < in; ++i)
          z += w[offset + o * in + i] * a[i];
        next[o] = l + 1 < layers ? std::tanh(z) : z;
      }
      offset += in * out + out;
      a = next;
    }
    int out = widths[layers];
    for (int o = 0; o < out; ++o) {
      double d = a[o] - targets[s * out + o];
      total += d * d;
    }
  }
  return total / samples;
}

[[ct::differentiable]] double
lossFixedBuffers(const double *w, const double *inputs, const double *targets,
                 const int *widths, int layers, int samples, int widest) {
  double total = 0;
  std::vector<double> a(widest), next(widest);
  for (int s = 0; s < samples; ++s) {
    for (int i = 0; i < widths[0]; ++i)
      a[i] = inputs[s * widths[0] + i];
    int offset = 0;
    for (int l = 0; l < layers; ++l) {
      int in = widths[l], out = widths[l + 1];
      for (int o = 0; o < out; ++o) {
        double z = w[offset + in * out + o];
        for (int i = 0; i < in; ++i)
          z += w[offset + o * in + i] * a[i];
        next[o] = l + 1 < layers ? std::tanh(z) : z;
      }
      offset += in * out + out;
      for (int o = 0; o < out; ++o)
        a[o] = next[o];
    }
    int out = widths[layers];
    for (int o = 0; o < out; ++o) {
      double d = a[o] - targets[s * out + o];
      total += d * d;
    }
  }
  return total / samples;
}

struct Layer {
  std::vector<double> weights; // out x in, row by row
  std::vector<double> biases;
  int in = 0, out = 0;
};

[[ct::differentiable]] double
lossOfLayers(const double *w, const double *inputs, const double *targets,
             const int *widths, int layers, int samples) {
  std::vector<Layer> network;
  int offset = 0;
  for (int l = 0; l < layers; ++l) {
    Layer layer;
    layer.in = widths[l];
    layer.out = widths[l + 1];
    for (int k = 0; k < layer.in * layer.out; ++k)
      layer.weights.push_back(w[offset + k]);
    offset += layer.in * layer.out;
    for (int o = 0; o < layer.out; ++o)
      layer.biases.push_back(w[offset + o]);
    offset += layer.out;
    network.push_back(layer);
  }
  double total = 0;
  for (int s = 0; s < samples; ++s) {
    std::vector<double> a(inputs + s * widths[0], inputs + (s + 1) * widths[0]);
    for (size_t l = 0; l < network.size(); ++l) {
      const Layer &layer = network[l];
      std::vector<double> next(layer.out);
      for (int o = 0; o < layer.out; ++o) {
        double z = layer.biases[o];
        for (int i = 0; i < layer.in; ++i)
          z += layer.weights[o * layer.in + i] * a[i];
        next[o] = l + 1 < network.size() ? std::tanh(z) : z;
      }
      a = next;
    }
    int out = widths[layers];
    for (int o = 0; o < out; ++o) {
      double d = a[o] - targets[s * out + o];
      total += d * d;
    }
  }
  return total / samples;
}

int layerCount(const Input &in) { return int(in.widths.size()) - 1; }

} // namespace

Input generate(std::vector<int> widths, int samples, uint64_t seed) {
  Random random(seed);
  Input in;
  in.widths = std::move(widths);
  in.samples = samples;
  for (size_t l = 0; l + 1 < in.widths.size(); ++l) {
    int inWidth = in.widths[l], out = in.widths[l + 1];
    double scale = 1.0 / std::sqrt(double(inWidth));
    for (double v : random.uniformVector(size_t(inWidth) * out, -scale, scale))
      in.weights.push_back(v);
    for (double v : random.uniformVector(out, -0.1, 0.1))
      in.weights.push_back(v);
  }
  in.inputs = random.uniformVector(size_t(samples) * in.widths.front(), -1, 1);
  in.targets = random.uniformVector(size_t(samples) * in.widths.back(), -1, 1);
  return in;
}

double objectiveAt(const Input &in, const double *weights) {
  return loss(weights, in.inputs.data(), in.targets.data(), in.widths.data(),
              layerCount(in), in.samples);
}

double objective(const Input &in) { return objectiveAt(in, in.weights.data()); }

double gradient(const Input &in, double *grad) {
  std::fill(grad, grad + in.weights.size(), 0.0);
  return ct::gradient<loss, ct::wrt<0>>(in.weights.data(), in.inputs.data(),
                                        in.targets.data(), in.widths.data(),
                                        layerCount(in), in.samples, grad);
}

double gradientOfLayers(const Input &in, double *grad) {
  std::fill(grad, grad + in.weights.size(), 0.0);
  return ct::gradient<lossOfLayers, ct::wrt<0>>(
      in.weights.data(), in.inputs.data(), in.targets.data(), in.widths.data(),
      layerCount(in), in.samples, grad);
}

double gradientFixedBuffers(const Input &in, double *grad) {
  std::fill(grad, grad + in.weights.size(), 0.0);
  int widest = *std::max_element(in.widths.begin(), in.widths.end());
  return ct::gradient<lossFixedBuffers, ct::wrt<0>>(
      in.weights.data(), in.inputs.data(), in.targets.data(), in.widths.data(),
      layerCount(in), in.samples, widest, grad);
}

} // namespace bench::mlp
