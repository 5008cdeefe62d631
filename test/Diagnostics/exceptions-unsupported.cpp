// What a derivative cannot do with exceptions, each a located error: use
// an exception object that is not a number in its handler, call code
// compiled elsewhere that may throw inside a `try` whose handlers catch
// what libraries throw (the exception would pass them). Calls that cannot
// throw (noexcept) and handlers of the program's own types are fine.
// RUN: not %cotangent-cc %s -- -std=c++20 -I%cotangent-include -ferror-limit=0 2>&1 | FileCheck %s
#include <cotangent/cotangent.h>

#include <stdexcept>

[[ct::differentiable]] double usesMessage(double x) {
  try {
    if (x < 0)
      throw std::domain_error("negative");
    return x * x;
    // CHECK: exceptions-unsupported.cpp:[[@LINE+1]]:12: error: a derivative can only use an exception that is a number; catch it outside the differentiable function, or leave the exception unnamed here
  } catch (const std::exception &e) {
    return e.what()[0];
  }
}

int tableIndex(int k);
double scaleOf(int k) noexcept;

[[ct::differentiable]] double callsLibrary(double x, int k) {
  try {
    // Cannot throw: it is noexcept.
    x *= scaleOf(k);
    // CHECK: exceptions-unsupported.cpp:[[@LINE+1]]:10: error: 'tableIndex' runs as compiled elsewhere and may throw, but an exception does not reach a 'catch' in a derivative; test for the failure before the call (`find` rather than `at`), or move the 'try' outside the differentiable function
    x *= tableIndex(k);
  } catch (...) {
    return 0;
  }
  return x;
}

struct Mine {};

// Handlers of the program's own types only: a library's exception would
// not be caught by them in the primal either.
[[ct::differentiable]] double ownHandlers(double x, int k) {
  try {
    x *= tableIndex(k);
    if (x > 1)
      throw Mine{};
  } catch (Mine) {
    return 1;
  }
  return x;
}

// CHECK-NOT: error:
