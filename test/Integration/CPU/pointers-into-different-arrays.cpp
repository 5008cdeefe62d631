// Arrays, vectors and struct fields holding pointers into different arrays,
// chosen at run time: a table of rows indexed by a loop, a vector of
// pointers made from a list, ping-pong buffers swapped through an array of
// pointers, springs whose ends lie in different arrays (a list, a
// constructor), a vector of pointers grown by push_back without reserve
// (each chosen in a branch), a vector of structs holding pointers grown the
// same way, copies, swaps and a 2-D table; a pointer moved to a buffer a
// conditional chooses; views by index; a vector grown through a reference
// bound to it; pointers a conditional chooses between arrays stored into a
// table, an element and springs' ends. Each gradient against central
// differences, forward mode against the gradient, Hessian-vector products
// against differences of gradients, and two forward lanes against the
// gradient.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "check.h"

constexpr int N = 5;

[[ct::differentiable]] double rowTable(const double *x) {
  double a[N], b[N], c[N];
  for (int i = 0; i < N; ++i) {
    a[i] = x[i];
    b[i] = std::sin(x[i]);
    c[i] = x[i] * x[i];
  }
  double *rows[3] = {a, b, c};
  double r = 0;
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < N; ++i)
      r += (k + 1) * rows[k][i] * rows[(k + 1) % 3][i];
  return r;
}

[[ct::differentiable]] double listedBuffers(const double *x) {
  std::vector<double> a(x, x + N), b(N);
  for (int i = 0; i < N; ++i)
    b[i] = std::exp(0.3 * x[i]);
  std::vector<double *> rows = {a.data(), b.data(), a.data() + 1};
  double r = 0;
  for (double *row : rows)
    for (int i = 0; i + 2 < N; ++i)
      r += row[i] * row[i + 1];
  return r;
}

[[ct::differentiable]] double pingPong(const double *x) {
  double *a = new double[N], *b = new double[N];
  for (int i = 0; i < N; ++i) {
    a[i] = x[i];
    b[i] = std::cos(x[i]);
  }
  double *buffers[2] = {a, b};
  for (int step = 0; step < 4; ++step) {
    double *from = buffers[step % 2], *to = buffers[(step + 1) % 2];
    for (int i = 0; i < N; ++i)
      to[i] = 0.5 * from[i] + 0.25 * from[(i + 1) % N] * from[i];
  }
  double r = 0;
  for (int i = 0; i < N; ++i)
    r += a[i] + 2 * b[i];
  delete[] a;
  delete[] b;
  return r;
}

struct Spring {
  const double *from, *to;
  double stiffness;
};

[[ct::differentiable]] double springEnergy(const double *x) {
  double p[N], v[N];
  for (int i = 0; i < N; ++i) {
    p[i] = x[i];
    v[i] = x[i] * std::sin(x[i]);
  }
  Spring springs[3] = {{&p[0], &v[1], 1.0}, {&v[2], &p[3], 2.0},
                       {&p[1], &p[4], 0.5}};
  double e = 0;
  for (const Spring &s : springs) {
    double d = *s.from - *s.to;
    e += 0.5 * s.stiffness * d * d;
  }
  return e;
}

struct Edge {
  const double *from, *to;
  double weight;
  Edge(const double *a, const double *b, double w) : from(a), to(b), weight(w) {}
};

[[ct::differentiable]] double edgeEnergy(const double *x) {
  std::vector<double> p(x, x + N), q(N);
  for (int i = 0; i < N; ++i)
    q[i] = std::cos(x[i]) + x[i];
  std::vector<Edge> edges;
  edges.reserve(2 * N);
  for (int i = 0; i + 1 < N; ++i) {
    edges.push_back(Edge(&p[i], &q[i + 1], 1.0 + i));
    edges.push_back(Edge(&q[i], &p[i + 1], 0.5));
  }
  double e = 0;
  for (const Edge &g : edges) {
    double d = *g.from - *g.to;
    e += g.weight * d * d;
  }
  return e;
}

// Fields set in the constructor's body, the array sized where declared.
struct Bond {
  const double *left = nullptr, *right = nullptr;
  Bond() = default;
  Bond(const double *a, const double *b) {
    left = a;
    right = b;
  }
};

[[ct::differentiable]] double bondEnergy(const double *x) {
  double p[N], q[N];
  for (int i = 0; i < N; ++i) {
    p[i] = std::sin(x[i]);
    q[i] = x[i] * x[i];
  }
  Bond bonds[N];
  for (int i = 0; i < N; ++i)
    bonds[i] = i % 2 ? Bond(&p[i], &q[(i + 1) % N]) : Bond(&q[i], &p[i]);
  double e = 0;
  for (int i = 0; i < N; ++i)
    e += (i + 1) * *bonds[i].left * *bonds[i].right;
  return e;
}

