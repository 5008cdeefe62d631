// std::unique_ptr with deleters of the program's own, as C++ code that
// talks to C libraries writes them: a class whose call operator calls
// `free` (memory from `malloc`, reset to more of it), a lambda without
// captures (`decltype(release)`), a generic lambda, overloads for several
// pointer types, a deleter that does nothing over the caller's array (a
// view that owns nothing), a deleter destroying a struct that holds a
// std::vector, such pointers as members of a class and as elements of a
// std::vector. Each deleter runs where
// std::unique_ptr would run it, once per owned pointer and never on null
// (counted by the deleters themselves). Reverse mode, forward mode and
// vector lanes against central differences, at -O0 and -O2, and under
// AddressSanitizer (no leak, no double free).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <utility>
#include <vector>

#include "check.h"
#include "modes.h"

struct FreeDeleter {
  void operator()(double *p) const { std::free(p); }
};

using Buffer = std::unique_ptr<double[], FreeDeleter>;

static Buffer allocate(int n) {
  return Buffer(static_cast<double *>(std::malloc(n * sizeof(double))));
}

/// Memory from `malloc`, freed by the deleter; reset to a larger buffer.
[[ct::differentiable]] double mallocBuffer(const double *x, int n) {
  Buffer squares(static_cast<double *>(std::malloc(n * sizeof(double))));
  for (int i = 0; i < n; ++i)
    squares[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::sin(squares[i]);
  squares.reset(static_cast<double *>(std::malloc(2 * n * sizeof(double))));
  for (int i = 0; i < 2 * n; ++i)
    squares[i] = x[i % n] * (i + 1);
  for (int i = 0; i < 2 * n; ++i)
    s += squares[i] * squares[(i + 1) % (2 * n)];
  return s;
}

/// A lambda without captures as the deleter, the memory from `new[]`.
[[ct::differentiable]] double lambdaDeleter(const double *x, int n) {
  auto release = [](double *p) { delete[] p; };
  std::unique_ptr<double[], decltype(release)> cubes(new double[n], release);
  double s = 0;
  for (int i = 0; i < n; ++i) {
    cubes[i] = x[i] * x[i] * x[i];
    s += cubes[i] * std::cos(x[(i + 1) % n]);
  }
  return s;
}

/// A generic lambda: its call operator's instance for `double *`.
[[ct::differentiable]] double genericDeleter(const double *x, int n) {
  auto release = [](auto *p) { std::free(p); };
  std::unique_ptr<double, decltype(release)> total(
      static_cast<double *>(std::calloc(1, sizeof(double))), release);
  for (int i = 0; i < n; ++i)
    *total += std::exp(0.5 * x[i]);
  return std::log(*total);
}

/// Owning nothing: a view of the caller's array.
struct NoDelete {
  void operator()(const double *) const {}
};

[[ct::differentiable]] double borrowedView(const double *x, int n) {
  std::unique_ptr<const double[], NoDelete> view(x);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += view[i] * view[n - 1 - i];
  return s;
}

/// A deleter destroying what it owns (the struct's std::vector frees its
/// memory); `delete` runs the destructor.
struct Samples {
  std::vector<double> values;
};
struct DestroySamples {
  void operator()(Samples *s) const { delete s; }
};

[[ct::differentiable]] double destroyingDeleter(const double *x, int n) {
  std::unique_ptr<Samples, DestroySamples> samples(new Samples);
  for (int i = 0; i < n; ++i)
    samples->values.push_back(std::tanh(x[i]));
  double s = 0;
  for (double v : samples->values)
    s += v * v;
  return s;
}

/// A deleter with overloads for several pointer types: the one taking
/// the owned pointer's type runs.
struct Releases {
  void operator()(double *p) const { delete p; }
  void operator()(int *p) const { delete p; }
};

[[ct::differentiable]] double overloadedDeleter(const double *x, int n) {
  std::unique_ptr<double, Releases> sum(new double(0));
  std::unique_ptr<int, Releases> count(new int(0));
  for (int i = 0; i < n; ++i) {
    *sum += x[i] * x[i];
    ++*count;
  }
  return *sum / *count;
}

/// A class holding such a buffer: made by a helper, moved, reset.
class Workspace {
public:
  explicit Workspace(int n) : n_(n), data_(allocate(n)) {}
  double &operator[](int i) { return data_[i]; }
  void grow(int n) {
    Buffer bigger = allocate(n);
    for (int i = 0; i < n; ++i)
      bigger[i] = i < n_ ? data_[i] : 0.0;
    data_ = std::move(bigger);
    n_ = n;
  }
  int size() const { return n_; }

private:
  int n_;
  Buffer data_;
};

[[ct::differentiable]] double workspaceMember(const double *x, int n) {
  Workspace w(n);
  for (int i = 0; i < n; ++i)
    w[i] = x[i] + 1;
  w.grow(2 * n);
  for (int i = n; i < 2 * n; ++i)
    w[i] = w[i - n] * x[i - n];
  double s = 0;
  for (int i = 0; i < w.size(); ++i)
    s += w[i] * w[i];
  return std::sqrt(s);
}

/// Elements of a std::vector, each freed by its deleter.
[[ct::differentiable]] double vectorOfBuffers(const double *x, int n) {
  std::vector<Buffer> rows;
  for (int r = 0; r < 3; ++r) {
    rows.push_back(allocate(n));
    for (int i = 0; i < n; ++i)
      rows.back()[i] = std::pow(x[i], r + 1);
  }
  double s = 0;
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < n; ++i)
      s += rows[r][i] * (r + 0.5);
  return s;
}

/// A deleter counting what it frees (never null: std::unique_ptr skips
/// the call then).
static int counted = 0;
struct CountingDeleter {
  void operator()(double *p) const {
    ++counted;
    delete p;
  }
};

[[ct::differentiable]] double countedFrees(const double *x, int n) {
  std::unique_ptr<double, CountingDeleter> a(new double(x[0]));
  std::unique_ptr<double, CountingDeleter> b;
  double s = *a * x[1];
  b = std::move(a); // a: null, not freed
  *b += x[2];
  return s * *b;
}

int main() {
  double x[3] = {0.3, -0.7, 1.1};
  check::checkModes<mallocBuffer>("mallocBuffer", x, 3);
  check::checkModes<lambdaDeleter>("lambdaDeleter", x, 3);
  check::checkModes<genericDeleter>("genericDeleter", x, 3);
  check::checkModes<borrowedView>("borrowedView", x, 3);
  check::checkModes<destroyingDeleter>("destroyingDeleter", x, 3);
  check::checkModes<overloadedDeleter>("overloadedDeleter", x, 3);
  check::checkModes<workspaceMember>("workspaceMember", x, 3);
  check::checkModes<vectorOfBuffers>("vectorOfBuffers", x, 3);

  // One free per pointer owned, whatever the mode.
  counted = 0;
  double value = countedFrees(x, 3);
  check::near("countedFrees primal frees", counted, 1, 0);
  counted = 0;
  double g[3] = {};
  check::near("countedFrees value", ct::gradient<countedFrees>(x, 3, g), value,
              1e-15);
  check::near("countedFrees gradient[0]", g[0], x[1] * (x[0] + x[2]) + x[0] * x[1],
              1e-14);
  check::near("countedFrees gradient[1]", g[1], x[0] * (x[0] + x[2]), 1e-14);
  check::near("countedFrees gradient[2]", g[2], x[0] * x[1], 1e-14);
  check::near("countedFrees gradient frees", counted, 1, 0);
  return check::report();
}
