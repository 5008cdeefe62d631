// std::weak_ptr as C++ programs observe shared objects: made from a
// std::shared_ptr (also a temporary one), copied, assigned, moved, reset,
// swapped, kept in struct fields and std::vectors; `lock()` giving an owner
// while the object lives and null after its last owner let go, `expired()`,
// `use_count()`, and a std::shared_ptr made from a live std::weak_ptr; a
// parent link observing its parent (a child keeping `std::weak_ptr` to the
// node that owns it through a std::shared_ptr), and a cache observing
// parameters. The object is destroyed with its last owner and the control
// block with its last observer (no leak, no use after free under
// AddressSanitizer). Reverse mode, forward mode, Hessian-vector products
// and vector lanes (not through the tree) against central differences, at
// -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "check.h"
#include "modes.h"

/// Observed while alive, expired after the last owner lets go.
[[ct::differentiable]] double observer(const double *x, int n) {
  auto owner = std::make_shared<double>(0.0);
  std::weak_ptr<double> watch = owner;
  double s = 0;
  for (int i = 0; i < n; ++i) {
    if (auto held = watch.lock())
      *held += x[i] * x[i];
  }
  s += *owner * (watch.use_count() == 1 ? 2.0 : 100.0);
  owner.reset();
  if (watch.expired() && !watch.lock())
    s += std::sin(x[0]);
  return s;
}

/// Copies, assignment, moves, swap, reset; a std::shared_ptr made from a
/// live std::weak_ptr.
[[ct::differentiable]] double handles(const double *x, int n) {
  auto a = std::make_shared<double>(x[0]);
  auto b = std::make_shared<double>(x[1]);
  std::weak_ptr<double> wa(a), wb;
  wb = b;
  std::weak_ptr<double> copy = wa;
  std::weak_ptr<double> moved = std::move(copy);
  wa.swap(wb);
  double s = *wa.lock() * *moved.lock(); // b * a
  std::shared_ptr<double> again(moved);  // one more owner of a
  s += *again * (a.use_count() == 2 ? 1.0 : 100.0);
  moved.reset();
  b = std::make_shared<double>(x[2]); // the old b's last owner
  s += wa.expired() ? std::exp(*b) : 100.0;
  for (int i = 0; i < n; ++i)
    s += *a * x[i];
  return s;
}

/// A std::weak_ptr made from a temporary std::shared_ptr observes it while
/// the temporary lives: to the end of the declaration.
static std::shared_ptr<double> scaled(const double *x, double k) {
  return std::make_shared<double>(k * x[0]);
}

[[ct::differentiable]] double fromTemporary(const double *x, int n) {
  std::weak_ptr<double> w = scaled(x, 3.0); // expired at the `;`
  double expiredAlready = w.expired() ? 1.0 : 100.0;
  std::shared_ptr<double> kept = scaled(x, 2.0);
  w = kept;
  double s = *w.lock() * expiredAlready;
  for (int i = 1; i < n; ++i)
    s *= x[i];
  return s;
}

/// A lambda's copies of what it captures live as long as it does (they
/// are not a declaration's temporaries), also inside a std::function.
[[ct::differentiable]] double capturedOwners(const double *x, int n) {
  std::function<double(double)> f =
      [p = std::make_shared<double>(x[0])](double s) { return s * *p; };
  auto shared = std::make_shared<double>(x[1]);
  std::weak_ptr<double> watch = shared;
  auto g = [shared](double s) { return s + *shared; };
  shared.reset(); // the lambda's copy still owns it
  (void)n;
  return f(x[1]) + g(x[2]) * (watch.expired() ? 100.0 : 1.0);
}

/// Parameters shared by layers, observed by a cache.
struct Params {
  double w, bias;
};
struct Layer {
  std::shared_ptr<Params> params;
};
struct Cache {
  std::weak_ptr<Params> last;
};

[[ct::differentiable]] double sharedLayers(const double *x, int n) {
  auto params = std::make_shared<Params>(Params{x[0], x[1]});
  std::vector<Layer> layers;
  for (int i = 0; i < 3; ++i)
    layers.push_back(Layer{params});
  Cache cache{params};
  params.reset(); // the layers own the parameters now
  double h = x[2];
  for (const Layer &layer : layers)
    h = std::tanh(layer.params->w * h + layer.params->bias);
  if (auto p = cache.last.lock())
    h += p->w * p->bias;
  std::vector<std::weak_ptr<Params>> observers(2, cache.last);
  layers.clear(); // the last owners
  for (const auto &o : observers)
    if (o.expired())
      h *= 1.5;
  (void)n;
  return h;
}

/// A tree whose children observe their parent.
struct Node {
  double value;
  std::weak_ptr<Node> parent;
  std::vector<std::shared_ptr<Node>> children;
};

[[ct::differentiable]] double parentLinks(const double *x, int n) {
  auto root = std::make_shared<Node>();
  root->value = x[0];
  for (int i = 1; i < n; ++i) {
    auto child = std::make_shared<Node>();
    child->value = x[i];
    child->parent = root;
    root->children.push_back(child);
  }
  double s = 0;
  for (const auto &child : root->children)
    if (auto p = child->parent.lock())
      s += child->value * p->value + std::cos(child->value);
  return s;
}

int main() {
  double x[3] = {0.3, -0.7, 1.1};
  check::checkModes<observer>("observer", x, 3);
  check::checkModes<handles>("handles", x, 3);
  check::checkModes<fromTemporary>("fromTemporary", x, 3);
  check::checkModes<capturedOwners>("capturedOwners", x, 3);
  check::checkModes<sharedLayers>("sharedLayers", x, 3);
  // (Vector lanes do not go through the tree's destruction yet: a
  // recursive function of its own reading the nodes' addresses.)
  check::checkModes<parentLinks, false>("parentLinks", x, 3);
  return check::report();
}
