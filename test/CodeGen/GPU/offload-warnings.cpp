// A target loop that cannot become a kernel says so at compile time, once,
// at the loop, in C++ terms: why its derivative loops stay on the CPU.
// RUN: %cotangent-cc --target=cuda:sm_90 --emit=ptx %s -- -std=c++20 -fopenmp -I%cotangent-include 2>&1 | FileCheck %s --implicit-check-not=warning:
// Without a GPU target the loops are CPU loops, with nothing to say.
// RUN: %cotangent-cc --emit=llvm %s -o /dev/null -- -std=c++20 -fopenmp -I%cotangent-include 2>&1 | FileCheck %s --check-prefix=CPU --allow-empty
// CPU-NOT: warning:
#include <cotangent/cotangent.h>

#include <cmath>

int lookup(int i);

[[ct::differentiable]] double waves(const double *x, double *y, int n) {
  double s = 0;
  // CHECK-DAG: offload-warnings.cpp:[[@LINE+2]]:3: warning: this target loop runs on the CPU, not the GPU: it calls 'sin', which has no device version yet
#pragma omp target teams distribute parallel for reduction(+ : s) map(to : x[0 : n]) map(from : y[0 : n])
  for (int i = 0; i < n; ++i) {
    y[i] = std::sin(x[i]);
    s += y[i] * x[i];
  }
  return s;
}

[[ct::differentiable]] double looked(const double *x, double *y, int n) {
  double s = 0;
  // CHECK-DAG: offload-warnings.cpp:[[@LINE+2]]:3: warning: this target loop runs on the CPU, not the GPU: it calls 'lookup', which is compiled elsewhere, and a kernel cannot call it
#pragma omp target teams distribute parallel for reduction(+ : s) map(to : x[0 : n]) map(from : y[0 : n])
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] * lookup(i);
    s += y[i] * x[i];
  }
  return s;
}

double use(const double *x, double *y, double *dx, double *dy, int n) {
  return ct::gradient<waves>(x, y, n, dx, dy) +
         ct::gradient<looked>(x, y, n, dx, dy);
}
