// Tables of pointers, as C and C++ numerical code writes them: a matrix as
// `double **` rows made one by one by `new[]` or `malloc` in a loop (jagged
// too), freed row by row; a table kept in a struct field (`double **rows`)
// by a class that owns it, by a helper that makes it, or pointing to a
// local array of row pointers or to a vector's `data()`; arrays of structs
// made by `new T[n]` whose pointer fields each get memory of their own
// (default constructors run on each element); a table the caller passes
// inside a struct (`const double *const *rows`), whose derivative struct
// holds a table of derivative rows; linked nodes from `malloc`; tables
// grown by `realloc` (of row pointers, C's growable array of pointers
// pushed to by a helper, structs of pointers), whose pointers are copied
// as addresses. Each
// table keeps the addresses it is given (docs/Memory.md, item 30).
// Reverse and forward mode against central differences, at -O0 and -O2
// (and under AddressSanitizer in the sanitizer build).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdlib>
#include <vector>

#include "check-modes.h"

// sum_ij sin(x_i x_j + [i == j]) through rows made by `new[]` in a loop.
[[ct::differentiable]] double newRows(const double *x, int n) {
  double **a = new double *[n];
  for (int i = 0; i < n; ++i)
    a[i] = new double[n];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      a[i][j] = x[i] * x[j] + (i == j);
  double s = 0;
  for (int i = 0; i < n; ++i) {
    const double *row = a[i];
    for (int j = 0; j < n; ++j)
      s += std::sin(row[j]);
  }
  for (int i = 0; i < n; ++i)
    delete[] a[i];
  delete[] a;
  return s;
}

