// Arrays of std::vectors, as numerical C++ writes them: a built-in array of
// vectors filled by push_back, a std::array of vectors (a coordinate per
// axis) resized and read by index, at(), front() and back(), range-for over
// both (by reference and by copy), lists of vectors, copies of a std::array
// of vectors (deep: each vector copied), a struct holding an array of
// vectors, two-dimensional arrays of vectors, arrays of vectors of vectors,
// a reference bound to an element, helpers taking and returning them, a
// std::vector of std::arrays of vectors, vectors of a class that owns
// memory in an array, the caller's arrays of vectors as parameters, and a
// range-for over a list of vectors.
// Every mode against central differences and closed forms; the test also
// runs under AddressSanitizer (no leak, no double free).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address %s -o %ta && %ta | FileCheck %s
// RUN: not --crash %t2 past-the-end 2>&1 | FileCheck %s --check-prefix=AT
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <array>
#include <cmath>
#include <vector>

#include "check.h"
#include "modes.h"

// Three rows grown by push_back, each from x scaled by its row's number.
[[ct::differentiable]] double grownRows(const double *x, int n) {
  std::vector<double> rows[3];
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < n; ++i)
      rows[r].push_back(x[i] * (r + 1) + 0.1 * r);
  double s = 0;
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < n; ++i)
      s += std::sin(rows[r][i]) * rows[(r + 1) % 3][i];
  return s;
}

// A coordinate per axis in a std::array, resized, read through the
// accessors and iterated by range-for.
[[ct::differentiable]] double axes(const double *x, int n) {
  std::array<std::vector<double>, 3> coords;
  for (std::size_t a = 0; a < coords.size(); ++a) {
    coords[a].resize(n);
    for (int i = 0; i < n; ++i)
      coords.at(a)[i] = std::cos(x[i] + a);
  }
  coords.front().push_back(x[0]);
  coords.back().push_back(x[n - 1] * x[n - 1]);
  double s = 0;
  for (const std::vector<double> &axis : coords) {
    double part = 0;
    for (double v : axis)
      part += v * v;
    s += std::sqrt(part) * axis.size();
  }
  return s;
}

// Made from lists; a copy of the std::array is deep (changing the copy
// leaves the original), and a copy of one row by range-for.
[[ct::differentiable]] double listsAndCopies(const double *x, int n) {
  std::array<std::vector<double>, 2> pair = {std::vector<double>{x[0], x[1]},
                                             std::vector<double>(n, x[2])};
  std::array<std::vector<double>, 2> copy = pair;
  for (double &v : copy[0])
    v *= 3;
  copy[1].push_back(x[0] * x[1]);
  double s = 0;
  for (std::vector<double> row : copy) {
    row[0] += 1.0;
    for (double v : row)
      s += std::exp(0.2 * v);
  }
  for (std::size_t i = 0; i < pair[0].size(); ++i)
    s += pair[0][i] * pair[1][i];
  std::vector<double> built[2] = {{x[0], 2 * x[1]}, {x[n - 1]}};
  return s + built[0][1] * built[1][0] + built[0].size();
}

struct Mesh {
  std::array<std::vector<double>, 2> position;
  std::vector<double> weights[2];
  double scale;
};

// A struct holding arrays of vectors, copied and assigned.
[[ct::differentiable]] double meshEnergy(const double *x, int n) {
  Mesh mesh;
  mesh.scale = x[0];
  for (int i = 0; i < n; ++i) {
    mesh.position[0].push_back(x[i]);
    mesh.position[1].push_back(x[(i + 1) % n] * x[i]);
    mesh.weights[i % 2].push_back(0.5 + i);
  }
  Mesh other = mesh;
  other.position[1][0] = x[1] * 5;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += mesh.scale * mesh.position[0][i] * other.position[1][i];
  for (const auto &w : mesh.weights)
    for (double v : w)
      s += v * mesh.position[1][0];
  return s;
}

