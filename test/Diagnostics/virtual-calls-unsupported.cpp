// What differentiable code refuses of virtual calls, each once (no other
// error may appear), at the call, with the way out.
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 2>&1 | FileCheck %s --implicit-check-not=error:

#include <memory>

// A std::unique_ptr to a base class that is not the first of the object's
// class (multiple inheritance): its address would not be the object's.
struct Left {
  double a;
  virtual double f() const { return a; }
};
struct Right {
  double b;
  virtual double g() const { return b; }
};
struct Both : Left, Right {
  double g() const override { return a * b; }
};
[[ct::differentiable]] double ownedThroughSecondBase(double x) {
  // CHECK: virtual-calls-unsupported.cpp:[[@LINE+1]]:34: error: a std::unique_ptr<Right> owning a 'Both', whose 'Right' part does not begin it (a second base class), is not supported yet; own it as a std::unique_ptr<Both> or through its first base
  std::unique_ptr<Right> owned = std::make_unique<Both>();
  owned->b = x;
  return owned->g();
}

// No class of the file derives from the object's class.
struct Abstract {
  virtual double value() const = 0;
};
[[ct::differentiable]] double noClass(const Abstract &a) {
  // CHECK: virtual-calls-unsupported.cpp:[[@LINE+1]]:10: error: no class of this file that derives from 'Abstract' defines this virtual call's target, so it cannot be differentiated; define the class of the object in this file
  return a.value();
}

// A virtual function returning a reference is lowered in place at each
// call (test/Integration/CPU/virtual-references.cpp); one reaching itself
// from an overrider (a wrapper forwarding to the object it wraps) would
// unfold without end.
struct Holder {
  virtual const double &value() const = 0;
};
struct Stored : Holder {
  double v;
  const double &value() const override { return v; }
};
struct Forwarding : Holder {
  const Holder *inner;
  // CHECK: virtual-calls-unsupported.cpp:[[@LINE+1]]:49: error: this virtual call reaches 'Holder::value' again from inside one of its overriders, and its function returns a pointer or reference or takes objects whose pointer fields designate memory known only beside them, so differentiable code lowers it in place, which would not end; call the concrete class's function
  const double &value() const override { return inner->value(); }
};
[[ct::differentiable]] double reference(const Holder &h) {
  return h.value() * 2.0;
}
