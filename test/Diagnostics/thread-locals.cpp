// Thread-local variables outside any function that C++ reaches through a
// function of the defining file's (made on a thread's first use, destroyed
// when it ends, or defined in another file) are errors at their use that
// say which and the way out; those defined here with a constant and nothing
// to destroy, and the function's own thread-local variables, work
// (test/Integration/CPU/thread-locals.cpp).
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 2>&1 | FileCheck %s --implicit-check-not=error:

#include <cmath>

double initialGain();
struct Logger {
  double level = 1;
  ~Logger();
};

extern thread_local double elsewhere;
thread_local double computed = initialGain();
thread_local Logger logger;
thread_local double plain = 2; // works

[[ct::differentiable]] double usesElsewhere(double x) {
  // CHECK: thread-locals.cpp:[[@LINE+1]]:14: error: 'elsewhere' is a thread-local variable defined in another file; differentiable functions use thread-local variables outside functions only when this file defines them with a constant and nothing to destroy: pass it as a parameter, or make it a 'thread_local' variable of the function
  return x * elsewhere;
}

[[ct::differentiable]] double usesComputed(double x) {
  // CHECK: thread-locals.cpp:[[@LINE+1]]:24: error: 'computed' is a thread-local variable initialized when each thread first uses it;
  return std::sin(x) * computed * plain;
}

[[ct::differentiable]] double usesLogger(double x) {
  // CHECK: thread-locals.cpp:[[@LINE+1]]:14: error: 'logger' is a thread-local variable destroyed when each thread ends;
  return x * logger.level;
}

// The function's own, however made, work.
[[ct::differentiable]] double ownLogger(double x) {
  thread_local Logger own;
  thread_local double scale = initialGain();
  return x * own.level * scale * plain;
}
