// What differentiable code refuses of structs holding pointers, references
// and std::vectors, each once (no other error may appear), at its source
// range, with the way out (signatures are checked before bodies, hence
// CHECK-DAG). (A pointer field the program re-seats to another array keeps
// its address in the object instead: test/Integration/CPU/
// reseated-pointer-fields.cpp.)
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 -I %cotangent_src/runtime/include 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cotangent/cotangent.h>
#include <vector>

struct Span { const double *first; const double *second; };
struct Model { std::vector<double> weights; };

// Pointers into different arrays stored into an array through a pointer to
// its elements (not by the array's name, whose stores keep addresses).
[[ct::differentiable]] double storedThroughAlias(const double *a,
                                                 const double *b, int i) {
  const double *rows[2];
  const double **alias = rows;
  alias[0] = a;
  // CHECK-DAG: pointer-fields-unsupported.cpp:[[@LINE+1]]:3: error: this pointer into another array is stored into an element of an array or vector chosen at run time where the function's own code does not name the array (a pointer to its elements, a helper); store such pointers by the array's name (`a[i] = p`, `a[i].f = p`, its initializer, `push_back`, a constructor's member initializers), and their addresses are kept
  alias[1] = b;
  return rows[i][0];
}

// Objects whose pointer fields point into different arrays, designated by
// a pointer a conditional chooses and then moves: its offset in each
// object is not known (a pointer that is reassigned, or kept in an array,
// makes the struct keep its fields' addresses in its objects:
// test/Integration/CPU/moving-object-pointers.cpp).
struct Window {
  const double *data;
  int n;
};

[[ct::differentiable]] double chosenWindow(const double *x, const double *y) {
  Window a{x, 2}, b{y, 2};
  // (Only read, the choice works: test/Integration/CPU/chosen-objects.cpp;
  // moved after it, its offset in each object is not known.)
  const Window *chosen = x[0] > 0 ? &a : &b;
  ++chosen;
  --chosen;
  // CHECK-DAG: pointer-fields-unsupported.cpp:[[@LINE+1]]:10: error: the field 'data' of an object chosen at run time among objects the function names cannot be followed: such fields designate memory known beside each object; keep the objects in an array and choose one by its index (`objects[k]`)
  return chosen->data[0];
}

// A constructor's own assignments set its fields: moving one to another
// array there is refused.
struct Cursor {
  const double *at;
  Cursor(const double *a, const double *b) {
    at = a;
    // CHECK-DAG: pointer-fields-unsupported.cpp:[[@LINE+1]]:5: error: a pointer field can only move within the array it was first set to; use another object
    at = b;
  }
};

[[ct::differentiable]] double movedInConstructor(const double *a,
                                                 const double *b) {
  Cursor cursor(a, b);
  return cursor.at[0];
}

[[ct::differentiable]] double usedBeforeSet(const double *a) {
  Span span;
  span.second = a;
  // CHECK-DAG: pointer-fields-unsupported.cpp:[[@LINE+1]]:10: error: the field 'first' is used before it is set
  return span.first[0] + span.second[0];
}

[[ct::differentiable]] double sumSpan(const Span &span) {
  return span.first[0] * span.second[0];
}

double secondOrder(const Span &span, Span *tangent, Span *hv) {
  // CHECK-DAG: pointer-fields-unsupported.cpp:[[@LINE+1]]:14: error: ct::hvp of a function whose parameters hold pointer, reference or vector fields is not supported yet; pass that memory as parameters of its own
  return ct::hvp<sumSpan>(span, tangent, hv), 0.0;
}
