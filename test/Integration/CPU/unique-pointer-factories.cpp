// std::unique_ptr across calls: factories returning one (std::make_unique
// with a constructor's arguments, `new T[n]`, a local moved out by
// `return`), helpers taking one by const or non-const reference, a sink
// taking one by value (std::move at the call); what a std::unique_ptr
// owns is destroyed with it (a struct holding a std::vector frees the
// vector); a factory's result used at once (`make()[i]`, `make()->w`) is
// freed where the enclosing scope ends. Each such helper is lowered in place, where what the pointer
// owns goes to or comes from the caller's variable. Reverse and forward
// mode at -O0 and -O2 against closed forms; the sanitizer runs of the
// test suite check that nothing leaks.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <memory>
#include <utility>
#include <vector>

#include "check.h"

struct Buffer {
  std::vector<double> data;
  double scale = 1;
};

struct Layer {
  int n;
  std::vector<double> w;
  Layer(int size, double s) : n(size), w(size) {
    for (int i = 0; i < n; ++i)
      w[i] = s * (i + 1);
  }
};

struct Point {
  double x, y;
};

static std::unique_ptr<Buffer> makeBuffer(const double *x, int n) {
  auto b = std::make_unique<Buffer>();
  for (int i = 0; i < n; ++i)
    b->data.push_back(x[i] * x[i]);
  b->scale = x[0];
  return b;
}

static std::unique_ptr<double[]> squares(const double *x, int n) {
  std::unique_ptr<double[]> s(new double[n]);
  for (int i = 0; i < n; ++i)
    s[i] = x[i] * x[i];
  return s;
}

static std::unique_ptr<Layer> makeLayer(int n, double s) {
  return std::make_unique<Layer>(n, s);
}

static double total(const std::unique_ptr<Buffer> &b) {
  double s = 0;
  for (double v : b->data)
    s += v;
  return s * b->scale;
}

static void rescale(std::unique_ptr<Buffer> &b, double k) { b->scale *= k; }

static double consume(std::unique_ptr<double[]> s, int n) {
  double t = 0;
  for (int i = 0; i < n; ++i)
    t += s[i];
  return t;
}

// 2 x0 Σx² + Σx² + x0² + 1.
[[ct::differentiable]] double buffers(const double *x, int n) {
  std::unique_ptr<Buffer> b = makeBuffer(x, n);
  rescale(b, 2.0);
  double r = total(b);
  auto s = squares(x, n);
  double first = s[0];
  r += consume(std::move(s), n) + first;
  if (!s)
    r += 1;
  return r;
}

// Temporaries used at once, in a loop, each a fresh factory result:
// Σ_k (k + 1) squares(x)[k], plus a layer's w[1] = 2 x0.
[[ct::differentiable]] double temporaries(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < n; ++k)
    s += squares(x, n)[k] * (k + 1);
  return s + makeLayer(2, x[0])->w[1];
}

// s Σ (i + 1) x_i + x0 x1.
[[ct::differentiable]] double layers(const double *x, double s) {
  auto layer = makeLayer(3, s);
  auto p = std::make_unique<Point>(Point{x[0], x[1]});
  double r = 0;
  for (int i = 0; i < layer->n; ++i)
    r += layer->w[i] * x[i];
  return r + p->x * p->y;
}

static void checkBuffers() {
  const double x[3] = {1, 2, 3};
  double dx[3] = {};
  double v = ct::gradient<buffers>(x, 3, dx);
  double squares = 14;
  check::near("buffers value", v, 2 * x[0] * squares + squares + 1 + 1, 1e-12);
  check::near("buffers d/dx0", dx[0], 2 * squares + 4 * x[0] * x[0] + 4 * x[0],
              1e-12);
  check::near("buffers d/dx1", dx[1], 4 * x[0] * x[1] + 2 * x[1], 1e-12);
  check::near("buffers d/dx2", dx[2], 4 * x[0] * x[2] + 2 * x[2], 1e-12);
  const double t[3] = {0, 0, 1};
  check::near("buffers jvp", ct::jvp<buffers>(x, 3, t).tangent, dx[2], 1e-12);
}

static void checkLayers() {
  const double x[3] = {1, 2, 3};
  double dx[3] = {}, ds = 0;
  double v = ct::gradient<layers>(x, 0.5, dx, &ds);
  check::near("layers value", v, 0.5 * (1 + 4 + 9) + x[0] * x[1], 1e-12);
  check::near("layers d/ds", ds, 14.0, 1e-12);
  check::near("layers d/dx0", dx[0], 0.5 + x[1], 1e-12);
  check::near("layers d/dx1", dx[1], 1.0 + x[0], 1e-12);
  check::near("layers d/dx2", dx[2], 1.5, 1e-12);
  const double t[3] = {0, 0, 0};
  check::near("layers jvp", ct::jvp<layers>(x, 0.5, t, 1.0).tangent, 14.0,
              1e-12);
}

static void checkTemporaries() {
  const double x[3] = {1, 2, 3};
  double dx[3] = {};
  double v = ct::gradient<temporaries>(x, 3, dx);
  // Σ (k + 1) x_k² + 2 x0 (the layer's w[1] = x0 * 2).
  check::near("temporaries value", v, 1 + 2 * 4 + 3 * 9 + 2 * x[0], 1e-12);
  check::near("temporaries d/dx0", dx[0], 2 * x[0] + 2, 1e-12);
  check::near("temporaries d/dx1", dx[1], 2 * 2 * x[1], 1e-12);
  check::near("temporaries d/dx2", dx[2], 3 * 2 * x[2], 1e-12);
}

int main() {
  checkBuffers();
  checkTemporaries();
  checkLayers();
  return check::report();
}
