// Differentiable code reads variables outside the function (see
// test/Integration/CPU/outside-variables.cpp) and writes integers to them
// (a call counter), but writing a floating-point value to one is an error
// at the assignment that names the variable: a derivative could flow
// through it from one function to another unseen.
// RUN: not %cotangent-cc %s -- -std=c++20 2>&1 | FileCheck %s --implicit-check-not=error:
int calls = 0;
double last[2];
float total;

[[ct::differentiable]] double counted(double x) {
  ++calls;
  return x * x;
}

[[ct::differentiable]] double remembered(double x) {
  // CHECK: outside-variables.cpp:[[@LINE+1]]:3: error: 'last' is a variable outside the function: differentiable code may read it, and write integers to it, but writing floating-point values to it is not supported yet; write it outside the function, or pass it as a parameter
  last[1] = x;
  return 2 * x;
}

[[ct::differentiable]] double accumulated(double x) {
  // CHECK: outside-variables.cpp:[[@LINE+1]]:3: error: 'total' is a variable outside the function: differentiable code may read it, and write integers to it, but writing floating-point values to it is not supported yet; write it outside the function, or pass it as a parameter
  total += static_cast<float>(x);
  return 3 * x;
}
