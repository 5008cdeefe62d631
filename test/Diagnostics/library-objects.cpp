// Library objects kept as the library compiled them (std::map, std::deque,
// std::unordered_map) carry no derivative: a value that depends on what is
// differentiated may go in (stored through a reference one returned, or
// passed to one of its functions), but the read that would bring it back
// out is an error that names the class and gives the ways out, in reverse
// and in forward mode (also for a table that is a field of a struct: the
// numbers beside it do not enter it). Functions whose signatures hold
// addresses, a table given a derivative, and a number with a derivative
// inside a library object (a std::pair holding a std::string) are refused
// where they are written (test/Integration/CPU/library-objects.cpp has
// what works).
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DSTORED 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STORED --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DPASSED 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASSED --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DITERATOR 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ITERATOR --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DFORWARD 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FORWARD --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DREFUSED 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REFUSED --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DFIELDED 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FIELDED --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DNUMBER 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NUMBER --implicit-check-not=error:
// A table read for constants only compiles, and keeps its calls.
// RUN: %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FINE --implicit-check-not=error:
// FINE-LABEL: func.func private @_Z8weightedPKdRKSt3mapIidSt4lessIiESaISt4pairIKidEEE.pullback.dc(
// FINE-SAME: %arg1: memref<?xi8, strided<[1], offset: ?>>
// FINE: call @_ZNKSt3mapIidSt4lessIiESaISt4pairIKidEEE2atERS3_(%arg1, %{{.*}}) : (memref<?xi8, strided<[1], offset: ?>>, memref<?xi32, strided<[1], offset: ?>>) -> memref<?xf64, strided<[1], offset: ?>>
// FINE: func.func private @_ZNKSt3mapIidSt4lessIiESaISt4pairIKidEEE2atERS3_(memref<?xi8, strided<[1], offset: ?>> {ct.readonly}, memref<?xi32, strided<[1], offset: ?>> {ct.readonly}) -> memref<?xf64, strided<[1], offset: ?>> attributes {ct.c_args = [{kind = "address", operand = 0 : i64}, {kind = "address", operand = 1 : i64}], ct.c_result = {kind = "pointer"}, ct.external, ct.library_object = "std::map<int, double>"
#include <cotangent/cotangent.h>

#include <deque>
#include <map>
#include <string>
#include <unordered_map>

[[ct::differentiable]] double weighted(const double *x,
                                       const std::map<int, double> &w) {
  return w.at(0) * x[0] * x[0];
}

[[ct::differentiable]] double stored(const double *x, int n) {
  std::unordered_map<int, double> table;
  for (int i = 0; i < n; ++i)
    table[i] = x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    // STORED: library-objects.cpp:[[@LINE+1]]:10: error: 'std::unordered_map<int, double>::at' works on a 'std::unordered_map<int, double>', which differentiable code keeps as the library compiled it, and a derivative would have to come out of it here: a value that depends on what is being differentiated went into it (stored through a reference it gave, or passed to one of its functions); keep such values in a std::vector or an array, or stop the derivative with ct::stop_gradient before they go in
    s += table.at(i) * table.at(i);
  return s;
}

[[ct::differentiable]] double passed(const double *x, int n) {
  std::deque<double> queue;
  for (int i = 0; i < n; ++i)
    queue.push_back(x[i]);
  // PASSED: library-objects.cpp:[[@LINE+1]]:10: error: 'std::deque<double>::front' works on a 'std::deque<double>', which differentiable code keeps as the library compiled it, and a derivative would have to come out of it here
  return queue.front() * 2;
}

// Written through an iterator into the map it came from, printed on the
// way (the stream is another object: it does not make the map's reads an
// error by itself), read back through the map.
[[ct::differentiable]] double throughIterator(const double *x) {
  std::map<int, double> table{{0, 1.0}, {1, 2.0}};
  auto it = table.find(1);
  it->second = x[0] * x[1];
  // ITERATOR: library-objects.cpp:[[@LINE+1]]:10: error: 'std::map<int, double>::at' works on a 'std::map<int, double>', which differentiable code keeps as the library compiled it, and a derivative would have to come out of it here
  return table.at(1) + x[0];
}

[[ct::differentiable]] double forward(double x) {
  std::map<int, double> table;
  table.emplace(0, x * x);
  // FORWARD: library-objects.cpp:[[@LINE+1]]:10: error: 'std::map<int, double>::at' works on a 'std::map<int, double>', which differentiable code keeps as the library compiled it, and a derivative would have to come out of it here
  return table.at(0);
}

#ifdef REFUSED
[[ct::differentiable]] double pointers(const double *x,
                                       const std::map<int, const double *> &m) {
  // REFUSED-DAG: library-objects.cpp:[[@LINE+1]]:11: error: 'std::map<int, const double *>::at' works on a 'std::map<int, const double *>', which differentiable code keeps as the library compiled it, and cannot be called so: its result has type 'const double *const &'; call it outside the differentiable function and pass the numbers it gives
  return *m.at(0) * x[0];
}
#endif

struct Model {
  std::map<int, double> weights;
  double bias;
};

// A table that is a field: the number beside it does not enter it, the
// derivative stored into it does.
[[ct::differentiable]] double fielded(double x) {
  Model m;
  m.bias = x;
  m.weights[0] = x * x;
  // FIELDED: library-objects.cpp:[[@LINE+1]]:10: error: 'std::map<int, double>::at' works on a 'std::map<int, double>', which differentiable code keeps as the library compiled it, and a derivative would have to come out of it here
  return m.weights.at(0) * m.bias;
}

#ifdef NUMBER
// A number inside a library object (a std::pair holding a std::string)
// cannot carry a derivative.
[[ct::differentiable]] double labelled(double x) {
  std::pair<std::string, double> entry{"a", 0.0};
  entry.second = x * x;
  std::pair<std::string, double> copy = entry;
  // NUMBER: library-objects.cpp:[[@LINE+1]]:10: error: this number lies inside a library object that differentiable code keeps as the library compiled it (a std::pair or std::tuple holding a std::string, say), where it cannot carry a derivative, as it must here; keep numbers that depend on what is being differentiated in a struct of your own, or stop the derivative with ct::stop_gradient
  return copy.second;
}
#endif

double use(double x, const double *p, double *dp,
           const std::map<int, double> &w) {
  double dx = 0, sum = ct::gradient<weighted, ct::wrt<0>>(p, w, dp);
#ifdef STORED
  sum += ct::gradient<stored, ct::wrt<0>>(p, 3, dp);
#endif
#ifdef PASSED
  sum += ct::gradient<passed, ct::wrt<0>>(p, 3, dp);
#endif
#ifdef FORWARD
  sum += ct::jvp<forward>(x, 1.0).tangent;
#endif
#ifdef ITERATOR
  sum += ct::gradient<throughIterator>(p, dp);
#endif
#ifdef REFUSED
  // REFUSED-DAG: library-objects.cpp:[[@LINE+1]]:14: error: parameter 'w' of 'weighted' is a library object that differentiable code keeps as the library compiled it, so it has no derivative; exclude it with ct::wrt<...>
  sum += ct::gradient<weighted>(p, w, dp, nullptr);
#endif
#ifdef FIELDED
  sum += ct::gradient<fielded>(x, &dx);
#endif
#ifdef NUMBER
  sum += ct::gradient<labelled>(x, &dx) + ct::jvp<labelled>(x, 1.0).tangent;
#endif
  return sum + dx;
}
