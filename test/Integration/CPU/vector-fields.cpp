// Structs holding std::vectors of numbers, held in std::vectors in turn
// (docs/Memory.md): an MLP as a new user writes it, whose network is a
// std::vector of layers built by push_back (a local layer copied in, or
// emplace_back through a constructor), whose activations are a vector
// reassigned layer by layer; a network the caller passes, differentiated
// with respect to its weights (the derivative network has the same
// shape); a layer's vector fields grown, shrunk, erased, inserted into,
// assigned n copies, assigned from local vectors and temporaries, copied and moved with their
// struct, grown through references and helpers, read through references,
// range-for, algorithms and helpers; loop variables copying layers, and
// insert of counts and ranges; a network class whose layers' member
// functions return std::vectors by value; a sparse matrix as a vector of rows
// (indices and values); layers of floats; models holding vectors of
// layers. Reverse mode
// against central differences, forward mode against the gradient, vector
// lanes and Hessian-vector products against the same, at -O0 and -O2 (and
// under AddressSanitizer in the sanitizer build: no leak, no use after
// free, in either sweep).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include "check.h"

struct Layer {
  std::vector<double> weights; // out x in, row by row
  std::vector<double> bias;
  int in = 0, out = 0;
};

/// A 4-6-3-1 network read from `params` (weights, then biases, layer by
/// layer), applied to `x`; the squared output.
[[ct::differentiable]] double mlpLoss(const double *params, const double *x) {
  const int sizes[4] = {4, 6, 3, 1};
  std::vector<Layer> net;
  int k = 0;
  for (int l = 0; l < 3; ++l) {
    Layer layer;
    layer.in = sizes[l];
    layer.out = sizes[l + 1];
    for (int i = 0; i < layer.in * layer.out; ++i)
      layer.weights.push_back(params[k++]);
    for (int o = 0; o < layer.out; ++o)
      layer.bias.push_back(params[k++]);
    net.push_back(layer);
  }
  std::vector<double> act(x, x + 4);
  for (const Layer &layer : net) {
    std::vector<double> next(layer.out);
    for (int o = 0; o < layer.out; ++o) {
      double s = layer.bias[o];
      for (int i = 0; i < layer.in; ++i)
        s += layer.weights[o * layer.in + i] * act[i];
      next[o] = std::tanh(s);
    }
    act = next;
  }
  return act[0] * act[0];
}
constexpr int kMlpParams = 4 * 6 + 6 + 6 * 3 + 3 + 3 * 1 + 1;

/// A layer made by its constructor, in place.
struct Dense {
  Dense(int in, int out) : weights(in * out, 0.5), bias(out), in(in), out(out) {}
  double apply(const std::vector<double> &x, int o) const {
    double s = bias[o];
    for (int i = 0; i < in; ++i)
      s += weights[o * in + i] * x[i];
    return s;
  }
  std::vector<double> weights, bias;
  int in, out;
};

struct Network {
  std::vector<Dense> layers;
  double scale = 1;
};

static double dot(const std::vector<double> &a, const std::vector<double> &b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}

/// emplace_back through a constructor, weights set through a reference to
/// the layer, a helper member function reading its fields, and a network
/// struct holding the vector of layers.
[[ct::differentiable]] double denseLoss(const double *params, int n) {
  Network network;
  network.scale = params[0];
  network.layers.emplace_back(2, 3);
  network.layers.emplace_back(3, 2);
  int k = 1;
  for (Dense &layer : network.layers) {
    for (double &w : layer.weights)
      w *= params[k++ % n];
    for (size_t o = 0; o < layer.bias.size(); ++o)
      layer.bias[o] = 0.1 * params[(k + o) % n];
  }
  std::vector<double> a = {params[1], params[2]};
  for (const Dense &layer : network.layers) {
    std::vector<double> next;
    for (int o = 0; o < layer.out; ++o)
      next.push_back(std::sin(layer.apply(a, o)));
    a = next;
  }
  return network.scale * dot(a, a);
}

