// Vector mode (ct::lanes) of a function whose active parameter is memory
// holding pointers: a Ceres-style `T const* const*` table of parameter
// blocks, a std::vector of row pointers. The derivative of such memory holds
// one address per slot, where lanes would need one per lane: the call is an
// error that says what to do (it used to compile, then read derivative
// addresses past the caller's table and crash). One lane works
// (Integration/CPU/pointer-blocks.cpp); so do lanes with the table left out
// by ct::wrt (the CONSTANT run: only the residuals carry lanes). The dense
// drivers give every parameter flat lanes of numbers, so an object whose
// fields designate its numbers (which ct::pullback with ct::lanes takes:
// Integration/CPU/modes-through-parameter-fields.cpp) is an error at the
// user's call of ct::jacobian (DRIVER; it used to pass such an object's
// lanes as the object itself).
// RUN: not %cotangent-cc %s -- -std=c++20 -I%cotangent-include -DPULLBACK 2>&1 | FileCheck %s --check-prefix=PULLBACK --implicit-check-not=error:
// RUN: not %cotangent-cc %s -- -std=c++20 -I%cotangent-include -DJVP 2>&1 | FileCheck %s --check-prefix=JVP --implicit-check-not=error:
// RUN: not %cotangent-cc %s -- -std=c++20 -I%cotangent-include -DROWS 2>&1 | FileCheck %s --check-prefix=ROWS --implicit-check-not=error:
// RUN: not %cotangent-cc %s -- -std=c++20 -I%cotangent-include -DDRIVER 2>&1 | FileCheck %s --check-prefix=DRIVER --implicit-check-not=error:
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include -DCONSTANT 2>&1 | FileCheck %s --check-prefix=CONSTANT --implicit-check-not=error:
#include <cotangent/cotangent.h>
#include <cotangent/dense.h>

#include <cmath>
#include <vector>

bool cost(double const *const *p, double *r) {
  r[0] = p[0][0] * p[1][0] - std::sin(p[0][1]);
  r[1] = p[1][0] * p[1][0] + p[0][0];
  return true;
}

#ifdef PULLBACK
void rows(const double *const *p, double *r, double **dp, double *dr) {
  // PULLBACK: lanes-parameter-memory-unsupported.cpp:[[@LINE+1]]:7: error: ct::lanes: parameter 'p' of 'cost' is memory that holds pointers, whose derivative would need an address per lane; vector mode does not support it yet: use one lane (ct::pullback or ct::jvp per seed), or pass the memory its pointers designate as parameters of their own
  ct::pullback<cost, ct::lanes<2>>(p, r, dp, dr);
}
#endif

#ifdef JVP
void columns(const double *const *p, double *r, double **tp, double *tr) {
  // JVP: lanes-parameter-memory-unsupported.cpp:[[@LINE+1]]:7: error: ct::lanes: parameter 'p' of 'cost' is memory that holds pointers
  ct::jvp<cost, ct::lanes<4>>(p, r, tp, tr);
}
#endif

#ifdef ROWS
double sumOfRows(const std::vector<const double *> &rows) {
  double s = 0;
  for (const double *row : rows)
    s += row[0] * row[1];
  return s;
}
void seeds(const std::vector<const double *> &rows, double *seeds,
           std::vector<const double *> *d) {
  // ROWS: lanes-parameter-memory-unsupported.cpp:[[@LINE+1]]:7: error: ct::lanes: parameter 'rows' of 'sumOfRows' is memory that holds pointers
  ct::pullback<sumOfRows, ct::lanes<2>>(rows, seeds, d);
}
#endif

#ifdef CONSTANT
void residualLanes(const double *const *p, double *r, double *dr) {
  // CONSTANT: ct.pullback @_Z4costPKPKdPd({{.*}}) shadows({{[^,]*}}) lanes 2 activity [const, dup]
  ct::pullback<cost, ct::wrt<1>, ct::lanes<2>>(p, r, dr);
}
#endif

#ifdef DRIVER
struct Model {
  std::vector<double> weights;
  int inputs;
};
void predict(const Model &m, const double *x, double *y) {
  for (int j = 0; j < 2; ++j) {
    y[j] = 0;
    for (int i = 0; i < m.inputs; ++i)
      y[j] += m.weights[j * m.inputs + i] * x[i];
  }
}
void jacobianOfModel(const Model &m, const double *x, double *y, double *J) {
  // DRIVER: lanes-parameter-memory-unsupported.cpp:[[@LINE+1]]:7: error: ct::jacobian, ct::hessian and ct::batch_jacobian take numbers, arrays and aggregates of numbers, and std::vectors of numbers: parameter 'm' of 'predict' is an object whose pointer, reference or vector fields designate its numbers; leave it out with ct::wrt<...>, or take its derivatives by ct::pullback or ct::jvp with ct::lanes
  ct::jacobian<predict>(ct::extents{3, 2}, m, x, y, J);
}
// The same Jacobian with respect to x alone works.
void jacobianOfInputs(const Model &m, const double *x, double *y, double *J) {
  ct::jacobian<predict, ct::wrt<1>>(ct::extents{3, 2}, m, x, y, J);
}
#endif
