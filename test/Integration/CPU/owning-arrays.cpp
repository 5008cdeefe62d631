// Arrays of objects of classes that own memory (their own constructors
// and destructor): a local array built from a list of temporaries, arrays
// made in each iteration of a loop, and a struct holding an array of them.
// Each element is made by its constructor and destroyed by its destructor,
// last first, where its scope ends (under AddressSanitizer: no leak, no
// use after free). Reverse and forward mode and ct::hvp against closed
// forms, -O0 and -O2.
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"

using check::near;

class Buffer {
public:
  Buffer() : n_(0), data_(nullptr) {}
  explicit Buffer(int n) : n_(n), data_(new double[n]()) {}
  Buffer(const Buffer &o) : n_(o.n_), data_(new double[o.n_]) {
    for (int i = 0; i < n_; ++i)
      data_[i] = o.data_[i];
  }
  Buffer &operator=(const Buffer &o) = delete;
  ~Buffer() {
    if (data_)
      delete[] data_;
  }
  void resize(int n) {
    if (n != n_) {
      delete[] data_;
      data_ = new double[n]();
      n_ = n;
    }
  }
  double &operator[](int i) { return data_[i]; }

private:
  int n_;
  double *data_;
};

// 6 x^2 sin x: a listed array, and arrays made and destroyed per iteration.
[[ct::differentiable]] double listed(double x) {
  Buffer b[2] = {Buffer(2), Buffer(3)};
  b[0][1] = x * x;
  b[1][2] = std::sin(x);
  double s = 0;
  for (int k = 0; k < 3; ++k) {
    Buffer tmp[2];
    tmp[0].resize(1);
    tmp[1].resize(2);
    tmp[0][0] = b[0][1] * (k + 1);
    tmp[1][1] = b[1][2];
    s += tmp[0][0] * tmp[1][1];
  }
  return s;
}

struct Stages {
  Buffer stage[3];
  double scale;
};

// 2 (x^2 + 4 x^2 + 9 x^2) = 28 x^2: stage i resized to i + 1 elements.
[[ct::differentiable]] double staged(double x) {
  Stages st;
  st.scale = 2;
  for (int i = 0; i < 3; ++i) {
    st.stage[i].resize(i + 1);
    st.stage[i][i] = x * (i + 1);
  }
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += st.stage[i][i] * st.stage[i][i];
  return st.scale * s;
}

int main() {
  for (double x : {0.7, -1.3}) {
    double dx = 0;
    double value = ct::gradient<listed>(x, &dx);
    near("listed: value", value, 6 * x * x * std::sin(x), 1e-13);
    double expected = 12 * x * std::sin(x) + 6 * x * x * std::cos(x);
    near("listed: d/dx", dx, expected, 1e-13);
    near("listed: jvp", ct::jvp<listed>(x, 1.0).tangent, expected, 1e-13);

    dx = 0;
    value = ct::gradient<staged>(x, &dx);
    near("staged: value", value, 28 * x * x, 1e-13);
    near("staged: d/dx", dx, 56 * x, 1e-13);
    near("staged: jvp", ct::jvp<staged>(x, 1.0).tangent, 56 * x, 1e-13);
    double hx = 0;
    ct::hvp<staged>(x, 1.0, &hx);
    near("staged: hvp", hx, 56, 1e-13);
  }
  return check::report();
}