/// A layer's vector fields changed in every way a vector changes.
[[ct::differentiable]] double fieldChanges(const double *x, int n) {
  std::vector<Layer> layers(2);
  Layer &first = layers[0];
  for (int i = 0; i < n; ++i)
    first.weights.push_back(x[i] * x[i]);
  first.weights.erase(first.weights.begin());            // drops x0^2
  first.weights.insert(first.weights.begin(), 3 * x[0]); // 3 x0 in front
  first.weights.pop_back();                              // drops x_{n-1}^2
  std::vector<double> local = {x[0], x[1]};
  layers[1].bias = local;                            // x0, x1
  layers[1].bias.resize(3, x[2]);                    // x0, x1, x2
  layers[1].weights = std::vector<double>(2, x[3]); // x3, x3
  double s = std::accumulate(first.weights.begin(), first.weights.end(), 0.0);
  Layer copy = layers[1];
  copy.bias[0] = 100; // the copy has memory of its own
  layers.push_back(copy); // (which moves the layers: `first` dangles)
  layers[2].weights.clear();
  const std::vector<double> &bias = layers[1].bias;
  for (double b : bias)
    s += b * b;
  s += dot(layers[1].weights, layers[1].weights);
  s += layers[2].bias[1] + layers[2].bias[0] * 0.01 +
       (double)layers[2].weights.size();
  return s;
}

/// The network the caller passes; the derivative network, the same shape,
/// receives the gradient.
[[ct::differentiable]] double netLoss(const std::vector<Layer> &net,
                                      const double *x) {
  std::vector<double> act(x, x + net[0].in);
  for (size_t l = 0; l < net.size(); ++l) {
    const Layer &layer = net[l];
    std::vector<double> next(layer.out);
    for (int o = 0; o < layer.out; ++o) {
      double s = layer.bias[o];
      for (int i = 0; i < layer.in; ++i)
        s += layer.weights[o * layer.in + i] * act[i];
      next[o] = std::tanh(s);
    }
    act = next;
  }
  return act[0] + 0.5 * act[1] * act[1];
}

/// A sparse matrix as a vector of rows (column indices and values in
/// vectors of their own, integers beside numbers), built from x, applied
/// to x.
struct SparseRow {
  std::vector<int> columns;
  std::vector<double> values;
};

[[ct::differentiable]] double sparseEnergy(const double *x, int n) {
  std::vector<SparseRow> rows(n);
  for (int i = 0; i < n; ++i)
    for (int j = i - 1; j <= i + 1; ++j)
      if (j >= 0 && j < n) {
        rows[i].columns.push_back(j);
        rows[i].values.push_back(std::sin(x[i] * x[j]));
      }
  double e = 0;
  for (const SparseRow &row : rows) {
    double y = 0;
    for (size_t k = 0; k < row.columns.size(); ++k)
      y += row.values[k] * x[row.columns[k]];
    e += y * y;
  }
  return e;
}

/// Layers of floats (each address spans two of the struct's slots), moved
/// and copied.
struct FloatLayer {
  std::vector<float> weights;
  float scale;
};

[[ct::differentiable]] float floatLayers(const float *x, int n) {
  std::vector<FloatLayer> layers(2);
  for (int k = 0; k < 2; ++k) {
    layers[k].scale = x[0];
    for (int i = 0; i < n; ++i)
      layers[k].weights.push_back(x[i] * (k + 1));
  }
  FloatLayer moved = std::move(layers[1]);
  layers[0] = moved;
  layers.push_back(std::move(moved));
  float s = 0;
  for (const FloatLayer &l : layers)
    for (float w : l.weights)
      s += l.scale * w * w;
  return s + (float)moved.weights.size();
}

