// Elements made by value-initialization, as C++ makes them: a std::vector
// sized by `std::vector<T> v(n)` or grown by `v.resize(n)` (also a vector
// the function grows by `push_back`), and arrays made by `new T[n]()` and
// `new T[n]`, of classes whose default constructor does work: a
// `std::complex<double>` (a constructor whose parameters have default
// arguments), a struct with default member initializers (zeros, then the
// initializers), and a class with a constructor of its own. Reverse mode,
// forward mode, Hessian-vector products and vector lanes against central
// differences, at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <complex>
#include <vector>

#include "modes.h"

using Complex = std::complex<double>;

// A discrete Fourier transform into a vector of complex numbers made by
// `std::vector<Complex> out(n)`: each element starts at zero.
[[ct::differentiable]] double spectrum(const double *x, int n) {
  std::vector<Complex> in(n), out(n);
  for (int i = 0; i < n; ++i)
    in[i] = Complex(x[i], 0.5 * x[(i + 1) % n]);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      out[k] += in[j] * std::polar(1.0, -2.0 * M_PI * j * k / n);
  double energy = 0;
  for (const Complex &c : out)
    energy += std::norm(c);
  return energy + std::real(out[1] * std::conj(out[n - 1]));
}

struct Cell {
  double weight = 1.5;
  double value;
  int visits = 2;
};

// `std::vector<Cell> cells(n)`: each cell's value zero, its weight and visits
// what the default member initializers say.
[[ct::differentiable]] double cells(const double *x, int n) {
  std::vector<Cell> cells(n);
  double s = 0;
  for (int i = 0; i < n; ++i) {
    cells[i].value += x[i] * x[i];
    s += cells[i].weight * cells[i].value * cells[i].visits;
  }
  return s;
}

struct Accumulator {
  double total, scale;
  Accumulator() : total(0.25), scale(2.0) {}
};

// Resized twice: the kept elements keep their values, the new ones are made
// by the constructor.
[[ct::differentiable]] double resized(const double *x, int n) {
  std::vector<Accumulator> acc(2);
  acc[0].total += x[0];
  acc.resize(n);
  for (int i = 1; i < n; ++i)
    acc[i].total *= x[i] * acc[i - 1].total;
  std::vector<Complex> z;
  z.resize(n);
  for (int i = 0; i < n; ++i)
    z[i] += Complex(std::sin(x[i]), acc[i].scale * x[i]);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += acc[i].total * acc[i].scale + std::abs(z[i]);
  return s;
}

// A vector the function grows by push_back, then by resize.
[[ct::differentiable]] double grown(const double *x, int n) {
  std::vector<Cell> cells;
  for (int i = 0; i < n; ++i)
    cells.push_back(Cell{0.5, x[i], 1});
  cells.resize(n + 3);
  double s = 0;
  for (const Cell &c : cells)
    s += c.weight * c.visits + c.value * c.value * c.weight;
  return s;
}

// Arrays by `new`: value-initialized (`()`) and default-initialized.
[[ct::differentiable]] double allocated(const double *x, int n) {
  Cell *zeroed = new Cell[n]();
  Accumulator *made = new Accumulator[n];
  Complex *roots = new Complex[n];
  double s = 0;
  for (int i = 0; i < n; ++i) {
    zeroed[i].value += x[i];
    made[i].total += zeroed[i].value * zeroed[i].weight;
    roots[i] += std::sqrt(Complex(x[i], made[i].scale));
    s += made[i].total * made[i].total + zeroed[i].visits * roots[i].imag();
  }
  delete[] zeroed;
  delete[] made;
  delete[] roots;
  return s;
}

int main() {
  const double x[4] = {0.3, -0.7, 1.1, 0.5};
  check::checkModes<spectrum>("spectrum", x, 4);
  check::checkModes<cells>("cells", x, 4);
  check::checkModes<resized>("resized", x, 4);
  check::checkModes<grown>("grown", x, 4);
  check::checkModes<allocated>("allocated", x, 4);
  // Closed forms: the constructors' values.
  check::near("cells at zero", cells(x, 4),
              3 * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]),
              1e-14);
  check::near("grown's new cells", grown(x, 0), 3 * 1.5 * 2, 0);
  return check::report();
}