// Grown by push_back without reserve, each pointer chosen in a branch.
[[ct::differentiable]] double pickedInBranches(const double *x) {
  std::vector<double> a(x, x + N), b(N);
  for (int i = 0; i < N; ++i)
    b[i] = std::sin(x[i]) * x[i];
  std::vector<const double *> picks;
  for (int i = 0; i < N; ++i) {
    if (x[i] > 0.0)
      picks.push_back(&a[i]);
    else
      picks.push_back(&b[i]);
    picks.push_back(&b[(i + 1) % N]);
  }
  double r = 0;
  for (std::size_t k = 0; k < picks.size(); ++k)
    r += (k + 1) * *picks[k] * *picks[k];
  return r;
}

[[ct::differentiable]] double grownSprings(const double *x) {
  std::vector<double> p(x, x + N), v(N);
  for (int i = 0; i < N; ++i)
    v[i] = 0.1 * x[i] * x[i];
  std::vector<Spring> springs;
  for (int i = 0; i + 1 < N; ++i) {
    springs.push_back({&p[i], &v[i + 1], 1.0 + i});
    springs.push_back({&v[i], &p[(i + 2) % N], 0.25});
  }
  double e = 0;
  for (const Spring &s : springs) {
    double d = *s.from - *s.to;
    e += 0.5 * s.stiffness * d * d;
  }
  return e;
}

static double weightedRows(double *const *rows, int m) {
  double r = 0;
  for (int k = 0; k < m; ++k)
    for (int i = 0; i < N; ++i)
      r += (k + 1) * rows[k][i] * rows[k][i];
  return r;
}

[[ct::differentiable]] double copiedAndSwapped(const double *x) {
  std::vector<double> a(x, x + N), b(N), c(N);
  for (int i = 0; i < N; ++i) {
    b[i] = std::sin(x[i]);
    c[i] = std::exp(0.2 * x[i]);
  }
  std::vector<double *> rows;
  rows.reserve(3);
  rows.push_back(a.data());
  rows.push_back(b.data());
  rows.push_back(&c[0]);
  std::vector<double *> copy = rows;
  std::swap(copy[0], copy[2]);
  double r = weightedRows(copy.data(), 3);
  double *grid[2][2] = {{a.data(), b.data()}, {c.data(), a.data() + 1}};
  for (int u = 0; u < 2; ++u)
    for (int v = 0; v < 2; ++v)
      r += grid[u][v][0] * grid[1 - u][v][1];
  return r;
}

// A pointer variable moved in a loop to a buffer chosen by a conditional.
[[ct::differentiable]] double chosenBuffer(const double *x) {
  double a[N + 1], b[N + 1];
  for (int i = 0; i <= N; ++i) {
    a[i] = x[i % N];
    b[i] = std::cos(x[i % N]);
  }
  const double *cur = a;
  double r = 0;
  for (int step = 0; step < 4; ++step) {
    for (int i = 0; i < N; ++i)
      r += (step + 1) * cur[i] * cur[(i + 1) % N];
    cur = step % 2 ? a : b + 1;
  }
  return r;
}

// Views whose data lie in different arrays, chosen by index (a pointer
// moving between such views is an error: test/Diagnostics/
// pointer-fields-unsupported.cpp).
struct View {
  const double *data;
  int n;
};

[[ct::differentiable]] double viewsByIndex(const double *x) {
  double y[N];
  for (int i = 0; i < N; ++i)
    y[i] = std::sin(x[i]);
  View views[2] = {{x, N}, {y, N - 1}};
  double r = 0;
  for (int step = 0; step < 3; ++step) {
    const View &view = views[(step + 1) % 2];
    for (int i = 0; i < view.n; ++i)
      r += (step + 1) * view.data[i] * view.data[i];
  }
  return r;
}

// A vector grown through a reference bound to it, and by a helper.
static void appendSquares(std::vector<double> &out, const double *x) {
  for (int i = 0; i < N; ++i)
    if (x[i] > 0)
      out.push_back(x[i] * x[i]);
}

[[ct::differentiable]] double grownThroughReference(const double *x) {
  std::vector<double> values;
  auto &alias = values;
  for (int i = 0; i < N; ++i)
    alias.push_back(std::sin(x[i]));
  appendSquares(values, x);
  double r = 0;
  for (std::size_t k = 0; k < alias.size(); ++k)
    r += (k + 1) * values[k];
  return r;
}

