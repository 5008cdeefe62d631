// Classes with virtual functions: calls through base-class pointers and
// references to objects chosen at run time (an interface with a pure
// virtual function, a base with data whose overrider calls the base's
// version, a virtual call operator, functions changing the object's state
// in a loop, class templates), objects on the heap owned by
// std::unique_ptr and deleted through the base (virtual destructors that
// do work run), destructors run by `delete` and `delete[]`, an object made
// by code compiled as written (its derivative object receives the
// gradient), a class in an unnamed namespace, a second base with data, a
// struct result, a class holding a std::vector (a network's layers) and a
// virtual function calling itself; member entry points `&Base::f`; an
// interface that is a second base (multiple inheritance). Each
// gradient against central differences, forward mode against the gradient,
// Hessian-vector products against differences of gradients, and two
// forward lanes against the gradient (but where a pointer field carries
// derivatives).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "check.h"

constexpr int N = 5;

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
  virtual double scaled(double k) const { return k * area(); }
};
struct Circle : Shape {
  double r;
  explicit Circle(double r) : r(r) {}
  double area() const override { return 3.0 * r * r; }
};
struct Rect : Shape {
  double w, h;
  Rect(double w, double h) : w(w), h(h) {}
  double area() const override { return w * h; }
  double scaled(double k) const override { return k * k * area(); }
};
struct Square final : Rect {
  explicit Square(double s) : Rect(s, s) {}
  double area() const override { return 2.0 * w * h; }
};

[[ct::differentiable]] double shapeTable(const double *x) {
  Circle c(x[0]);
  Rect r(x[1], x[2]);
  Square q(x[3]);
  const Shape *shapes[] = {&c, &r, &q};
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += shapes[i]->scaled(x[4]);
  return s + q.area();
}

// Multiple inheritance: the interface is a second base, after one with
// data and virtual functions of its own, so a call through it reaches an
// overrider whose object begins before the interface's part; objects in a
// table of interface pointers, on the stack and on the heap, and a call
// through the first base too.
struct Tagged {
  virtual ~Tagged() = default;
  virtual double weight() const { return 1.0; }
  double tag = 0.5;
};
struct Energy {
  virtual ~Energy() = default;
  virtual double energy(const double *x) const = 0;
};
struct SpringTerm : Tagged, Energy {
  double k;
  explicit SpringTerm(double k) : k(k) {}
  double energy(const double *x) const override {
    return k * tag * (x[0] - x[1]) * (x[0] - x[1]);
  }
  double weight() const override { return 2.0 * k; }
};
struct WellTerm : Tagged, Energy {
  double depth;
  explicit WellTerm(double depth) : depth(depth) {}
  double energy(const double *x) const override {
    return -depth * std::exp(-x[2] * x[2]) * weight();
  }
};

[[ct::differentiable]] double twoBases(const double *x) {
  SpringTerm spring(x[3]);
  WellTerm well(x[4]);
  const Energy *terms[] = {&spring, &well};
  const Tagged *tagged[] = {&spring, &well};
  double e = 0;
  for (int i = 0; i < 2; ++i)
    e += terms[i]->energy(x) * tagged[i]->weight();
  auto owned = std::make_unique<SpringTerm>(x[1]);
  const Energy &viaBase = *owned;
  return e + viaBase.energy(x + 2);
}

[[ct::differentiable]] double chosenReference(const double *x) {
  Circle c(x[0]);
  Rect r(x[1], x[2]);
  double s = 0;
  for (int i = 0; i < N; ++i) {
    const Shape &shape = x[i] > 0.2 ? static_cast<const Shape &>(c) : r;
    s += shape.scaled(x[i]);
  }
  return s;
}

