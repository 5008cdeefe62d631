// A derivative argument for a std::vector parameter must have the
// parameter's size: otherwise the derivative would read and write past its
// end, so the entry point ends the program with a message instead. And
// std::vector::at out of range, which C++ reports with an exception, ends
// the program with the library's message (differentiable code has none).
// So does swapping vectors of different sizes (swapped element by
// element). The derivative
// vector of a std::vector the function resizes holds the seeds of its final
// contents: none, or one per final element.
// REQUIRES: plugin
// RUN: %clangxx-ct -O2 %s -o %t
// RUN: %t | FileCheck %s --check-prefix=SAME
// RUN: not --crash %t shorter 2>&1 | FileCheck %s --check-prefix=SHORTER
// RUN: not --crash %t shorter at 2>&1 | FileCheck %s --check-prefix=AT
// RUN: not --crash %t shorter at swap 2>&1 | FileCheck %s --check-prefix=SWAP
// RUN: not --crash %t shorter at swap seeds 2>&1 | FileCheck %s --check-prefix=SEEDS
// SAME: value 2, d/dx0 2
// SHORTER: cotangent: the derivative argument of parameter 'x' of 'product' is a std::vector of another size than the parameter's
// SHORTER-NOT: value
// AT: vector-size-check.cpp:[[@LINE+14]]: std::vector::at: index out of range
// SEEDS: cotangent: parameter 'out' of 'appended' is a std::vector whose size the call decides: its derivative argument holds the seeds of its final contents, and must be empty or have the size it has after the call
// SWAP: vector-size-check.cpp:[[@LINE+17]]: std::vector::swap of vectors of different sizes, which differentiable code swaps element by element; swap vectors of one size

#include <cotangent/cotangent.h>

#include <cstdio>
#include <vector>

[[ct::differentiable]] double product(const std::vector<double> &x) {
  return x[0] * x[1];
}

[[ct::differentiable]] double third(const std::vector<double> &x) {
  return x.at(2);
}

[[ct::differentiable]] double swapped(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n + 1, 0.0);
  a.swap(b);
  return a[0];
}

[[ct::differentiable]] double appended(const std::vector<double> &x,
                                       std::vector<double> &out) {
  for (double v : x)
    out.push_back(v);
  return out[0];
}

int main(int argc, char **) {
  std::vector<double> x{1, 2}, dx(argc > 1 ? 1 : 2, 0.0);
  if (argc > 4) {
    // Two final elements, one seed.
    std::vector<double> out, d(2, 0.0), seeds{1.0};
    ct::pullback<appended>(x, out, 1.0, &d, &seeds);
  }
  if (argc > 3) {
    double d[2] = {};
    ct::gradient<swapped>(x.data(), 2, d);
  }
  if (argc > 2) {
    std::vector<double> d(2, 0.0);
    ct::gradient<third>(x, &d);
  }
  double v = ct::gradient<product>(x, &dx);
  std::printf("value %g, d/dx0 %g\n", v, dx[0]);
}
