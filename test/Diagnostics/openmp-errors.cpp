// OpenMP in differentiable code beyond parallel loops and atomic updates:
// each error at the construct, naming it (or the clause) and saying what
// is supported. A parallel loop that carries a variable from one iteration
// to the next without a reduction clause is refused at the update. Target
// constructs other than the combined target loops, and clauses those
// cannot honour, are refused the same way.
// RUN: not %cotangent-cc %s -- -std=c++20 -fopenmp -I%cotangent-include 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %cotangent-cc %s -- -std=c++20 -fopenmp -I%cotangent-include -DCARRIED 2>&1 | FileCheck %s --check-prefix=CARRIED --implicit-check-not=error:
#include <cotangent/cotangent.h>

#ifndef CARRIED

[[ct::differentiable]] double constructs(const double *x, double *y, int n) {
  double s = 0;
  // CHECK: openmp-errors.cpp:[[@LINE+1]]:1: error: '#pragma omp parallel' cannot be differentiated; parallel loops are written '#pragma omp parallel for'
#pragma omp parallel
  { s += x[0]; }
  // CHECK: openmp-errors.cpp:[[@LINE+1]]:1: error: '#pragma omp simd' cannot be differentiated; parallel loops are written '#pragma omp parallel for'
#pragma omp simd
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  // CHECK: openmp-errors.cpp:[[@LINE+1]]:1: error: the 'lastprivate' clause of '#pragma omp parallel for' cannot be differentiated; supported clauses are reduction, collapse, schedule, private, shared, default, num_threads and proc_bind
#pragma omp parallel for lastprivate(s)
  for (int i = 0; i < n; ++i)
    s = x[i];
  // CHECK: openmp-errors.cpp:[[@LINE+1]]:1: error: this reduction cannot be differentiated; reductions are '+', '*', 'max' and 'min' on numbers
#pragma omp parallel for reduction(- : s) reduction(& : n)
  for (int i = 0; i < 4; ++i)
    s -= x[i];
  return s;
}

[[ct::differentiable]] double atomics(const double *x, double *y, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    // CHECK: openmp-errors.cpp:[[@LINE+1]]:1: error: '#pragma omp atomic write' cannot be differentiated; only atomic updates ('x += e', 'x -= e') can
#pragma omp atomic write
    y[0] = x[i];
    // CHECK: openmp-errors.cpp:[[@LINE+1]]:1: error: '#pragma omp atomic' can be differentiated on updates of floating-point values with '+=' or '-=' only
#pragma omp atomic
    y[1] *= x[i];
  }
  return y[0];
}

[[ct::differentiable]] double targets(const double *x, double *y, int n) {
  // CHECK: openmp-errors.cpp:[[@LINE+1]]:1: error: '#pragma omp target' cannot be differentiated; parallel loops are written '#pragma omp parallel for', or '#pragma omp target teams distribute parallel for' for a GPU
#pragma omp target map(to : x[0 : n])
  { y[0] = x[0]; }
  // CHECK: openmp-errors.cpp:[[@LINE+1]]:1: error: the 'nowait' clause of '#pragma omp target teams distribute parallel for' cannot be differentiated; supported clauses are reduction, collapse, schedule, private, shared, default, num_threads and proc_bind, and map, firstprivate, num_teams, thread_limit and dist_schedule on a target loop
#pragma omp target teams distribute parallel for nowait
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  // CHECK: openmp-errors.cpp:[[@LINE+1]]:50: error: this map type cannot be differentiated; use 'to', 'from' or 'tofrom'
#pragma omp target teams distribute parallel for map(alloc : y[0 : n])
  for (int i = 0; i < n; ++i)
    y[i] = 2 * x[i];
  return y[0];
}

double use(const double *x, double *y, int n, double *d) {
  return ct::gradient<constructs, ct::wrt<0>>(x, y, n, d) +
         ct::gradient<atomics, ct::wrt<0>>(x, y, n, d) +
         ct::gradient<targets, ct::wrt<0>>(x, y, n, d);
}
#else
[[ct::differentiable]] double carried(const double *x, int n) {
  double s = 0, last = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    // CARRIED: openmp-errors.cpp:[[@LINE+1]]:5: error: this parallel loop carries a variable from one iteration to the next; declare it in a 'reduction' clause, or declare it inside the loop
    s += x[i];
  return s + last;
}

double use(const double *x, int n, double *d) {
  return ct::gradient<carried, ct::wrt<0>>(x, n, d);
}
#endif
