// What differentiable code refuses of the std::vector fields of structs
// that a std::vector holds (kept in memory as C++ lays them out:
// docs/Memory.md), each once (no other error may appear), with the way out
// (in any order: helpers are lowered after the functions that call them).
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 -I %cotangent_src/runtime/include 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <vector>

struct Layer {
  std::vector<double> weights;
};

// A field grown through a pointer to it, in a helper: growth is followed
// through references to the field, not pointers.
static void grow(std::vector<double> *to, double x) {
  // CHECK-DAG: vector-fields-unsupported.cpp:[[@LINE+1]]:3: error: 'push_back' grows this std::vector, which differentiable code supports for local vectors of numbers
  to->push_back(x);
}

[[ct::differentiable]] double growThroughPointer(double x) {
  std::vector<Layer> net(1);
  grow(&net[0].weights, x);
  return net[0].weights[0];
}

// Pointers in a vector field of a struct held in a vector.
struct Rows {
  std::vector<const double *> rows;
  int n = 0;
};

[[ct::differentiable]] double pointerRows(const double *x) {
  // CHECK-DAG: vector-fields-unsupported.cpp:[[@LINE+1]]:21: error: an element of this vector has type 'struct Rows', which differentiable code does not support: its field 'rows' is a std::vector of pointers (or of structs holding them), which a struct held in a std::vector cannot have yet; keep indices into the arrays instead
  std::vector<Rows> all(1);
  all[0].rows.push_back(x);
  return all[0].rows[0][0];
}
