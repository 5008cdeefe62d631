// Unions a derivative cannot follow, each a located error: members of
// different widths over floating-point data (a double's two words), an
// integer member sharing a float's bits addressed or bound to a reference
// (writes through it would bypass the float's derivative). (A float made
// from its bits changed in a way that is not a sign trick:
// bits-of-derivatives.cpp.)
// RUN: not %cotangent-cc %s -- -std=c++20 -I%cotangent-include -ferror-limit=0 2>&1 | FileCheck %s
#include <cotangent/cotangent.h>

#include <cstdint>

union Words {
  double d;
  std::uint32_t w[2];
};

union Bits {
  double d;
  std::uint64_t u;
};

[[ct::differentiable]] double highWord(double x) {
  // CHECK: unions-unsupported.cpp:[[@LINE+1]]:3: error: variable 'words' has type 'union Words', which differentiable code does not support: a union is differentiated only where its members are views of the same numbers
  Words words;
  words.d = x;
  return words.w[1] * x;
}

static void flip(std::uint64_t &bits) { bits ^= 1; }

[[ct::differentiable]] double boundBits(double x) {
  Bits b{x};
  // CHECK: unions-unsupported.cpp:[[@LINE+1]]:8: error: a member of a union that shares its bits with a floating-point member cannot be addressed or bound to a reference; read and write it by name
  flip(b.u);
  return b.d;
}
