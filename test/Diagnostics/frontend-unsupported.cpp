// Every construct outside the differentiable subset is a Clang error at its
// source range, saying what it is and the way out; cotangent-cc exits with
// status 1 (not a crash) and reports every error, not just the first.
// RUN: not %cotangent-cc %s -- -std=c++20 -ferror-limit=0 2>&1 | FileCheck %s
// RUN: sh -c '%cotangent-cc %s -- -std=c++20 > /dev/null 2>&1; test $? -eq 1'
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <vector>

extern thread_local double per_thread; // defined in another file
struct Pair { double a, b; };
double takes_pair(Pair p);
double own_variadic(int, ...);
struct __attribute__((packed)) Widths { char tag; float narrow; double wide; };
struct Shape {
  double size;
};
struct Solid : virtual Shape {
  double area() const { return size * size; }
};
struct Rows { double value; const double *&row; };
union Bits { double d; unsigned w[2]; };

// Signatures are checked when the functions are found, before any body.
// (Function pointers are values: Integration/CPU/function-pointers.cpp.)
[[ct::differentiable]] double uses_function_reference(double x, double (&g)(double)) {
  // CHECK: frontend-unsupported.cpp:[[@LINE-1]]:65: error: parameter 'g' has type 'double (&)(double)', which differentiable code does not support: use float or double scalars, integers, arrays and structs of them, or pointers and references to those
  return g(x);
}

[[ct::differentiable]] double uses_float_and_double(const Widths &w) {
  // CHECK: frontend-unsupported.cpp:[[@LINE-1]]:53: error: parameter 'w' has type 'struct Widths', which differentiable code does not support: its 'float' part is not aligned to its 'float's (a packed struct); drop the packing
  return w.wide;
}

[[ct::differentiable]] double uses_virtual_base(const Solid &solid) {
  // CHECK: frontend-unsupported.cpp:[[@LINE-1]]:49: error: parameter 'solid' has type 'struct Solid', which differentiable code does not support: it has virtual base classes, which differentiable code does not lay out yet; derive from them without 'virtual'
  return solid.area();
}

[[ct::differentiable]] double uses_pointer_field(const Rows &rows) {
  // CHECK: frontend-unsupported.cpp:[[@LINE-1]]:50: error: parameter 'rows' has type 'struct Rows', which differentiable code does not support: its field 'row' has type 'const double *&'; a field can point to or refer to numbers, arrays and structs, not to pointers or functions
  // CHECK-NOT: parameter 'rows' has type
  return rows.value;
}

// A goto past a declaration, and one into a block (the gotos that work:
// Integration/CPU/gotos.cpp).
[[ct::differentiable]] double uses_goto(double x) {
  if (x > 0)
    // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:5: error: this 'goto' jumps past a declaration; declare the variable before it
    goto done;
  double y;
  y = x * x;
  x += y;
done:
  return x;
}

[[ct::differentiable]] double uses_goto_into_block(double x) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:3: error: this 'goto' jumps into a block it is not in; put the label in a block that holds the 'goto'
  goto inside;
  {
  inside:
    x = x * 2;
  }
  return x;
}

[[ct::differentiable]] double uses_asm(double x) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:3: error: inline assembly cannot be differentiated; move it into a function with a custom derivative rule
  asm("nop");
  return x;
}

[[ct::differentiable]] double uses_case_range(double x, int k) {
  switch (k) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:3: error: case ranges ('case a ... b') are not supported; list the values
  case 0 ... 3:
    return x;
  }
  return 2 * x;
}

[[ct::differentiable]] double deletes_argument(double x, double *p) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:3: error: 'delete' of memory that this function did not allocate with 'new' cannot be differentiated
  delete[] p;
  return x;
}

// (C++ throws where a run-time size is smaller than the list.)
[[ct::differentiable]] double listed_run_time_size(double x, int n) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:32: error: an array 'new' of a size known only at run time cannot be given initial values; assign the elements after 'new T[n]()'
  double *p = new double[n + 2]{x, x};
  double s = p[0] + p[1];
  delete[] p;
  return s;
}

// Quadruple precision (long double, x86's 80 bits, is supported).
__float128 halve(__float128 v) { return v / 2; }
[[ct::differentiable]] double uses_quadruple_literal(double x) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:3: error: a conversion here has type '__float128', which differentiable code does not support
  return x * halve(3.0Q);
}

[[ct::differentiable]] double uses_thread_local(double x) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:14: error: 'per_thread' is a thread-local variable defined in another file; differentiable functions use thread-local variables outside functions only when this file defines them with a constant and nothing to destroy: pass it as a parameter, or make it a 'thread_local' variable of the function
  return x * per_thread;
}

[[ct::differentiable]] double uses_same_named_statics(double x) {
  if (x > 0) {
    // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:5: error: 'memo' is one of several static variables of this name in one function
    static double memo = 1;
    x *= memo;
  }
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:3: error: 'memo' is one of several static variables of this name in one function; differentiable code can tell them apart only by name: rename them
  static double memo = 2;
  return x * memo;
}