/// A field grown through a reference to it, and by a helper taking it by
/// reference; models holding vectors of layers, assigned layer to layer.
static void appendSquares(std::vector<double> &to, const double *x, int n) {
  for (int i = 0; i < n; ++i)
    to.push_back(x[i] * x[i]);
}

/// Returns a reference, so it is lowered in place at each call: its
/// parameter is bound to a field kept in memory at one call and to a
/// local vector at the next.
static double &front(std::vector<double> &v) { return v[0]; }

struct Model {
  std::vector<Layer> layers;
  double scale = 1;
};

[[ct::differentiable]] double growthThroughReferences(const double *x, int n) {
  std::vector<Model> models(2);
  for (int k = 0; k < 2; ++k) {
    models[k].layers.resize(1);
    std::vector<double> &weights = models[k].layers[0].weights;
    for (int i = 0; i < n; ++i)
      weights.push_back(x[i] * (k + 1));
    models[k].scale = x[0];
  }
  appendSquares(models[1].layers[0].bias, x, n);
  std::vector<double> local(2, x[1]);
  front(models[1].layers[0].bias) *= 2; // 2 x0^2
  front(local) *= 5;
  models[0].layers[0] = models[1].layers[0];
  models[1].layers.push_back(models[0].layers[0]);
  double s = 0;
  for (const Model &m : models)
    for (const Layer &l : m.layers) {
      for (double w : l.weights)
        s += m.scale * w * w;
      s += std::accumulate(l.bias.begin(), l.bias.end(), 0.0);
    }
  return s + local[0] + local[1]; // 6 x1
}

/// Loop variables copying layers (each copy's vectors its own, destroyed
/// when its iteration ends), and insert of a count of copies, of a range
/// of another vector's layers, and of a count or a pointer range of numbers
/// into a layer's field.
[[ct::differentiable]] double copiesAndInserts(const double *x, int n) {
  std::vector<Layer> net(2);
  net[0].weights.push_back(x[0]);
  net[1].weights.push_back(2 * x[1]);
  double s = 0;
  for (Layer l : net) {
    l.weights[0] *= 3;
    s += l.weights[0] * l.weights[0];
  }
  for (auto l : net)
    s += l.weights[0];
  std::vector<Layer> more;
  more.insert(more.end(), 2, net[0]);
  more.insert(more.begin(), net.begin() + 1, net.end());
  more[0].weights.insert(more[0].weights.begin(), 3, x[2]);
  more[1].weights.insert(more[1].weights.end(), x, x + n);
  double t = 0;
  for (const Layer &l : more)
    for (double v : l.weights)
      t += v;
  return s + t * t + more.size();
}

/// The network as a class: layers made by their constructor (sized
/// vector fields), loaded through references to their fields, and member
/// functions returning std::vectors by value; the activations a vector
/// parameter taken by value and reassigned layer by layer.
struct DenseLayer {
  DenseLayer(int in, int out) : W(in * out), b(out), in(in), out(out) {}
  std::vector<double> forward(const std::vector<double> &x) const {
    std::vector<double> y(out);
    for (int o = 0; o < out; ++o) {
      double s = b[o];
      for (int i = 0; i < in; ++i)
        s += W[o * in + i] * x[i];
      y[o] = std::tanh(s);
    }
    return y;
  }
  std::vector<double> W, b;
  int in, out;
};

class DenseNetwork {
public:
  explicit DenseNetwork(const std::vector<int> &sizes) {
    for (size_t l = 0; l + 1 < sizes.size(); ++l)
      layers.emplace_back(sizes[l], sizes[l + 1]);
  }
  void load(const double *p) {
    int k = 0;
    for (DenseLayer &layer : layers) {
      for (double &w : layer.W)
        w = p[k++];
      for (double &c : layer.b)
        c = p[k++];
    }
  }
  std::vector<double> forward(std::vector<double> x) const {
    for (const DenseLayer &layer : layers)
      x = layer.forward(x);
    return x;
  }

private:
  std::vector<DenseLayer> layers;
};