struct Body {
  double m;
  explicit Body(double m) : m(m) {}
  virtual ~Body() {}
  virtual double energy(double v) const { return 0.5 * m * v * v; }
};
struct Spring : Body {
  double k;
  Spring(double m, double k) : Body(m), k(k) {}
  double energy(double v) const override {
    return Body::energy(v) + k * std::sin(v);
  }
};
double sumEnergy(const Body *const *bodies, int n, double v) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += bodies[i]->energy(v);
  return e;
}
[[ct::differentiable]] double bodies(const double *x) {
  Body a(x[0]);
  Spring b(x[1], x[2]), c(x[2], x[0]);
  const Body *all[] = {&a, &b, &c};
  return sumEnergy(all, 3, x[4]) * x[3];
}

// Destructors that do work: run by `delete` through the base, by a
// std::unique_ptr, by `delete[]`.
struct Tally : Shape {
  double *sink, v;
  Tally(double *sink, double v) : sink(sink), v(v) {}
  ~Tally() override { *sink += v * v; }
  double area() const override { return v; }
};
struct Cell {
  double *sink, v;
  ~Cell() {
    if (sink)
      *sink += std::sin(v);
  }
};
[[ct::differentiable]] double owned(const double *x) {
  double sum = x[4];
  {
    std::unique_ptr<Shape> p;
    if (x[0] > 0)
      p = std::make_unique<Circle>(x[1]);
    else
      p = std::make_unique<Rect>(x[1], x[2]);
    sum += p->area();
    std::unique_ptr<Shape> t = std::make_unique<Tally>(&sum, x[3]);
    sum += t->scaled(x[0]);
  }
  Shape *q = new Tally(&sum, x[2]);
  sum += q->scaled(x[0]);
  delete q;
  Cell *cells = new Cell[3]();
  for (int i = 0; i < 3; ++i) {
    cells[i].sink = &sum;
    cells[i].v = x[i];
  }
  delete[] cells;
  return sum;
}

struct Model {
  virtual ~Model() = default;
  virtual double operator()(double t) const = 0;
};
struct Quadratic : Model {
  double a, b;
  Quadratic(double a, double b) : a(a), b(b) {}
  double operator()(double t) const override { return a * t * t + b; }
};
struct Decay : Model {
  double rate;
  explicit Decay(double rate) : rate(rate) {}
  double operator()(double t) const override { return std::exp(-rate * t); }
};
double loss(const Model &m, const double *t) {
  double s = 0;
  for (int i = 0; i < N; ++i) {
    double e = m(t[i]) - 1.0;
    s += e * e;
  }
  return s;
}
[[ct::differentiable]] double models(const double *x) {
  Quadratic q(x[0], x[1]);
  Decay d(x[2]);
  return loss(q, x) + loss(d, x);
}

struct Particle {
  double p, v;
  Particle(double p, double v) : p(p), v(v) {}
  virtual ~Particle() = default;
  virtual double force() const { return -p; }
  void step(double dt) {
    v += dt * force();
    p += dt * v;
  }
};
struct Damped : Particle {
  double c;
  Damped(double p, double v, double c) : Particle(p, v), c(c) {}
  double force() const override { return -p - c * v * v * v; }
};
[[ct::differentiable]] double simulate(const double *x) {
  Particle a(x[0], x[1]);
  Damped b(x[2], x[3], x[4]);
  Particle *particles[] = {&a, &b};
  for (int s = 0; s < 20; ++s)
    for (int k = 0; k < 2; ++k)
      particles[k]->step(0.05);
  return a.p * a.p + b.p * b.v;
}

template <class T> struct Cubic : Model {
  T c;
  explicit Cubic(T c) : c(c) {}
  double operator()(double t) const override { return c * t * t * t; }
};
[[ct::differentiable]] double templated(const double *x) {
  Cubic<double> terms[2] = {Cubic<double>(x[0]), Cubic<double>(x[1])};
  double s = 0;
  for (int i = 0; i < 2; ++i) {
    const Model &m = terms[i];
    s += m(x[i + 2]) + terms[i](x[4]);
  }
  return s;
}

namespace {
struct Hidden : Model {
  double w;
  explicit Hidden(double w) : w(w) {}
  double operator()(double t) const override { return std::tanh(w * t); }
};
} // namespace

// A second base with data after the one with virtual functions.
struct Weighted {
  double weight;
};
struct WeightedCircle : Circle, Weighted {
  WeightedCircle(double r, double w) : Circle(r), Weighted{w} {}
  double area() const override { return weight * Circle::area(); }
};

