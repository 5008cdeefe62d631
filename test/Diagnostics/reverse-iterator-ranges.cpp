// A std::reverse_iterator is an object stepping backward, not the address
// of the elements it steps through: a std::vector made, assigned or
// extended from a range of them is refused at each iterator (it was read
// as an address: a vector of zeros, silently). Loops over them and the
// algorithms lowered from the library's code work
// (Integration/CPU/reverse-iterators.cpp).
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 2>&1 | FileCheck %s

#include <vector>

[[ct::differentiable]] double reversedConstruction(const double *x, int n) {
  std::vector<double> v(x, x + n);
  // CHECK-DAG: reverse-iterator-ranges.cpp:[[@LINE+2]]:25: error: an iterator of type 'std::vector<double, std::allocator<double>>::reverse_iterator' cannot give a range of elements here; give the range by pointers or the vector's own iterators (begin(), end()), or copy the elements with a loop
  // CHECK-DAG: reverse-iterator-ranges.cpp:[[@LINE+1]]:37: error: an iterator of type
  std::vector<double> w(v.rbegin(), v.rend());
  return w[0];
}

[[ct::differentiable]] double reversedAssign(const double *x, int n) {
  std::vector<double> v(x, x + n), w;
  // CHECK-DAG: reverse-iterator-ranges.cpp:[[@LINE+1]]:12: error: an iterator of type
  w.assign(v.rbegin(), v.rend());
  return w[0];
}

[[ct::differentiable]] double reversedInsert(const double *x, int n) {
  std::vector<double> v(x, x + n), w(2, 1.0);
  // CHECK-DAG: reverse-iterator-ranges.cpp:[[@LINE+1]]:21: error: an iterator of type
  w.insert(w.end(), v.rbegin(), v.rend());
  return w[2];
}

// CHECK: 6 errors generated.
