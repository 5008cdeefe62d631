// Variables defined outside the differentiable function and not constant
// are read where the code reads them: a configuration struct, a table
// filled at start-up, and a variable another translation unit defines and
// changes between two reads (through a call of code compiled elsewhere,
// whose effect the derivative code must see, not a stale copy). Reverse
// mode tapes what the forward sweep read. Integers are written as the code
// says, once per call of the derivative: a call counter (also in a helper
// called in a loop), and a running index that picks the coefficient of
// each iteration and a branch, which the reverse sweep must take as the
// forward sweep did. Floating-point values that carry no derivative are
// written too: a running total, a coefficient overwritten between two
// reads (the reverse sweep must use the value each read saw), a slot
// written through a helper, and a step size halved in a loop and read by
// the next iteration. Closed forms, -O0 and -O2, both modes and ct::hvp.
// REQUIRES: plugin
// RUN: %clangxx-plain -O2 -c %S/Inputs/outside-variables-lib.cpp -o %t.lib.o
// RUN: %clangxx-ct -O0 %s %t.lib.o -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s %t.lib.o -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"

extern double scale; // outside-variables-lib.cpp
void bump_scale();   // scale += 1

struct Config {
  double gain, offset;
};
Config config{2.0, 0.5};
double table[4];

// (gain x + offset) s + t1 x^2 (s + 1) + sum_i table[i] x, where s is
// scale on entry: the call changes it between the two reads.
[[ct::differentiable]] double model(double x) {
  double a = config.gain * x + config.offset;
  double before = scale;
  bump_scale();
  double after = scale;
  double sum = 0;
  for (int i = 0; i < 4; ++i)
    sum += table[i] * x;
  return a * before + table[1] * x * x * after + sum;
}

int calls = 0, cursor = 0;
void countCall() { ++calls; }

// sum over five iterations of a[cursor % 3] x^2, cursor advancing, then
// times x if cursor was odd on entry.
[[ct::differentiable]] double picked(const double *a, double x) {
  ++calls;
  bool odd = cursor % 2 != 0;
  double s = 0;
  for (int i = 0; i < 5; ++i) {
    countCall();
    s += a[cursor % 3] * x * x;
    ++cursor;
  }
  return odd ? s * x : s;
}

double evaluations = 0, weight = 2, history[3], step_size;
void remember(double *slot, double v) { *slot += v; }

// weight' x^2 + 5 x + history'[n % 3] x, where weight' = weight + n and
// history' adds 0.5 to the slot.
[[ct::differentiable]] double reweighted(double x, int n) {
  evaluations += 1.0;
  double before = weight;
  weight = before + n;
  double y = weight * x * x;
  weight = 5.0;
  y += weight * x;
  remember(&history[n % 3], 0.5);
  return y + history[n % 3] * x;
}

// (1 + 1/2 + 1/4 + 1/8) x^2.
[[ct::differentiable]] double halving(double x) {
  step_size = 1.0;
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    s += step_size * x * x;
    step_size *= 0.5;
  }
  return s;
}

// 3 halving(x) y + reweighted(y, 0) + reweighted(y, 1) + reweighted(y, 2).
[[ct::differentiable]] double combined(double x, double y) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += halving(x) * y + reweighted(y, i);
  return s;
}

static void checkFloatingPointWrites() {
  const double x = 2, y = 3;
  double dx = 0, dy = 0;
  check::near("halving: value", ct::gradient<halving>(x, &dx), 1.875 * x * x,
              1e-12);
  check::near("halving: d/dx", dx, 3.75 * x, 1e-12);
  check::near("halving: step size left", step_size, 0.0625, 0);
  check::near("halving: jvp", ct::jvp<halving>(x, 1.0).tangent, 3.75 * x,
              1e-12);
  double hx = 0;
  ct::hvp<halving>(x, 1.0, &hx);
  check::near("halving: hvp", hx, 3.75, 1e-12);

  // weight 2 -> 2, 5 -> 6, 5 -> 7; each slot of history ends at 0.5.
  weight = 2;
  dx = 0;
  double value = ct::gradient<combined>(x, y, &dx, &dy);
  double expected = 3 * 1.875 * x * x * y + (2 + 6 + 7) * y * y + 15 * y +
                    3 * 0.5 * y;
  check::near("combined: value", value, expected, 1e-12);
  check::near("combined: d/dx", dx, 3 * 3.75 * x * y, 1e-12);
  check::near("combined: d/dy", dy,
              3 * 1.875 * x * x + 2 * (2 + 6 + 7) * y + 15 + 1.5, 1e-12);
  check::near("combined: evaluations", evaluations, 3, 0);
  check::near("combined: weight left", weight, 5, 0);
  for (double slot : history)
    check::near("combined: history", slot, 0.5, 0);
  weight = 2;
  check::near("combined: jvp in y",
              ct::jvp<combined>(x, y, 0.0, 1.0).tangent,
              3 * 1.875 * x * x + 2 * (2 + 6 + 7) * y + 15 + 3 * 1.0, 1e-12);
  check::near("combined: evaluations after jvp", evaluations, 6, 0);
}

int main() {
  checkFloatingPointWrites();
  {
    const double a[3] = {1, 2, 3};
    const double x = 1.5;
    double dx = 0;
    calls = 0;
    cursor = 1; // picks a[1], a[2], a[0], a[1], a[2]: 11 x^3 (odd)
    double value = ct::gradient<picked, ct::wrt<1>>(a, x, &dx);
    check::near("counter: value", value, 11 * x * x * x, 1e-12);
    check::near("counter: d/dx", dx, 33 * x * x, 1e-12);
    check::near("counter: calls", calls, 6, 0);
    check::near("counter: cursor", cursor, 6, 0);
    // cursor 6: a[0], a[1], a[2], a[0], a[1]: 9 x^2 (even).
    check::near("counter: jvp", ct::jvp<picked, ct::wrt<1>>(a, x, 1.0).tangent,
                18 * x, 1e-12);
    check::near("counter: calls after jvp", calls, 12, 0);
    double hx = 0; // cursor 11: a[2], a[0], a[1], a[2], a[0]: 10 x^3 (odd)
    ct::hvp<picked, ct::wrt<1>>(a, x, 1.0, &hx);
    check::near("counter: hvp", hx, 60 * x, 1e-12);
    check::near("counter: cursor after hvp", cursor, 16, 0);
  }
  for (int i = 0; i < 4; ++i)
    table[i] = 0.5 * (i + 1); // 0.5, 1, 1.5, 2: sum 5
  const double x = 1.5;
  scale = 3;
  double dx = 0;
  double value = ct::gradient<model>(x, &dx);
  check::near("value", value, (2 * x + 0.5) * 3 + 1 * x * x * 4 + 5 * x,
              1e-12);
  check::near("d/dx", dx, 2 * 3 + 2 * x * 4 + 5, 1e-12);
  check::near("the call ran once", scale, 4, 0);
  scale = 3;
  ct::dual<double> forward = ct::jvp<model>(x, 1.0);
  check::near("jvp", forward.tangent, 2 * 3 + 2 * x * 4 + 5, 1e-12);
  // A new configuration is read by the next call.
  config.gain = -1;
  scale = 3;
  dx = 0;
  ct::gradient<model>(x, &dx);
  check::near("d/dx after reconfiguring", dx, -3 + 2 * x * 4 + 5, 1e-12);
  return check::report();
}
