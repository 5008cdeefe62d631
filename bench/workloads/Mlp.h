//===- Mlp.h - A multilayer perceptron's training loss --------------------===//
//
// A dense tanh network (linear last layer) over a batch; the loss is the
// mean squared error against targets, differentiated with respect to all
// weights and biases. Written as the user writes it: each
// sample's activations are one std::vector assigned each layer's output,
// whose width changes (the general memory model's growing vectors,
// docs/Memory.md).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_BENCH_MLP_H
#define COTANGENT_BENCH_MLP_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench::mlp {

struct Input {
  std::vector<int> widths; // input width, then each layer's output width
  int samples = 0;
  /// Per layer: the out x in weights (row-major), then the out biases.
  std::vector<double> weights;
  std::vector<double> inputs, targets;
  size_t parameterCount() const { return weights.size(); }
};

Input generate(std::vector<int> widths, int samples, uint64_t seed);

double objective(const Input &in);
double objectiveAt(const Input &in, const double *weights);
/// Activations in one vector assigned each layer's output (the general
/// memory model).
double gradient(const Input &in, double *grad);
/// The same network over two fixed buffers of the widest layer, copied
/// element by element (the memref model).
double gradientFixedBuffers(const Input &in, double *grad);
/// The network as a new user builds it: a std::vector of layers, each
/// holding std::vectors of its weights and biases, built by push_back
/// from the parameters inside the loss (vector fields kept in memory,
/// docs/Memory.md).
double gradientOfLayers(const Input &in, double *grad);
double gradientManual(const Input &in, double *grad);

} // namespace bench::mlp

#endif // COTANGENT_BENCH_MLP_H
