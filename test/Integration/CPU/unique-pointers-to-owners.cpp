// std::unique_ptr members owning objects that own memory or hold pointers:
// a struct holding a std::unique_ptr to a class with its own constructor,
// copy constructor and destructor (`new[]`/`delete[]`), reset to another;
// the pointer-to-implementation idiom (a model holding its implementation,
// which holds a std::vector, through a std::unique_ptr); std::vectors of
// std::unique_ptrs to such classes and of structs holding them (made by a
// helper, moved out of the vector); an owned view holding a pointer into
// the caller's array; and a caller's struct holding such a member, whose
// derivative struct receives the gradient in its owned buffer. Reverse
// mode, forward mode, Hessian-vector products and vector lanes against
// central differences and closed forms, at -O0 and -O2, and under
// AddressSanitizer (every destructor runs: no leak, no double free).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "check.h"
#include "modes.h"

/// A class owning its memory through its own destructor.
class Buffer {
public:
  explicit Buffer(int n) : n_(n), data_(new double[n]()) {}
  Buffer(const Buffer &other) : n_(other.n_), data_(new double[other.n_]) {
    for (int i = 0; i < n_; ++i)
      data_[i] = other.data_[i];
  }
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer() { delete[] data_; }
  double &at(int i) { return data_[i]; }
  double get(int i) const { return data_[i]; }
  int size() const { return n_; }

private:
  int n_;
  double *data_;
};

struct Holder {
  std::unique_ptr<Buffer> buffer;
  double scale;
};

[[ct::differentiable]] double memberOwner(const double *x, int n) {
  Holder h{std::make_unique<Buffer>(n), 2.0};
  for (int i = 0; i < n; ++i)
    h.buffer->at(i) = x[i] * h.scale;
  double s = 0;
  for (int i = 0; i < h.buffer->size(); ++i)
    s += std::sin(h.buffer->at(i));
  h.buffer.reset(new Buffer(1)); // the first buffer's destructor runs
  h.buffer->at(0) = s;
  return h.buffer->at(0) * s;
}

/// Pointer to implementation.
class Impl {
public:
  std::vector<double> w;
  double eval(const double *x, int n) const {
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += w[i % w.size()] * x[i] * x[i];
    return s;
  }
};

class Model {
public:
  Model() : impl_(new Impl) {
    impl_->w.push_back(1.0);
    impl_->w.push_back(2.0);
  }
  double operator()(const double *x, int n) const { return impl_->eval(x, n); }

private:
  std::unique_ptr<Impl> impl_;
};

[[ct::differentiable]] double pointerToImplementation(const double *x,
                                                      int n) {
  Model m;
  return std::log(1 + m(x, n));
}

[[ct::differentiable]] double vectorOfOwners(const double *x, int n) {
  std::vector<std::unique_ptr<Buffer>> buffers;
  for (int k = 0; k < 2; ++k) {
    buffers.push_back(std::make_unique<Buffer>(n));
    for (int i = 0; i < n; ++i)
      buffers.back()->at(i) = x[i] * (k + 1);
  }
  double s = 0;
  for (auto &b : buffers)
    for (int i = 0; i < n; ++i)
      s += b->at(i) * b->at(i);
  return s;
}

static Holder makeHolder(const double *x, int n, double k) {
  Holder h{std::make_unique<Buffer>(n), k};
  for (int i = 0; i < n; ++i)
    h.buffer->at(i) = std::cos(k * x[i]);
  return h;
}

[[ct::differentiable]] double vectorOfHolders(const double *x, int n) {
  std::vector<Holder> holders;
  for (int k = 0; k < 3; ++k)
    holders.push_back(makeHolder(x, n, k + 1));
  Holder moved = std::move(holders[1]); // holders[1] owns nothing now
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += moved.buffer->get(i) * holders[2].buffer->get(i);
  if (!holders[1].buffer)
    s += holders[0].buffer->get(0);
  return s;
}

/// An owned view of the caller's array (a pointer field, no destructor).
struct View {
  const double *p;
  int n;
};
struct ViewHolder {
  std::unique_ptr<View> view;
  double k;
};

[[ct::differentiable]] double ownedView(const double *x, int n) {
  ViewHolder h{std::make_unique<View>(View{x, n}), 2.0};
  double s = 0;
  for (int i = 0; i < h.view->n; ++i)
    s += h.view->p[i] * h.view->p[i] * h.k;
  h.view.reset(new View{x + 1, n - 1});
  for (int i = 0; i < h.view->n; ++i)
    s += std::sin(h.view->p[i]);
  return s;
}

/// The caller's struct: its derivative struct's buffer receives the
/// gradient.
[[ct::differentiable]] double callerHolder(const Holder &h, const double *x,
                                           int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += h.buffer->get(i) * x[i] * x[i] * h.scale;
  return s;
}

int main() {
  double x[3] = {0.3, -0.7, 1.1};
  check::checkModes<memberOwner>("memberOwner", x, 3);
  check::checkModes<pointerToImplementation>("pointerToImplementation", x, 3);
  check::checkModes<vectorOfOwners>("vectorOfOwners", x, 3);
  check::checkModes<vectorOfHolders>("vectorOfHolders", x, 3);
  check::checkModes<ownedView>("ownedView", x, 3);

  Holder h{std::make_unique<Buffer>(3), 1.5};
  for (int i = 0; i < 3; ++i)
    h.buffer->at(i) = i + 0.5;
  Holder dh{std::make_unique<Buffer>(3), 0.0};
  double g[3] = {};
  double value = ct::gradient<callerHolder>(h, x, 3, &dh, g);
  check::near("callerHolder value", value, callerHolder(h, x, 3), 1e-15);
  double ds = 0;
  for (int i = 0; i < 3; ++i) {
    check::near("callerHolder d/dx", g[i], 2 * 1.5 * (i + 0.5) * x[i], 1e-14);
    check::near("callerHolder d/dbuffer", dh.buffer->get(i), 1.5 * x[i] * x[i],
                1e-14);
    ds += (i + 0.5) * x[i] * x[i];
  }
  check::near("callerHolder d/dscale", dh.scale, ds, 1e-14);
  return check::report();
}
