// What differentiable code refuses of classes that own memory (lowered from
// their own code as locals, temporaries and parameters), each once (no
// other error may appear), with the way out.
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 -I %cotangent_src/runtime/include 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cotangent/cotangent.h>
#include <memory>
#include <vector>

class Buffer {
public:
  explicit Buffer(int n) : data_(new double[n]()) {}
  ~Buffer() { delete[] data_; }
  double &at(int i) { return data_[i]; }

private:
  double *data_;
};

// A member of a library class with a destructor the lowering does not run
// (std::unique_ptr kept in an object).
struct Holder {
  std::unique_ptr<double[]> buffer;
  ~Holder() {}
};

// An array of vectors of them is not supported yet.
[[ct::differentiable]] double arrayOfVectors(double x) {
  // CHECK: owning-classes-unsupported.cpp:[[@LINE+1]]:3: error: variable 'v' has type 'class std::vector<class Buffer>[2]', which differentiable code does not support: arrays of std::vectors are not supported yet; use a std::vector of them
  std::vector<Buffer> v[2];
  v[0].emplace_back(2);
  return x;
}

// A vector of them is kept in memory; inserting a list of them is not
// supported yet.
[[ct::differentiable]] double vectorOfOwners(double x) {
  std::vector<Buffer> v;
  v.emplace_back(2);
  // CHECK: owning-classes-unsupported.cpp:[[@LINE+1]]:3: error: 'insert' of a list into a std::vector of 'class Buffer' is not supported yet; insert one element at a time
  v.insert(v.begin(), {Buffer(1), Buffer(1)});
  for (auto &b : v)
    b.at(0) = x;
  return v[0].at(0);
}

[[ct::differentiable]] double memberOwner(double x) {
  // CHECK: owning-classes-unsupported.cpp:[[@LINE+1]]:3: error: variable 'h' has type 'struct Holder', which differentiable code does not support: it owns resources through the destructor of 'class std::unique_ptr<double[]>', a library class that differentiable code does not lower; pass its data as a pointer and a size
  Holder h{std::make_unique<double[]>(1)};
  return x;
}
