// Derivatives of derivatives of code that makes memory in loops and
// branches and keeps its address in memory: C's growable array (a helper
// doubling a struct's buffer by realloc when full), a class owning memory
// resized in a loop (new, copy, delete[]), a list built by `new` in a loop
// and freed while read, std::vectors grown by push_back without reserve (in
// a loop, and in a branch), C's growable array pushed in a branch, a vector
// of structs holding vectors whose field is resized in a branch.
// The first derivative keeps those addresses on its tape for its reverse
// sweep; differentiated again, the shadow of each travels with it. Each
// Hessian-vector product by reverse over reverse (the gradient of
// gradient . v) and by forward over reverse (ct::jvp of the gradient),
// against central differences of the gradient and against ct::hvp. At -O0
// and -O2, and under AddressSanitizer (no leak or use after free of a
// shadow).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address,undefined %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdlib>
#include <vector>

#include "check.h"

namespace {

struct Array {
  double *data;
  int size, capacity;
};

void push(Array *a, double v) {
  if (a->size == a->capacity) {
    a->capacity = a->capacity ? 2 * a->capacity : 1;
    a->data = static_cast<double *>(
        std::realloc(a->data, a->capacity * sizeof(double)));
  }
  a->data[a->size++] = v;
}

/// Pushed one by one (the array grows 1, 2, 4, 8), then read.
double pushed(double x, double y) {
  Array a{nullptr, 0, 0};
  for (int i = 0; i < 6; ++i)
    push(&a, std::sin(x * (i + 1)) + x * y);
  double s = 0;
  for (int i = 0; i < a.size; ++i)
    s += a.data[i] * a.data[i] * (i + 1);
  std::free(a.data);
  return s;
}

class Buffer {
public:
  Buffer() = default;
  Buffer(const Buffer &) = delete;
  ~Buffer() { delete[] values; }
  void resize(int n) {
    double *bigger = new double[n];
    for (int i = 0; i < count && i < n; ++i)
      bigger[i] = values[i];
    delete[] values;
    values = bigger;
    count = n;
  }
  double &operator[](int i) { return values[i]; }
  int size() const { return count; }

private:
  double *values = nullptr;
  int count = 0;
};

/// Resized by one in every iteration: each resize is new memory.
double resized(double x, double y) {
  Buffer b;
  for (int i = 0; i < 5; ++i) {
    b.resize(i + 1);
    b[i] = std::exp(0.3 * x * i) * y;
  }
  double s = 0;
  for (int i = 0; i < b.size(); ++i)
    s += b[i] * std::cos(b[i]);
  return s;
}

struct Node {
  double value;
  Node *next;
};

/// A list prepended in a loop, then read and freed node by node.
double listed(double x, double y) {
  Node *head = nullptr;
  for (int i = 0; i < 5; ++i)
    head = new Node{std::sin(x * (i + 1)) + y * y, head};
  double s = 0;
  while (head) {
    s += head->value * head->value * y;
    Node *next = head->next;
    delete head;
    head = next;
  }
  return s;
}

/// Grown element by element: each reallocation is made in the loop.
double appended(double x, double y) {
  std::vector<double> v;
  for (int i = 0; i < 6; ++i)
    v.push_back(std::cos(x * (i + 1)) * y);
  double s = 0;
  for (double e : v)
    s += e * e * e;
  return s + v.back() * v.front();
}

/// Grown only where a condition holds.
double appendedInBranch(double x, double y) {
  std::vector<double> v{x};
  for (int i = 0; i < 7; ++i)
    if (i % 3 != 1)
      v.push_back(std::sin(x * i + y));
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i] * v[i] * (1.0 + i);
  return s;
}

/// Pushed only where a condition holds: the helper's growth is a branch
/// inside the caller's.
double pushedInBranch(double x, double y) {
  Array a{nullptr, 0, 0};
  for (int i = 0; i < 7; ++i)
    if (i % 3 != 2)
      push(&a, std::cos(x * (i + 1)) * y + x);
  double s = 0;
  for (int i = 0; i < a.size; ++i)
    s += a.data[i] * a.data[i] * a.data[i];
  std::free(a.data);
  return s;
}

struct Layer {
  std::vector<double> w;
  double s;
};

/// A vector of structs holding vectors, built by push_back; one field
/// resized inside a branch.
double layeredInBranch(double x, double y) {
  std::vector<Layer> layers;
  for (int i = 0; i < 3; ++i) {
    Layer l;
    l.s = std::sin(x * (i + 1));
    for (int j = 0; j < 2; ++j)
      l.w.push_back(y * (j + 1) + x);
    layers.push_back(l);
  }
  if (std::cos(x) <= 0.5 - y)
    layers[2].w.resize(3, y * y);
  double s = 0;
  for (const Layer &l : layers)
    for (double v : l.w)
      s += 0.5 * v * v * l.s;
  return s;
}

using Objective = double (*)(double, double);

/// gradient(f) . v, to be differentiated again.
template <Objective F> double gradientDot(double x, double y, const double *v) {
  double dx = 0, dy = 0;
  ct::gradient<F>(x, y, &dx, &dy);
  return dx * v[0] + dy * v[1];
}

template <Objective F> void checkAgain(const char *name) {
  const double x = 0.4, y = -0.7;
  const double v[2] = {0.6, -1.3};
  char label[96];
  auto near = [&](const char *what, double actual, double expected) {
    std::snprintf(label, sizeof label, "%s.%s", name, what);
    check::near(label, actual, expected, 1e-6);
  };
  // H v by central differences of the gradient in direction v.
  auto gradientAlong = [&](double t, int k) {
    double dx = 0, dy = 0;
    ct::gradient<F>(x + t * v[0], y + t * v[1], &dx, &dy);
    return k == 0 ? dx : dy;
  };
  double expected[2];
  for (int k = 0; k < 2; ++k)
    expected[k] = check::centralDifference(
        [&](double t) { return gradientAlong(t, k); }, 0.0);

  double rr[2] = {0, 0};
  ct::gradient<gradientDot<F>, ct::wrt<0, 1>>(x, y, v, &rr[0], &rr[1]);
  double fr[2];
  double one = 1, zero = 0;
  fr[0] = ct::jvp<gradientDot<F>, ct::wrt<0, 1>>(x, y, v, one, zero).tangent;
  fr[1] = ct::jvp<gradientDot<F>, ct::wrt<0, 1>>(x, y, v, zero, one).tangent;
  double hvp[2] = {0, 0};
  ct::hvp<F>(x, y, v[0], v[1], &hvp[0], &hvp[1]);
  near("rr.x", rr[0], expected[0]);
  near("rr.y", rr[1], expected[1]);
  near("fr.x", fr[0], expected[0]);
  near("fr.y", fr[1], expected[1]);
  near("rr-hvp.x", rr[0], hvp[0]);
  near("rr-hvp.y", rr[1], hvp[1]);

}

} // namespace

int main() {
  checkAgain<pushed>("pushed");
  checkAgain<resized>("resized");
  checkAgain<listed>("listed");
  checkAgain<appended>("appended");
  checkAgain<appendedInBranch>("appendedInBranch");
  checkAgain<pushedInBranch>("pushedInBranch");
  checkAgain<layeredInBranch>("layeredInBranch");
  return check::report();
}
