// CT_CUSTOM_VJP misuse the header cannot see: residuals that hold
// pointers (what they point to may have changed when the reverse sweep
// reads it), and forward mode of a function whose only rule is the split
// reverse-mode one. Both are errors at the macro's line.
// RUN: not %cotangent-cc %s -- -std=c++20 -I%cotangent-include -DPOINTER_RESIDUALS 2>&1 | FileCheck %s --check-prefix=POINTER --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 | FileCheck %s --check-prefix=FORWARD --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <cmath>

double cube(double x) { return x * x * x; }
struct Square { double xx; };
double cubeForward(double x, Square *res) {
  res->xx = x * x;
  return res->xx * x;
}
void cubeBackward(const Square *res, double x, double dret, double *dx) {
  *dx += 3 * res->xx * dret;
}
// FORWARD: custom-vjp-errors.cpp:[[@LINE+1]]:1: error: cannot differentiate 'cube' in forward mode (which ct::jvp and ct::hvp use): its CT_CUSTOM_VJP rule is for reverse mode only; bind a forward-mode rule too with CT_CUSTOM_JVP
CT_CUSTOM_VJP(cube, cubeForward, cubeBackward);

#ifdef POINTER_RESIDUALS
double wave(const double *x) { return std::sin(x[0]); }
struct Pointing { const double *x; };
double waveForward(const double *x, Pointing *res) {
  res->x = x;
  return std::sin(x[0]);
}
void waveBackward(const Pointing *res, const double *x, double dret,
                  double *dx) {
  dx[0] += std::cos(res->x[0]) * dret;
}
// POINTER: custom-vjp-errors.cpp:[[@LINE+1]]:1: error: the residuals of CT_CUSTOM_VJP cannot hold pointers, references or containers: the reverse sweep may run when what they designate has changed; save the values
CT_CUSTOM_VJP(wave, waveForward, waveBackward);
#endif

double tangent(double x) { return ct::jvp<cube>(x, 1.0).tangent; }
double gradient(double x) {
  double dx = 0;
  ct::gradient<cube>(x, &dx);
  return dx;
}
