// std::unique_ptr as an element: std::vector<std::unique_ptr<Base>> of
// polymorphic objects (made by std::make_unique of derived classes,
// emplace_back(new T), push_back(std::move(p)); read by index, back(),
// iterators and range-for, in helpers taking the vector by reference;
// replaced by assignment and reset, erased, popped, resized with nulls
// tested by `if (!v[i])`; the vector moved), std::vector of
// std::unique_ptr<double> and <double[]>, and local arrays of
// std::unique_ptr; std::make_unique of aggregates (C++20's parenthesized
// aggregate initialization, also `T t(a, b);` and missing parts zero).
// Each element is the address it owns, kept in the
// vector's memory; destroying an element destroys and frees what it owns
// (virtual destructors run). A class no object of which is made anywhere
// has no virtual table, which the virtual calls' comparisons still name.
// Every mode against differences (check::checkModes), at -O0 and -O2 (and
// under AddressSanitizer in the sanitizer build: nothing leaks).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <memory>
#include <vector>

#include "modes.h"

namespace {
int destroyed = 0;
}

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
  virtual void scale(double s) = 0;
};

struct Circle : Shape {
  double r;
  explicit Circle(double r) : r(r) {}
  double area() const override { return 3.0 * r * r; }
  void scale(double s) override { r *= s; }
};

struct Rect : Shape {
  double w, h;
  Rect(double w, double h) : w(w), h(h) {}
  double area() const override { return w * h; }
  void scale(double s) override {
    w *= s;
    h *= std::sqrt(s);
  }
};

// Never made: no virtual table is emitted for it.
struct Hexagon : Shape {
  double a;
  double area() const override { return 2.598 * a * a; }
  void scale(double s) override { a *= s; }
};

// Counts its destructions (an integer global: no derivative).
struct Tracked : Shape {
  double v;
  explicit Tracked(double v) : v(v) {}
  ~Tracked() override { ++destroyed; }
  double area() const override { return std::exp(v); }
  void scale(double s) override { v *= s; }
};

struct Scene {
  std::vector<std::unique_ptr<Shape>> shapes;
  double total() const {
    double s = 0;
    for (const auto &shape : shapes)
      s += shape->area();
    return s;
  }
};

static double sumAreas(const std::vector<std::unique_ptr<Shape>> &shapes) {
  double s = 0;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    s += shapes[i]->area() * (i + 1);
  return s;
}

static void addCircle(std::vector<std::unique_ptr<Shape>> &shapes, double r) {
  shapes.push_back(std::make_unique<Circle>(r));
}

[[ct::differentiable]] double scene(const double *x, int n) {
  Scene scene;
  scene.shapes.emplace_back(new Circle(x[0]));
  auto rect = std::make_unique<Rect>(x[1], x[2]);
  scene.shapes.push_back(std::move(rect));
  scene.shapes.push_back(std::make_unique<Tracked>(0.5 * x[3]));
  scene.shapes.back()->scale(2.0);
  for (auto it = scene.shapes.begin(); it != scene.shapes.end(); ++it)
    (*it)->scale(1.5);
  double s = scene.total();
  scene.shapes[0] = std::make_unique<Rect>(x[0], x[3]);
  scene.shapes.erase(scene.shapes.begin() + 1);
  s += 2 * scene.total();
  scene.shapes.pop_back(); // destroys the Tracked object
  scene.shapes.resize(3);
  if (!scene.shapes[2] && !scene.shapes[1])
    s += 1.0;
  scene.shapes[2].reset(new Circle(x[1]));
  scene.shapes[1] = std::make_unique<Tracked>(x[2] * x[0]);
  return s + sumAreas(scene.shapes) + n;
}

[[ct::differentiable]] double ownedNumbers(const double *x, int n) {
  std::vector<std::unique_ptr<double>> cells;
  for (int i = 0; i < n; ++i)
    cells.push_back(std::make_unique<double>(x[i] * x[i]));
  std::vector<std::unique_ptr<double[]>> rows;
  for (int i = 0; i + 2 < n; ++i) {
    rows.push_back(std::make_unique<double[]>(3));
    for (int j = 0; j < 3; ++j)
      rows[i][j] = x[i + j] * (j + 1);
  }
  double s = 0;
  for (const auto &cell : cells)
    s += std::sin(*cell);
  for (auto &row : rows)
    s += row[0] * row[2];
  std::unique_ptr<Shape> parts[2];
  parts[0] = std::make_unique<Circle>(x[0]);
  parts[1].reset(new Rect(x[1], x[2]));
  std::vector<std::unique_ptr<Shape>> built;
  for (int i = 0; i < n; ++i)
    addCircle(built, 0.5 * x[i]);
  std::vector<std::unique_ptr<Shape>> moved = std::move(built);
  return s + parts[0]->area() + parts[1]->area() + sumAreas(moved) +
         built.size();
}

struct Particle {
  double x, v;
  int id;
};

struct Tagged {
  double a;
  double b[2];
};

[[ct::differentiable]] double aggregates(const double *x, int n) {
  auto p = std::make_unique<Particle>(x[0], x[1] * x[1], 3);
  Particle q(x[2], x[3]);
  Tagged t(x[1]);
  std::vector<std::unique_ptr<Particle>> ps;
  for (int i = 0; i < n; ++i)
    ps.push_back(std::make_unique<Particle>(x[i], 2 * x[i]));
  double s = 0;
  for (const auto &e : ps)
    s += e->x * e->v + e->id;
  return p->x * p->v + p->id + q.x * q.v + q.id + s + t.a * x[0] + t.b[1];
}

int main() {
  const double points[2][4] = {{0.7, 0.4, -0.3, 0.2}, {-0.6, 1.5, 0.8, -0.9}};
  for (const auto &point : points) {
    check::checkModes<scene>("scene", point, 4);
    check::checkModes<ownedNumbers>("owned numbers", point, 4);
    check::checkModes<aggregates>("aggregates", point, 4);
  }
  // Each call of scene destroys two Tracked objects (popped, and at the
  // end), whatever the mode.
  destroyed = 0;
  double x[4] = {0.7, 0.4, -0.3, 0.2}, dx[4] = {};
  ct::gradient<scene>(x, 4, dx);
  check::near("destructors run in the gradient", destroyed, 2, 0);
  destroyed = 0;
  scene(x, 4);
  check::near("destructors run as written", destroyed, 2, 0);
  return check::report();
}
