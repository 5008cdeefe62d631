// SIMD vectors written with GCC's and Clang's vector extensions: lanes of
// `double` in vectors of 2 and 4, built from lists and scalars, loaded
// through a pointer to their lanes (unaligned), combined by arithmetic and
// compound assignments, read and written by lane, shuffled, converted,
// compared into masks, reinterpreted to flip a sign bit, given to Clang's
// elementwise builtins (square root, absolute value, minimum, maximum,
// fused multiply-add), kept in struct
// fields and arrays, passed to and returned from helpers by value. Every
// mode (reverse, forward, Hessian-vector products, vector lanes) against
// central differences, at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"
#include "modes.h"

typedef double v2d __attribute__((vector_size(16)));
typedef double v2du __attribute__((vector_size(16), aligned(8)));
typedef double v4d __attribute__((vector_size(32)));
typedef long long v2i __attribute__((vector_size(16)));
typedef int v4i __attribute__((vector_size(16)));

double lanes(const double *x, int n) {
  v2d a = {x[0], x[1]};
  v2d b = *(const v2du *)(x + n - 2); // (lanes of the caller's array)
  v2d c = a * b + 2.0 * a - b / (a + 3.0);
  c += a;
  c[1] *= x[2];
  v2d d = __builtin_shufflevector(c, a, 1, 2);
  // Lane 0's sign bit flipped: a negation.
  v2d flipped =
      (v2d)((v2i)c ^ (v2i){(long long)0x8000000000000000ull, 0});
  // Comparisons give masks of all ones; counted, they are integers.
  v2i less = a < b;
  double count = double(-less[0] - less[1]);
  return d[0] * d[1] + flipped[0] * flipped[1] + count * c[0];
}

struct Particle {
  v2d position;
  double mass;
};
static v2d scaled(v2d v, double s) { return v * s; }

double particles(const double *x, int n) {
  Particle p[2] = {{(v2d){x[0], x[1]}, 2.0}, {(v2d){x[2], x[0]}, 3.0}};
  v2d total = {};
  for (const Particle &q : p)
    total += scaled(q.position, q.mass);
  v2d kept[2] = {total, -total};
  return kept[0][0] * kept[1][1] + total[1] * total[1];
}

double wide(const double *x, int n) {
  v4d sum = {};
  for (int i = 1; i <= 3; ++i) {
    v4d v = {x[0] * i, x[1], x[2], x[0] * x[1]};
    sum += v * v / (1.0 + v * v);
  }
  // A mask of ints joined into doubles' bits: the lanes of the low half.
  v4i ones = {-1, -1, 0, 0};
  v2d half = __builtin_shufflevector(sum, sum, 0, 1);
  v2d masked = (v2d)((v2i)half & (v2i)ones);
  return sum[0] + sum[1] * sum[2] + sum[3] + masked[0] * x[2];
}

// Clang's elementwise builtins (which x86's headers use for square roots,
// minima and maxima), and `__extension__` around a literal.
double builtins(const double *x, int n) {
  v2d a = __extension__(v2d){x[0], x[1] * x[n - 1]};
  v2d b = {x[n - 1], 0.5};
  v2d r = __builtin_elementwise_sqrt(a * a + b) +
          __builtin_elementwise_abs(a - b);
  v2d m = __builtin_elementwise_max(a, b) * __builtin_elementwise_min(a, b);
  v2d f = __builtin_elementwise_fma(a, b, r);
  return r[0] + r[1] * m[0] + m[1] + f[0] * f[1];
}

int main() {
  const double point[3] = {0.4, 0.7, 1.1};
  check::checkModes<lanes>("lanes", point, 3);
  check::checkModes<particles>("particles", point, 3);
  check::checkModes<wide>("wide", point, 3);
  check::checkModes<builtins>("builtins", point, 3);
  return check::report();
}
