// Arrays of variable length (`double a[n];`, Clang's extension to C++ from
// C99): of numbers and of structs, declared in the function, in loops (one
// per iteration, of a length the iteration computes) and in helpers, read
// and written by index and through pointers; in two and three dimensions
// (`double g[n][m];`, `double c[2][3][n];`); of pointers (tables of rows
// into different arrays, springs, grids of pointers, pointers to views).
// Every mode (value, gradient
// against central differences, forward mode, Hessian-vector products,
// two lanes) at -O0 and -O2, and under AddressSanitizer (each array freed
// where its scope ends).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include "modes.h"

#pragma clang diagnostic ignored "-Wvla-cxx-extension"

// sum over k of sum over j <= k of (x_j^2 x_k)^2 / (k + 1), plus x_{n-1}^2 x_0.
[[ct::differentiable]] double windows(const double *x, int n) {
  double squares[n];
  for (int i = 0; i < n; ++i)
    squares[i] = x[i] * x[i];
  double s = 0;
  for (int k = 0; k < n; ++k) {
    double window[k + 1];
    for (int j = 0; j <= k; ++j)
      window[j] = squares[j] * x[k];
    for (int j = 0; j <= k; ++j)
      s += window[j] * window[j] / (k + 1);
  }
  return s + squares[n - 1] * x[0];
}

struct Body {
  double mass, position;
};

// A helper filling the array it is given through a pointer.
static void place(Body *bodies, const double *x, int n) {
  for (int i = 0; i < n; ++i)
    bodies[i] = Body{1 + x[i] * x[i], x[(i + 1) % n]};
}

// Pairwise potential of bodies made from x.
[[ct::differentiable]] double potential(const double *x, int n) {
  Body bodies[n];
  place(bodies, x, n);
  double e = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double d = bodies[i].position - bodies[j].position;
      e += bodies[i].mass * bodies[j].mass / (1 + d * d);
    }
  return e;
}

// A scratch array in a helper, of a length given by a parameter.
static double smoothed(const double *x, int n, int width) {
  double kernel[width];
  for (int k = 0; k < width; ++k)
    kernel[k] = 1.0 / (k + 1);
  double s = 0;
  for (int i = 0; i + width <= n; ++i) {
    double acc = 0;
    for (int k = 0; k < width; ++k)
      acc += kernel[k] * x[i + k];
    s += acc * acc;
  }
  return s;
}

[[ct::differentiable]] double filtered(const double *x, int n) {
  return smoothed(x, n, 2) + smoothed(x, n, 3) * x[0];
}

// Two and three dimensions: a grid of n rows of m columns (both lengths
// computed at run time, evaluated once where it is declared), a row
// passed on as a pointer, a cube whose middle length is a constant, and a
// grid declared per iteration.
static double rowSum(const double *row, int m) {
  double s = 0;
  for (int j = 0; j < m; ++j)
    s += row[j] * (j + 1);
  return s;
}

[[ct::differentiable]] double grids(const double *x, int n) {
  int m = n - 2;
  double g[n][m];
  m = 100; // the array keeps the length it was declared with
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n - 2; ++j)
      g[i][j] = std::sin(x[i] * (j + 1)) * x[(i + j) % n];
  double cube[2][3][n];
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int k = 0; k < n; ++k)
        cube[a][b][k] = g[k][b % (n - 2)] * (a + 1) + x[k] * b;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += rowSum(g[i], n - 2) * g[(i + 1) % n][0];
  for (int step = 1; step < 3; ++step) {
    double local[step][n];
    for (int r = 0; r < step; ++r)
      for (int k = 0; k < n; ++k)
        local[r][k] = cube[r % 2][step][k] * x[r];
    s += local[step - 1][step] * local[0][n - 1];
  }
  return s + cube[1][2][n - 1] * cube[0][1][0];
}

// Arrays of variable length of pointers: rows of x and of an array of
// squares chosen by a conditional, rows of `new[]` memory, a pointer to
// the table; springs (structs of two pointers) between neighbours; a grid
// of pointers in two dimensions and a table per iteration of a loop into
// an array that iteration fills; a table of pointers to views. Each keeps
// the addresses it is given.
[[ct::differentiable]] double rowTables(const double *x, int n) {
  int m = n / 2;
  double squares[n];
  for (int i = 0; i < n; ++i)
    squares[i] = x[i] * x[i];
  const double *rows[n];
  for (int i = 0; i < n; ++i)
    rows[i] = i % 2 ? x + i - 1 : squares + i;
  double s = 0;
  for (int i = 0; i + 1 < n; ++i)
    s += rows[i][0] * std::sin(rows[i + 1][1 - i % 2]);
  double *own[m];
  for (int i = 0; i < m; ++i) {
    own[i] = new double[2];
    own[i][0] = rows[2 * i][0];
    own[i][1] = std::exp(-x[i]);
  }
  const double **table = rows;
  s += table[1][0] * own[m - 1][1];
  for (int i = 0; i < m; ++i) {
    s += own[i][0] * own[i][1];
    delete[] own[i];
  }
  return s;
}

struct Spring {
  const double *a, *b;
  double k;
};

[[ct::differentiable]] double springs(const double *x, int n) {
  Spring chain[n - 1];
  for (int i = 0; i + 1 < n; ++i)
    chain[i] = Spring{x + i, x + i + 1, 1.0 + i};
  double e = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double d = *chain[i].b - *chain[i].a;
    e += 0.5 * chain[i].k * d * d * d * d;
  }
  return e;
}

[[ct::differentiable]] double pointerGrids(const double *x, int n) {
  const double *grid[n][2];
  double e = 0;
  for (int k = 1; k < 3; ++k) {
    double cosines[n];
    for (int i = 0; i < n; ++i)
      cosines[i] = std::cos(k * x[i]);
    const double *shifted[k];
    for (int j = 0; j < k; ++j)
      shifted[j] = cosines + j;
    for (int i = 0; i < n; ++i) {
      grid[i][0] = x + i;
      grid[i][1] = shifted[k - 1] + i % (n - k + 1);
    }
    for (int i = 0; i < n; ++i)
      e += *grid[i][0] * *grid[i][1];
  }
  return e;
}

struct View {
  const double *data;
  int size;
};

[[ct::differentiable]] double viewTables(const double *x, int n) {
  double squares[n];
  for (int i = 0; i < n; ++i)
    squares[i] = x[i] * x[i];
  View all{x, n}, tail{squares + 1, n - 1};
  const View *views[n];
  for (int i = 0; i < n; ++i)
    views[i] = i % 2 ? &all : &tail;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += views[i]->data[i % views[i]->size] *
         std::sin(views[(i + 1) % n]->data[0]);
  return s;
}

int main() {
  const double point[5] = {0.5, -1.25, 0.75, 1.5, -0.5};
  check::checkModes<grids>("grids", point, 5);
  check::checkModes<windows>("windows", point, 5);
  check::checkModes<potential>("potential", point, 5);
  check::checkModes<filtered>("filtered", point, 5);
  check::checkModes<rowTables>("row tables", point, 5);
  check::checkModes<springs>("springs", point, 5);
  check::checkModes<pointerGrids>("pointer grids", point, 5);
  check::checkModes<viewTables>("view tables", point, 5);
  return check::report();
}
