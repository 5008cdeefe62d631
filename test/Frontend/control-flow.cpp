// Loops and branches: counted for loops become scf.for, other loops
// scf.while; break, continue and early returns are structured too.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null

// CHECK-LABEL: func.func @_Z3sumdi
// CHECK: scf.for %{{.*}} = %{{.*}} to %arg1 step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f64) : i32
[[ct::differentiable]] double sum(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x * i;
  return s;
}

// if/else if/else chains.
// CHECK-LABEL: func.func @_Z5pieced
// CHECK: scf.if
// CHECK: scf.if
[[ct::differentiable]] double piece(double x) {
  if (x < 0)
    return -x;
  else if (x < 1)
    return x * x;
  else
    return 2 * x - 1;
}

// while with break and continue; do-while.
// CHECK-LABEL: func.func @_Z6haltedd
// CHECK: scf.while
// CHECK-LABEL: func.func @_Z6repeatdi
// CHECK: scf.while
[[ct::differentiable]] double halted(double x) {
  double v = x;
  while (true) {
    v = v * 1.5;
    if (v < 2)
      continue;
    if (v > 100)
      break;
    v = v + 1;
  }
  return v;
}

[[ct::differentiable]] double repeat(double x, int n) {
  int k = 0;
  do {
    x = x * x;
    ++k;
  } while (k < n);
  return x;
}

// An early return from inside a nested loop: one exit selector picks the
// return value.
// CHECK-LABEL: func.func @_Z5firstPKdid
// CHECK: scf.while
// CHECK: scf.index_switch
[[ct::differentiable]] double first(const double *p, int n, double limit) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      if (p[i] * p[j] > limit)
        return p[i] * p[j];
  return 0;
}

// `if` with an initializer and with a condition variable.
// CHECK-LABEL: func.func @_Z9declaringd
// CHECK: %[[T:.*]] = arith.mulf %arg0, %arg0
// CHECK: arith.cmpf ogt, %[[T]]
// CHECK: scf.if
[[ct::differentiable]] double declaring(double x) {
  if (double t = x * x; t > 1)
    return t;
  if (double u = x - 1)
    return u * x;
  return x;
}

// A counter read after its loop: the second loop starts at the first value
// that failed the test (5 here, not the last one that passed), and a loop
// over [0, n) leaves n when it ran, 0 when it did not.
// CHECK-LABEL: func.func @_Z9twoWhilesd
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : i32
// CHECK-DAG: %[[C10:.*]] = arith.constant 10 : i32
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %[[C5]] to %[[C10]]
[[ct::differentiable]] double twoWhiles(double x) {
  double s = 0;
  int i = 0;
  while (i < 5) {
    s += x * x;
    ++i;
  }
  while (i < 10) {
    s += x * x;
    ++i;
  }
  return s;
}

// CHECK-LABEL: func.func @_Z9afterLoopdi
// CHECK: scf.for
// CHECK: %[[RUNS:.*]] = arith.cmpi sgt, %arg1, %[[ZERO:.*]] : i32
// CHECK: arith.select %[[RUNS]], %arg1, %[[ZERO]] : i32
[[ct::differentiable]] double afterLoop(double x, int n) {
  double s = 0;
  int i = 0;
  for (; i < n; ++i)
    s += x;
  return s * i;
}

// `switch`: one block per label, entered by a cf.switch; fall-through and
// `default`; CFG-to-SCF makes it an scf.index_switch on the case number.
// CHECK-LABEL: func.func @_Z8selectedfi
// CHECK: scf.index_switch
// CHECK-DAG: case 0
// CHECK-DAG: case 5
// CHECK-DAG: case 7
// CHECK: default
[[ct::differentiable]] float selected(float x, int k) {
  float r = 0;
  switch (k) {
  case 0:
    r = x;
    break;
  case 5:
    r = x * x;
    [[fallthrough]];
  case 7:
    r += x;
    break;
  default:
    r = -x;
  }
  return r;
}