[[ct::differentiable]] double classLoss(const double *p, const double *x,
                                        const double *y) {
  DenseNetwork network({3, 4, 2});
  network.load(p);
  std::vector<double> out = network.forward(std::vector<double>(x, x + 3));
  double e = 0;
  for (int i = 0; i < 2; ++i)
    e += (out[i] - y[i]) * (out[i] - y[i]);
  return e;
}
constexpr int kClassParams = 3 * 4 + 4 + 4 * 2 + 2;

static void checkMlp() {
  double p[kMlpParams], g[kMlpParams] = {};
  for (int i = 0; i < kMlpParams; ++i)
    p[i] = 0.4 * std::sin(1.7 * i + 0.3);
  double x[4] = {0.5, -0.3, 0.2, 0.9};
  double value = ct::gradient<mlpLoss, ct::wrt<0>>(p, x, g);
  check::near("mlp value", value, mlpLoss(p, x), 1e-12);
  for (int i = 0; i < kMlpParams; ++i) {
    char label[32];
    std::snprintf(label, sizeof label, "mlp d%d", i);
    check::near(label, g[i],
                check::differenceAt(p, i, [&] { return mlpLoss(p, x); }),
                1e-7);
  }
  double t[kMlpParams], directional = 0;
  for (int i = 0; i < kMlpParams; ++i) {
    t[i] = std::cos(0.9 * i);
    directional += g[i] * t[i];
  }
  check::near("mlp jvp", ct::jvp<mlpLoss, ct::wrt<0>>(p, x, t).tangent,
              directional, 1e-10);
  double t2[2 * kMlpParams];
  for (int i = 0; i < kMlpParams; ++i) {
    t2[2 * i] = t[i];
    t2[2 * i + 1] = i == 5;
  }
  auto lanes = ct::jvp<mlpLoss, ct::wrt<0>, ct::lanes<2>>(p, x, t2);
  check::near("mlp lane 0", lanes.tangent[0], directional, 1e-10);
  check::near("mlp lane 1", lanes.tangent[1], g[5], 1e-10);
  double hv[kMlpParams] = {};
  ct::hvp<mlpLoss, ct::wrt<0>>(p, x, t, hv);
  double plus[kMlpParams], minus[kMlpParams], gp[kMlpParams] = {},
         gm[kMlpParams] = {}, h = 1e-5;
  for (int i = 0; i < kMlpParams; ++i) {
    plus[i] = p[i] + h * t[i];
    minus[i] = p[i] - h * t[i];
  }
  ct::gradient<mlpLoss, ct::wrt<0>>(plus, x, gp);
  ct::gradient<mlpLoss, ct::wrt<0>>(minus, x, gm);
  for (int i = 0; i < kMlpParams; i += 7)
    check::near("mlp hvp", hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);
}

static void checkDense() {
  const int n = 5;
  double p[n] = {1.3, 0.4, -0.8, 0.6, 0.25}, g[n] = {};
  ct::gradient<denseLoss>(p, n, g);
  for (int i = 0; i < n; ++i)
    check::near("dense", g[i],
                check::differenceAt(p, i, [&] { return denseLoss(p, n); }),
                1e-7);
  double t[n] = {0, 1, 0, 0, 1};
  check::near("dense jvp", ct::jvp<denseLoss>(p, n, t).tangent, g[1] + g[4],
              1e-10);
}

