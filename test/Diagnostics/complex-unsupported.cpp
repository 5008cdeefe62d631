// What differentiable code refuses of complex numbers, each once (no other
// error may appear), with the way out. (Entry points are checked first.)
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 -I %cotangent_src/runtime/include 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <complex>

// A _Complex value by value travels in registers in the C++ ABI.
[[ct::differentiable]] double raw(_Complex double z) {
  return __real__(z * z);
}

double callsRaw(_Complex double z) {
  // CHECK: complex-unsupported.cpp:[[@LINE+1]]:14: error: 'raw' takes or returns a '_Complex' value, which derivative entry points do not pass yet; use std::complex, or pass it by pointer or reference
  return ct::gradient<raw>(z);
}

[[ct::differentiable]] double integerParts(double x) {
  // CHECK: complex-unsupported.cpp:[[@LINE+1]]:3: error: variable 'k' has type '_Complex int', which differentiable code does not support: complex numbers of 'float' and 'double' parts are supported
  _Complex int k = 2;
  return x;
}
