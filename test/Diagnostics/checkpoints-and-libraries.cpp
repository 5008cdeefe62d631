// A checkpointed loop, or a checkpointed function called where its
// pullback cannot run at once, is rerun in the reverse sweep; one that
// calls code compiled elsewhere (directly or through a helper) is an error
// naming the call: rerunning it would repeat its effects (a counter, a log
// line) or change its results (a random generator), so the derivative would
// be taken at another point. So is a checkpointed loop that writes a
// variable outside the function. Library objects that live within an
// iteration, or within the checkpointed function, are made again with it
// (Integration/CPU/checkpoints-and-library-objects.cpp); one made outside
// the rerun code is not, whether the loop uses it or a helper it calls
// does (OBJECT, OBJECT_HELPER, OBJECT_CALL).
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DLOOP 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOOP --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DHELPER 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HELPER --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DCALL 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CALL --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DWRITE 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRITE --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DOBJECT 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OBJECT --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DOBJECT_HELPER 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OBJECT_HELPER --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DOBJECT_CALL 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OBJECT_CALL --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <cmath>
#include <map>

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

#ifdef OBJECT
[[ct::differentiable]] double relax(double x) {
  std::map<int, double> seen;
  double s = x;
  // OBJECT: checkpoints-and-libraries.cpp:[[@LINE+2]]:3: error: cannot checkpoint this loop: it calls 'std::map<int, double>::size', compiled elsewhere, and recomputing
#pragma ct checkpoint
  for (int i = 0; i < 4; ++i) {
    seen[i] = 1.0 + seen.size();
    s = s * 0.5 + x * seen[i];
  }
  return s;
}
double gradient(double x) {
  double dx = 0;
  ct::gradient<relax>(x, &dx);
  return dx;
}
#endif

#ifdef OBJECT_HELPER
double count(std::map<int, double> &seen, int i) {
  seen[i] = 2.0;
  return seen.size();
}
[[ct::differentiable]] double relax(double x) {
  std::map<int, double> seen;
  double s = x;
  // OBJECT_HELPER: checkpoints-and-libraries.cpp:[[@LINE+2]]:3: error: cannot checkpoint this loop: it calls 'count', which calls code compiled elsewhere, and recomputing
#pragma ct checkpoint
  for (int i = 0; i < 4; ++i)
    s = s * 0.5 + x * count(seen, i);
  return s;
}
double gradient(double x) {
  double dx = 0;
  ct::gradient<relax>(x, &dx);
  return dx;
}
#endif

#ifdef OBJECT_CALL
[[ct::checkpoint]] void step(double *u, int n, std::map<int, double> &seen) {
  seen[n] = 1.0;
  for (int i = 0; i < n; ++i)
    u[i] = std::sin(u[i]) * seen.size();
}
[[ct::differentiable]] double evolve(double *u, int n) {
  std::map<int, double> seen;
  for (int t = 0; t < 3; ++t)
    // OBJECT_CALL: checkpoints-and-libraries.cpp:[[@LINE+1]]:5: error: cannot checkpoint the call of 'step': it calls code compiled elsewhere
    step(u, n, seen);
  return u[0];
}
void gradient(double *u, double *du, int n) { ct::gradient<evolve>(u, n, du); }
#endif
