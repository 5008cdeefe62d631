// Differentiable code reads variables outside the function (see
// test/Integration/CPU/outside-variables.cpp) but does not write them yet:
// a write is an error at the assignment that names the variable.
// RUN: not %cotangent-cc %s -- -std=c++20 2>&1 | FileCheck %s --implicit-check-not=error:
int calls = 0;
double last[2];

[[ct::differentiable]] double counted(double x) {
  // CHECK: outside-variables.cpp:[[@LINE+1]]:3: error: 'calls' is a variable outside the function: differentiable code may read it, but writing it is not supported yet; write it outside the function, or pass it as a parameter
  ++calls;
  return x * x;
}

[[ct::differentiable]] double remembered(double x) {
  // CHECK: outside-variables.cpp:[[@LINE+1]]:3: error: 'last' is a variable outside the function: differentiable code may read it, but writing it is not supported yet; write it outside the function, or pass it as a parameter
  last[1] = x;
  return 2 * x;
}