static void checkFieldChanges() {
  const int n = 5;
  double x[n] = {0.7, -1.1, 0.4, 1.6, -0.3}, g[n] = {};
  double value = ct::gradient<fieldChanges>(x, n, g);
  // 3 x0 + x1^2 + x2^2 + x3^2, then x0^2 + x1^2 + x2^2, then 2 x3^2, then
  // x1 + 0.01 * 100 and the cleared size 0.
  double expected = 3 * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3] +
                    x[0] * x[0] + x[1] * x[1] + x[2] * x[2] +
                    2 * x[3] * x[3] + x[1] + 1;
  check::near("changes value", value, expected, 1e-12);
  check::near("changes d0", g[0], 3 + 2 * x[0], 1e-12);
  check::near("changes d1", g[1], 4 * x[1] + 1, 1e-12);
  check::near("changes d2", g[2], 4 * x[2], 1e-12);
  check::near("changes d3", g[3], 6 * x[3], 1e-12);
  check::near("changes d4", g[4], 0, 1e-12);
  double t[n] = {0, 0, 0, 1, 0};
  check::near("changes jvp", ct::jvp<fieldChanges>(x, n, t).tangent, g[3],
              1e-12);
}

// assign of n copies: x^2 three times, then sin x twice and four copies of
// the field's own first element: 9 x^2 + 16 sin x.
[[ct::differentiable]] double assigned(double x) {
  std::vector<Layer> layers(2);
  layers[0].bias.assign(3, x * x);
  layers[1].bias.assign(2, std::sin(x));
  layers[1].bias.assign(4, layers[1].bias[0]);
  double s = 0;
  for (const Layer &layer : layers)
    for (double v : layer.bias)
      s += v * layer.bias.size();
  return s;
}

static void checkAssign() {
  const double x = 0.6;
  double dx = 0;
  double value = ct::gradient<assigned>(x, &dx);
  check::near("assign value", value, 9 * x * x + 16 * std::sin(x), 1e-13);
  check::near("assign d/dx", dx, 18 * x + 16 * std::cos(x), 1e-13);
  check::near("assign jvp", ct::jvp<assigned>(x, 1.0).tangent, dx, 1e-13);
}

static void checkCallersNetwork() {
  const int sizes[3] = {3, 4, 2};
  std::vector<Layer> net(2), dnet(2);
  int k = 0;
  for (int l = 0; l < 2; ++l) {
    net[l].in = dnet[l].in = sizes[l];
    net[l].out = dnet[l].out = sizes[l + 1];
    for (int i = 0; i < sizes[l] * sizes[l + 1]; ++i)
      net[l].weights.push_back(0.3 * std::sin(++k));
    for (int o = 0; o < sizes[l + 1]; ++o)
      net[l].bias.push_back(0.2 * std::cos(++k));
    dnet[l].weights.assign(net[l].weights.size(), 0.0);
    dnet[l].bias.assign(net[l].bias.size(), 0.0);
  }
  double x[3] = {0.9, -0.4, 0.3};
  double value = ct::gradient<netLoss, ct::wrt<0>>(net, x, &dnet);
  check::near("network value", value, netLoss(net, x), 1e-12);
  for (int l = 0; l < 2; ++l) {
    for (size_t i = 0; i < net[l].weights.size(); ++i)
      check::near("network weight", dnet[l].weights[i],
                  check::differenceAt(net[l].weights.data(), i,
                                      [&] { return netLoss(net, x); }),
                  1e-7);
    for (size_t o = 0; o < net[l].bias.size(); ++o)
      check::near("network bias", dnet[l].bias[o],
                  check::differenceAt(net[l].bias.data(), o,
                                      [&] { return netLoss(net, x); }),
                  1e-7);
  }
}

static void checkSparse() {
  const int n = 5;
  double x[n] = {0.3, -0.5, 0.8, 1.1, -0.2}, g[n] = {};
  double value = ct::gradient<sparseEnergy>(x, n, g);
  check::near("sparse value", value, sparseEnergy(x, n), 1e-12);
  for (int i = 0; i < n; ++i)
    check::near("sparse", g[i],
                check::differenceAt(x, i, [&] { return sparseEnergy(x, n); }),
                1e-7);
}

