// What the frontend refuses of std::vector parameters a function resizes
// (it takes the caller's vector object): a vector a pointer of the caller
// designates, a function declared in a header, which other translation
// units call from its declaration alone, and vector mode of such a vector
// whose elements carry derivatives (one lane works in either mode:
// test/Integration/CPU/resized-vector-parameters.cpp; ct::hvp takes const
// memory only).
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include "Inputs/resized-exported.h"

// CHECK-DAG: resized-vector-parameters.cpp:[[@LINE+2]]:44: error: 'appendHalves' changes the size of its std::vector parameter 'out', which other translation units cannot see from its declaration; define it inline in the header, or size the vector before the call
double appendHalves(const std::vector<double> &x,
                                           std::vector<double> &out) {
  for (double v : x)
    out.push_back(0.5 * v);
  return out.back();
}

[[ct::differentiable]] static double appendThirds(const std::vector<double> &x,
                                                  std::vector<double> &out) {
  for (double v : x)
    out.push_back(v / 3);
  return out.back();
}

[[ct::differentiable]] double throughReference(const std::vector<double> &x) {
  std::vector<double> buffer;
  std::vector<double> *alias = &buffer;
  // CHECK-DAG: resized-vector-parameters.cpp:[[@LINE+1]]:26: error: 'appendThirds' changes the size of this std::vector, which a reference or pointer of this function still designates (or that is not a variable of its own); pass a local std::vector that no reference or pointer designates
  return appendThirds(x, *alias);
}

double runThroughReference(const std::vector<double> &x,
                           std::vector<double> *dx) {
  return ct::gradient<throughReference>(x, dx);
}

double runLanes(const std::vector<double> &x, std::vector<double> &out,
                std::vector<double> *dx, std::vector<double> *dout) {
  double seeds[2] = {1.0, 0.5};
  // CHECK-DAG: resized-vector-parameters.cpp:[[@LINE+1]]:14: error: ct::lanes: 'appendThirds' resizes its std::vector parameter 'out' of 'appendThirds', which vector mode does not support yet; use one lane (ct::jvp, ct::pullback), or exclude it with ct::wrt<...>
  return ct::pullback<appendThirds, ct::lanes<2>>(x, out, seeds, dx, dout),
         0.0;
}

