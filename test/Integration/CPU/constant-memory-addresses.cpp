// Addresses of memory without derivatives kept beside addresses of memory
// with derivatives: pointer fields of an array of structs chosen at run
// time, one pointing into the differentiated array, one into a parameter
// left out of ct::wrt or a constant table; a pointer variable re-seated
// to the parameter, past its start, to a local array and to nullptr
// (tested for null); such pointers' memory given to a recursive function
// (the parameter then takes part with a scratch derivative that is
// discarded). The shadow slot of constant memory holds its own
// address, and every access through an address read back checks whether
// it reaches such memory (docs/Memory.md). Every mode (gradients, forward
// mode, Hessian-vector products, where the tangent direction is such
// memory, and vector lanes) against central differences, at -O0 and -O2.
// A value with a derivative stored through such an address into constant
// memory that is read back ends the program with a message.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: not --crash %t2 lost 2>&1 | FileCheck %s --check-prefix=LOST
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed
// LOST: constant-memory-addresses.cpp:{{[0-9]+}}: a value that carries a derivative is stored, through an address kept in memory, into memory that is constant here

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstring>

#include "check.h"
#include "modes.h"

struct Source {
  const double *values;
  double weight;
};

[[ct::differentiable]] double pick(const double *x, const double *defaults,
                                   int n) {
  Source sources[2] = {{x, 1.5}, {defaults, 0.5}};
  double s = 0;
  for (int i = 0; i < n; ++i) {
    const Source &source = sources[i % 2];
    s += source.weight * source.values[i] * x[i] +
         std::sin(source.values[(i + 1) % n]);
  }
  return s;
}

static const double kTable[4] = {0.25, -1.0, 2.0, 0.75};

// The constant memory is a table of the program's.
[[ct::differentiable]] double pickFromTable(const double *x, int n) {
  return pick(x, kTable, n);
}

[[ct::differentiable]] double reseated(const double *x, int n) {
  const double *p = x;
  ++p;
  double s = 0;
  for (int i = 0; i + 1 < n; ++i)
    s += p[i] * x[i];
  double local[4] = {1, 2, 3, 4};
  p = local;
  for (int i = 0; i < n; ++i)
    s += p[i] * x[i] * x[i];
  p = nullptr;
  if (!p)
    s += std::exp(x[0]);
  return s;
}

// The pointers' memory given to a function that is not inlined (a
// recursive one): the parameter left out of ct::wrt takes part with a
// zeroed scratch derivative, which is discarded, so that the walk never
// meets memory without one.
static double total(const double *p, int n) {
  return n == 0 ? 0.0 : p[0] * p[0] + total(p + 1, n - 1);
}

[[ct::differentiable]] double recursiveTotal(const double *x,
                                             const double *defaults, int n) {
  Source sources[2] = {{x, 1.0}, {defaults, 2.0}};
  double s = 0;
  for (int i = 0; i < 2; ++i)
    s += sources[i].weight * total(sources[i].values, n) * x[i];
  return s;
}

struct Target {
  double *out;
};

// Writes through pointers chosen at run time into a local array, reads
// through pointers into it and into constant memory.
[[ct::differentiable]] double scatterPick(const double *x,
                                          const double *defaults, int n) {
  double local[8];
  Target targets[2] = {{local}, {local + 4}};
  Source sources[2] = {{local, 2.0}, {defaults, 1.0}};
  for (int i = 0; i < n; ++i)
    targets[i % 2].out[i / 2] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += sources[i % 2].weight * sources[i % 2].values[i / 2] * x[n - 1 - i];
  return s;
}

// Writes into `scratch`, a parameter left out of ct::wrt, through such a
// pointer, and reads it back: the derivative through it would be lost.
[[ct::differentiable]] double scatterLost(const double *x, double *scratch,
                                          int n) {
  double local[8];
  Target targets[2] = {{local}, {scratch}};
  for (int i = 0; i < n; ++i)
    targets[i % 2].out[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i + 1 < n; i += 2)
    s += local[i] * x[i + 1] + scratch[i + 1];
  return s;
}

int main(int argc, char **argv) {
  double x[4] = {0.3, 0.7, -0.4, 1.1};
  if (argc > 1 && !std::strcmp(argv[1], "lost")) {
    double scratch[4], d[4] = {};
    ct::gradient<scatterLost, ct::wrt<0>>(x, scratch, 4, d);
    return 0;
  }
  check::checkModes<reseated>("re-seated pointer", x, 4);
  // (Vector mode refuses constant memory kept beside addresses of memory
  // with derivatives: one lane at a time.)
  check::checkModes<pickFromTable, /*Lanes=*/false>("constant table", x, 4);

  double defaults[4] = {0.25, -1.0, 2.0, 0.75};
  double d[4] = {};
  double value = ct::gradient<pick, ct::wrt<0>>(x, defaults, 4, d);
  check::near("left out value", value, pick(x, defaults, 4), 1e-14);
  double t[4] = {1, -0.5, 0.25, 2}, directional = 0;
  for (int i = 0; i < 4; ++i) {
    check::near("left out d/dx", d[i], check::differenceAt(x, i, [&] {
                  return pick(x, defaults, 4);
                }),
                1e-7);
    directional += d[i] * t[i];
  }
  check::near("left out jvp",
              ct::jvp<pick, ct::wrt<0>>(x, defaults, 4, t).tangent,
              directional, 1e-12);
  for (int i = 0; i < 4; ++i)
    check::near("left out unchanged", defaults[i], kTable[i], 0);

  double ds[4] = {};
  ct::gradient<scatterPick, ct::wrt<0>>(x, defaults, 4, ds);
  for (int i = 0; i < 4; ++i)
    check::near("writes d/dx", ds[i], check::differenceAt(x, i, [&] {
                  return scatterPick(x, defaults, 4);
                }),
                1e-7);
  check::near("writes jvp",
              ct::jvp<scatterPick, ct::wrt<0>>(x, defaults, 4, t).tangent,
              ds[0] * t[0] + ds[1] * t[1] + ds[2] * t[2] + ds[3] * t[3],
              1e-12);

  double dr[4] = {};
  double total = ct::gradient<recursiveTotal, ct::wrt<0>>(x, defaults, 4, dr);
  check::near("recursive value", total, recursiveTotal(x, defaults, 4), 1e-14);
  for (int i = 0; i < 4; ++i)
    check::near("recursive d/dx", dr[i], check::differenceAt(x, i, [&] {
                  return recursiveTotal(x, defaults, 4);
                }),
                1e-7);
  for (int i = 0; i < 4; ++i)
    check::near("recursive unchanged", defaults[i], kTable[i], 0);
  return check::report();
}
