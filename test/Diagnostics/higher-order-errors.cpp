// What derivatives of derivatives and vector mode refuse, each an error at
// the user's line: vector mode of a function whose parameters hold numbers
// of their own beside pointers (pointers alone work:
// Integration/CPU/modes-through-parameter-fields.cpp), and a derivative of
// a function returning a std::vector taken inside a function differentiated
// (an error inside the header's adapter, with a note at the user's call; a
// function taking std::vectors works there: Integration/CPU/
// vector-parameters-differentiated-again.cpp). (Reverse over reverse of a
// checkpointed loop in a branch whose iterations write a variable chosen at
// run time was an error here; it works now: Integration/CPU/
// reverse-over-reverse.cpp, checkpointedChoiceInBranch.) A third
// derivative of code whose first derivative keeps addresses on its tape:
// the second splits the first in two functions, which cannot pair an
// address with its shadow's (THIRD; second derivatives work).
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DFIELDS 2>&1 | FileCheck %s --check-prefix=FIELDS --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DRESULTS 2>&1 | FileCheck %s --check-prefix=RESULTS --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DTHIRD 2>&1 | FileCheck %s --check-prefix=THIRD --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <cmath>

#ifdef FIELDS
struct View {
  const double *data;
  int size;
  double scale;
};
double total(View v) {
  double s = 0;
  for (int i = 0; i < v.size; ++i)
    s += v.data[i] * v.data[i];
  return v.scale * s;
}
double use(View v, double *seeds, View *dv) {
  // FIELDS: higher-order-errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: ct::lanes: parameter 'v' of 'total' holds floating-point numbers beside pointer, reference or vector fields, and its derivative object cannot hold K lanes of them; vector mode does not support it yet: pass those numbers as parameters of their own, leave the object out with ct::wrt<...>, or use one lane
  return ct::pullback<total, ct::lanes<2>>(v, seeds, dv);
}
#endif

#ifdef RESULTS
#include <vector>
std::vector<double> squares(double x) { return {x * x, 3 * x}; }
[[ct::differentiable]] double tangentOfList(double x) {
  // RESULTS: dense.h:{{[0-9]+}}:{{[0-9]+}}: error: 'squares' takes an object that holds pointers, references or vectors, or a std::vector of vectors or one it resizes; its derivatives cannot be taken inside a differentiable function yet: pass the memory as pointers of its own
  // RESULTS: higher-order-errors.cpp:[[@LINE+1]]:{{[0-9]+}}: note: in call to {{.*}} from here
  auto d = ct::jvp<squares>(x, 1.0);
  return d.tangent[1];
}
#endif

#ifdef THIRD
#include <cstdlib>
struct Array {
  double *data;
  int size, capacity;
};
void push(Array *a, double v) {
  if (a->size == a->capacity) {
    a->capacity = a->capacity ? 2 * a->capacity : 1;
    a->data = static_cast<double *>(
        std::realloc(a->data, a->capacity * sizeof(double)));
  }
  a->data[a->size++] = v;
}
double pushed(double x) {
  // THIRD: higher-order-errors.cpp:[[@LINE+1]]:3: error: cannot differentiate this derivative again: it keeps the address of this memory for its reverse sweep, and another function takes it (the first half of a derivative split in two, called by another derivative, or of a recursive function)
  Array a{nullptr, 0, 0};
  for (int i = 0; i < 5; ++i)
    push(&a, std::sin(x * (i + 1)));
  double s = 0;
  for (int i = 0; i < a.size; ++i)
    s += a.data[i] * a.data[i];
  std::free(a.data);
  return s;
}
double slope(double x) {
  double d = 0;
  ct::gradient<pushed>(x, &d);
  return d;
}
double curvature(double x) {
  double d = 0;
  ct::gradient<slope>(x, &d);
  return d;
}
double third(double x) {
  double d = 0;
  ct::gradient<curvature>(x, &d);
  return d;
}
#endif
