// Reverse mode cannot grow a std::vector of the caller's whose elements
// carry derivatives where the entry point cannot take the seeds of its
// final contents out of the derivative argument (a field of an element of a
// vector parameter; a field holding vectors of vectors): the derivative
// vector given for it would have to grow too, and the cotangents of its
// first elements would have no place. The error is at the growth (forward
// mode and vectors without derivatives grow:
// test/Integration/CPU/caller-vector-growth.cpp; vector parameters and
// vector fields of numbers or structs of a parameter's object grow in
// reverse mode too: resized-vector-parameters.cpp, grown-vector-fields.cpp).
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -DROWS -I%cotangent-include 2>&1 | FileCheck %s --check-prefix=ROWS --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <vector>

struct Layer {
  std::vector<double> w;
  double s;
};

#ifndef ROWS
[[ct::differentiable]] double appended(std::vector<Layer> &net, double x) {
  // CHECK: caller-vector-growth.cpp:[[@LINE+1]]:3: error: cannot differentiate in reverse mode: this grows a std::vector of the caller's whose elements carry derivatives, so the derivative vector given for it would have to grow too, leaving the cotangents of its first elements no place; grow a local copy and assign it back, or use forward mode (ct::jvp)
  net[0].w.push_back(x);
  return net[0].w[0] * x;
}

double run(std::vector<Layer> &net, std::vector<Layer> *dnet, double x,
           double *dx) {
  return ct::gradient<appended, ct::wrt<0, 1>>(net, x, dnet, dx);
}

#else
struct Table {
  std::vector<std::vector<double>> rows;
  double w;
};

[[ct::differentiable]] double rowAdded(Table &t, double x) {
  // ROWS: caller-vector-growth.cpp:[[@LINE+1]]:3: error: cannot differentiate in reverse mode: this grows a std::vector of the caller's whose elements carry derivatives
  t.rows.push_back(std::vector<double>{x, x * t.w});
  return t.rows[0][0] * x;
}

double runRows(Table &t, Table *dt, double x, double *dx) {
  return ct::gradient<rowAdded, ct::wrt<0, 1>>(t, x, dt, dx);
}
#endif