// A function without a body is called as it is where no derivative flows
// (test/Diagnostics/library-calls.cpp), but only with what the C ABI
// passes as the memory model does.
[[ct::differentiable]] double uses_no_body(double x) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:10: error: 'takes_pair' has no visible body and takes 'Pair' (parameter 'p'); differentiable code calls a function compiled elsewhere only with numbers, and pointers or references to numbers and structs of numbers. Define it in this file, mark it {{\[\[}}ct::differentiable{{\]\]}} where it is defined, or give it a custom derivative rule
  return takes_pair(Pair{x, x});
}

[[ct::differentiable]] double uses_io(double x, const char *name) {
  // Logging numbers and literals is kept; other arguments are not.
  printf("%f\n", x);
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:21: error: 'printf' in differentiable code may print numbers and string literals only; print other values outside
  printf("%s %f\n", name, x);
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:3: error: variadic functions cannot be differentiated; move the call (I/O, logging) outside the differentiable function
  own_variadic(1, x);
  return x;
}

[[ct::differentiable]] double uses_union(double x) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:3: error: variable 'b' has type 'union Bits', which differentiable code does not support: a union is differentiated only where its members are views of the same numbers (every part a number of one floating-point type, or each member one number of one width: a float and its bits) or where it holds one value beside empty or one-byte markers (std::optional's); use a struct, or std::bit_cast
  Bits b;
  return x;
}

[[ct::differentiable]] double moves_to_later_array(const double *a, int n) {
  const double *p = a;
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += p[0];
    std::vector<double> q(2, s);
    // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:5: error: a pointer variable can move to another array only if that array exists wherever the variable is read; create it before the variable
    p = q.data();
  }
  return s;
}

[[ct::differentiable]] double uses_reinterpret(const double *a) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:10: error: converting 'const double *' to 'const float *' cannot be differentiated: differentiable code uses pointers of one element type per array
  return reinterpret_cast<const float *>(a)[0];
}

// Reinterpreting is allowed between objects of the same scalars only: not
// when one holds a pointer.
struct Tagged {
  double value;
  const double *origin;
};
[[ct::differentiable]] double uses_reinterpret_of_pointers(Tagged *t) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:10: error: converting 'Tagged *' to 'double *' cannot be differentiated: differentiable code uses pointers of one element type per array
  return reinterpret_cast<double *>(t)[0];
}

// A reference returned from recursion: each call is lowered in place.
const double &largest(const double *a, int n) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:34: error: 'largest' calls itself, and it is lowered in place (it passes lambdas or objects holding pointers, or returns pointers or references): such recursion is not supported; write it as a loop, or pass indices
  return n == 1 ? a[0] : (a[0] > largest(a + 1, n - 1) ? a[0] : a[1]);
}
[[ct::differentiable]] double uses_recursive_reference(const double *a, int n) {
  return largest(a, n);
}

// Placement new constructs an object where a pointer of its own type
// points; into memory of another type (a buffer of doubles) it is refused.
[[ct::differentiable]] double uses_placement_into_other_type(double *buffer,
                                                           double x) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:3: error: placement 'new' of a 'Pair' can be differentiated only where a 'Pair *' points; pass one
  ::new (static_cast<void *>(buffer)) Pair{x, x};
  return buffer[0];
}

// SIMD vectors are their lanes (Integration/CPU/simd-vectors.cpp); a
// choice of lanes by a vector of conditions is not lowered yet.
typedef double TwoDoubles __attribute__((vector_size(16)));
[[ct::differentiable]] double uses_simd_select(double x, double y) {
  TwoDoubles a = {x, y}, b = {y, x};
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:18: error: this SIMD vector expression cannot be differentiated yet
  TwoDoubles m = a < b ? a : b;
  return m[0];
}

// C's allocation functions: memory of numbers, pointers and structs of
// them (not pointers to views, whose own pointers are known beside them),
// freed where it was made; realloc needs the size of what it is given (a
// pointer variable also given the caller's memory has none)
// (Integration/CPU/c-allocation.cpp: tables of rows from malloc, grown by
// realloc).
struct Window {
  const double *data;
  int size;
};
[[ct::differentiable]] double uses_c_allocation(double *caller, int n) {
  auto **rows = (double **)malloc(2 * sizeof(double *));
  rows = (double **)realloc(rows, 4 * sizeof(double *));
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:20: error: memory from C's allocation functions can hold numbers, pointers and structs of them, not objects whose pointers designate 'Window' objects holding pointers of their own; use 'new'
  auto **windows = (const Window **)malloc(2 * sizeof(Window *));
  double *grown = (double *)malloc(n * sizeof(double));
  if (n > 3)
    grown = caller + 1;
  // (A pointer variable also given other memory is realloc'd by the size
  // its allocator knows: C only lets realloc be given allocations.)
  for (int i = 0; i < 3; ++i)
    grown = (double *)realloc(grown, (i + 2) * n * sizeof(double));
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:29: error: 'realloc' of memory that this function did not allocate with 'malloc' or 'new' cannot be differentiated
  double *moved = (double *)realloc(caller, 2 * n * sizeof(double));
  grown[1] = moved[0];
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:3: error: 'free' of memory that this function did not allocate with 'malloc' cannot be differentiated
  free(caller);
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:47: error: memory with an alignment that is not a constant cannot be differentiated yet; use a constant, or malloc (16 bytes)
  double *wide = (double *)std::aligned_alloc(n, 64 * sizeof(double));
  // CHECK: frontend-unsupported.cpp:[[@LINE+2]]:29: error: memory with an alignment that is not a constant cannot be differentiated yet; use a constant, or malloc (16 bytes)
  double *lane = static_cast<double *>(
      ::operator new(n * 8, std::align_val_t(n)));
  return grown[0] + wide[0] + lane[0];
}

