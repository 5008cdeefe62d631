// A custom rule that differentiable code cannot express (here: it counts
// its calls in a global) runs as C++ compiled as written
// (test/Integration/CPU/rules-as-written.cpp). First-order derivatives call
// it; a derivative that must go through it (a Hessian-vector product is
// reverse mode over the forward rule) is an error at the rule naming it
// and why it was not lowered; vector mode cannot widen it; a rule that can
// neither be lowered nor called with the C ABI is an error at the macro.
// RUN: %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FINE --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DHVP 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HVP --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DLANES 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LANES --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DNEITHER 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEITHER --implicit-check-not=error:
// The rule is called through the header's trampoline, by its C symbol.
// FINE: func.func private @[[APPLY:_ZN2ct6detail14jvp_trampoline.*11softclipJvp.*5applyEddPd]](f64, f64, memref<{{.*}}>) attributes {ct.external, ct.not_lowered = "it writes 'jvpCalls', a variable outside the function"
// FINE: func.func private @[[APPLY]].rule(
// FINE: call @[[APPLY]](
// FINE-LABEL: func.func private @_Z1gd.jvp
// FINE: call @[[APPLY]].rule(
#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

int jvpCalls = 0;
double softclip(double x) { return x / std::sqrt(1 + x * x); }
ct::dual<double> softclipJvp(double x, double tx) {
  ++jvpCalls;
  return {softclip(x), tx / std::pow(1 + x * x, 1.5)};
}
// HVP: rules-as-written.cpp:[[@LINE+2]]:1: error: 'softclipJvp' runs as C++ compiled as written, not as differentiable code (it writes 'jvpCalls', a variable outside the function), so no derivative can flow through it, as one must here (a derivative of a derivative through a custom rule goes through the rule); give it a custom derivative rule of its own (CT_CUSTOM_GRADIENT or CT_CUSTOM_VJP for reverse mode, CT_CUSTOM_JVP for forward mode), or write it as code differentiable code can express
// LANES: rules-as-written.cpp:[[@LINE+1]]:1: error: vector mode (ct::lanes) cannot differentiate this construct yet: it calls a function defined elsewhere; use one lane (ct::pullback or ct::jvp without ct::lanes)
CT_CUSTOM_JVP(softclip, softclipJvp);
[[ct::differentiable]] double g(double x) { return softclip(x) * x; }

double tangent(double x) { return ct::jvp<g>(x, 1.0).tangent; }

#ifdef HVP
double hessianTimes(double x, double v) {
  double hv = 0;
  ct::hvp<g>(x, v, &hv);
  return hv;
}
#endif

#ifdef LANES
double secondLane(double x) {
  double t[2] = {1, 2};
  return ct::jvp<g, ct::lanes<2>>(x, t).tangent[1];
}
#endif

#ifdef NEITHER
int calls = 0;
double mean(const std::vector<double> &v) {
  double s = 0;
  for (double x : v)
    s += x;
  return s / v.size();
}
void meanPullback(const std::vector<double> &v, double dret,
                  std::vector<double> *dv) {
  ++calls;
  for (double &d : *dv)
    d += dret / v.size();
}
// NEITHER: rules-as-written.cpp:[[@LINE+1]]:1: error: 'meanPullback' cannot be compiled as differentiable code (it writes 'calls', a variable outside the function) nor called as C++ compiled as written: it takes 'const std::vector<double> &' (parameter 'v'); pass numbers, and pointers or references to numbers or to structs of numbers
CT_CUSTOM_GRADIENT(mean, meanPullback);
#endif
