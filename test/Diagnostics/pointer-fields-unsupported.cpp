// What differentiable code refuses of structs holding pointers, references
// and std::vectors, each once (no other error may appear), at its source
// range, with the way out (signatures are checked before bodies, hence
// CHECK-DAG). (A pointer field the program re-seats to another array keeps
// its address in the object instead: test/Integration/CPU/
// reseated-pointer-fields.cpp. Hessian-vector products and vector mode of
// functions taking such structs work: test/Integration/CPU/
// modes-through-parameter-fields.cpp.)
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 -I %cotangent_src/runtime/include 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cotangent/cotangent.h>
#include <vector>

struct Span { const double *first; const double *second; };
struct Model { std::vector<double> weights; };

// A table of pointers kept in a struct field (an array field of another
// struct) whose address is stored in memory: its pointers are the memref
// model's offsets, which a read through the kept address cannot find (a
// local array, a vector's data() or memory from 'new' keep addresses:
// test/Integration/CPU/pointer-tables.cpp).
struct Table {
  int n;
  double **rows;
};
struct TwoRows {
  double *rows[2];
};
[[ct::differentiable]] double tableInAField(const double *x, int n) {
  double a[4] = {x[0], x[1], x[2], x[3]};
  TwoRows two{{a, a + 2}};
  // CHECK-DAG: pointer-fields-unsupported.cpp:[[@LINE+1]]:14: error: the address of this table of pointers is kept in memory, where the pointers it holds are read back as addresses, but its pointers are not kept as addresses: differentiable code keeps them so for tables made by 'new' or C's allocation functions, and for local arrays and vectors of pointers whose address the function's own code stores by name (`t.rows = rows`, `Table t{n, rows.data()}`); make the table with 'new'
  Table t{2, two.rows};
  return t.rows[n][0];
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

