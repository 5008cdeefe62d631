// What differentiable code refuses of std::vector, iterators and the
// algorithms, each once (the count), at its source range, with the way out
// (signatures are checked before bodies, hence CHECK-DAG).
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 2>&1 | FileCheck %s
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <tuple>
#include <vector>

struct Model { std::vector<double> weights; };
struct Less { bool operator()(double a, double b) const { return a < b; } };
struct Overloaded {
  double operator()(double a) const { return a; }
  float operator()(float a) const { return a; }
};

// A vector that changes its memory at run time (here, grown without a
// reserve) swaps only with another such vector.
[[ct::differentiable]] double grows(const double *x, int n) {
  std::vector<double> v, w(x, x + n);
  for (int i = 0; i < n; ++i)
    v.push_back(x[i]);
  v.insert(v.end(), w.begin(), w.end());
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:3: error: this vector changes its memory at run time, and can be swapped only with another such local vector
  v.swap(w);
  return v[0];
}

// A vector a pointer designates grows within a capacity reserved where it
// is declared (through a reference bound to it, it grows anywhere).
[[ct::differentiable]] double designatedGrows(const double *x, int n) {
  std::vector<const double *> p;
  std::vector<const double *> *alias = &p;
  for (int i = 0; i < n; ++i)
    // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:5: error: 'push_back' grows this std::vector, which differentiable code supports for local vectors of numbers, pointers or structs of them that no reference designates, and otherwise within the capacity reserved beforehand: call v.reserve(n) where v is declared (or create it with its final size and assign v[i])
    alias->push_back(x + i);
  return x[0];
}

// A helper's pointer parameter given a vector's address grows it
// (test/Integration/CPU/vector-output-pointers.cpp), but not through a
// pointer variable the helper copies it into.
inline void growThroughCopy(std::vector<double> *out, double e) {
  std::vector<double> *copy = out;
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:3: error: 'push_back' grows this std::vector, which differentiable code supports for local vectors of numbers, pointers or structs of them that no reference designates
  copy->push_back(e);
}
[[ct::differentiable]] double copiedPointerGrows(const double *x, int n) {
  std::vector<double> v;
  growThroughCopy(&v, x[0]);
  return v.back();
}

[[ct::differentiable]] double pinned(double x) {
  std::vector<double> v(2, x);
  double &first = v[0];
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:3: error: a std::vector can change its size only as a statement
  v.resize(4);
  return first;
}

struct Pair {
  double a, b;
  bool operator<(const Pair &other) const { return a < other.a; }
};

[[ct::differentiable]] double comparator(const std::vector<double> &x) {
  std::vector<Pair> pairs(2, Pair{x[0], x[1]});
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:10: error: std::max_element and std::min_element of structs need a comparison (a lambda or function)
  return std::max_element(pairs.begin(), pairs.end())->a;
}

[[ct::differentiable]] double overloadedFunctor(std::vector<double> &x) {
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:49: error: this function object cannot be called from differentiable code; pass a lambda defined in the function, a named function or an object with one operator()
  std::transform(x.begin(), x.end(), x.begin(), Overloaded{});
  return x[0];
}

struct Ref { const double *p; };

[[ct::differentiable]] double swaps(const double *x, const double *y) {
  // (Vectors that grow swap: test/Integration/CPU/reserved-vectors.cpp.)
  std::vector<Ref> a(1), b(1);
  a[0].p = x;
  b[0].p = y;
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:3: error: swapping vectors of structs holding pointers is not supported; swap indices into them instead
  a.swap(b);
  return a[0].p[0];
}

// std::back_inserter keeps the vector's address in a library object.
[[ct::differentiable]] double backInserter(const double *x, int n) {
  std::vector<double> out;
  // CHECK-DAG: error: 'push_back' grows a std::vector through its address kept in a library object (a std::back_insert_iterator), which differentiable code cannot follow; push_back to the vector by its name in a loop, or size it first and write through its begin()
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:3: note: in call to 'std::partial_sum' from here
  std::partial_sum(x, x + n, std::back_inserter(out));
  return out[0];
}

[[ct::differentiable]] double bytes(double *a, const float *b) {
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:3: error: copying raw bytes cannot be differentiated; copy typed elements (std::copy, or a loop)
  std::memcpy(a, b, 8);
  return a[0];
}

[[ct::differentiable]] double voidPointers(const double *a, const float *b) {
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:10: error: 'void *' pointers cannot be compared or subtracted in differentiable code; compare typed pointers
  return (const void *)a == (const void *)b ? a[0] : 0.0;
}