[[ct::differentiable]] double hiddenAndWeighted(const double *x) {
  Hidden h(x[0]);
  WeightedCircle wc(x[1], x[2]);
  const Model &m = h;
  const Shape &s = wc;
  return m(x[3]) + s.scaled(x[4]) + wc.weight * x[0];
}

// A struct result, a class holding a std::vector (layers of a network),
// and a virtual function calling itself.
struct Point2 {
  double a, b;
};
struct Map2 {
  virtual ~Map2() = default;
  virtual Point2 apply(Point2 p) const = 0;
};
struct Rotation : Map2 {
  double t;
  explicit Rotation(double t) : t(t) {}
  Point2 apply(Point2 p) const override {
    return {std::cos(t) * p.a - std::sin(t) * p.b,
            std::sin(t) * p.a + std::cos(t) * p.b};
  }
};
struct Scaling : Map2 {
  double s;
  explicit Scaling(double s) : s(s) {}
  Point2 apply(Point2 p) const override { return {s * p.a, s * p.b}; }
};
struct Layer {
  virtual ~Layer() = default;
  virtual void forward(const double *in, double *out) const = 0;
};
struct Dense : Layer {
  std::vector<double> w;
  explicit Dense(std::vector<double> w) : w(std::move(w)) {}
  void forward(const double *in, double *out) const override {
    for (int i = 0; i < N; ++i)
      out[i] = w[i] * in[(i + 1) % N];
  }
};
struct Activation : Layer {
  void forward(const double *in, double *out) const override {
    for (int i = 0; i < N; ++i)
      out[i] = std::tanh(in[i]);
  }
};
struct Series {
  virtual ~Series() = default;
  virtual double sum(const double *x, int k) const = 0;
};
struct Horner : Series {
  double c;
  explicit Horner(double c) : c(c) {}
  double sum(const double *x, int k) const override {
    return k == 0 ? x[0] : x[k] + c * sum(x, k - 1);
  }
};
[[ct::differentiable]] double mapsLayersSeries(const double *x) {
  Rotation r(x[0]);
  Scaling s(x[1]);
  const Map2 *maps[] = {&r, &s, &r};
  Point2 p{x[2], x[3]};
  for (const Map2 *m : maps)
    p = m->apply(p);
  Dense dense(std::vector<double>(x, x + N));
  Activation act;
  const Layer *net[] = {&dense, &act, &dense};
  double a[N], b[N];
  for (int i = 0; i < N; ++i)
    a[i] = x[i];
  for (const Layer *layer : net) {
    layer->forward(a, b);
    for (int i = 0; i < N; ++i)
      a[i] = b[i];
  }
  Horner h(x[4]);
  const Series &series = h;
  return p.a * p.b + a[0] + a[3] + series.sum(x, N - 1);
}

// An object made by code compiled as written, passed by reference.
[[ct::differentiable]] double energyOf(const Body &body, const double *x) {
  return body.energy(x[0]) * x[1];
}

template <double (*F)(const double *), bool lanes = true>
void checkAll(const std::string &name, double *x) {
  double dx[N] = {};
  double value = ct::gradient<F>(x, dx);
  check::near((name + ": value").c_str(), value, F(x), 1e-13);
  for (int i = 0; i < N; ++i)
    check::near((name + ": d/dx" + std::to_string(i)).c_str(), dx[i],
                check::differenceAt(x, i, [&] { return F(x); }), 1e-6);
  double v[N], hv[N] = {};
  for (int i = 0; i < N; ++i)
    v[i] = 0.5 - 0.2 * i;
  double directional = 0;
  for (int i = 0; i < N; ++i)
    directional += dx[i] * v[i];
  check::near((name + ": jvp").c_str(), ct::jvp<F>(x, v).tangent, directional,
              1e-12);
  ct::hvp<F>(x, v, hv);
  double h = 1e-5, up[N], down[N], gUp[N] = {}, gDown[N] = {};
  for (int i = 0; i < N; ++i) {
    up[i] = x[i] + h * v[i];
    down[i] = x[i] - h * v[i];
  }
  ct::gradient<F>(up, gUp);
  ct::gradient<F>(down, gDown);
  for (int i = 0; i < N; ++i)
    check::near((name + ": hvp" + std::to_string(i)).c_str(), hv[i],
                (gUp[i] - gDown[i]) / (2 * h), 1e-5);
  if constexpr (lanes) {
    double seeds[2 * N] = {};
    for (int i = 0; i < N; ++i) {
      seeds[2 * i] = v[i];
      seeds[2 * i + 1] = i == 1;
    }
    auto both = ct::jvp<F, ct::lanes<2>>(x, seeds);
    check::near((name + ": lane 0").c_str(), both.tangent[0], directional,
                1e-12);
    check::near((name + ": lane 1").c_str(), both.tangent[1], dx[1], 1e-12);
  }
}