static void checkFloatLayers() {
  float x[3] = {1, 2, 3}, g[3] = {};
  float value = ct::gradient<floatLayers>(x, 3, g);
  // The layers: 2x (a copy), x (moved from: empty), 2x (moved); each
  // scaled by x0: 8 x0 |x|^2.
  float sum = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
  check::near("float value", value, 8 * x[0] * sum, 1e-4);
  check::near("float d0", g[0], 8 * sum + 16 * x[0] * x[0], 1e-4);
  check::near("float d1", g[1], 16 * x[0] * x[1], 1e-4);
  check::near("float d2", g[2], 16 * x[0] * x[2], 1e-4);
}

static void checkReferences() {
  const int n = 3;
  double x[n] = {0.8, -1.3, 0.6}, g[n] = {};
  double value = ct::gradient<growthThroughReferences>(x, n, g);
  // Three layers of weights 2x, scaled by x0 (12 x0 |x|^2), and of biases
  // x^2 with the first doubled (3 |x|^2 + 3 x0^2); the local, 6 x1.
  double sum = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
  check::near("references value", value,
              12 * x[0] * sum + 3 * sum + 3 * x[0] * x[0] + 6 * x[1], 1e-12);
  check::near("references d0", g[0],
              12 * sum + 24 * x[0] * x[0] + 6 * x[0] + 6 * x[0], 1e-12);
  check::near("references d1", g[1], 24 * x[0] * x[1] + 6 * x[1] + 6, 1e-12);
  check::near("references d2", g[2], 24 * x[0] * x[2] + 6 * x[2], 1e-12);
}

static void checkCopiesAndInserts() {
  const int n = 3;
  double x[n] = {0.5, -1.0, 2.0}, g[n] = {};
  double value = ct::gradient<copiesAndInserts>(x, n, g);
  // The copies: 9 x0^2 + 36 x1^2, then x0 + 2 x1 (the layers unchanged).
  // The inserted layers: (x2, x2, x2, 2 x1), (x0, x0, x1, x2), (x0): their
  // sum t = 3 x0 + 3 x1 + 4 x2; three layers.
  double t = 3 * x[0] + 3 * x[1] + 4 * x[2];
  check::near("inserts value", value,
              9 * x[0] * x[0] + 36 * x[1] * x[1] + x[0] + 2 * x[1] + t * t + 3,
              1e-12);
  check::near("inserts d0", g[0], 18 * x[0] + 1 + 6 * t, 1e-12);
  check::near("inserts d1", g[1], 72 * x[1] + 2 + 6 * t, 1e-12);
  check::near("inserts d2", g[2], 8 * t, 1e-12);
  double v[n] = {1, 0, -1};
  check::near("inserts jvp", ct::jvp<copiesAndInserts>(x, n, v).tangent,
              g[0] - g[2], 1e-12);
}

static void checkClassNetwork() {
  double p[kClassParams], g[kClassParams] = {};
  double x[3] = {0.3, -0.2, 0.8}, y[2] = {0.1, -0.4};
  for (int i = 0; i < kClassParams; ++i)
    p[i] = 0.3 * std::sin(1.3 * i + 0.2);
  double value = ct::gradient<classLoss, ct::wrt<0>>(p, x, y, g);
  check::near("class value", value, classLoss(p, x, y), 1e-12);
  for (int i = 0; i < kClassParams; ++i)
    check::near("class", g[i],
                check::differenceAt(p, i, [&] { return classLoss(p, x, y); }),
                1e-7);
  double t[kClassParams], directional = 0;
  for (int i = 0; i < kClassParams; ++i) {
    t[i] = std::cos(0.7 * i);
    directional += g[i] * t[i];
  }
  check::near("class jvp", ct::jvp<classLoss, ct::wrt<0>>(p, x, y, t).tangent,
              directional, 1e-10);
}

int main() {
  checkMlp();
  checkDense();
  checkFieldChanges();
  checkAssign();
  checkCallersNetwork();
  checkSparse();
  checkFloatLayers();
  checkReferences();
  checkCopiesAndInserts();
  checkClassNetwork();
  return check::report();
}
