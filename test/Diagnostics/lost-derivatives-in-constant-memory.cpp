// Memory a parameter ct::wrt leaves out has no derivative: a value that
// carries one must not be stored there and read back, in either mode —
// neither an element written in place, nor memory that carries derivatives
// made the contents of a std::vector the function resizes (whose address
// the caller's vector object then holds). Forward mode used to drop the
// tangent silently.
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

[[ct::differentiable]] double cosines(const std::vector<double> &x,
                                      std::vector<double> &out) {
  for (double v : x)
    // CHECK: lost-derivatives-in-constant-memory.cpp:[[@LINE+1]]:5: error: cannot differentiate: a value that carries a derivative is stored into memory that is constant here (a parameter not selected for differentiation); select it, or copy it into a local buffer first
    out.push_back(std::cos(v));
  return out.back();
}

double runCosines(const std::vector<double> &x, std::vector<double> &out,
                  std::vector<double> *tx) {
  return ct::jvp<cosines, ct::wrt<0>>(x, out, tx).tangent;
}
