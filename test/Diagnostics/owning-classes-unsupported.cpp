// What differentiable code refuses of classes that own memory (lowered from
// their own code as locals, temporaries and parameters), each once (no
// other error may appear), with the way out.
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 -I %cotangent_src/runtime/include 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cotangent/cotangent.h>
#include <memory>

// A std::unique_ptr member owning objects that hold references.
// (Objects owning memory, or holding pointers, work:
// test/Integration/CPU/unique-pointers-to-owners.cpp.)
struct Scaled {
  const double &scale;
  double value;
};
struct Holder {
  std::unique_ptr<Scaled> scaled;
  ~Holder() {}
};

// A std::weak_ptr of the caller's: whether its object has expired is the
// library's count. (The function's own work:
// test/Integration/CPU/weak-pointers.cpp.)
struct Watched {
  std::weak_ptr<double> value;
};

[[ct::differentiable]] double memberOwner(double x) {
  // CHECK: owning-classes-unsupported.cpp:[[@LINE+1]]:3: error: variable 'h' has type 'struct Holder', which differentiable code does not support: its field 'scaled' is a std::unique_ptr to objects holding references, which is not supported yet; hold pointers instead
  Holder h{std::make_unique<Scaled>(x, x)};
  return h.scaled->value * h.scaled->scale;
}

[[ct::differentiable]] double weakMember(const Watched &w, double x) {
  // CHECK: owning-classes-unsupported.cpp:[[@LINE+1]]:16: error: differentiable code cannot read a std::weak_ptr the caller passes (whether its object has expired is the library's count); pass the std::shared_ptr, or lock it before the call
  if (auto v = w.value.lock())
    return *v * x;
  return x;
}
