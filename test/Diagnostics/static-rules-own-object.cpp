// cotangent-cc --emit=obj writes the derivatives to an object file of
// their own, which cannot call a function with internal linkage or reach
// such a variable: a custom rule that runs as compiled (it counts its
// calls) and is `static`, a `static` variable the code reads, the virtual
// table of a class in an unnamed namespace, and the address of a `static`
// function a function pointer is compared with, are errors naming them.
// (With the plugin they work: static-rules.cpp, static-variables.cpp,
// Integration/CPU/virtual-functions.cpp, function-pointers.cpp.)
// RUN: not %cotangent-cc %s --emit=obj -o %t.o -- -std=c++20 -I%cotangent-include 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
#include <cotangent/cotangent.h>

int calls = 0;
double cube(double x) { return x * x * x; }
// CHECK: static-rules-own-object.cpp:[[@LINE+1]]:13: error: 'cubePullback' runs as C++ compiled as written and has internal linkage ('static' or in an unnamed namespace), so derivatives emitted into an object file of their own cannot call it; give it external linkage, or compile the file with the plugin
static void cubePullback(double x, double dret, double *dx) {
  ++calls;
  *dx += 3 * x * x * dret;
}
CT_CUSTOM_GRADIENT(cube, cubePullback);

// CHECK: static-rules-own-object.cpp:[[@LINE+1]]:15: error: 'offset' has internal linkage ('static', a static local of such a function, or in an unnamed namespace), so derivatives emitted into an object file of their own cannot reach it; give it external linkage, or compile the file with the plugin
static double offset = 1;

[[ct::differentiable]] double twice(double x) { return 2 * cube(x) + offset; }
double gradient(double x) {
  double dx = 0;
  ct::gradient<twice>(x, &dx);
  return dx;
}

// The virtual table of a class in an unnamed namespace, which its
// constructor stores (reported where the constructor is).
namespace {
struct Hidden {
  double w;
  // CHECK: static-rules-own-object.cpp:[[@LINE+1]]:12: error: the virtual table of '(anonymous namespace)::Hidden' has internal linkage (the class is in an unnamed namespace), so derivatives emitted into an object file of their own cannot reach it; give the class external linkage, or compile the file with the plugin
  explicit Hidden(double w) : w(w) {}
  virtual double value(double x) const { return w * x; }
};
} // namespace

[[ct::differentiable]] double hidden(double x) {
  Hidden h(x);
  return h.value(x);
}

// A function pointer is compared with the addresses of the functions it
// may hold: a `static` one's is the unit's own.
// CHECK: static-rules-own-object.cpp:[[@LINE+3]]:{{[0-9]+}}: error: 'halve' has internal linkage ('static' or in an unnamed namespace), and differentiated code compares a function pointer with its address, which derivatives emitted into an object file of their own cannot reach; give it external linkage, or compile the file with the plugin
static double halve(double x) { return 0.5 * x; }
[[ct::differentiable]] double throughPointer(double x, int k) {
  double (*g)(double) = k > 0 ? halve : cube;
  return g(x);
}
double pointerGradient(double x) {
  double dx = 0;
  ct::gradient<throughPointer>(x, 1, &dx);
  return dx;
}

// A lambda kept as a function pointer is its static invoker, which has no
// linkage.
[[ct::differentiable]] double throughLambda(double x) {
  // CHECK: static-rules-own-object.cpp:[[@LINE+1]]:33: error: the lambda at {{.*}}static-rules-own-object.cpp:[[@LINE+1]]:33, kept as a function pointer, has no linkage, and differentiated code compares the pointer with its address, which derivatives emitted into an object file of their own cannot reach; write a function with external linkage, or compile the file with the plugin
  double (*g)(double, double) = [](double t, double u) { return t * u; };
  return g(x, x);
}
double lambdaGradient(double x) {
  double dx = 0;
  ct::gradient<throughLambda>(x, &dx);
  return dx;
}