// Two dimensions of vectors, and vectors of vectors in an array.
[[ct::differentiable]] double grid(const double *x, int n) {
  std::vector<double> cells[2][2];
  std::vector<std::vector<double>> blocks[2];
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) {
      cells[a][b].assign(n, x[a + b]);
      blocks[a].push_back(cells[a][b]);
      blocks[a].back()[b] *= x[b];
    }
  double s = 0;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      for (int i = 0; i < n; ++i)
        s += std::tanh(cells[a][b][i] * blocks[b][a][i]);
  return s;
}

// A reference bound to an element, grown through it; another row swapped.
[[ct::differentiable]] double throughReference(const double *x, int n) {
  std::vector<double> rows[2];
  std::vector<double> &first = rows[0];
  for (int i = 0; i < n; ++i)
    first.push_back(x[i] * x[i]);
  rows[1] = first;
  rows[1].pop_back();
  std::swap(rows[0], rows[1]);
  double s = 0;
  for (int r = 0; r < 2; ++r)
    for (std::size_t i = 0; i < rows[r].size(); ++i)
      s += (r + 1) * rows[r][i];
  return s;
}

using Coordinates = std::array<std::vector<double>, 3>;

static void fill(Coordinates &axes, const double *x, int n) {
  for (auto &a : axes)
    a.clear();
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a)
      axes[a].push_back(x[i] * (a + 1));
}

static double total(const std::vector<double> (&rows)[2]) {
  double s = 0;
  for (const auto &r : rows)
    for (double v : r)
      s += v * v;
  return s;
}

static Coordinates make(const double *x, int n) {
  Coordinates axes;
  fill(axes, x, n);
  return axes;
}

// Helpers filling a std::array of vectors through a reference, returning
// one by value, reading a built-in array of them; assigned and moved.
[[ct::differentiable]] double helpers(const double *x, int n) {
  Coordinates axes;
  fill(axes, x, n);
  Coordinates other = make(x, n);
  other = axes;
  axes[0][0] = 7 * x[1];
  Coordinates moved = std::move(other);
  std::vector<double> rows[2];
  rows[0] = axes[0];
  rows[1] = moved[2];
  return total(rows) + moved[1][1] * axes[2][3];
}

// A std::vector of std::arrays of vectors, grown and copied.
[[ct::differentiable]] double vectorOfArrays(const double *x, int n) {
  using Pair = std::array<std::vector<double>, 2>;
  std::vector<Pair> pairs;
  for (int i = 0; i < n; ++i) {
    Pair p;
    p[0].push_back(x[i]);
    p[1].assign(2, x[i] * x[i]);
    pairs.push_back(p);
  }
  std::vector<Pair> copy = pairs;
  copy[0][1][0] = 3 * x[1];
  double s = 0;
  for (const Pair &p : copy)
    s += std::sin(p[0][0]) * p[1][1] + p[1][0];
  return s + pairs[0][1][0];
}

// Range-for over a list of vectors (a temporary array of copies).
[[ct::differentiable]] double listed(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n, x[0]);
  double s = 0;
  for (const auto &v : {a, b})
    for (double e : v)
      s += std::sin(e) * e;
  return s;
}

// A class that owns memory, held in the vectors of an array.
class Buffer {
public:
  explicit Buffer(int n) : size_(n), data_(new double[n]()) {}
  Buffer(const Buffer &other) : Buffer(other.size_) {
    for (int i = 0; i < size_; ++i)
      data_[i] = other.data_[i];
  }
  ~Buffer() { delete[] data_; }
  double &at(int i) { return data_[i]; }

private:
  int size_;
  double *data_;
};

[[ct::differentiable]] double owners(const double *x, int n) {
  std::vector<Buffer> v[2];
  for (int i = 0; i < n; ++i) {
    v[i % 2].emplace_back(2);
    v[i % 2].back().at(1) = x[i] * x[i];
  }
  std::vector<Buffer> copy[2] = {v[1], v[0]};
  double s = 0;
  for (auto &row : copy)
    for (Buffer &b : row)
      s += std::sin(b.at(1)) + b.at(0);
  return s;
}

