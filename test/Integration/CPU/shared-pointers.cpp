// std::shared_ptr in differentiable code: locals made by std::make_shared
// (of numbers, of classes with constructors, of aggregates, of a copy
// another std::make_shared makes), from `new` and from a
// std::unique_ptr, copied (one owner more), moved, assigned, reset,
// swapped and counted (use_count); members of structs shared between
// objects (a struct's copy shares them); std::vectors of them (push_back
// of copies, emplace_back of std::make_shared, elements replaced) and
// arrays of them; polymorphic objects through std::shared_ptr<Base>;
// helpers returning one by value and taking one by value or by reference;
// a state replaced by a fresh copy in a loop (the old one freed when its
// last owner lets it go);
// objects that own memory behind them (a class with its own destructor, a
// struct holding a vector, shared as `const`), structs holding them in a
// vector, a lambda capturing one by copy (released with the closure). Every
// mode against differences (check::checkModes), at -O0 and -O2 (and under
// AddressSanitizer in the sanitizer build: nothing leaks or is freed
// twice). std::shared_ptrs the caller made, as parameters and members of
// parameters: read and copied (their use counts are the caller's, left as
// they were), the derivative object's std::shared_ptr receiving the
// derivatives; use_count() of one stops the program with a message.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: not --crash %t2 count 2>&1 | FileCheck %s --check-prefix=COUNT
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <memory>
#include <vector>

#include "Inputs/modes.h"

namespace {

struct Layer {
  std::vector<double> w;
  double b = 0;
};

struct Net {
  std::shared_ptr<Layer> first, second;
};

struct Scaled {
  double a, s;
  Scaled(double v, double k) : a(v), s(k * v) {}
  double value() const { return a * s; }
};

struct Pair {
  double u, v;
};

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};

struct Circle : Shape {
  double r;
  explicit Circle(double radius) : r(radius) {}
  double area() const override { return 3.0 * r * r; }
};

struct Rect : Shape {
  double w, h;
  Rect(double width, double height) : w(width), h(height) {}
  double area() const override { return w * h; }
};

} // namespace

// Locals: make_shared of a number, a class and an aggregate; copies, moves,
// reset, assignment, swap; use_count in the arithmetic.
[[ct::differentiable]] double locals(const double *x, int n) {
  auto a = std::make_shared<double>(x[0]);
  auto s = std::make_shared<Scaled>(x[1], 2.0);
  auto p = std::make_shared<Pair>(x[2], x[3]);
  std::shared_ptr<double> b = a;          // copy: two owners
  double shared = static_cast<double>(a.use_count());
  std::shared_ptr<Pair> q(new Pair{x[0] * x[1], 0.5});
  std::shared_ptr<Pair> r = std::move(q); // q is now null
  double moved = q ? 1.0 : 0.0;
  *b *= x[1];                             // through either owner
  r.swap(p);
  p.reset();
  std::shared_ptr<Scaled> t;
  t = s;
  s = nullptr;
  auto owned = std::make_unique<Pair>(Pair{x[3], x[0]});
  std::shared_ptr<Pair> given(std::move(owned));
  std::shared_ptr<Pair> made = std::make_unique<Pair>(Pair{x[2], 3.0});
  made = std::make_unique<Pair>(*std::make_shared<Pair>(*made));
  made->v += x[1];
  auto twice = std::make_shared<Pair>(*std::make_shared<Pair>(*made));
  made->u += twice->v * x[0];
  return *a * shared + t->value() + r->u * r->v + moved + (p ? 10.0 : 0.0) +
         static_cast<double>(t.use_count()) + given->u * made->u * made->v +
         (owned ? 100.0 : 0.0);
}

// Members shared by two objects, and a struct copied: its members are
// copies.
[[ct::differentiable]] double members(const double *x, int n) {
  auto layer = std::make_shared<Layer>();
  for (int i = 0; i < n; ++i)
    layer->w.push_back(x[i]);
  layer->b = x[0];
  Net net{layer, layer};
  Net copy = net;
  copy.second = std::make_shared<Layer>(*layer); // a deep copy of the layer
  copy.second->b = 2 * x[1];
  net.first->w[0] *= x[2];                        // seen by net and copy.first
  double r = 0;
  for (double w : copy.first->w)
    r += w * copy.second->b;
  for (double w : copy.second->w)
    r += std::sin(w) * net.second->b;
  return r + static_cast<double>(layer.use_count());
}

