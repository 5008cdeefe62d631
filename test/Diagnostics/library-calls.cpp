// A call of a function without a visible body is kept where no derivative
// flows through it (test/Integration/CPU/library-calls.cpp); one that a
// derivative would have to cross is an error at the call that names the
// function, says what carries the derivative, and gives the ways out, in
// reverse and in forward mode.
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DRESULT 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RESULT --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DMEMORY 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MEMORY --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DREAD 2>&1 \
// RUN:   | FileCheck %s --check-prefix=READ --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DFORWARD 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FORWARD --implicit-check-not=error:
// What no derivative crosses compiles: a branch on a library's result.
// RUN: %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FINE --implicit-check-not=error:
// FINE-LABEL: func.func private @_Z14branch_on_normPKd.pullback.d(
// FINE: call @_Z7norm_ofPKdi(
// FINE: func.func private @_Z7norm_ofPKdi({{.*}} {ct.readonly}, i32) -> f64 attributes {ct.external
#include <cotangent/cotangent.h>

double weight_of(double x);
void scramble(double *data, int n);
double norm_of(const double *data, int n);

[[ct::differentiable]] double active_result(double x) {
  // RESULT: library-calls.cpp:[[@LINE+1]]:14: error: 'weight_of' has no visible body, and a derivative would have to flow through this call: its result depends on what is being differentiated; define it in this file, mark it {{\[\[}}ct::differentiable{{\]\]}} where it is defined, or give it a custom derivative rule (CT_CUSTOM_GRADIENT or CT_CUSTOM_VJP for reverse mode, CT_CUSTOM_JVP for forward mode), or stop the derivative with ct::stop_gradient
  double w = weight_of(x);
  return w * x;
}

[[ct::differentiable]] double active_memory(double x) {
  double buffer[3] = {x, 2 * x, 3 * x};
  // MEMORY: library-calls.cpp:[[@LINE+1]]:3: error: 'scramble' has no visible body, and a derivative would have to flow through this call: it is given memory that holds derivatives and may write it (argument 'data'; a pointer or reference to const would only be read)
  scramble(buffer, 3);
  return buffer[0] + buffer[2];
}

// A const pointer to active data is only read: fine while the result
// carries no derivative (branch_on_norm), an error when it does.
[[ct::differentiable]] double read_active(const double *x) {
  // READ: library-calls.cpp:[[@LINE+1]]:10: error: 'norm_of' has no visible body, and a derivative would have to flow through this call: its result depends on what is being differentiated
  return norm_of(x, 2) * x[0];
}

[[ct::differentiable]] double forward_only(double x) {
  // FORWARD: library-calls.cpp:[[@LINE+1]]:10: error: 'weight_of' has no visible body, and a derivative would have to flow through this call: its result depends on what is being differentiated
  return weight_of(x * x);
}

[[ct::differentiable]] double branch_on_norm(const double *x) {
  return norm_of(x, 2) > 1 ? x[0] : x[1];
}

double use(double x, const double *p, double *dp) {
  double dx = 0, sum = ct::gradient<branch_on_norm>(p, dp);
#ifdef RESULT
  sum += ct::gradient<active_result>(x, &dx);
#endif
#ifdef MEMORY
  sum += ct::gradient<active_memory>(x, &dx);
#endif
#ifdef READ
  sum += ct::gradient<read_active>(p, dp);
#endif
#ifdef FORWARD
  sum += ct::jvp<forward_only>(x, 1.0).tangent;
#endif
  return sum;
}
