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

// A virtual function returning a reference.
struct Holder {
  virtual const double &value() const = 0;
};
struct Stored : Holder {
  double v;
  const double &value() const override { return v; }
};
[[ct::differentiable]] double reference(const Holder &h) {
  // CHECK: virtual-calls-unsupported.cpp:[[@LINE+1]]:10: error: this virtual call cannot be differentiated yet: its function takes objects whose pointer fields designate memory known only beside them, vectors, or std::unique_ptrs, or returns a pointer or reference, which differentiable code passes only to a function it knows; call the concrete class's function
  return h.value() * 2.0;
}
