// Structs mixing floating-point and integer fields, laid out as C++ lays
// them out (an int or bool shares an 8-byte slot with its neighbour or
// padding): read and written, initialized by braces and constructors,
// passed by value, reference and pointer (arrays of them too), an int
// field passed by const reference (std::max); a struct holding a pointer
// beside an integer inside a struct of doubles (its slots are doubles, the
// integer packed). Reverse and forward mode at -O0 and -O2 against closed
// forms; integer fields carry no derivative.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

#include <algorithm>

struct Prior {
  double gamma;
  int m;
};
enum class Kind : short { Off, Linear, Square };
struct Sample {
  int id;
  double w;
  bool on;
  Kind kind;
  double x[2];
};
struct Counter {
  double sum = 0;
  int calls = 0;
  Counter(double start, int n) : sum(start), calls(n) {}
  void add(double v) {
    sum += v;
    ++calls;
  }
};

[[ct::differentiable]] double weighted(const Sample *s, int n, Prior p,
                                       double a) {
  double total = 0;
  for (int i = 0; i < n; ++i) {
    if (!s[i].on)
      continue;
    double term = s[i].w * s[i].x[s[i].id % 2] * a;
    total += s[i].kind == Kind::Square ? term * term : term;
  }
  Sample local{1, a, true, Kind::Linear, {a, 2 * a}};
  local.id += p.m;          // 4
  local.on = local.id > 3;  // true
  Counter c(a, std::max(p.m, 2));
  c.add(local.x[1]);
  return total * p.gamma + p.m * a + (local.on ? c.sum : 0.0) + c.calls;
}

// A count and a pointer, held beside a double.
struct Counted {
  int n;
  const double *data;
};
struct Holding {
  double value;
  Counted counted;
};

// v^2 + v * sum(data).
[[ct::differentiable]] double heldSum(const Holding &h) {
  double t = h.value * h.value;
  for (int i = 0; i < h.counted.n; ++i)
    t += h.value * h.counted.data[i];
  return t;
}

static void checkHeldPointer() {
  double data[2] = {2.0, -0.5}, ddata[2] = {};
  Holding h{1.5, {2, data}}, dh{0, {2, ddata}};
  check::near("held value", ct::gradient<heldSum>(h, &dh), 2.25 + 1.5 * 1.5,
              1e-12);
  check::near("held d/dvalue", dh.value, 3.0 + 1.5, 1e-12);
  check::near("held d/ddata0", ddata[0], 1.5, 1e-12);
  check::near("held d/ddata1", ddata[1], 1.5, 1e-12);
  double tdata[2] = {1.0, 1.0};
  Holding th{1.0, {2, tdata}};
  check::near("held jvp", ct::jvp<heldSum>(h, &th).tangent, 4.5 + 3.0,
              1e-12);
}

int main() {
  checkHeldPointer();
  const Sample s[3] = {{0, 1.5, true, Kind::Linear, {1, 2}},
                       {1, 2.0, false, Kind::Linear, {3, 4}},
                       {3, 0.5, true, Kind::Square, {5, 6}}};
  Sample ds[3] = {};
  Prior p{2.0, 3}, dp{};
  double a = 1.5, da = 0;
  // terms: 1.5 * 1 * a = 2.25 (linear); 0.5 * 6 * a = 4.5, squared 20.25.
  // f = 2 * 22.5 + 3a + (a + 2a) + 4 = 45 + 4.5 + 4.5 + 4 = 58.
  double v = ct::gradient<weighted>(s, 3, p, a, ds, &dp, &da);
  check::near("value", v, 58.0, 1e-12);
  // d/da = gamma (1.5 + 2 * 4.5 * 3) + 3 + 3 = 2 * 28.5 + 6 = 63.
  check::near("d/da", da, 63.0, 1e-12);
  check::near("d/dgamma", dp.gamma, 22.5, 1e-12);
  check::near("d/dw0", ds[0].w, 2.0 * 1.0 * a, 1e-12);
  check::near("d/dw1 (off)", ds[1].w, 0.0, 1e-12);
  check::near("d/dw2 (squared)", ds[2].w, 2.0 * 2 * 4.5 * 6 * a, 1e-12);
  check::near("d/dx0[0]", ds[0].x[0], 2.0 * 1.5 * a, 1e-12);
  check::near("d/dx2[1]", ds[2].x[1], 2.0 * 2 * 4.5 * 0.5 * a, 1e-12);
  check::near("d/dx2[0] (unused)", ds[2].x[0], 0.0, 1e-12);
  Sample ts[3] = {};
  Prior tp{1.0, 0};
  check::near("jvp along a and gamma",
              ct::jvp<weighted>(s, 3, p, a, ts, &tp, 1.0).tangent, 63.0 + 22.5,
              1e-12);
  return check::report();
}