struct Point { double x, y; };

[[ct::differentiable]] double emplacesAggregate(const double *x, int n) {
  std::vector<Point> points;
  points.reserve(n);
  for (int i = 0; i < n; ++i) {
    // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:5: error: 'emplace_back' with these arguments is not supported; pass one value of the element type
    points.emplace_back(x[i], x[i]);
  }
  return points[0].x;
}

// A deleter whose call operators do not say which one frees the pointer
// (none takes a 'double *' exactly).
struct Releases {
  void operator()(void *p) const { std::free(p); }
  void operator()(int *p) const { delete p; }
};

[[ct::differentiable]] double unclearDeleter(const double *x) {
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:37: error: the deleter 'Releases' of this std::unique_ptr cannot be followed in differentiable code: give it one call operator taking the pointer
  std::unique_ptr<double, Releases> owned(
      static_cast<double *>(std::malloc(sizeof(double))));
  *owned = x[0];
  return *owned * x[0];
}

// A deleter with storage of its own: a function pointer, a class with data.
struct TaggedDeleter {
  int tag;
  void operator()(double *p) const { delete[] p; }
};

[[ct::differentiable]] double owners(const double *x, int n) {
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:3: error: variable 'kept' has type 'class std::unique_ptr<double[], void (*)(void *){{( noexcept)?}}>', which differentiable code does not support: its deleter takes storage of its own (a function pointer, or a class with data), which differentiable code does not lay out yet; write the deleter as a class without data whose call operator frees the pointer
  std::unique_ptr<double[], decltype(&std::free)> kept(
      static_cast<double *>(std::malloc(n * sizeof(double))), &std::free);
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:3: error: variable 'tagged' has type 'class std::unique_ptr<double[], struct TaggedDeleter>', which differentiable code does not support: its deleter takes storage of its own
  std::unique_ptr<double[], TaggedDeleter> tagged(new double[n], {1});
  kept[0] = x[0];
  tagged[0] = x[0];
  return kept[0] * tagged[0];
}

// The vectors of an array are kept in memory as their addresses; a pointer
// to them would designate those, not their elements.
[[ct::differentiable]] double decayed(const double *x, int n) {
  std::vector<double> rows[2];
  rows[0].assign(n, x[0]);
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:28: error: a pointer to the std::vectors of an array is not supported; index the array, or bind a reference to one of its vectors
  std::vector<double> *p = rows;
  return (*p)[0];
}

// A pointer to vectors is an index into the vectors it designates: one
// whose address is taken is refused where it is declared.
[[ct::differentiable]] double addressedVectorPointer(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n);
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:3: error: 'p' points to a std::vector and has its address taken or is bound to a reference, which differentiable code does not support yet: assign it the address of one of the vectors (or swap it with std::swap), or use a reference to the vector
  std::vector<double> *p = &a;
  std::vector<double> **pp = &p;
  if (x[0] > 0.5)
    *pp = &b;
  return (*p)[0];
}

// A pointer that designates vectors kept in memory and a vector variable
// of the function cannot grow what it designates (the variable's size is
// not in memory).
[[ct::differentiable]] double growsThroughView(const double *x, int n) {
  std::vector<std::vector<double>> rows(n, std::vector<double>(2, x[0]));
  std::vector<double> first(n, x[1]);
  std::vector<double> *keep = &first;
  for (int k = 0; k < n; ++k)
    if (x[k] > 0.5)
      keep = &rows[k];
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:3: error: 'push_back' cannot change the vector this pointer designates: it may be a vector variable of the function (given by '&'), whose size differentiable code does not change through a pointer that also designates vectors kept in memory
  keep->push_back(x[2]);
  return (*keep)[0];
}

// A vector made by 'new' kept in a raw pointer variable is read through
// '*v' and 'v->' (Integration/CPU/vector-pointers.cpp); the pointer itself
// given to a helper is refused.
static double firstOf(const std::vector<double> *v) { return (*v)[0]; }
[[ct::differentiable]] double newVectorPassed(const double *x, int n) {
  std::vector<double> *v = new std::vector<double>(n);
  (*v)[0] = x[0];
  // CHECK-DAG: std-vector-unsupported.cpp:[[@LINE+1]]:22: error: 'v' keeps the address of the std::vector it designates (a vector made by 'new', or kept in memory), which differentiable code reads through '*v' and 'v->' only; pass '*v' to helpers
  double s = firstOf(v);
  delete v;
  return s;
}

// CHECK: 18 errors generated.
