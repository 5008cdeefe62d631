// What differentiable code refuses of arrays of variable length, each once
// (no other error may appear), with the way out; and a C library function
// that Clang knows (`exp10`) but that has no derivative rule: called as the
// library compiled it where no derivative crosses it, an error where one
// must.
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 -Wno-vla-cxx-extension -I %cotangent_src/runtime/include 2>&1 | FileCheck %s --implicit-check-not=error:
// (The engine's errors come once the whole file lowers.)
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -DLIBRARY -I %cotangent_src/runtime/include 2>&1 | FileCheck %s --check-prefix=LIBRARY --implicit-check-not=error:
#include <cotangent/cotangent.h>
#include <cmath>

struct Counted {
  Counted() : value(1) {}
  double value;
};

#ifndef LIBRARY
// (Pointers to numbers, to structs and to views work:
// Integration/CPU/variable-length-arrays.cpp. A field of a struct pointing to
// a view whose own pointer is an offset into memory known beside it could
// not find that memory through an address read back from the array.)
struct View {
  const double *data;
  int size;
};
struct Weighted {
  const View *view;
  double weight;
};
double pointers(const double *x, int n) {
  View whole{x, n};
  // CHECK: variable-length-arrays-unsupported.cpp:[[@LINE+1]]:3: error: an array of variable length can hold numbers, pointers and structs of them, not pointers to 'View' objects holding pointers of their own; use a std::vector
  Weighted terms[n];
  // CHECK: variable-length-arrays-unsupported.cpp:[[@LINE+1]]:23: error: the field 'view' keeps the address of a 'View', whose pointer fields designate memory known beside the object, which an address read back cannot find; differentiable code does not support this yet
  terms[0] = Weighted{&whole, 2.0};
  return terms[0].weight * terms[0].view->data[0];
}

double constructed(const double *x, int n) {
  // CHECK: variable-length-arrays-unsupported.cpp:[[@LINE+1]]:3: error: an array of variable length can hold numbers and structs of numbers left uninitialized; use a std::vector
  Counted c[n];
  return x[0];
}

#else
double tenth(double x) {
  double unused = exp10(ct::stop_gradient(x)); // no derivative crosses it
  // LIBRARY: variable-length-arrays-unsupported.cpp:[[@LINE+1]]:10: error: 'exp10' has no visible body, and a derivative would have to flow through this call: its result depends on what is being differentiated
  return exp10(x) + unused;
}
#endif

void use() {
#ifndef LIBRARY
  double x[2] = {1, 2}, d[2] = {};
  ct::gradient<pointers>(x, 2, d);
  ct::gradient<constructed>(x, 2, d);
#else
  double dt = 0;
  ct::gradient<tenth>(1.0, &dt);
#endif
}
