// The address of memory without derivatives (a parameter ct::wrt leaves
// out, a constant table) kept beside addresses of memory with derivatives
// works where every access through the addresses read back is in the
// function (docs/Memory.md); a parameter's memory so kept and given to a
// function that is not inlined takes part with a scratch derivative
// (Integration/CPU/constant-memory-addresses.cpp). A constant table's,
// given to a function that is not inlined (a recursive one), would reach
// accesses that do not check for it, and vector mode has no lanes for such
// memory: both are refused, at the place that keeps or reads the address
// and at the expression vector mode cannot differentiate.
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DLANES 2>&1 | FileCheck %s --check-prefix=LANES --implicit-check-not=error:
#include <cotangent/cotangent.h>

struct Source {
  const double *values;
};

static const double kTable[4] = {0.5, 2.0, -1.0, 0.25};

#ifndef LANES
static double total(const double *p, int n) {
  return n == 0 ? 0.0 : p[0] * p[0] + total(p + 1, n - 1);
}

[[ct::differentiable]] double recursive(const double *x, int n) {
  // CHECK: constant-memory-addresses-unsupported.cpp:[[@LINE+1]]:30: error: cannot differentiate: the address of memory without a derivative (a parameter left out of ct::wrt, or a constant one) is kept where addresses of memory with derivatives are kept, and memory read through such addresses is given to 'total', which is not inlined; copy what it needs into a local array first
  Source sources[2] = {{x}, {kTable}};
  double s = 0;
  for (int i = 0; i < 2; ++i)
    // CHECK: constant-memory-addresses-unsupported.cpp:[[@LINE+1]]:10: note: the call is here
    s += total(sources[i].values, n);
  return s;
}

double gradient(double *x, double *dx) {
  return ct::gradient<recursive>(x, 4, dx);
}

#else

[[ct::differentiable]] double fromTable(const double *x, int n) {
  Source sources[2] = {{x}, {kTable}};
  double s = 0;
  for (int i = 0; i < n; ++i)
    // LANES: constant-memory-addresses-unsupported.cpp:[[@LINE+1]]:10: error: vector mode (ct::lanes) cannot differentiate this construct yet: memory without derivatives (a parameter left out of ct::wrt, a constant table) is kept beside memory with derivatives, through addresses in memory; use one lane (ct::pullback or ct::jvp without ct::lanes)
    s += sources[i % 2].values[i % 2] * x[i];
  return s;
}

double lanes(const double *x, const double *seeds) {
  return ct::jvp<fromTable, ct::lanes<2>>(x, 4, seeds).tangent[1];
}
#endif