using Axes = std::array<std::vector<double>, 2>;

// The caller's std::array of vectors, and a built-in array of them by
// reference.
[[ct::differentiable]] double weighted(const Axes &a, double k) {
  double s = 0;
  for (const auto &v : a)
    for (double e : v)
      s += k * e * e;
  return s;
}

[[ct::differentiable]] double sines(const std::vector<double> (&a)[2],
                                    double k) {
  double s = 0;
  for (int r = 0; r < 2; ++r)
    for (std::size_t i = 0; i < a[r].size(); ++i)
      s += std::sin(k * a[r][i]);
  return s;
}

static void checkParameters() {
  Axes a = {std::vector<double>{1, 2}, std::vector<double>{3}};
  Axes da = {std::vector<double>(2, 0.0), std::vector<double>(1, 0.0)};
  double dk = 0;
  check::near("weighted value", ct::gradient<weighted>(a, 0.5, &da, &dk),
              7.0, 1e-14);
  check::near("weighted d/dk", dk, 14.0, 1e-14);
  check::near("weighted d/da00", da[0][0], 1.0, 1e-14);
  check::near("weighted d/da01", da[0][1], 2.0, 1e-14);
  check::near("weighted d/da10", da[1][0], 3.0, 1e-14);
  Axes ta = {std::vector<double>{1, 0}, std::vector<double>{0.5}};
  check::near("weighted jvp",
              ct::jvp<weighted>(a, 0.5, &ta, 1.0).tangent,
              0.5 * 2 * 1 * 1 + 0.5 * 2 * 3 * 0.5 + 14.0, 1e-14);
  std::vector<double> c[2] = {{1, 2}, {3}};
  double dk2 = 0;
  double expected = std::sin(0.5) + std::sin(1.0) + std::sin(1.5);
  check::near("sines value", ct::gradient<sines, ct::wrt<1>>(c, 0.5, &dk2),
              expected, 1e-14);
  check::near("sines d/dk", dk2,
              std::cos(0.5) + 2 * std::cos(1.0) + 3 * std::cos(1.5), 1e-14);
}

// std::array::at past the end ends the program with the library's message
// (C++ would throw).
[[ct::differentiable]] double pastTheEnd(const double *x, int n) {
  std::array<std::vector<double>, 3> coords;
  // AT: arrays-of-vectors.cpp:[[@LINE+1]]: std::array::at: index out of range
  coords.at(n).push_back(x[0]);
  return coords[0][0];
}

int main(int argc, char **argv) {
  if (argc > 1) {
    double x[3] = {1, 2, 3}, dx[3] = {};
    ct::gradient<pastTheEnd>(x, 3, dx);
    return 0;
  }
  checkParameters();
  const double x[4] = {0.3, -0.7, 1.1, 0.45};
  check::checkModes<owners>("owners", x, 4);
  check::checkModes<helpers>("helpers", x, 4);
  check::checkModes<listed>("listed", x, 4);
  check::checkModes<vectorOfArrays>("vector of arrays", x, 4);
  check::checkModes<grownRows>("grown rows", x, 4);
  check::checkModes<axes>("axes", x, 4);
  check::checkModes<listsAndCopies>("lists and copies", x, 4);
  check::checkModes<meshEnergy>("mesh", x, 4);
  check::checkModes<grid>("grid", x, 4);
  check::checkModes<throughReference>("reference", x, 4);
  // Closed form: sum over i of x_i^2 (r = 1, the shorter row) plus
  // 2 * x_i^2 for the full row: 3 x_0^2 ... and the last only once.
  double dx[4] = {};
  ct::gradient<throughReference>(x, 4, dx);
  for (int i = 0; i < 4; ++i)
    check::near("reference closed form", dx[i], (i < 3 ? 6 : 4) * x[i], 1e-14);
  return check::report();
}
