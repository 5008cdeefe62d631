//===- MlpManual.cpp - Hand-written backpropagation -----------------------===//
//
// Per sample: the forward pass keeps every layer's activations; the
// backward pass carries dL/da from the output down, adding each layer's
// outer product into its weights' gradient and tanh's derivative
// (1 - a^2) on the way.
//
//===----------------------------------------------------------------------===//

#include "Mlp.h"

#include <algorithm>
#include <cmath>

namespace bench::mlp {

double gradientManual(const Input &in, double *grad) {
  const int layers = int(in.widths.size()) - 1;
  std::fill(grad, grad + in.weights.size(), 0.0);
  std::vector<int> offsets(layers + 1, 0);
  for (int l = 0; l < layers; ++l)
    offsets[l + 1] =
        offsets[l] + in.widths[l] * in.widths[l + 1] + in.widths[l + 1];
  std::vector<std::vector<double>> a(layers + 1);
  for (int l = 0; l <= layers; ++l)
    a[l].resize(in.widths[l]);
  std::vector<double> delta, below;
  const double *w = in.weights.data();
  double total = 0;
  const double scale = 1.0 / in.samples;
  for (int s = 0; s < in.samples; ++s) {
    std::copy_n(in.inputs.data() + s * in.widths[0], in.widths[0],
                a[0].begin());
    for (int l = 0; l < layers; ++l) {
      int inWidth = in.widths[l], out = in.widths[l + 1], at = offsets[l];
      for (int o = 0; o < out; ++o) {
        double z = w[at + inWidth * out + o];
        for (int i = 0; i < inWidth; ++i)
          z += w[at + o * inWidth + i] * a[l][i];
        a[l + 1][o] = l + 1 < layers ? std::tanh(z) : z;
      }
    }
    int out = in.widths[layers];
    delta.assign(out, 0.0);
    for (int o = 0; o < out; ++o) {
      double d = a[layers][o] - in.targets[s * out + o];
      total += d * d;
      delta[o] = 2 * d * scale; // dL/dz of the linear last layer
    }
    for (int l = layers - 1; l >= 0; --l) {
      int inWidth = in.widths[l], width = in.widths[l + 1], at = offsets[l];
      below.assign(inWidth, 0.0);
      for (int o = 0; o < width; ++o) {
        grad[at + inWidth * width + o] += delta[o];
        for (int i = 0; i < inWidth; ++i) {
          grad[at + o * inWidth + i] += delta[o] * a[l][i];
          below[i] += delta[o] * w[at + o * inWidth + i];
        }
      }
      if (l > 0) // through tanh: dL/dz = dL/da (1 - a^2)
        for (int i = 0; i < inWidth; ++i)
          below[i] *= 1 - a[l][i] * a[l][i];
      delta.swap(below);
    }
  }
  return total * scale;
}

} // namespace bench::mlp