void checkCallersObject(double *x) {
  // Closed forms: spring.energy(v) = m v^2 / 2 + k sin v.
  Spring spring(1.5, 0.8);
  Spring dSpring(0, 0);
  double dx[N] = {};
  double value = ct::gradient<energyOf>(spring, x, &dSpring, dx);
  double v = x[0], e = 0.75 * v * v + 0.8 * std::sin(v);
  check::near("caller's object: value", value, e * x[1], 1e-13);
  check::near("caller's object: d/dx0", dx[0],
              (1.5 * v + 0.8 * std::cos(v)) * x[1], 1e-12);
  check::near("caller's object: d/dx1", dx[1], e, 1e-12);
  check::near("caller's object: d/dm", dSpring.m, 0.5 * v * v * x[1], 1e-12);
  check::near("caller's object: d/dk", dSpring.k, std::sin(v) * x[1], 1e-12);
  Body body(2.0);
  Body dBody(0);
  double dy[N] = {};
  ct::gradient<energyOf>(body, x, &dBody, dy);
  check::near("caller's base object: d/dx0", dy[0], 2.0 * v * x[1], 1e-12);
  check::near("caller's base object: d/dm", dBody.m, 0.5 * v * v * x[1],
              1e-12);
}

void checkMemberEntry() {
  // `&Shape::area` calls the area of the object's class, as a call through
  // a pointer to member does: 3 r^2 for a Circle.
  Circle circle(0.7), dCircle(0);
  double area = ct::gradient<&Shape::area, ct::wrt<0>>(circle, &dCircle);
  check::near("member entry: value", area, 3 * 0.49, 1e-13);
  check::near("member entry: d/dr", dCircle.r, 6 * 0.7, 1e-12);
  Rect rect(0.5, 2.0), dRect(0, 0);
  double dk = 0;
  double scaled =
      ct::gradient<&Shape::scaled, ct::wrt<0, 1>>(rect, 3.0, &dRect, &dk);
  check::near("member entry: k^2 w h", scaled, 9.0, 1e-13);
  check::near("member entry: d/dw", dRect.w, 9 * 2.0, 1e-12);
  check::near("member entry: d/dk", dk, 2 * 3.0 * 1.0, 1e-12);
}

int main() {
  double x[N] = {0.4, -0.7, 1.1, 0.3, -0.2};
  checkAll<shapeTable>("shape table", x);
  checkAll<chosenReference>("chosen reference", x);
  // (Vector mode does not yet reach an object through its second base.)
  checkAll<twoBases, /*lanes=*/false>("two bases", x);
  checkAll<bodies>("bodies", x);
  // (Vector mode does not yet carry derivatives through memory holding
  // addresses: a destructor's pointer field.)
  checkAll<owned, /*lanes=*/false>("owned", x);
  checkAll<models>("models", x);
  checkAll<simulate>("simulate", x);
  checkAll<templated>("templated", x);
  checkAll<hiddenAndWeighted>("hidden and weighted", x);
  checkAll<mapsLayersSeries>("maps, layers, series", x);
  checkCallersObject(x);
  checkMemberEntry();
  return check::report();
}