// std::vector of shared objects, some elements the same object.
[[ct::differentiable]] double vectors(const double *x, int n) {
  std::vector<std::shared_ptr<Pair>> items;
  auto common = std::make_shared<Pair>(Pair{x[0], x[1]});
  for (int i = 0; i + 1 < n; ++i) {
    items.push_back(common);
    items.emplace_back(std::make_shared<Pair>(Pair{x[i], x[i + 1]}));
  }
  items[1] = items[0];
  common->u *= 1.5;
  double r = 0;
  for (const std::shared_ptr<Pair> &item : items)
    r += item->u * item->v;
  items.pop_back();
  items.resize(1);
  return r + items.back()->v * static_cast<double>(common.use_count());
}

// A local array of them (null until assigned).
[[ct::differentiable]] double arrays(const double *x, int n) {
  std::shared_ptr<Pair> parts[3];
  for (int i = 0; i < 2; ++i)
    parts[i] = std::make_shared<Pair>(Pair{x[i], x[i + 1]});
  double r = parts[2] ? 100.0 : 0.0;
  parts[2] = parts[0];
  for (const auto &p : parts)
    r += p->u * p->v;
  return r + static_cast<double>(parts[0].use_count());
}

// Polymorphic objects owned through the base.
[[ct::differentiable]] double shapes(const double *x, int n) {
  std::vector<std::shared_ptr<Shape>> all;
  for (int i = 0; i + 1 < n; i += 2) {
    all.push_back(std::make_shared<Circle>(x[i]));
    all.push_back(std::shared_ptr<Shape>(new Rect(x[i], x[i + 1])));
  }
  std::shared_ptr<Shape> largest = all[0];
  double total = 0;
  for (const auto &shape : all) {
    total += shape->area();
    if (shape->area() > largest->area())
      largest = shape;
  }
  return total + largest->area();
}

static std::shared_ptr<Pair> makePair(double u, double v) {
  auto made = std::make_shared<Pair>();
  made->u = u;
  made->v = v * v;
  return made;
}

static double byValue(std::shared_ptr<Pair> p) { return p->u + p->v; }
static double byReference(const std::shared_ptr<Pair> &p) {
  return p->u * p->v;
}

// Helpers: one returned by value, passed by value and by reference.
[[ct::differentiable]] double helpers(const double *x, int n) {
  std::shared_ptr<Pair> p = makePair(x[0], x[1]);
  double r = byValue(p) + byReference(p) + byValue(makePair(x[2], x[3]));
  return r * static_cast<double>(p.use_count());
}

// A state replaced by a fresh copy in each step: the old one is freed when
// the last owner (here `previous`) lets it go.
[[ct::differentiable]] double chain(const double *x, int n) {
  auto state = std::make_shared<Pair>(Pair{x[0], x[1]});
  std::shared_ptr<Pair> previous;
  for (int i = 0; i < n; ++i) {
    previous = state;
    state = std::make_shared<Pair>(*previous);
    state->u = previous->u * std::cos(previous->v) + x[i];
    state->v = previous->v + 0.1 * previous->u;
  }
  return state->u * state->v + previous->u;
}

// std::shared_ptrs the caller made: copies of them are not counted.
[[ct::differentiable]] double borrowed(const std::shared_ptr<Pair> &given) {
  std::shared_ptr<Pair> mine = given;
  std::shared_ptr<Pair> other;
  other = mine;
  return mine->u * given->v + std::exp(other->u);
}

struct Model {
  std::shared_ptr<Pair> weights;
  double scale;
};

[[ct::differentiable]] double model(const Model &m, const double *x) {
  auto copy = m.weights;
  return copy->u * x[0] * m.scale + m.weights->v * x[1];
}

[[ct::differentiable]] double counted(const std::shared_ptr<Pair> &given) {
  // COUNT: shared-pointers.cpp:[[@LINE+1]]: use_count() of a std::shared_ptr the caller made is not known to differentiable code
  return given->u * static_cast<double>(given.use_count());
}