// A lower-triangular table from malloc (row i has i + 1 entries), C style:
// the table declared first and assigned after, each row checked for null.
[[ct::differentiable]] double mallocTriangle(const double *x, int n) {
  double **t = nullptr;
  t = static_cast<double **>(std::malloc(n * sizeof(double *)));
  for (int i = 0; i < n; ++i) {
    t[i] = static_cast<double *>(std::calloc(i + 1, sizeof(double)));
    if (!t[i])
      std::abort();
    for (int j = 0; j <= i; ++j)
      t[i][j] = x[i] - 0.5 * x[j];
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      s += t[i][j] * t[i][j] * (j + 1);
  for (int i = 0; i < n; ++i)
    std::free(t[i]);
  std::free(t);
  return s;
}

// A grid class owning its table of rows: `new double *[n]` in the
// constructor, rows zeroed by `new double[m]()`, freed in the destructor.
class Grid {
public:
  Grid(int n, int m) : n_(n), m_(m), rows_(new double *[n]) {
    for (int i = 0; i < n; ++i)
      rows_[i] = new double[m]();
  }
  ~Grid() {
    for (int i = 0; i < n_; ++i)
      delete[] rows_[i];
    delete[] rows_;
  }
  Grid(const Grid &) = delete;
  Grid &operator=(const Grid &) = delete;
  double *operator[](int i) { return rows_[i]; }
  const double *operator[](int i) const { return rows_[i]; }
  int rows() const { return n_; }
  int cols() const { return m_; }

private:
  int n_, m_;
  double **rows_;
};

static double laplacianEnergy(const Grid &g) {
  double s = 0;
  for (int i = 1; i + 1 < g.rows(); ++i)
    for (int j = 1; j + 1 < g.cols(); ++j) {
      double l = g[i - 1][j] + g[i + 1][j] + g[i][j - 1] + g[i][j + 1] -
                 4 * g[i][j];
      s += l * l;
    }
  return s;
}

[[ct::differentiable]] double gridEnergy(const double *x, int n) {
  Grid g(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      g[i][j] = std::sin(x[i] + 2 * x[j]);
  return laplacianEnergy(g);
}

// A struct holding a table, made by a helper from malloc and released by
// another (C's "matrix" idiom).
struct Matrix {
  int n, m;
  double **rows;
};

static Matrix makeMatrix(int n, int m) {
  Matrix a{n, m, static_cast<double **>(std::malloc(n * sizeof(double *)))};
  for (int i = 0; i < n; ++i)
    a.rows[i] = static_cast<double *>(std::calloc(m, sizeof(double)));
  return a;
}

static void release(Matrix &a) {
  for (int i = 0; i < a.n; ++i)
    std::free(a.rows[i]);
  std::free(a.rows);
}

[[ct::differentiable]] double matrixOfRows(const double *x, int n) {
  Matrix a = makeMatrix(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      a.rows[i][j] = x[i] * x[j] + (i == j);
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      s += a.rows[i][j] * a.rows[j][i] * std::exp(0.1 * j);
  release(a);
  return s;
}

// A table of rows into one local array, kept in a struct by its address:
// from a local array of pointers and from a vector's data().
static double pairProducts(const Matrix &t) {
  double s = 0;
  for (int i = 0; i < t.n; ++i)
    s += t.rows[i][0] * t.rows[i][1];
  return s;
}

[[ct::differentiable]] double localTable(const double *x, int n) {
  double a[6] = {x[0], x[1], x[2], x[3] * x[3], x[1] * x[2], 1.0};
  double *rows[3];
  for (int i = 0; i < 3; ++i)
    rows[i] = a + 2 * i;
  Matrix t{3, 2, rows};
  std::vector<double *> again(3);
  for (int i = 0; i < 3; ++i)
    again[i] = a + 4 - 2 * i;
  Matrix u{3, 2, again.data()};
  return pairProducts(t) + x[0] * pairProducts(u);
}

// Pointers into different arrays stored through the table converted to a
// pointer, through the address of its first element, and through a
// reference to it.
[[ct::differentiable]] double storedThroughTable(const double *x, int n) {
  double b[2] = {x[1] * x[2], x[3]};
  const double *rows[2];
  const double **alias = rows;
  alias[0] = x;
  alias[1] = b;
  const double *more[2];
  const double **first = &more[0];
  first[0] = b;
  first[1] = x + 2;
  const double *last[2];
  const double *(&named)[2] = last;
  named[0] = x + 1;
  named[1] = b;
  return rows[n % 2][0] * rows[1 - n % 2][1] + more[n % 2][0] * more[0][1] +
         last[n % 2][0] * last[1 - n % 2][0];
}

// Structs made by `new T[n]` (their default constructor runs on each),
// each pointing to memory of its own.
struct Row {
  int length = 0;
  double *values = nullptr;
};

[[ct::differentiable]] double raggedRows(const double *x, int n) {
  Row *rows = new Row[n];
  for (int i = 0; i < n; ++i) {
    rows[i].length = i + 1;
    rows[i].values = new double[i + 1];
    for (int j = 0; j <= i; ++j)
      rows[i].values[j] = std::exp(0.3 * x[j]) * x[i];
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < rows[i].length; ++j)
      s += rows[i].values[j] * rows[i].values[j];
  for (int i = 0; i < n; ++i)
    delete[] rows[i].values;
  delete[] rows;
  return s;
}

// Nodes of a list from malloc.
struct Node {
  double value;
  Node *next;
};

[[ct::differentiable]] double mallocList(const double *x, int n) {
  Node *head = nullptr;
  for (int i = 0; i < n; ++i) {
    Node *node = static_cast<Node *>(std::malloc(sizeof(Node)));
    node->value = x[i] * x[i];
    node->next = head;
    head = node;
  }
  double s = 0;
  for (const Node *p = head; p; p = p->next)
    s += std::sin(p->value);
  while (head) {
    Node *next = head->next;
    std::free(head);
    head = next;
  }
  return s;
}

// The caller's table in a struct: s = value + sum_ij (i + 1) rows[i][j]^2.
// sum_i row_i[0] * row_{i+1}[1], rows (x_i, cos x_i) made by malloc, their
// table grown by realloc as they are made (capacity doubled from nullptr),
// each row read back through the grown table.
[[ct::differentiable]] double reallocatedTable(const double *x, int n) {
  double **table = nullptr;
  int capacity = 0;
  for (int i = 0; i < n; ++i) {
    if (i == capacity) {
      capacity = capacity ? 2 * capacity : 1;
      table = (double **)realloc(table, capacity * sizeof(double *));
    }
    table[i] = (double *)malloc(2 * sizeof(double));
    table[i][0] = x[i];
    table[i][1] = std::cos(x[i]);
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += table[i][0] * table[(i + 1) % n][1];
  for (int i = 0; i < n; ++i)
    free(table[i]);
  free(table);
  return s;
}

// C's growable array of pointers (a data pointer, a size and a capacity,
// pushed to by a helper that doubles the capacity by realloc): pointers
// into x and into a buffer of squares, interleaved; then
// sum_k p_k[0] * p_{k+1}[0]^2.
struct PointerList {
  const double **data;
  int size, capacity;
};

static void push(PointerList &list, const double *p) {
  if (list.size == list.capacity) {
    list.capacity = list.capacity ? 2 * list.capacity : 2;
    list.data = (const double **)realloc(list.data,
                                         list.capacity * sizeof(double *));
  }
  list.data[list.size++] = p;
}

[[ct::differentiable]] double growablePointerList(const double *x, int n) {
  double squares[5];
  for (int i = 0; i < n; ++i)
    squares[i] = x[i] * x[i];
  PointerList list{nullptr, 0, 0};
  for (int i = 0; i < n; ++i) {
    push(list, x + i);
    push(list, squares + (n - 1 - i));
  }
  double s = 0;
  for (int k = 0; k + 1 < list.size; ++k)
    s += *list.data[k] * *list.data[k + 1] * *list.data[k + 1];
  free(list.data);
  return s;
}

// Springs whose ends lie in x or in a buffer of sines, in memory from malloc
// grown by realloc to twice its size (the first springs' ends copied as
// addresses); sum_k k_k (b_k - a_k)^4.
struct Spring {
  const double *a, *b;
  double stiffness;
};

[[ct::differentiable]] double reallocatedSprings(const double *x, int n) {
  double sines[5];
  for (int i = 0; i < n; ++i)
    sines[i] = std::sin(x[i]);
  int half = n / 2;
  auto *springs = (Spring *)malloc(half * sizeof(Spring));
  for (int i = 0; i < half; ++i)
    springs[i] = Spring{x + i, sines + i + 1, 1.0 + i};
  springs = (Spring *)realloc(springs, 2 * half * sizeof(Spring));
  for (int i = half; i < 2 * half; ++i)
    springs[i] = Spring{sines + i - half, x + i, 0.5 * i};
  double e = 0;
  for (int i = 0; i < 2 * half; ++i) {
    double d = *springs[i].b - *springs[i].a;
    e += springs[i].stiffness * d * d * d * d;
  }
  free(springs);
  return e;
}

struct Rows {
  const double *const *rows;
  double value;
  int n, m;
};

[[ct::differentiable]] double weightedSquares(const Rows &r) {
  double s = r.value;
  for (int i = 0; i < r.n; ++i)
    for (int j = 0; j < r.m; ++j)
      s += (i + 1) * r.rows[i][j] * r.rows[i][j];
  return s;
}

template <auto F> void checkBothModes(const char *name, int n) {
  double x[5] = {0.3, -0.2, 0.5, 0.9, 0.4};
  check::gradientAndTangents<F>(name, x, n);
}

template <auto F> void checkHvp(const char *name, int n) {
  const double x[5] = {0.3, -0.2, 0.5, 0.9, 0.4};
  const double v[5] = {0.2, -0.1, 0.3, 0.5, -0.4};
  check::hessianVectorProduct<F>(name, x, v, n);
}

int main() {
  checkBothModes<newRows>("new[] rows", 4);
  checkBothModes<mallocTriangle>("malloc triangle", 5);
  checkBothModes<gridEnergy>("grid class", 5);
  checkBothModes<matrixOfRows>("matrix of rows", 4);
  checkBothModes<localTable>("local table", 4);
  checkBothModes<storedThroughTable>("stored through table", 4);
  checkBothModes<raggedRows>("ragged rows", 5);
  checkBothModes<mallocList>("malloc list", 5);
  checkBothModes<reallocatedTable>("reallocated table", 5);
  checkBothModes<growablePointerList>("growable pointer list", 5);
  checkBothModes<reallocatedSprings>("reallocated springs", 5);
  checkHvp<newRows>("new[] rows hvp", 4);
  checkHvp<gridEnergy>("grid class hvp", 5);
  checkHvp<raggedRows>("ragged rows hvp", 5);
  checkHvp<reallocatedTable>("reallocated table hvp", 5);
  checkHvp<growablePointerList>("growable pointer list hvp", 5);
  checkHvp<reallocatedSprings>("reallocated springs hvp", 5);

  double r0[3] = {1, 2, 3}, r1[3] = {-1, 0.5, 2};
  const double *rows[2] = {r0, r1};
  Rows r{rows, 0.25, 2, 3};
  double d0[3] = {}, d1[3] = {};
  const double *dRows[2] = {d0, d1};
  Rows dr{dRows, 0, 2, 3};
  double value = ct::gradient<weightedSquares>(r, &dr);
  check::near("caller's table value", value, weightedSquares(r), 1e-12);
  for (int j = 0; j < 3; ++j) {
    check::near("caller's table row 0", d0[j], 2 * r0[j], 1e-12);
    check::near("caller's table row 1", d1[j], 4 * r1[j], 1e-12);
  }
  check::near("caller's table value derivative", dr.value, 1, 1e-12);
  return check::report();
}