// Memory kept as `void *` takes its type from the first cast, so realloc
// needs it typed, and the cast needs the memory it types known (not chosen
// at run time); `void *` of typed memory converts back to that type only.
[[ct::differentiable]] double uses_untyped_memory(const double *x, float *f,
                                                  int n) {
  void *untyped = malloc(n * sizeof(double));
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:29: error: 'realloc' of memory no cast has given a type yet cannot be differentiated; cast it to the type it holds first
  double *grown = (double *)realloc(untyped, 2 * n * sizeof(double));
  void *floats = f;
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:19: error: converting 'void *' to 'double *' cannot be differentiated: the memory it points at was not made of 'double' (differentiable code uses pointers of one element type per array)
  double *wrong = static_cast<double *>(floats);
  void *moved;
  moved = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    moved = malloc(sizeof(double));
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:20: error: converting 'void *' to 'double *' cannot be differentiated: the bytes it points at are chosen at run time among allocations (or kept in memory) before a cast gives them their type; cast each allocation to its type where it is made
  double *chosen = (double *)moved;
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:18: error: a choice between 'void *' values made by calls (`c ? malloc(a) : malloc(b)`) cannot be differentiated; cast each to the type it holds first
  void *either = n > 2 ? malloc(n * sizeof(double)) : malloc(sizeof(double));
  return grown[0] + wrong[0] + chosen[0] + static_cast<double *>(either)[0];
}

// A function pointer parameter is the function named where it is passed
// (a lambda converted to one too: its static invoker, whose address the
// file takes, Integration/CPU/function-pointers.cpp); a generic lambda's
// invoker is a template, instantiated per type, so it is no such address.
static double keepFirst(double x, double (*op)(double)) {
  double (*kept)(double) = op;
  return kept(x);
}
[[ct::differentiable]] double keeps_lambda_as_pointer(double x) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:23: error: a generic lambda converted to a function pointer cannot be followed by differentiable code yet; give its parameters types, or pass the lambda itself (to a template parameter)
  return keepFirst(x, [](auto t) { return t * t; });
}

// An integer is an address only where it rounds up the address of memory
// from C's allocation functions to an alignment they give.
[[ct::differentiable]] double uses_integer_address(const double *x) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:24: error: converting an integer to a pointer cannot be differentiated (rounding the address of memory from C's allocation functions up to its alignment is the one such use); keep the pointer
  const double *next = reinterpret_cast<const double *>(
      reinterpret_cast<unsigned long>(x) + sizeof(double));
  return next[0];
}

// A pointer declared without a value is declared by its first assignment,
// which must come before any other use in its block.
[[ct::differentiable]] double reads_before_assignment(const double *x) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:3: error: a pointer variable must be initialized where it is declared, or assigned before any other use in its block
  const double *p;
  double v = p == nullptr ? 0.0 : 1.0;
  p = x;
  return p[0] + v;
}

// memset sets bytes: zero bytes are zero in any memory, and any byte
// makes one number's bits, but a struct mixing integers with numbers holds
// its integers among the numbers' slots, and bytes without a type have no
// scalars to set.
struct Counted { double value; int count; };
[[ct::differentiable]] double sets_raw_bytes(double x, int n) {
  Counted c{x, n};
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:3: error: setting raw bytes cannot be differentiated; set typed elements (std::fill, or a loop), or set memory of numbers
  std::memset(&c, 1, sizeof c);
  void *raw = std::malloc(16);
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:3: error: setting raw bytes cannot be differentiated
  std::memset(raw, 0, 16);
  std::free(raw);
  return c.value * x;
}

// A base given on its own (a parameter of the base's type) is not known to
// be part of the derived object.
struct IntBase { int id; };
struct Tagged2 : IntBase { double value; };
static double valueOf(const IntBase &base) {
  // CHECK: frontend-unsupported.cpp:[[@LINE+1]]:10: error: this conversion to a derived class cannot be differentiated: the base's memory is not known to be part of a 'Tagged2'; pass the derived object
  return static_cast<const Tagged2 &>(base).value;
}
[[ct::differentiable]] double uses_packed_downcast(double x) {
  Tagged2 t;
  t.id = 1;
  t.value = x;
  return valueOf(t);
}

// CHECK: 39 errors generated.

// Code outside differentiable functions is left alone.
double untouched(double x) {
  try { throw 1; } catch (...) {}
  return x;
}
