// C's callbacks as numerical libraries declare them (GSL's `gsl_function`):
// a struct holding a function pointer and a `void *` context, the context
// cast back to its struct in the callback. Contexts holding numbers the
// derivative flows through, contexts holding pointers to data arrays (their
// pointer fields keep addresses), an array of such structs chosen by index,
// a struct passed by pointer to a quadrature helper and by reference, a
// context assigned after the struct is made, a context read out before the
// struct is given another, and a `void *` context held in a local struct
// of the function's own. Every mode against central
// differences (vector lanes do not yet go through memory holding
// addresses), at -O0 and -O2, and under AddressSanitizer.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"
#include "modes.h"

#include <cmath>

typedef struct {
  double (*function)(double x, void *params);
  void *params;
} gsl_function;

#define GSL_FN_EVAL(F, x) (*((F)->function))(x, (F)->params)

struct Decay {
  const double *t, *y;
  int n;
  double scale;
};

// A least-squares misfit over the data the context points to.
static double misfit(double k, void *p) {
  const Decay *d = (const Decay *)p;
  double s = 0;
  for (int i = 0; i < d->n; ++i) {
    double r = d->y[i] - d->scale * std::exp(-k * d->t[i]);
    s += r * r;
  }
  return s;
}

static double weighted(double k, void *p) {
  double *w = static_cast<double *>(p);
  return w[0] * k * k + w[1] * std::sin(k);
}

struct Wave {
  double amplitude, frequency;
};
static double wave(double t, void *p) {
  auto *q = static_cast<Wave *>(p);
  return q->amplitude * std::sin(q->frequency * t);
}

// Composite Simpson's rule over [a, b] of the callback.
static double simpson(const gsl_function *F, double a, double b, int m) {
  double h = (b - a) / m, s = 0;
  for (int i = 0; i <= m; ++i) {
    double w = (i == 0 || i == m) ? 1 : (i % 2 ? 4 : 2);
    s += w * GSL_FN_EVAL(F, a + i * h);
  }
  return s * h / 3;
}

static double evaluate(const gsl_function &F, double t) {
  return F.function(t, F.params);
}

// An array of callback structs, each with its own context type.
double integrals(const double *x, int n) {
  double t[4] = {0.0, 0.5, 1.0, 1.5}, y[4] = {1.0, 0.7, 0.45, 0.3};
  Decay decay{t, y, 4, x[0]};
  double weights[2] = {x[n - 1], 0.25};
  gsl_function fs[2] = {{&misfit, &decay}, {&weighted, weights}};
  double total = 0;
  for (int j = 0; j < 2; ++j)
    total += simpson(&fs[j], 0.1, x[1], 8);
  return total;
}

// A context assigned after the struct is made, and one struct given
// either context at run time.
double reassigned(const double *x, int n) {
  Wave slow{x[0], 0.5}, fast{0.25, x[1]};
  gsl_function F;
  F.function = &wave;
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    F.params = i % 2 ? &fast : &slow;
    s += evaluate(F, 0.3 * i + x[n - 1]);
  }
  return s;
}

// A context read out of the struct, then the struct given another: the
// address read is the first context's.
double heldContext(const double *x, int n) {
  Wave first{x[0], 1.5}, second{0.5, x[1]};
  gsl_function F{&wave, &first};
  void *kept = F.params;
  F.params = &second;
  return F.function(x[n - 1], F.params) + wave(x[n - 1], kept);
}

// A local context struct of the function's own, holding a `void *`.
struct Task {
  gsl_function f;
  double lo, hi;
};
double tasks(const double *x, int n) {
  Wave w{x[0], x[1]};
  Task task{{&wave, &w}, 0.0, x[n - 1]};
  return simpson(&task.f, task.lo, task.hi, 6);
}

int main() {
  const double point[3] = {0.8, 1.3, 0.6};
  check::checkModes<integrals, false>("integrals", point, 3);
  check::checkModes<integrals, false>("integrals n=2", point, 2);
  check::checkModes<reassigned, false>("reassigned", point, 3);
  check::checkModes<tasks, false>("tasks", point, 3);
  check::checkModes<heldContext, false>("held context", point, 3);
  return check::report();
}
