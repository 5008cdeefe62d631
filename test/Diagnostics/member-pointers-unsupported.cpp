// Pointers to members a derivative cannot follow, each a located error: a
// pointer to a virtual member function (it holds an offset into the
// virtual table), a pointer to a member of another type than the class's
// other numbers, a call through a pointer to a member function when the
// file takes the address of no member function of its type, and a pointer
// to a member function passed to an entry point.
// RUN: not %cotangent-cc %s -- -std=c++20 -I%cotangent-include -ferror-limit=0 2>&1 | FileCheck %s
// RUN: not %cotangent-cc %s -- -std=c++20 -I%cotangent-include -ferror-limit=0 2>&1 | FileCheck %s --check-prefix=ENTRY
#include <cotangent/cotangent.h>

struct Shape {
  virtual double area(double s) const { return s * s; }
  virtual ~Shape() = default;
};

[[ct::differentiable]] double virtualMember(const Shape &shape, double s) {
  // CHECK: member-pointers-unsupported.cpp:[[@LINE+1]]:38: error: a pointer to a virtual member function cannot be followed by differentiable code yet; call the function through a pointer or reference to the object's base class
  double (Shape::*f)(double) const = &Shape::area;
  return (shape.*f)(s);
}

struct Tagged {
  double w;
  int id;
};

[[ct::differentiable]] double otherType(const Tagged &t) {
  int Tagged::*m = &Tagged::id;
  // CHECK: member-pointers-unsupported.cpp:[[@LINE+1]]:10: error: a pointer to a member of another type than the class's other numbers cannot be followed by differentiable code; choose the member by name
  return t.*m * t.w;
}

struct Model {
  double energy(double x) const { return k * x * x; }
  double k;
};

using Term = double (Model::*)(double) const;

[[ct::differentiable]] double unknownTargets(const Model &m, Term f,
                                             double x) {
  // CHECK: member-pointers-unsupported.cpp:[[@LINE+1]]:10: error: no member function of this file of this type has its address taken, so this call through a pointer to a member function cannot be differentiated; call the function by name
  return (m.*f)(x);
}

double callsEntry(const Model &m, Term f, double x) {
  Model dm{};
  double dx = 0;
  // ENTRY: member-pointers-unsupported.cpp:[[@LINE+1]]:14: error: a pointer to a member function cannot be passed to an entry point; choose the member function inside the differentiated function
  return ct::gradient<unknownTargets>(m, f, x, &dm, &dx);
}
