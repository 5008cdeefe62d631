// What differentiable code refuses of complex numbers, each once (no other
// error may appear), with the way out. (Entry points are checked first.)
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 -I %cotangent_src/runtime/include 2>&1 | FileCheck %s --implicit-check-not=error:
// The inverse functions run as the library compiled them: an error where a
// derivative would have to go through one.
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I %cotangent_src/runtime/include -DINVERSE 2>&1 | FileCheck %s --check-prefix=INVERSE --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <complex>

#ifndef INVERSE
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
#else
[[ct::differentiable]] double inverseSine(double x) {
  std::complex<double> z(x, 1.0);
  // The C library's inverse functions are not written on the parts yet.
  // INVERSE: complex:{{[0-9]+}}:{{[0-9]+}}: error: 'std::__complex_asin' runs as the library compiled it, not as differentiable code ('__builtin_casin' has no visible body and takes '_Complex double'; {{.*}}, at complex:{{[0-9]+}}:{{[0-9]+}}), so no derivative can flow through it, as one must here; give it a custom derivative rule (CT_CUSTOM_GRADIENT or CT_CUSTOM_VJP for reverse mode, CT_CUSTOM_JVP for forward mode), or stop the derivative with ct::stop_gradient
  // INVERSE: complex-unsupported.cpp:[[@LINE+1]]:10: note: in a call from here
  return std::asin(z).real();
}

double callsInverseSine(double x, double *dx) {
  return ct::gradient<inverseSine>(x, dx);
}
#endif
