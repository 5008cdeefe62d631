// Structs, member functions, constructors, operators, std::array, pointer
// arithmetic and aggregate results, lowered by cotangent-cc, differentiated
// and run; gradients against closed forms. (Until the plugin and the ct::
// entry points exist, the requests are written in MLIR:
// Inputs/frontend-aggregates-main.mlir.)
// RUN: %cotangent-cc %s -- -std=c++20 > %t.mlir
// RUN: sed -e '$d' %t.mlir > %t.full.mlir
// RUN: cat %S/Inputs/frontend-aggregates-main.mlir >> %t.full.mlir
// RUN: %cotangent-opt %t.full.mlir --ct-autodiff %lower-to-llvm \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s --implicit-check-not=FAIL
// CHECK-NOT: FAIL
// CHECK-COUNT-12: check {{[0-9]+}}: ok
#include <array>
#include <cmath>

struct Vec3 {
  double x, y, z;
  double dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  double norm() const { return std::sqrt(dot(*this)); }
  Vec3 &operator+=(const Vec3 &o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
};
Vec3 operator*(double s, const Vec3 &v) { return {s * v.x, s * v.y, s * v.z}; }

struct Particle {
  Vec3 position;
  double mass;
  Particle(const Vec3 &p, double m) : position(p), mass(m) {}
};

// energy = |k (p0 + ... + p_{n-1})| * w[1] + (w0 + w1 + w2) + w.size()
[[ct::differentiable]] double energy(const Vec3 *points, int n, double k) {
  Vec3 sum{0, 0, 0};
  for (int i = 0; i < n; ++i)
    sum += k * points[i];
  std::array<double, 3> w = {1.0, 2.0, 3.0};
  double acc = 0;
  for (double v : w)
    acc += v;
  Particle p(sum, w[1]);
  return p.position.norm() * p.mass + acc + w.size();
}

// walk = 3 + sum_{i=1}^{n-1} p[i] p[i-1], through pointer variables.
[[ct::differentiable]] double walk(const double *p, int n) {
  double s = 0;
  const double *q = p + 1;
  for (int i = 1; i < n; ++i)
    s += *q++ * p[i - 1];
  double local[4] = {1, 2, 3, 4};
  double *r = &local[1];
  r[1] += s;
  return local[2];
}

// combine = a + t b, returned by value.
[[ct::differentiable]] Vec3 combine(Vec3 a, const Vec3 &b, double t) {
  a += t * b;
  return a;
}
