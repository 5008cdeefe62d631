// A small neural network's loss: one tanh hidden layer (3 -> 4 -> 1) and a
// squared error, differentiated with respect to the weights.
#include <cotangent/cotangent.h>

#include "report.h"

#include <cmath>

constexpr int In = 3, Hidden = 4;
constexpr int NumWeights = Hidden * In + Hidden + Hidden + 1;

// w = [W1 (Hidden x In), b1 (Hidden), w2 (Hidden), b2]
[[ct::differentiable]] double loss(const double *w, const double *input,
                                   double target) {
  double out = w[NumWeights - 1];
  for (int h = 0; h < Hidden; ++h) {
    double z = w[Hidden * In + h];
    for (int i = 0; i < In; ++i)
      z += w[h * In + i] * input[i];
    out += w[Hidden * In + Hidden + h] * std::tanh(z);
  }
  double e = out - target;
  return 0.5 * e * e;
}

int main() {
  double w[NumWeights], v[NumWeights], grad[NumWeights] = {},
                                       hv[NumWeights] = {};
  for (int k = 0; k < NumWeights; ++k) {
    w[k] = 0.3 * std::sin(1.0 + k);
    v[k] = std::cos(0.5 * k);
  }
  double input[In] = {0.5, -1.0, 2.0};
  double target = 0.25;
  auto f = [&](double *ws) { return loss(ws, input, target); };
  std::printf("Neural-network loss, %d weights (first 5 shown)\n", NumWeights);
  double value = ct::gradient<loss, ct::wrt<0>>(w, input, target, grad);
  report("value", 0, value, f(w));
  for (int k = 0; k < NumWeights; ++k) {
    double fd = partial(f, w, k);
    if (k < 5)
      report("gradient", k, grad[k], fd);
    else if (std::fabs(grad[k] - fd) > 1e-6 * std::fmax(1.0, std::fabs(fd)))
      report("gradient", k, grad[k], fd);
  }
  report("JVP", 0, ct::jvp<loss, ct::wrt<0>>(w, input, target, v).tangent,
         directional(f, w, v, NumWeights));
  ct::hvp<loss, ct::wrt<0>>(w, input, target, v, hv);
  for (int k = 0; k < 3; ++k) {
    auto gradientAlongV = [&](double t) {
      double y[NumWeights], g[NumWeights] = {};
      for (int j = 0; j < NumWeights; ++j)
        y[j] = w[j] + t * v[j];
      ct::gradient<loss, ct::wrt<0>>(y, input, target, g);
      return g[k];
    };
    report("HVP", k, hv[k],
           (gradientAlongV(1e-6) - gradientAlongV(-1e-6)) / 2e-6);
  }
  return disagreements != 0;
}