// Pointers a conditional chooses between arrays, stored into a table
// (`rows[i] = c ? x + i : squares + i`, arms of different offsets), into
// an element indexed only by constants inside a loop, and into both ends
// of springs: each choice is made at run time, so the table keeps
// addresses (Hessian-vector products store the tangent's choice, one arm
// of which has no derivative).
[[ct::differentiable]] double chosenRows(const double *x) {
  double squares[N];
  for (int i = 0; i < N; ++i)
    squares[i] = x[i] * x[i];
  const double *rows[N];
  for (int i = 0; i < N; ++i)
    rows[i] = i % 2 ? x + i - 1 : squares + i;
  double s = 0;
  for (int i = 0; i + 1 < N; ++i)
    s += rows[i][0] * std::sin(rows[i + 1][1 - i % 2]);
  return s;
}

[[ct::differentiable]] double chosenAtConstantIndex(const double *x) {
  double squares[N];
  for (int i = 0; i < N; ++i)
    squares[i] = x[i] * x[i];
  const double *pair[2] = {x, squares};
  double s = 0;
  for (int i = 0; i < N; ++i) {
    pair[0] = i % 2 ? x + 1 : squares;
    s += pair[0][0] * pair[1][i];
  }
  return s + pair[0][2] * std::sin(pair[1][3]);
}

[[ct::differentiable]] double chosenEnds(const double *x) {
  double sines[N];
  for (int i = 0; i < N; ++i)
    sines[i] = std::sin(x[i]);
  Spring springs[N - 1];
  for (int i = 0; i + 1 < N; ++i)
    springs[i] = Spring{i % 3 ? x + i : sines + i,
                        i % 2 ? sines + i + 1 : x + i + 1, 1.0 + i};
  double e = 0;
  for (int i = 0; i + 1 < N; ++i) {
    double d = *springs[i].to - *springs[i].from;
    e += springs[i].stiffness * d * d;
  }
  return e;
}

// (hvp: false where the function keeps the address of its parameter, whose
// second derivatives are not supported yet: an error, not a number.)
template <double (*F)(const double *), bool hvp = true>
void checkAll(const std::string &name, double *x) {
  double dx[N] = {};
  double value = ct::gradient<F>(x, dx);
  check::near((name + ": value").c_str(), value, F(x), 1e-13);
  for (int i = 0; i < N; ++i)
    check::near((name + ": d/dx" + std::to_string(i)).c_str(), dx[i],
                check::differenceAt(x, i, [&] { return F(x); }), 1e-6);
  double v[N], hv[N] = {};
  for (int i = 0; i < N; ++i)
    v[i] = 0.5 - 0.2 * i;
  double directional = 0;
  for (int i = 0; i < N; ++i)
    directional += dx[i] * v[i];
  check::near((name + ": jvp").c_str(), ct::jvp<F>(x, v).tangent, directional,
              1e-12);
  if constexpr (hvp)
    ct::hvp<F>(x, v, hv);
  double h = 1e-5, up[N], down[N], gUp[N] = {}, gDown[N] = {};
  for (int i = 0; i < N; ++i) {
    up[i] = x[i] + h * v[i];
    down[i] = x[i] - h * v[i];
  }
  ct::gradient<F>(up, gUp);
  ct::gradient<F>(down, gDown);
  for (int i = 0; hvp && i < N; ++i)
    check::near((name + ": hvp" + std::to_string(i)).c_str(), hv[i],
                (gUp[i] - gDown[i]) / (2 * h), 1e-5);
  double lanes[2 * N] = {};
  for (int i = 0; i < N; ++i) {
    lanes[2 * i] = v[i];
    lanes[2 * i + 1] = i == 1;
  }
  auto both = ct::jvp<F, ct::lanes<2>>(x, lanes);
  check::near((name + ": lane 0").c_str(), both.tangent[0], directional, 1e-12);
  check::near((name + ": lane 1").c_str(), both.tangent[1], dx[1], 1e-12);
}

int main() {
  double x[N] = {0.4, -0.7, 1.1, 0.3, -0.2};
  checkAll<rowTable>("row table", x);
  checkAll<listedBuffers>("listed buffers", x);
  checkAll<pingPong>("ping-pong", x);
  checkAll<springEnergy>("springs", x);
  checkAll<edgeEnergy>("edges", x);
  checkAll<bondEnergy>("bonds", x);
  checkAll<pickedInBranches>("picked in branches", x);
  checkAll<grownSprings>("grown springs", x);
  checkAll<copiedAndSwapped>("copied and swapped", x);
  checkAll<chosenBuffer>("chosen buffer", x);
  checkAll<viewsByIndex, /*hvp=*/false>("views by index", x);
  checkAll<grownThroughReference>("grown through a reference", x);
  checkAll<chosenRows>("chosen rows", x);
  checkAll<chosenAtConstantIndex>("chosen at a constant index", x);
  checkAll<chosenEnds>("chosen ends", x);
  return check::report();
}
