// try, catch and throw in differentiated code: a `throw` whose handler
// encloses it (in the function, or in a caller of the helper that throws)
// runs that handler in the derivative, after the destructors of the scopes
// it leaves; handlers are chosen as C++ chooses them (exact type, base
// class, `...`, the first that matches, the innermost `try` first); a
// number thrown reaches the handler's variable; a function-try-block; an
// arm of `?:` that throws (a value or a place); a throw nothing catches aborts with a message.
// Every mode on both sides of each throw, against finite differences, at
// -O0 and -O2, and under AddressSanitizer (a vector alive where the throw
// leaves its scope is freed once).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address,undefined %s -o %ta && %ta | FileCheck %s
// RUN: not --crash %t2 uncaught 2>&1 | FileCheck %s --check-prefix=UNCAUGHT
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include "check.h"
#include "modes.h"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

// sqrt(x0) x1 where x0 >= 0, else -x0 x1 (the handler's value).
[[ct::differentiable]] double guarded(const double *x, int n) {
  double y;
  try {
    if (x[0] < 0)
      throw std::domain_error("negative");
    y = std::sqrt(x[0]) * x[1];
  } catch (const std::exception &) {
    y = -x[0] * x[1];
  }
  return y;
}

struct StepTooLarge {
  double step;
};

// A loop left by a throw of a struct: the handler gets control with the
// partial sum; a number thrown is the handler's variable.
[[ct::differentiable]] double partialSums(const double *x, int n) {
  double s = 0;
  try {
    for (int i = 0; i < n; ++i) {
      s += x[i] * x[i];
      if (s > 4)
        throw i;
    }
  } catch (long) {
    return -1; // Never: an int is not a long.
  } catch (int stopped) {
    return s * (stopped + 1);
  }
  return s;
}

// A vector alive inside the try when the throw leaves its scope.
[[ct::differentiable]] double cleanups(const double *x, int n) {
  double total = 0;
  try {
    std::vector<double> squares;
    for (int i = 0; i < n; ++i)
      squares.push_back(x[i] * x[i]);
    for (double v : squares)
      total += v;
    if (total > 2)
      throw StepTooLarge{total};
    total = std::sin(total);
  } catch (StepTooLarge &) {
    total = std::log(total);
  }
  return total;
}

// A helper lowered in the caller throws; the caller's handler catches it by
// a base class.
struct NotPositive : std::invalid_argument {
  NotPositive() : std::invalid_argument("not positive") {}
};

static double checkedLog(double v) {
  if (v <= 0)
    throw NotPositive();
  return std::log(v);
}

[[ct::differentiable]] double throughHelper(const double *x, int n) {
  try {
    return checkedLog(x[0]) * x[1];
  } catch (const std::logic_error &) {
    return x[0] * x[0] * x[1];
  }
}

// The inner try does not catch a double; the outer does. A throw inside a
// handler goes to the enclosing try.
[[ct::differentiable]] double nested(const double *x, int n) {
  double r = x[1];
  try {
    try {
      if (x[0] > 1)
        throw 2.0 * x[0];
      if (x[0] < -1)
        throw 7;
      r *= x[0];
    } catch (int) {
      r *= 3;
      throw 0.5;
    }
  } catch (double scale) {
    r *= scale;
  } catch (...) {
    r = 0;
  }
  return r;
}

// An arm of ?: that throws.
[[ct::differentiable]] double conditional(const double *x, int n) {
  try {
    double root = x[0] >= 0 ? std::sqrt(x[0]) : throw std::range_error("x");
    return root * x[1];
  } catch (...) {
    return x[1];
  }
}

// A place chosen by ?: whose other arm throws.
[[ct::differentiable]] double chosenPlace(const double *x, int n) {
  double a = x[0], b = x[1];
  try {
    (a > 0 ? a : throw 1) *= b;
  } catch (int) {
    a = -a * b * b;
  }
  return a + b;
}

// A function-try-block whose handlers nothing reaches.
[[ct::differentiable]] double functionTry(const double *x, int n) try {
  return x[0] * x[1] * x[1];
} catch (int) {
  return 0;
} catch (...) {
  return 1;
}

[[ct::differentiable]] double uncaught(double x) {
  if (x > 0)
    // UNCAUGHT: exceptions.cpp:[[@LINE+1]]: an exception of type 'std::overflow_error' was thrown in a derivative, which does not unwind to a caller; aborting
    throw std::overflow_error("too large");
  return x;
}

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "uncaught") == 0) {
    double dx = 0;
    ct::gradient<uncaught>(1.0, &dx);
    return 0;
  }
  const double positive[] = {1.7, 0.6, 0.9}, negative[] = {-1.3, 0.8, 0.4};
  check::checkModes<guarded>("guarded, no throw", positive, 2);
  check::checkModes<guarded>("guarded, thrown", negative, 2);
  const double small[] = {0.3, 0.5, 0.7}, large[] = {0.9, 1.6, 1.2};
  check::checkModes<partialSums>("partial sums, no throw", small, 3);
  check::checkModes<partialSums>("partial sums, thrown at 2", large, 3);
  check::checkModes<cleanups>("cleanups, no throw", small, 3);
  check::checkModes<cleanups>("cleanups, thrown", large, 3);
  check::checkModes<throughHelper>("helper, no throw", positive, 2);
  check::checkModes<throughHelper>("helper, thrown", negative, 2);
  const double above[] = {1.4, 0.7}, below[] = {-1.6, 0.7},
               between[] = {0.4, 0.7};
  check::checkModes<nested>("nested, outer catches", above, 2);
  check::checkModes<nested>("nested, rethrown from handler", below, 2);
  check::checkModes<nested>("nested, no throw", between, 2);
  check::checkModes<conditional>("conditional, no throw", positive, 2);
  check::checkModes<conditional>("conditional, thrown", negative, 2);
  check::checkModes<chosenPlace>("chosen place, no throw", positive, 2);
  check::checkModes<chosenPlace>("chosen place, thrown", negative, 2);
  check::checkModes<functionTry>("function try block", positive, 2);
  // Closed forms where the thrown number carries the derivative: nested at
  // x0 > 1 is x1 (2 x0), through the handler's variable.
  double x[] = {1.4, 0.7}, dx[2] = {};
  check::near("nested closed form", ct::gradient<nested>(x, 2, dx),
              2 * 1.4 * 0.7, 1e-12);
  check::near("nested d/dx0 closed form", dx[0], 2 * 0.7, 1e-12);
  check::near("nested d/dx1 closed form", dx[1], 2 * 1.4, 1e-12);
  return check::report();
}
