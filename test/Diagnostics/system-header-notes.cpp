// An error inside a library (system) header carries notes at the calls
// that led there, innermost first, up to the user's own line; calls
// between library functions are noted too, and bodies inlined (a lambda)
// as well as functions lowered on their own. A call into a library with
// several problems is reported once.
// RUN: not %cotangent-cc %s -- -std=c++20 -fno-caret-diagnostics -isystem %S/Inputs 2>&1 | FileCheck %s
#include <library.h>

// (Bodies are lowered in the order they are first needed: user2's,
// user3's, then user's.)
[[ct::differentiable]] double user2(double x) {
  // CHECK: library.h:15:5: error: a 'goto' to a computed address cannot be differentiated
  // CHECK-NEXT: library.h:19:10: note: in call to a lambda in 'library::viaLambda' from here
  // CHECK-NEXT: system-header-notes.cpp:[[@LINE+1]]:10: note: in call to 'library::viaLambda' from here
  return library::viaLambda(x);
}

[[ct::differentiable]] double user3(double x) {
  // CHECK: library.h:23:3: error: a 'goto' to a computed address cannot be differentiated
  // CHECK-NEXT: system-header-notes.cpp:[[@LINE+2]]:10: note: in call to 'library::twoProblems' from here
  // CHECK-NOT: error:
  return library::twoProblems(x);
}

[[ct::differentiable]] double user(double x) {
  // CHECK: library.h:7:5: error: a 'goto' to a computed address cannot be differentiated
  // CHECK-NEXT: library.h:12:42: note: in call to 'library::jumpy' from here
  // CHECK-NEXT: system-header-notes.cpp:[[@LINE+1]]:10: note: in call to 'library::twice' from here
  return library::twice(x);
}
