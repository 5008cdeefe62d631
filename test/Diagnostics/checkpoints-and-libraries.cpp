// A checkpointed loop, or a checkpointed function called where its
// pullback cannot run at once, is rerun in the reverse sweep; one that
// calls code compiled elsewhere (directly or through a helper) is an error
// naming the call: rerunning it would repeat its effects (a counter, a log
// line) or change its results (a random generator), so the derivative would
// be taken at another point. So is a checkpointed loop that writes a
// variable outside the function.
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DLOOP 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOOP --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DHELPER 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HELPER --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCALL 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CALL --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DWRITE 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRITE --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <cmath>

int bump();
void log_value(double v);

#ifdef LOOP
[[ct::differentiable]] double relax(double x) {
  double s = x;
  // LOOP: checkpoints-and-libraries.cpp:[[@LINE+2]]:3: error: cannot checkpoint this loop: it calls 'bump', compiled elsewhere, and recomputing its iterations in the reverse sweep would call that again (its effects twice, a random generator's other numbers); move the call out of the loop, or remove '#pragma ct checkpoint'
#pragma ct checkpoint
  for (int i = 0; i < 4; ++i) {
    bump();
    s = s * 0.5 + x;
  }
  return s;
}
double gradient(double x) {
  double dx = 0;
  ct::gradient<relax>(x, &dx);
  return dx;
}
#endif

#ifdef HELPER
void report(double v) { log_value(v); }
[[ct::differentiable]] double relax(double x) {
  double s = x;
  // HELPER: checkpoints-and-libraries.cpp:[[@LINE+2]]:3: error: cannot checkpoint this loop: it calls 'report', which calls code compiled elsewhere, and recomputing
#pragma ct checkpoint
  for (int i = 0; i < 4; ++i) {
    report(s);
    s = std::sin(s) + x;
  }
  return s;
}
double gradient(double x) {
  double dx = 0;
  ct::gradient<relax>(x, &dx);
  return dx;
}
#endif

#ifdef CALL
[[ct::checkpoint]] void step(double *u, int n) {
  bump();
  for (int i = 0; i < n; ++i)
    u[i] = std::sin(u[i]) * u[(i + 1) % n];
}
[[ct::differentiable]] double evolve(double *u, int n) {
  for (int t = 0; t < 3; ++t)
    // CALL: checkpoints-and-libraries.cpp:[[@LINE+1]]:5: error: cannot checkpoint the call of 'step': it calls code compiled elsewhere, which rerunning it in the reverse sweep would call again (its effects twice, a random generator's other numbers); remove {{\[\[}}ct::checkpoint{{\]\]}} from 'step'
    step(u, n);
  return u[0];
}
void gradient(double *u, double *du, int n) { ct::gradient<evolve>(u, n, du); }
#endif

#ifdef WRITE
int steps = 0;
[[ct::differentiable]] double relax(double x) {
  double s = x;
  // WRITE: checkpoints-and-libraries.cpp:[[@LINE+2]]:3: error: cannot checkpoint this loop: it writes 'steps', a variable outside the function, which recomputing its iterations in the reverse sweep would write again; write it outside the loop, or remove '#pragma ct checkpoint'
#pragma ct checkpoint
  for (int i = 0; i < 4; ++i) {
    ++steps;
    s = s * 0.5 + x;
  }
  return s;
}
double gradient(double x) {
  double dx = 0;
  ct::gradient<relax>(x, &dx);
  return dx;
}
#endif
