// What differentiable code refuses of std::shared_ptr, each once (no other
// error may appear), at its source location, with the way out: the
// library's other ways of making one (a deleter, an alias), member functions other than those modelled, and
// changing the std::shared_ptrs the caller passes, whose use counts are the
// library's (assigned, moved from, swapped, in a vector the function
// grows). What works: test/Integration/CPU/shared-pointers.cpp.
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 -I %cotangent_src/runtime/include 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <memory>
#include <vector>

struct Pair {
  double u, v;
};

struct Model {
  std::shared_ptr<Pair> weights;
  double scale;
};

[[ct::differentiable]] double aliasing(const double *x) {
  auto p = std::make_shared<Pair>(Pair{x[0], x[1]});
  // CHECK-DAG: shared-pointers-unsupported.cpp:[[@LINE+1]]:27: error: a std::shared_ptr in differentiable code is made from std::make_shared, 'new', nullptr, a std::unique_ptr or another std::shared_ptr (not with a deleter, an allocator or an alias)
  std::shared_ptr<double> u(p, &p->u);
  return *u;
}

[[ct::differentiable]] double withDeleter(const double *x) {
  // CHECK-DAG: shared-pointers-unsupported.cpp:[[@LINE+1]]:25: error: a std::shared_ptr in differentiable code is made from std::make_shared
  std::shared_ptr<Pair> p(new Pair{x[0], x[1]}, [](Pair *q) { delete q; });
  return p->u;
}

[[ct::differentiable]] double ordering(const double *x) {
  auto p = std::make_shared<Pair>(Pair{x[0], x[1]});
  auto q = p;
  // CHECK-DAG: shared-pointers-unsupported.cpp:[[@LINE+1]]:10: error: std::shared_ptr's 'owner_before' is not supported in differentiable code; use *, ->, get(), use_count(), reset, assignment and swap
  return p.owner_before(q) ? p->u : q->v;
}

[[ct::differentiable]] double assignsCallers(Model &m, const double *x) {
  // CHECK-DAG: shared-pointers-unsupported.cpp:[[@LINE+1]]:3: error: differentiable code cannot change a std::shared_ptr the caller passes (its use count is the library's); return the numbers and let the caller make or assign it
  m.weights = std::make_shared<Pair>(Pair{x[0], x[1]});
  return m.weights->u;
}

[[ct::differentiable]] double movesCallers(std::shared_ptr<Pair> &given,
                                           const double *x) {
  // CHECK-DAG: shared-pointers-unsupported.cpp:[[@LINE+1]]:42: error: differentiable code cannot change a std::shared_ptr the caller passes
  std::shared_ptr<Pair> mine = std::move(given);
  return mine->u * x[0];
}

[[ct::differentiable]] double swapsCallers(std::shared_ptr<Pair> &given,
                                           const double *x) {
  auto mine = std::make_shared<Pair>(Pair{x[0], x[1]});
  // CHECK-DAG: shared-pointers-unsupported.cpp:[[@LINE+1]]:3: error: differentiable code cannot change a std::shared_ptr the caller passes
  mine.swap(given);
  return mine->u * given->v;
}

[[ct::differentiable]] double growsCallers(
    std::vector<std::shared_ptr<Pair>> &all, const double *x) {
  // CHECK-DAG: shared-pointers-unsupported.cpp:[[@LINE+1]]:3: error: differentiable code cannot change a std::vector the caller passes whose elements hold std::shared_ptrs (their use counts are the library's); read it, and let the caller change it
  all.push_back(std::make_shared<Pair>(Pair{x[0], x[1]}));
  return all.back()->u;
}
