// Local std::vectors whose memory changes at run time (docs/Memory.md):
// push_back without a reserve (a neighbour list built inside the
// function), a vector reassigned in a loop with a different size each time
// (an MLP's activations), insert (of values, copies, ranges and lists)
// and erase, vectors filled by helpers taking them by reference, resize and clear in loops and
// branches, swap, emplace_back through a constructor, a vector grown in a
// loop that declares it, and one built by a helper and grown again. Reverse
// mode against central differences, forward mode against the gradient;
// vector mode (K tangents or K seeds through one sweep) and Hessian-vector
// products against the same; at -O0 and -O2 (and under AddressSanitizer in the sanitizer build: the
// vectors' memory and their shadows are neither leaked nor read after
// being freed, in either sweep).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "check.h"

// Pairs closer than the cutoff, found and kept by push_back (integers and
// doubles in vectors of their own), then a pair energy over the list.
[[ct::differentiable]] double neighbourEnergy(const double *x, int n) {
  const double cutoff = 0.6;
  std::vector<int> first, second;
  std::vector<double> distances;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double dx = x[2 * i] - x[2 * j], dy = x[2 * i + 1] - x[2 * j + 1];
      double r2 = dx * dx + dy * dy;
      if (r2 < cutoff * cutoff) {
        first.push_back(i);
        second.push_back(j);
        distances.push_back(std::sqrt(r2));
      }
    }
  double energy = 0;
  for (size_t k = 0; k < distances.size(); ++k) {
    double r = distances[k];
    energy += 1.0 / (r * r) - 1.0 / r + 0.01 * (first[k] + second[k]);
  }
  return energy;
}

// A 3-5-4-2 network; the activations are a vector assigned each layer's
// output, whose width changes.
[[ct::differentiable]] double network(const double *w, const double *input) {
  const int widths[4] = {3, 5, 4, 2};
  std::vector<double> a(input, input + 3);
  int offset = 0;
  for (int layer = 0; layer < 3; ++layer) {
    int in = widths[layer], out = widths[layer + 1];
    std::vector<double> next(out);
    for (int o = 0; o < out; ++o) {
      double s = w[offset + in * out + o];
      for (int i = 0; i < in; ++i)
        s += w[offset + o * in + i] * a[i];
      next[o] = std::tanh(s);
    }
    offset += in * out + out;
    a = next;
  }
  double s = 0;
  for (double v : a)
    s += v * v;
  return s;
}

struct Point {
  double x, y;
};

// insert at the front and in the middle (n copies), erase one and a range,
// resize in a loop with a value, pop_back; a vector of structs.
[[ct::differentiable]] double edits(const double *x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) {
    if (x[i] > 0)
      v.insert(v.begin(), x[i] * 2);
    else
      v.push_back(x[i] * x[i]);
  }
  v.erase(v.begin() + 1);
  v.insert(v.begin() + 2, 2, x[0] + x[1]);
  auto at = v.insert(v.end() - 1, v[0] * x[2]);
  *at += x[3];
  v.erase(v.begin() + 3, v.begin() + 5);
  std::vector<Point> points;
  for (int i = 0; i + 1 < n; ++i) {
    points.push_back(Point{x[i], x[i + 1]});
    if (i % 2 == 1)
      points.resize(points.size() + 1, Point{x[i] * x[i], 1.0});
  }
  points.pop_back();
  double s = 0;
  for (size_t k = 0; k < v.size(); ++k)
    s += v[k] * (k + 1);
  for (const Point &p : points)
    s += p.x * p.y;
  return s;
}

// insert of ranges: a pointer range, another vector's iterators, a list.
[[ct::differentiable]] double ranges(const double *x, int n) {
  std::vector<double> v(x, x + 2);
  v.insert(v.begin() + 1, x, x + n);
  std::vector<double> w = {x[0], x[1] * x[1]};
  v.insert(v.end(), w.begin(), w.end());
  v.insert(v.begin(), {x[2], 2.0 * x[3]});
  double s = 0;
  for (size_t k = 0; k < v.size(); ++k)
    s += v[k] * v[k] * (k + 1);
  return s;
}

