// std::bit_cast between numbers: the sign-bit tricks have the derivatives
// of what they compute (negation by flipping the sign bit, absolute values
// by clearing it, -|x| by setting it, copysign and multiplying by another's
// sign by masks), in `double` and `float`; bits built from integers alone
// (a power of two from its exponent) carry no derivative and need none.
// Every mode against central differences, at -O0 and -O2. (The sign-bit
// tricks are recognized once the values are promoted out of memory, which
// the plain derivative strategy, a test of the engine's general path, does
// not do: there they are refused, an error rather than a wrong number.)
// REQUIRES: plugin, ad-optimizations
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"
#include "modes.h"

#include <bit>
#include <cstdint>

namespace {
constexpr std::uint64_t kSign = 0x8000000000000000ull;
constexpr std::uint32_t kSign32 = 0x80000000u;

double negated(double v) {
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(v) ^ kSign);
}
double magnitude(double v) {
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(v) & ~kSign);
}
double negativeMagnitude(double v) {
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(v) | kSign);
}
double withSignOf(double v, double s) {
  std::uint64_t bits = std::bit_cast<std::uint64_t>(v) & ~kSign;
  return std::bit_cast<double>(bits | (std::bit_cast<std::uint64_t>(s) & kSign));
}
double timesSignOf(double v, double s) {
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(v) ^
                               (std::bit_cast<std::uint64_t>(s) & kSign));
}
float negated(float v) {
  return std::bit_cast<float>(std::bit_cast<std::uint32_t>(v) ^ kSign32);
}
float magnitude(float v) {
  return std::bit_cast<float>(std::bit_cast<std::uint32_t>(v) & ~kSign32);
}
/// 2^k from its exponent's bits.
double powerOfTwo(int k) {
  return std::bit_cast<double>(std::uint64_t(1023 + k) << 52);
}
} // namespace

double doubles(const double *x, int n) {
  double s = negated(x[0]) * x[1] + magnitude(x[1]) * magnitude(x[2]);
  s += negativeMagnitude(x[2]) * x[0] + withSignOf(x[0], x[1]) * x[2];
  return s + timesSignOf(x[1], x[2]) * x[1] + powerOfTwo(n) * x[0];
}

double floats(const double *x, int n) {
  float a = float(x[0]), b = float(x[1]);
  return double(negated(a) * b + magnitude(b) * a) * x[n - 1];
}

int main() {
  const double mixed[3] = {0.4, -0.7, 1.1};
  const double flipped[3] = {-0.4, 0.7, -1.1};
  check::checkModes<doubles>("doubles", mixed, 3);
  check::checkModes<doubles>("doubles, other signs", flipped, 3);
  // (float arithmetic: derivatives within float's precision.)
  double x[3] = {0.4, -0.7, 1.1}, dx[3] = {};
  ct::gradient<floats>(x, 3, dx);
  double a = float(x[0]), b = float(x[1]);
  check::near("floats d/dx0", dx[0], (-b + std::abs(b)) * x[2], 1e-6);
  check::near("floats d/dx1", dx[1], (-a - a) * x[2], 1e-6);
  check::near("floats d/dx2", dx[2], -a * b + std::abs(b) * a, 1e-6);
  check::near("floats jvp", ct::jvp<floats>(x, 3, dx).tangent,
              dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2], 1e-6);
  return check::report();
}
