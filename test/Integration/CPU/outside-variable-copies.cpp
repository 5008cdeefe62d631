// Values that carry derivatives written into floating-point variables
// outside the function and read back: a global scratch array filled
// through a helper, a global simulation state a step function updates in a
// loop (and in a checkpointed loop), a global accumulator written by a
// recursive helper, a float buffer, two globals held by different helpers
// of one caller, and a call counter beside them (written as the code says,
// once per derivative call). Each derivative call gives
// such a variable a copy of its own (docs/Frontend.md): derivatives against
// finite differences of the functions as Clang compiled them, and closed
// forms, in reverse and forward mode, ct::hvp and ct::jacobian; the
// variables end as the primal leaves them, and a second call starts from
// a zero derivative again. -O0 and -O2.
// A parameter given the memory of such a variable would see the variable,
// not the call's copy: that call stops with a message naming both.
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: not --crash %t2 aliased 2>&1 | FileCheck %s --check-prefix=ALIASED
// ALIASED: cotangent: 'shifted' writes 'work' by name and is given its memory through parameter 'p': a derivative call keeps such a variable in a copy of its own, which the parameter would not see; reach the variable one way only
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>

#include "check.h"

using check::near;

double work[3];
void put(double *p, double v) { p[1] = v; }

// work = {x^2, 3 sin x, -}: x^2 * 3 sin x.
[[ct::differentiable]] double scratchArray(double x) {
  work[0] = x * x;
  put(work, 3 * std::sin(x));
  return work[0] * work[1];
}

[[ct::differentiable]] double shifted(const double *p, double x) {
  work[2] = x;
  return p[0] * x;
}

struct State {
  double position, velocity;
};
State sim;
int runs = 0;

void step(double dt, double drag) {
  sim.velocity -= dt * (sim.position + drag * sim.velocity * sim.velocity);
  sim.position += dt * sim.velocity;
}

// A damped oscillator integrated by a step function on a global state.
[[ct::differentiable]] double simulate(double x0, double v0, double drag) {
  ++runs;
  sim = {x0, v0};
  for (int i = 0; i < 20; ++i)
    step(0.05, drag);
  return sim.position * sim.position + 0.5 * sim.velocity;
}

[[ct::differentiable]] double simulateCheckpointed(double x0, double v0,
                                                   double drag) {
  sim = {x0, v0};
#pragma ct checkpoint snapshots(3)
  for (int i = 0; i < 20; ++i)
    step(0.05, drag);
  return sim.position * sim.position + 0.5 * sim.velocity;
}

double accumulated;
void descend(double x, int depth) {
  if (depth == 0)
    return;
  accumulated = accumulated * x + std::cos(depth * x);
  descend(x, depth - 1);
}

[[ct::differentiable]] double horner(double x) {
  accumulated = 1;
  descend(x, 4);
  return accumulated;
}

float buffer[4];
[[ct::differentiable]] double floats(double x) {
  for (int i = 0; i < 4; ++i)
    buffer[i] = static_cast<float>(x * (i + 1));
  float s = 0;
  for (float b : buffer)
    s += b * b;
  return s;
}

double left[2], right[2];
void fillLeft(double x) { left[0] = x; left[1] = x * x; }
void fillRight(double y) { right[0] = left[1] * y; right[1] = y; }
double combine() { return left[0] * right[0] + left[1] * right[1]; }

// x * x^2 y + x^2 y = x^3 y + x^2 y; a pair of results for the Jacobian.
struct Pair {
  double a, b;
};
[[ct::differentiable]] Pair twoGlobals(double x, double y) {
  fillLeft(x);
  fillRight(y);
  return {combine(), right[0]};
}

