// A std::list's iterators (and reverse iterators over a list) are objects
// stepping through nodes, not the address of the elements: a std::vector
// made, assigned or extended from a range of them is refused at each
// iterator, never read as an address (the object's own bytes as elements).
// Ranges of pointers, of a vector's iterators and of reverse iterators over
// them work (Integration/CPU/reverse-iterators.cpp).
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 2>&1 | FileCheck %s

#include <list>
#include <vector>

[[ct::differentiable]] double listConstruction(const double *x, int n) {
  std::list<double> l{1.0, 2.0};
  // CHECK-DAG: list-iterator-ranges.cpp:[[@LINE+2]]:25: error: an iterator of type 'std::list<double, std::allocator<double>>::iterator' cannot give a range of elements here; give the range by pointers or the vector's own iterators (begin(), end()), or copy the elements with a loop
  // CHECK-DAG: list-iterator-ranges.cpp:[[@LINE+1]]:36: error: an iterator of type 'std::list<double, std::allocator<double>>::iterator'
  std::vector<double> w(l.begin(), l.end());
  return w[0] * x[0];
}

[[ct::differentiable]] double reversedListAssign(const double *x, int n) {
  std::list<double> l{1.0, 2.0};
  std::vector<double> w;
  // CHECK-DAG: list-iterator-ranges.cpp:[[@LINE+2]]:12: error: an iterator of type 'std::list<double, std::allocator<double>>::reverse_iterator'
  // CHECK-DAG: list-iterator-ranges.cpp:[[@LINE+1]]:24: error: an iterator of type 'std::list<double, std::allocator<double>>::reverse_iterator'
  w.assign(l.rbegin(), l.rend());
  return w[0] * x[0];
}

[[ct::differentiable]] double listInsert(const double *x, int n) {
  std::list<double> l{1.0, 2.0};
  std::vector<double> w(x, x + n);
  // CHECK-DAG: list-iterator-ranges.cpp:[[@LINE+2]]:21: error: an iterator of type 'std::list<double, std::allocator<double>>::iterator'
  // CHECK-DAG: list-iterator-ranges.cpp:[[@LINE+1]]:32: error: an iterator of type 'std::list<double, std::allocator<double>>::iterator'
  w.insert(w.end(), l.begin(), l.end());
  return w[2];
}

// CHECK: 6 errors generated.