// Vectors filled and grown by helpers taking them by reference (clear and
// push_back in one helper, push_back in another it calls, resize in a
// third): each helper is lowered in place on the caller's vector.
static void append(std::vector<double> &v, double value) { v.push_back(value); }
static void fill(std::vector<double> &v, const double *x, int n) {
  v.clear();
  for (int i = 0; i < n; ++i) {
    if (x[i] > 0)
      append(v, std::sin(x[i]));
    else
      v.insert(v.begin(), x[i] * x[i]);
  }
}
static void widen(std::vector<double> &v, int extra) {
  v.resize(v.size() + extra, v.empty() ? 1.0 : v[0]);
}

[[ct::differentiable]] double filledByHelpers(const double *x, int n) {
  std::vector<double> a, b;
  fill(a, x, n);
  fill(b, x + 1, n - 1);
  widen(b, 2);
  for (int k = 0; k < 2; ++k)
    append(a, a.back() * x[k]);
  double s = 0;
  for (double e : a)
    s += e * e;
  for (size_t i = 0; i < b.size(); ++i)
    s += b[i] * (i + 1);
  return s;
}

struct Pair {
  double a, b;
  Pair(double a, double b) : a(a), b(b) {}
};

// A buffer cleared and refilled each round, swapped with another once;
// assign; emplace_back through a constructor; push_back of an element of
// the vector itself (read before the memory moves).
[[ct::differentiable]] double reuse(const double *x, int n) {
  std::vector<double> buffer, other;
  double s = 0;
  for (int round = 0; round < 3; ++round) {
    buffer.clear();
    for (int i = 0; i <= round * 2; ++i)
      buffer.push_back(x[(i + round) % n] * (round + 1));
    if (round == 1)
      buffer.swap(other);
    for (double v : buffer)
      s += v * v;
  }
  s += other[2] * other.size();
  other.assign(4, x[0]);
  for (int i = 0; i < 5; ++i)
    other.push_back(other[i] * x[1]);
  std::vector<Pair> pairs;
  for (int i = 0; i + 1 < n; i += 2)
    pairs.emplace_back(x[i], x[i + 1]);
  for (const Pair &p : pairs)
    s += p.a * std::sin(p.b);
  return s + other.back() + (other.capacity() >= other.size() ? 0.0 : 1.0);
}

static std::vector<double> squares(const double *x, int n) {
  std::vector<double> r;
  for (int i = 0; i < n; ++i)
    r.push_back(x[i] * x[i]);
  return r;
}

// Rows grown in the loop that declares them; a helper's vector grown again.
[[ct::differentiable]] double rows(const double *x, int n) {
  double total = 0;
  for (int i = 0; i < n; ++i) {
    std::vector<double> row;
    for (int j = 0; j <= i; ++j)
      row.push_back(x[j] * x[i]);
    total += row.back() + row.front() * row.size();
  }
  std::vector<double> s = squares(x, n);
  s.push_back(total);
  s.resize(2 * n, x[0]);
  double sum = 0;
  for (double v : s)
    sum += std::sqrt(1 + v);
  return sum;
}

// Two results through vectors grown in a branch and assigned in a loop.
[[ct::differentiable]] void twoResults(const double *x, int n, double *out) {
  std::vector<double> kept;
  for (int i = 0; i < n; ++i)
    if (x[i] > 0)
      kept.push_back(std::sin(x[i]) * x[(i + 1) % n]);
  std::vector<double> y(x, x + n), next(n);
  for (int step = 0; step < 3; ++step) {
    for (int i = 0; i < n; ++i)
      next[i] = std::sin(y[i]) + 0.5 * y[(i + 1) % n];
    y = next;
  }
  double s = 0, t = 0;
  for (double v : kept)
    s += v * v;
  for (double v : y)
    t += v;
  out[0] = s + t;
  out[1] = s * t;
}

static double firstResult(const double *x, int n) {
  double out[2];
  twoResults(x, n, out);
  return out[0];
}
static double secondResult(const double *x, int n) {
  double out[2];
  twoResults(x, n, out);
  return out[1];
}