static void checkCallerObjects() {
  auto given = std::make_shared<Pair>(Pair{0.5, 2.0});
  auto d = std::make_shared<Pair>();
  double value = ct::gradient<borrowed>(given, &d);
  check::near("caller's value", value, 1.0 + std::exp(0.5), 1e-15);
  check::near("caller's d/du", d->u, 2.0 + std::exp(0.5), 1e-15);
  check::near("caller's d/dv", d->v, 0.5, 1e-15);
  check::near("caller's owners", given.use_count(), 1, 0);
  auto t = std::make_shared<Pair>(Pair{1.0, -1.0});
  check::near("caller's jvp", ct::jvp<borrowed>(given, &t).tangent,
              2.0 + std::exp(0.5) - 0.5, 1e-15);

  Model m{std::make_shared<Pair>(Pair{3, 4}), 2};
  Model dm{std::make_shared<Pair>(), 0};
  double x[2] = {1.5, -1}, dx[2] = {};
  value = ct::gradient<model>(m, x, &dm, dx);
  check::near("member's value", value, 3 * 1.5 * 2 - 4, 1e-15);
  check::near("member's d/du", dm.weights->u, 1.5 * 2, 1e-15);
  check::near("member's d/dv", dm.weights->v, -1, 1e-15);
  check::near("member's d/dscale", dm.scale, 3 * 1.5, 1e-15);
  check::near("member's d/dx0", dx[0], 3 * 2, 1e-15);
  check::near("member's d/dx1", dx[1], 4, 1e-15);
  check::near("member's owners", m.weights.use_count(), 1, 0);
}

namespace {
struct Buffer {
  double *data;
  int n;
  explicit Buffer(int size) : data(new double[size]()), n(size) {}
  Buffer(const Buffer &other) : data(new double[other.n]), n(other.n) {
    for (int i = 0; i < n; ++i)
      data[i] = other.data[i];
  }
  ~Buffer() { delete[] data; }
};

struct Weights {
  std::vector<double> v;
};

struct Unit {
  std::shared_ptr<const Weights> weights;
  double bias;
};
} // namespace

[[ct::differentiable]] double owners(const double *x, int n) {
  auto buffer = std::make_shared<Buffer>(n);
  for (int i = 0; i < n; ++i)
    buffer->data[i] = x[i] * x[i];
  auto weights =
      std::make_shared<Weights>(Weights{std::vector<double>(x, x + n)});
  std::shared_ptr<const Weights> shared = weights;
  std::vector<Unit> units;
  for (int k = 0; k < 3; ++k)
    units.push_back(Unit{shared, x[k]});
  double r = 0;
  for (const Unit &unit : units)
    for (int i = 0; i < n; ++i)
      r += unit.weights->v[i] * unit.bias * buffer->data[i];
  auto copy = std::make_shared<Buffer>(*buffer);
  buffer.reset();
  r += std::sqrt(copy->data[1]);
  auto scaled = [shared](double s) { return s * shared->v[0]; };
  return r + scaled(2.0) + static_cast<double>(weights.use_count());
}

int main(int argc, char **argv) {
  if (argc > 1) {
    auto given = std::make_shared<Pair>(Pair{0.5, 2.0});
    auto d = std::make_shared<Pair>();
    return static_cast<int>(ct::gradient<counted>(given, &d));
  }
  checkCallerObjects();
  const double point[4] = {0.7, -0.4, 1.3, 0.25};
  check::checkModes<locals>("locals", point, 4);
  // (Vector mode does not yet follow objects holding both addresses and
  // numbers that carry derivatives: the layer's vector and bias.)
  check::checkModes<members, false>("members", point, 4);
  check::checkModes<vectors>("vectors", point, 4);
  check::checkModes<arrays>("arrays", point, 4);
  check::checkModes<shapes>("shapes", point, 4);
  check::checkModes<helpers>("helpers", point, 4);
  check::checkModes<chain>("chain", point, 4);
  check::checkModes<owners, false>("owners", point, 4);
  return check::report();
}
