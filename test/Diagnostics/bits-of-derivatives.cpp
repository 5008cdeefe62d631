// A floating-point value made from the bits of one that carries a
// derivative (std::bit_cast, `__builtin_bit_cast`) would have lost that
// derivative: an error in every mode, at the bit cast (with a note at the
// user's call when it is inside <bit>), unless the bits are a sign-bit
// trick (negation, absolute value, copysign: Integration/CPU/bit-casts.cpp)
// or the gradient is stopped. Gradients through such code used to be
// silently zero.
// (The engine stops at the first derivative it cannot make: one RUN line
// per case.)
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DFORWARD 2>&1 | FileCheck %s --check-prefix=FORWARD --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DAGGREGATE 2>&1 | FileCheck %s --check-prefix=AGGREGATE --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DUNION 2>&1 | FileCheck %s --check-prefix=UNION --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <bit>
#include <cstdint>

// A square root's first guess from halving the exponent (its bits).
static double firstGuess(double x) {
  std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  bits = (bits >> 1) + (1023ull << 51);
  // CHECK: bit:{{[0-9]+}}:{{[0-9]+}}: error: cannot differentiate a floating-point value made from the bits of one that carries a derivative (read as an integer): no derivative goes through bits; compute it with floating-point operations (negating, std::abs and std::copysign written with the sign bit are recognized), or stop the gradient with ct::stop_gradient
  // CHECK: bits-of-derivatives.cpp:[[@LINE+1]]:10: note: in a call from here
  return std::bit_cast<double>(bits);
}
[[ct::differentiable]] double guessed(double x) { return firstGuess(x) * x; }
#if !defined(FORWARD) && !defined(AGGREGATE) && !defined(UNION)
double reverse(double x) {
  double dx = 0;
  ct::gradient<guessed>(x, &dx);
  return dx;
}
#endif

// The builtin itself, in forward mode: the next number up.
[[ct::differentiable]] double nextUp(double x) {
  // FORWARD: bits-of-derivatives.cpp:[[@LINE+1]]:10: error: cannot differentiate a floating-point value made from the bits of one
  return __builtin_bit_cast(double, __builtin_bit_cast(std::uint64_t, x) + 1);
}
#ifdef FORWARD
double forward(double x) { return ct::jvp<nextUp>(x, 1.0).tangent; }
#endif

// Stopped: the guess is a constant to the derivative, as the user says.
[[ct::differentiable]] double stopped(double x) {
  return ct::stop_gradient(firstGuess(ct::stop_gradient(x))) * x;
}
double fine(double x) {
  double dx = 0;
  ct::gradient<stopped>(x, &dx);
  return dx;
}

// Bits that never held a derivative (2^k built from an integer) need none.
[[ct::differentiable]] double scaled(double x, int k) {
  return std::bit_cast<double>(std::uint64_t(1023 + k) << 52) * x;
}
double alsoFine(double x) {
  double dx = 0;
  ct::gradient<scaled>(x, 3, &dx);
  return dx;
}

// The bits of an aggregate read as a number: std::bit_cast stays the
// library's, through which no derivative flows.
struct Pair {
  float a, b;
};
[[ct::differentiable]] double pairBits(double x) {
  Pair p{float(x), 1.0f};
  // AGGREGATE: bits-of-derivatives.cpp:[[@LINE+1]]:10: error: 'std::bit_cast' runs as the library compiled it, not as differentiable code (reading the bits of 'const struct Pair' as 'double' cannot be differentiated; bit casts between numbers of one width can, at bit:{{[0-9]+}}:{{[0-9]+}}), so no derivative can flow through it
  return std::bit_cast<double>(p) * x;
}
#ifdef AGGREGATE
double pairs(double x) {
  double dx = 0;
  ct::gradient<pairBits>(x, &dx);
  return dx;
}
#endif

// The bits of a union's double changed through its integer member.
union Bits {
  double d;
  std::uint64_t u;
};
[[ct::differentiable]] double unionNextUp(double x) {
  Bits b{x};
  // UNION: bits-of-derivatives.cpp:[[@LINE+1]]:3: error: cannot differentiate a floating-point value made from the bits of one
  b.u += 1;
  return b.d * x;
}
#ifdef UNION
double viaUnion(double x) {
  double dx = 0;
  ct::gradient<unionNextUp>(x, &dx);
  return dx;
}
#endif
