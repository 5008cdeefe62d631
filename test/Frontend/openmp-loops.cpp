// With -fopenmp, `#pragma omp parallel for` loops become scf.parallel: the
// reductions' contributions start from their identity (-0 for +, 1 for *,
// -inf for max) and scf.reduce combines them (max keeps the earlier value
// at a tie); `collapse(2)` gives one two-dimensional loop; an atomic update
// is the update itself. A combined target loop (`target teams distribute
// parallel for`) is the same parallel loop, marked ct.device for a GPU (its
// implicit firstprivate and map clauses are Clang's); a mapped section of a
// pointer, `x[0:n]`, makes the loop use a view of the pointer's first n
// elements. Without -fopenmp the same loops stay serial.
// RUN: %cotangent-cc %s -- -std=c++20 -fopenmp | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -fopenmp | %cotangent-opt > /dev/null
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s --check-prefix=SERIAL

// CHECK-LABEL: func.func @_Z3sumPKdPdi
// CHECK: %[[SUM:.*]] = scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) init (%{{.*}}) -> f64
// CHECK:   memref.store %{{.*}}, %arg1[%[[I]]]
// CHECK:   scf.reduce(%{{.*}} : f64)
// CHECK:   ^bb0(%[[L:.*]]: f64, %[[R:.*]]: f64):
// CHECK:     arith.addf %[[L]], %[[R]]
// CHECK: return %[[SUM]]
// SERIAL-LABEL: func.func @_Z3sumPKdPdi
// SERIAL-NOT: scf.parallel
// SERIAL: scf.for
[[ct::differentiable]] double sum(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (int i = 0; i < n; ++i) {
    y[i] = 2 * x[i];
    s += x[i] * x[i];
  }
  return s;
}

// CHECK-LABEL: func.func @_Z7largestPKdi
// CHECK: scf.parallel
// CHECK:   scf.reduce(%{{.*}} : f64)
// CHECK:   ^bb0(%[[L:.*]]: f64, %[[R:.*]]: f64):
// CHECK:     %[[WINS:.*]] = arith.cmpf olt, %[[L]], %[[R]]
// CHECK:     arith.select %[[WINS]], %[[R]], %[[L]]
[[ct::differentiable]] double largest(const double *x, int n) {
  double m = -1e300;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; ++i)
    m = m > x[i] ? m : x[i];
  return m;
}

// CHECK-LABEL: func.func @_Z7productPKdi
// CHECK: scf.parallel
// CHECK:   ^bb0(%[[L:.*]]: f64, %[[R:.*]]: f64):
// CHECK:     arith.mulf %[[L]], %[[R]]
[[ct::differentiable]] double product(const double *x, int n) {
  double p = 1;
#pragma omp parallel for reduction(* : p)
  for (int i = 0; i < n; ++i)
    p *= x[i];
  return p;
}

// CHECK-LABEL: func.func @_Z4gridPKdii
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}})
// CHECK-NOT: scf.for
// CHECK: scf.reduce
[[ct::differentiable]] double grid(const double *a, int r, int c) {
  double s = 0;
#pragma omp parallel for collapse(2) reduction(+ : s)
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j)
      s += a[i * c + j] * (i + 1);
  return s;
}

// CHECK-LABEL: func.func @_Z9histogramPKdPKiiPd
// CHECK: scf.parallel
// CHECK:   %[[OLD:.*]] = memref.load %arg3[%[[BIN:.*]]]
// CHECK:   %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}}
// CHECK:   memref.store %[[NEW]], %arg3[%[[BIN]]]
// CHECK:   scf.reduce
[[ct::differentiable]] void histogram(const double *x, const int *bin, int n,
                                      double *h) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp atomic
    h[bin[i]] += x[i];
  }
}

// What the last iteration wrote, read after the loop (one element every
// iteration writes: a race in OpenMP, unless one iteration writes it): the
// loop stays serial, computing the last write, rather than guess.
// CHECK-LABEL: func.func @_Z7lastOnePKdi
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK: return
[[ct::differentiable]] double lastOne(const double *x, int n) {
  double w[1] = {};
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    w[0] = x[i] * x[i];
  return w[0];
}

// CHECK-LABEL: func.func @_Z6scaledPKdPdid
// CHECK-DAG: %[[X:.*]] = memref.subview %arg0[0] [%{{.*}}] [1]
// CHECK-DAG: %[[Y:.*]] = memref.subview %arg1[0] [%{{.*}}] [1]
// CHECK: scf.parallel
// CHECK:   memref.load %[[X]]
// CHECK:   memref.store
// CHECK:   scf.reduce
// CHECK: } {ct.device}
[[ct::differentiable]] double scaled(const double *x, double *y, int n,
                                     double w) {
  double s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s) \
    map(to : x[0 : n]) map(from : y[0 : n]) thread_limit(128)
  for (int i = 0; i < n; ++i) {
    y[i] = w * x[i];
    s += y[i];
  }
  return s;
}
