// Misused `#pragma ct checkpoint`: each error at the pragma or the loop,
// saying what is wrong and what to do. Memory whose touched elements
// cannot be bounded (a C pointer's, indexed through memory or by a count a
// loop of unknown length carries) is refused; a checkpointed loop inside a
// loop that is not is recorded as usual, with a warning.
// RUN: not %cotangent-cc %s -- -std=c++20 -I%cotangent-include -DMALFORMED 2>&1 | FileCheck %s --check-prefix=MALFORMED --implicit-check-not=error:
// RUN: not %cotangent-cc %s -- -std=c++20 -I%cotangent-include -DMISPLACED 2>&1 | FileCheck %s --check-prefix=MISPLACED --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DEARLY 2>&1 | FileCheck %s --check-prefix=EARLY --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 | FileCheck %s --check-prefix=LOOPS --implicit-check-not=error:
// RUN: %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DINNER 2>&1 | FileCheck %s --check-prefix=INNER --implicit-check-not=error: --implicit-check-not=warning:
#include <cotangent/cotangent.h>

#ifdef MALFORMED
[[ct::differentiable]] double malformed(const double *x, int n) {
  double s = 0;
  // MALFORMED: checkpoint-pragma-errors.cpp:[[@LINE+1]]:12: error: unknown '#pragma ct' directive; Cotangent has '#pragma ct checkpoint [snapshots(N)]', before a loop
#pragma ct recompute
  for (int i = 0; i < n; ++i)
    s += x[i];
  // MALFORMED: checkpoint-pragma-errors.cpp:[[@LINE+1]]:23: error: unknown clause of '#pragma ct checkpoint'; expected 'snapshots(N)' with N a positive integer, or nothing
#pragma ct checkpoint every(4)
  for (int i = 0; i < n; ++i)
    s += x[i];
  // MALFORMED: checkpoint-pragma-errors.cpp:[[@LINE+1]]:33: error: 'snapshots' takes a positive integer literal
#pragma ct checkpoint snapshots(n)
  for (int i = 0; i < n; ++i)
    s += x[i];
  // MALFORMED: checkpoint-pragma-errors.cpp:[[@LINE+1]]:33: error: 'snapshots' must be between 1 and 1048576
#pragma ct checkpoint snapshots(0)
  for (int i = 0; i < n; ++i)
    s += x[i];
  // MALFORMED: checkpoint-pragma-errors.cpp:[[@LINE+1]]:34: error: expected ')' after the snapshot count
#pragma ct checkpoint snapshots(4
  for (int i = 0; i < n; ++i)
    s += x[i];
  // MALFORMED: checkpoint-pragma-errors.cpp:[[@LINE+1]]:36: error: unexpected text after '#pragma ct checkpoint snapshots(N)'
#pragma ct checkpoint snapshots(4) now
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}
#elif defined(MISPLACED)
[[ct::differentiable]] double misplaced(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  // MISPLACED: checkpoint-pragma-errors.cpp:[[@LINE+1]]:1: error: '#pragma ct checkpoint' must come right before a 'for', 'while' or 'do' loop
#pragma ct checkpoint
  s *= 2;
  return s;
}
double useMisplaced(const double *x, double *dx, int n) {
  return ct::gradient<misplaced>(x, n, dx);
}
#elif defined(EARLY)
// A loop that ends early is checkpointed (the online schedule), but memory
// a C pointer reaches, indexed by a count the loop carries, has no bound.
[[ct::differentiable]] double early(double *u, int n) {
  double s = 0;
  int i = 0;
#pragma ct checkpoint
  // EARLY: checkpoint-pragma-errors.cpp:[[@LINE+1]]:3: error: cannot checkpoint this loop: cannot tell which elements of 'u' it changes (an index is not computed from loop counters, sizes and constants); remove '#pragma ct checkpoint', or index the memory with counters and sizes
  while (i < n) {
    if (u[i] < 0)
      break;
    u[i] = u[i] * u[i];
    s += u[i];
    ++i;
  }
  return s;
}
double useEarly(double *u, double *du, int n) {
  return ct::gradient<early>(u, n, du);
}
#elif !defined(INNER)
[[ct::differentiable]] double scattered(double *u, const int *index, int n) {
  double s = 0;
#pragma ct checkpoint
  // LOOPS: checkpoint-pragma-errors.cpp:[[@LINE+1]]:3: error: cannot checkpoint this loop: cannot tell which elements of 'u' it changes (an index is not computed from loop counters, sizes and constants); remove '#pragma ct checkpoint', or index the memory with counters and sizes
  for (int t = 0; t < 3; ++t)
    for (int i = 0; i < n; ++i) {
      u[index[i]] = u[index[i]] * u[i];
      s += u[i];
    }
  return s;
}

double useScattered(double *u, const int *index, double *du, int n) {
  return ct::gradient<scattered>(u, index, n, du);
}
#endif

#ifdef INNER
[[ct::differentiable]] double inner(double *u, int n, int m) {
  double s = 0;
  for (int t = 0; t < n; ++t) {
#pragma ct checkpoint
    // INNER: checkpoint-pragma-errors.cpp:[[@LINE+1]]:5: warning: '#pragma ct checkpoint' ignored: the loop sits inside another loop, or a function called from one; its iterations are recorded as usual. Checkpoint the outer loop too, or move this loop out
    for (int k = 0; k < m; ++k) {
      u[k] = u[k] * u[k] + 0.1;
      s += u[k];
    }
  }
  return s;
}

double useInner(double *u, double *du, int n, int m) {
  return ct::gradient<inner>(u, n, m, du);
}
#endif
