// Unions whose members are views of the same numbers: a point whose
// coordinates are both named fields and an array (an anonymous struct in an
// anonymous union, as graphics and physics code writes it), a named union
// of an array and a struct, arrays of such objects and references to them;
// and unions of one floating-point member beside integers of its width
// (`union { float f; std::uint32_t u; }`), whose bit tricks have the
// derivatives of what they compute (a sign flipped or cleared through the
// integer member) and whose integer reads (an exponent) carry none. Every
// mode against finite differences, at -O0 and -O2, and under
// AddressSanitizer.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 -Wno-gnu-anonymous-struct -Wno-nested-anon-types %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 -Wno-gnu-anonymous-struct -Wno-nested-anon-types %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address,undefined -Wno-gnu-anonymous-struct -Wno-nested-anon-types %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"
#include "modes.h"

#include <cmath>
#include <cstdint>

struct Vec3 {
  union {
    struct {
      double x, y, z;
    };
    double v[3];
  };
};

static double dot(const Vec3 &a, const Vec3 &b) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += a.v[i] * b.v[i];
  return s;
}

// Written by name, read by index (and the other way round).
[[ct::differentiable]] double points(const double *p, int n) {
  Vec3 pts[2];
  for (int k = 0; k < 2; ++k) {
    pts[k].x = p[0] * (k + 1);
    pts[k].y = p[1] - k;
    pts[k].z = p[2] * p[k];
  }
  Vec3 sum{};
  for (int i = 0; i < 3; ++i)
    sum.v[i] = pts[0].v[i] + pts[1].v[i];
  return dot(sum, pts[1]) + sum.x * sum.z;
}

union Complexish {
  double parts[2];
  struct {
    double re, im;
  } c;
};

// A named union: the struct member written, the array read, copied.
[[ct::differentiable]] double named(const double *p, int n) {
  Complexish a;
  a.c.re = p[0];
  a.c.im = p[1];
  Complexish b = a;
  b.parts[1] *= p[2];
  return b.parts[0] * b.parts[0] + b.c.im * a.parts[1];
}

union FloatBits {
  float f;
  std::uint32_t u;
};

union DoubleBits {
  double d;
  std::int64_t i;
};

// The sign bit flipped and cleared through the integer member: -x and |y|.
[[ct::differentiable]] double signTricks(const double *p, int n) {
  DoubleBits a;
  a.d = p[0];
  a.i ^= INT64_MIN;
  DoubleBits b{p[1]};
  b.i &= INT64_MAX;
  return a.d * p[2] + b.d * b.d * p[0];
}

// A float's exponent read through its bits carries no derivative.
[[ct::differentiable]] double exponent(const double *p, int n) {
  FloatBits bits;
  bits.f = static_cast<float>(p[0]);
  int e = static_cast<int>((bits.u >> 23) & 0xff) - 127;
  return p[1] * e + p[0] * p[1];
}

// The peer tool's form: initialized by its first member, then written.
union U {
  float f;
  int i;
};

[[ct::differentiable]] double firstMember(const double *p, int n) {
  U u{1.f};
  u.f = static_cast<float>(p[0]);
  return u.f * p[1];
}

int main() {
  const double p[] = {0.7, -1.3, 1.9};
  check::checkModes<points>("points", p, 3);
  check::checkModes<named>("named union", p, 3);
  check::checkModes<signTricks>("sign tricks", p, 3);
  check::checkModes<exponent>("exponent", p, 2);
  // Floats: the value rounded to a float, and the adjoint kept as one.
  double dp[2] = {};
  double x[] = {0.7, -1.3};
  check::near("first member", ct::gradient<firstMember>(x, 2, dp),
              double(0.7f) * -1.3, 1e-15);
  check::near("first member d/dp0", dp[0], -1.3, 1e-7);
  check::near("first member d/dp1", dp[1], double(0.7f), 1e-15);
  check::near("first member jvp",
              ct::jvp<firstMember>(x, 2, (const double[]){1, 0}).tangent, -1.3,
              1e-7);
  // Closed form of the sign tricks: -p0 p2 + p1^2 p0.
  double ds[3] = {};
  const double q[] = {0.7, -1.3, 1.9};
  ct::gradient<signTricks>(q, 3, ds);
  check::near("sign tricks d/dp0", ds[0], -1.9 + 1.3 * 1.3, 1e-14);
  check::near("sign tricks d/dp1", ds[1], 2 * -1.3 * 0.7, 1e-14);
  check::near("sign tricks d/dp2", ds[2], -0.7, 1e-14);
  return check::report();
}