static void checkScratchArray() {
  const double x = 0.8;
  double dx = 0;
  double value = ct::gradient<scratchArray>(x, &dx);
  near("scratch: work[0] left", work[0], x * x, 0);
  near("scratch: work[1] left", work[1], 3 * std::sin(x), 0);
  double expected = check::centralDifference(scratchArray, x);
  near("scratch: value", value, 3 * x * x * std::sin(x), 1e-14);
  near("scratch: d/dx", dx, expected, 1e-7);
  near("scratch: d/dx closed form", dx,
       6 * x * std::sin(x) + 3 * x * x * std::cos(x), 1e-13);
  dx = 0;
  ct::gradient<scratchArray>(x, &dx);
  near("scratch: a second call starts from zero", dx, expected, 1e-7);
  near("scratch: jvp", ct::jvp<scratchArray>(x, 1.0).tangent, expected, 1e-7);
  double hx = 0;
  ct::hvp<scratchArray>(x, 1.0, &hx);
  near("scratch: hvp", hx,
       6 * std::sin(x) + 12 * x * std::cos(x) - 3 * x * x * std::sin(x),
       1e-12);
}

template <double (*F)(double, double, double)>
static void checkSimulation(const char *name) {
  double p[3] = {1.0, -0.3, 0.2};
  double d[3] = {};
  runs = 0;
  double value = ct::gradient<F>(p[0], p[1], p[2], &d[0], &d[1], &d[2]);
  near(name, value, F(p[0], p[1], p[2]), 1e-14);
  double left = sim.position;
  F(p[0], p[1], p[2]);
  near(name, left, sim.position, 0);
  for (int i = 0; i < 3; ++i)
    near(name, d[i],
         check::differenceAt(p, i, [&] { return F(p[0], p[1], p[2]); }),
         1e-7);
  double t = ct::jvp<F>(p[0], p[1], p[2], 0.0, 0.0, 1.0).tangent;
  near(name, t, d[2], 1e-12);
}

static void checkRecursion() {
  const double x = 0.6;
  double dx = 0;
  ct::gradient<horner>(x, &dx);
  near("recursion: d/dx", dx, check::centralDifference(horner, x), 1e-7);
  near("recursion: jvp", ct::jvp<horner>(x, 1.0).tangent, dx, 1e-12);
}

static void checkFloats() {
  const double x = 0.5;
  double dx = 0;
  ct::gradient<floats>(x, &dx);
  near("floats: d/dx", dx, 2 * 30 * x, 1e-5);
  near("floats: buffer left", buffer[3], 4 * x, 0);
}

static void checkTwoGlobals() {
  const double x = 1.5, y = -0.5;
  double J[4] = {};
  ct::jacobian<twoGlobals>(x, y, J);
  near("two globals: da/dx", J[0], 3 * x * x * y + 2 * x * y, 1e-13);
  near("two globals: da/dy", J[1], x * x * x + x * x, 1e-13);
  near("two globals: db/dx", J[2], 2 * x * y, 1e-13);
  near("two globals: db/dy", J[3], x * x, 1e-13);
  near("two globals: right[1] left", right[1], y, 0);
}

static void checkCounter() {
  double d[3] = {};
  runs = 0;
  ct::gradient<simulate>(1.0, -0.3, 0.2, &d[0], &d[1], &d[2]);
  ct::jvp<simulate>(1.0, -0.3, 0.2, 1.0, 0.0, 0.0);
  near("counter beside the state: once per derivative call", runs, 2, 0);
}

int main(int argc, char **argv) {
  if (argc > 1) {
    double dx = 0;
    ct::gradient<shifted, ct::wrt<1>>(work, 1.0, &dx);
    return 0;
  }
  {
    const double other[1] = {4.0};
    double dx = 0;
    ct::gradient<shifted, ct::wrt<1>>(other, 1.5, &dx);
    near("a parameter apart from the variable", dx, 4.0, 0);
  }
  checkScratchArray();
  checkCounter();
  checkSimulation<simulate>("simulation");
  checkSimulation<simulateCheckpointed>("checkpointed simulation");
  checkRecursion();
  checkFloats();
  checkTwoGlobals();
  return check::report();
}