// K = 3 tangents and K = 2 seeds through one sweep; Hessian-vector
// products of `rows` against central differences of its gradient.
static void checkLanesAndSecondOrder(double *x, int n) {
  std::vector<double> t(n * 3, 0.0), g(n, 0.0);
  for (int k = 0; k < 3; ++k)
    t[k * 3 + k] = 1; // lane k: the tangent e_k
  auto d = ct::jvp<rows, ct::lanes<3>>(x, n, t.data());
  ct::gradient<rows>(x, n, g.data());
  for (int k = 0; k < 3; ++k)
    check::near("rows lanes", d.tangent[k], g[k], 1e-9);
  double out[2], seeds[2 * 2] = {1, 0, 0, 1};
  std::vector<double> dx(n * 2, 0.0);
  ct::pullback<twoResults, ct::lanes<2>>(x, n, out, dx.data(), seeds);
  for (int i = 0; i < n; ++i) {
    check::near("two results lane 0", dx[2 * i], check::differenceAt(x, i, [&] {
                  return firstResult(x, n);
                }),
                1e-6);
    check::near("two results lane 1", dx[2 * i + 1],
                check::differenceAt(x, i, [&] { return secondResult(x, n); }),
                1e-6);
  }
  std::vector<double> v(n), hv(n, 0.0);
  for (int i = 0; i < n; ++i)
    v[i] = 0.5 - 0.1 * i;
  ct::hvp<rows>(x, n, v.data(), hv.data());
  // (H v)_i = d/dh grad_i(x + h v) at h = 0.
  for (int i = 0; i < n; ++i) {
    auto gradientAt = [&](double h) {
      std::vector<double> moved(x, x + n), gm(n, 0.0);
      for (int j = 0; j < n; ++j)
        moved[j] += h * v[j];
      ct::gradient<rows>(moved.data(), n, gm.data());
      return gm[i];
    };
    check::near("rows hvp", hv[i], check::centralDifference(gradientAt, 0.0),
                1e-5);
  }
}

// Loops that read a vector: one that cannot change it (viewed once before
// the loop), three that grow it through a lambda they call or pass on.

[[ct::differentiable]] double grownInLoops(const double *x, int n) {
  std::vector<double> v(x, x + n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i] * v[i];
  auto grow = [&](double value) { v.push_back(value); };
  for (int i = 0; i < n; ++i)
    grow(v[i] * s + v.back());
  for (int i = 0; i < 2 * n; ++i)
    [&] { v.push_back(std::sin(v[i] + v.back())); }();
  // A lambda defined before the loop, run by an algorithm inside it.
  auto add = [&](double value) { v.push_back(0.5 * value); };
  for (int i = 0; i < 3; ++i) {
    double pair[2] = {v[i], v.back()};
    std::for_each(pair, pair + 2, add);
  }
  return s + v.back() * v.size();
}

template <auto F, class... Rest>
void checkFunction(const char *name, double *x, int n, Rest... rest) {
  std::vector<double> g(n, 0.0), t(n, 0.0);
  ct::gradient<F>(x, rest..., g.data());
  for (int i = 0; i < n; ++i) {
    check::near(name, g[i],
                check::differenceAt(x, i, [&] { return F(x, rest...); }),
                1e-6);
    t.assign(n, 0.0);
    t[i] = 1;
    check::near(name, ct::jvp<F>(x, rest..., t.data()).tangent, g[i], 1e-9);
  }
}

int main() {
  double x[12];
  for (int i = 0; i < 12; ++i)
    x[i] = 0.3 * std::sin(1.7 * i) + 0.1 * i;
  checkFunction<neighbourEnergy>("neighbour list", x, 12, 6);

  double w[59], input[3] = {0.2, -0.4, 0.7};
  for (int i = 0; i < 59; ++i)
    w[i] = 0.2 * std::cos(0.9 * i);
  double gw[59] = {0}, ginput[3] = {0};
  ct::gradient<network>(w, input, gw, ginput);
  for (int i = 0; i < 59; ++i)
    check::near("network weights", gw[i],
                check::differenceAt(w, i, [&] { return network(w, input); }),
                1e-6);
  for (int i = 0; i < 3; ++i)
    check::near("network input", ginput[i], check::differenceAt(input, i, [&] {
                  return network(w, input);
                }),
                1e-6);

  double y[7] = {0.5, -0.3, 0.8, -1.2, 0.05, 0.7, -0.9};
  checkFunction<edits>("edits", y, 7, 7);
  checkFunction<reuse>("reuse", y, 7, 7);
  checkFunction<ranges>("ranges", y, 7, 7);
  checkFunction<filledByHelpers>("filled by helpers", y, 7, 7);
  checkFunction<rows>("rows", y, 7, 7);
  checkFunction<grownInLoops>("grown in loops", y, 7, 7);
  checkLanesAndSecondOrder(y, 7);
  return check::report();
}
