//===- GpuBench.cpp - Derivative kernels of the GPU GMM -------------------===//
//
// Times the GPU-built GMM (GmmOnGpu.cpp): Clang's CPU primal, Cotangent's
// gradient and JVP, against the serial Cotangent gradient of Gmm.cpp, whose
// result the GPU gradient must match; then an elementwise map with a sum
// (MapSumOnGpu.cpp) at 10⁷ elements, whose gradient must match a closed
// form. With CT_VERBOSE=2 the runtime prints each kernel's time (launch to
// completion, host clock). Without a CUDA device the loops run on the CPU
// and this measures the fallback.
//
//===----------------------------------------------------------------------===//

#include "../workloads/Gmm.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace bench::gmm;

namespace bench::gpu {
double mapSumValue(const double *x, double *y, int n, double w);
double mapSumGradient(const double *x, double *y, int n, double w, double *dx,
                      double *dy, double *dw);
double mapSumTangent(const double *x, double *y, int n, double w,
                     const double *tx);
} // namespace bench::gpu

template <class F> double bestSeconds(int repeats, F f) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    auto start = std::chrono::steady_clock::now();
    f();
    std::chrono::duration<double> took =
        std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count());
  }
  return best;
}

int main(int argc, char **argv) {
  int d = argc > 1 ? std::atoi(argv[1]) : 10;
  int k = argc > 2 ? std::atoi(argv[2]) : 25;
  int n = argc > 3 ? std::atoi(argv[3]) : 100000;
  int repeats = argc > 4 ? std::atoi(argv[4]) : 5;
  Input in = generate(d, k, n, 1);
  std::vector<double> serial(in.parameterCount()), onGpu(serial.size()),
      v(serial.size(), 1.0);
  double value = gradient(in, serial.data());
  double gpuValue = gradientParallel(in, onGpu.data());
  double worst = std::fabs(gpuValue - value) / std::fmax(1, std::fabs(value));
  for (size_t i = 0; i < serial.size(); ++i)
    worst = std::fmax(worst, std::fabs(onGpu[i] - serial[i]) /
                                 std::fmax(1, std::fabs(serial[i])));
  double primal = bestSeconds(repeats, [&] { objectiveParallel(in); });
  double serialGradient =
      bestSeconds(repeats, [&] { gradient(in, serial.data()); });
  double gpuGradient =
      bestSeconds(repeats, [&] { gradientParallel(in, onGpu.data()); });
  double gpuJvp =
      bestSeconds(repeats, [&] { directionalParallel(in, v.data()); });
  std::printf("GMM d=%d k=%d n=%d: largest relative difference GPU vs serial "
              "gradient %.2e\n",
              d, k, n, worst);
  std::printf("primal (Clang, CPU)      %10.3f ms\n", 1e3 * primal);
  std::printf("gradient (serial, CPU)   %10.3f ms\n", 1e3 * serialGradient);
  std::printf("gradient (GPU loops)     %10.3f ms\n", 1e3 * gpuGradient);
  std::printf("jvp (GPU loops)          %10.3f ms\n", 1e3 * gpuJvp);

  // The map with a sum: d/dx_i = w e^{x_i/2} (2x_i/(1+x_i²) + ½ log(1+x_i²)).
  const int m = 10000000;
  const double w = 0.8;
  std::vector<double> x(m), y(m), dx(m), dy(m), tx(m, 1.0);
  for (int i = 0; i < m; ++i)
    x[i] = 0.5 + 0.4 * std::cos(1.3 * i);
  double dw = 0;
  bench::gpu::mapSumGradient(x.data(), y.data(), m, w, dx.data(), dy.data(),
                             &dw);
  double mapWorst = 0;
  for (int i = 0; i < m; i += 9973) {
    double l = std::log(1 + x[i] * x[i]), e = w * std::exp(0.5 * x[i]);
    double closed = e * (2 * x[i] / (1 + x[i] * x[i]) + 0.5 * l);
    mapWorst = std::fmax(mapWorst, std::fabs(dx[i] - closed) /
                                       std::fmax(1, std::fabs(closed)));
  }
  double mapPrimal = bestSeconds(
      repeats, [&] { bench::gpu::mapSumValue(x.data(), y.data(), m, w); });
  double mapGradient = bestSeconds(repeats, [&] {
    bench::gpu::mapSumGradient(x.data(), y.data(), m, w, dx.data(), dy.data(),
                               &dw);
  });
  double mapJvp = bestSeconds(repeats, [&] {
    bench::gpu::mapSumTangent(x.data(), y.data(), m, w, tx.data());
  });
  std::printf("map-sum n=%d: largest relative difference from the closed "
              "form %.2e\n",
              m, mapWorst);
  std::printf("primal (Clang, CPU)      %10.3f ms\n", 1e3 * mapPrimal);
  std::printf("gradient (GPU loops)     %10.3f ms\n", 1e3 * mapGradient);
  std::printf("jvp (GPU loops)          %10.3f ms\n", 1e3 * mapJvp);
  return worst < 1e-9 && mapWorst < 1e-12 ? 0 : 1;
}
