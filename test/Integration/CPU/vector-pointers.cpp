// Pointer variables to std::vectors that move between vectors: buffers
// swapped by std::swap or by a temporary each step (double buffering of a
// time-stepping scheme), a pointer moved to a third vector in a branch, a
// pointer chosen by a conditional each iteration, pointers to the vectors of
// an array and of a vector of vectors, a pointer declared null and assigned
// before it is read, pointers passed to helpers taking
// `std::vector<double> *`, and such parameters swapped inside the helper,
// two pairs of buffers made and swapped in one loop, pointers declared null
// and tested for null, vectors made by `new` in raw pointers, a pointer moved
// from a vector of the function to vectors kept in memory (an MLP's layer
// outputs, a row of a vector of vectors chosen in a loop), a pointer moved
// among the vectors of an array or a std::array. Pointers that exchange
// values share one list of the vectors they designate and copy indices into
// it (docs/Memory.md). Value, gradient
// against central differences, forward mode, Hessian-vector products and
// vector lanes (modes.h), at -O0 and -O2; the caller's vector among them in
// reverse and forward mode.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include "check.h"
#include "modes.h"

// Explicit steps of u' = -u^2 + u[i+1], reading one buffer and writing the
// other, then the buffers swapped.
[[ct::differentiable]] double swapped(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n);
  std::vector<double> *cur = &a, *next = &b;
  for (int step = 0; step < 5; ++step) {
    for (int i = 0; i < n; ++i)
      (*next)[i] = (*cur)[i] + 0.1 * (-(*cur)[i] * (*cur)[i] +
                                      (*cur)[(i + 1) % n]);
    std::swap(cur, next);
  }
  double s = 0;
  for (double v : *cur)
    s += v * v;
  return s + (*next)[0];
}

// The same exchange through a temporary pointer.
[[ct::differentiable]] double rotated(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n);
  std::vector<double> *cur = &a, *next = &b;
  for (int step = 0; step < 4; ++step) {
    for (int i = 0; i < n; ++i)
      (*next)[i] = std::sin((*cur)[i]) * x[i];
    std::vector<double> *old = cur;
    cur = next;
    next = old;
  }
  return (*cur)[0] * (*cur)[n - 1] + cur->size();
}

static void relax(const std::vector<double> &in, std::vector<double> &out) {
  for (size_t i = 0; i < in.size(); ++i)
    out[i] = 0.5 * in[i] + 0.25 * in[(i + 1) % in.size()] * in[i];
}

// A third buffer joins in a branch of the loop, after the pointers have
// been read and swapped.
[[ct::differentiable]] double joined(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n, 0.0), c(n, 1.0);
  std::vector<double> *source = &a, *target = &b;
  for (int step = 0; step < 5; ++step) {
    relax(*source, *target);
    if (step == 2) {
      for (size_t i = 0; i < target->size(); ++i)
        c[i] = (*target)[i] * x[0];
      target = &c;
    }
    std::swap(source, target);
  }
  double s = 0;
  for (size_t i = 0; i < source->size(); ++i)
    s += source->at(i) * (*target)[i];
  return s;
}

// A pointer chosen by a conditional in each iteration, written through.
[[ct::differentiable]] double chosen(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n, 2.0);
  double s = 0;
  for (int k = 0; k < 6; ++k) {
    std::vector<double> *p = x[k % n] > 0.5 ? &a : &b;
    for (int i = 0; i < n; ++i)
      s += (*p)[i] * x[i];
    (*p)[k % n] += 0.1 * s;
  }
  return s;
}

// Pointers to the vectors of an array and of a vector of vectors.
[[ct::differentiable]] double ofArray(const double *x, int n) {
  std::vector<double> rows[2];
  rows[0].assign(x, x + n);
  rows[1].resize(n);
  std::vector<double> *cur = &rows[0], *next = &rows[1];
  for (int step = 0; step < 3; ++step) {
    for (int i = 0; i < n; ++i)
      (*next)[i] = std::sin((*cur)[i]) + (*cur)[(i + 1) % n];
    std::swap(cur, next);
  }
  double s = 0;
  for (double v : *cur)
    s += v;
  return s;
}

[[ct::differentiable]] double ofNested(const double *x, int n) {
  std::vector<std::vector<double>> grid(2, std::vector<double>(x, x + n));
  std::vector<double> *cur = &grid[0], *next = &grid[1];
  for (int step = 0; step < 3; ++step) {
    for (int i = 0; i < n; ++i)
      (*next)[i] = std::cos((*cur)[i]) * x[i];
    std::swap(cur, next);
  }
  return (*cur)[1] + (*next)[2];
}

// Declared null, then given vectors before any read.
[[ct::differentiable]] double fromNull(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n, 3.0);
  std::vector<double> *p = nullptr;
  p = &b;
  for (int i = 0; i < n; ++i)
    if (x[i] > 0.4)
      p = &a;
  return (*p)[0] * (*p)[1] + x[2];
}

static void advance(const std::vector<double> *in, std::vector<double> *out,
                    double k) {
  for (size_t i = 0; i < in->size(); ++i)
    out->at(i) = k * (*in)[i] * (*in)[i] + (*in)[(i + 1) % in->size()];
}

[[ct::differentiable]] double throughHelpers(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n);
  std::vector<double> *cur = &a, *next = &b;
  for (int step = 0; step < 4; ++step) {
    advance(cur, next, 0.3);
    std::swap(cur, next);
  }
  return (*cur)[0] + (*cur)[1];
}

// A helper lowered in place whose pointer parameters are swapped.
static double stepTwice(std::vector<double> *cur, std::vector<double> *next,
                        int n) {
  for (int step = 0; step < 3; ++step) {
    for (int i = 0; i < n; ++i)
      (*next)[i] = std::sin((*cur)[i]) + (*cur)[(i + 1) % n];
    std::swap(cur, next);
  }
  return (*cur)[0] * (*next)[1];
}

[[ct::differentiable]] double swappedParameters(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n);
  return stepTwice(&a, &b, n);
}

// One pointer copied from another (`cur = out`) after the other was
// given a vector chosen by a conditional; beside them, pointers to float
// vectors swapped (a list of their own).
[[ct::differentiable]] double copied(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n), c(n);
  std::vector<float> fa(n, 1.0f), fb(n);
  const std::vector<double> *cur = &a;
  std::vector<double> *out = &b;
  std::vector<float> *fp = &fa, *fq = &fb;
  for (int step = 0; step < 4; ++step) {
    for (int i = 0; i < n; ++i) {
      (*out)[i] = 1.3 * std::sin((*cur)[i]) + (*fp)[i];
      (*fq)[i] = (*fp)[i] * 0.5f;
    }
    cur = out;
    out = step % 2 == 0 ? &c : &b;
    std::swap(fp, fq);
  }
  double s = 0;
  for (double v : *cur)
    s += v * v;
  return s;
}

// The caller's vector among them.
[[ct::differentiable]] double fromCaller(const std::vector<double> &x,
                                         double k) {
  std::vector<double> b(x.size()), c(x.size());
  const std::vector<double> *cur = &x;
  std::vector<double> *out = &b;
  for (int step = 0; step < 3; ++step) {
    for (size_t i = 0; i < x.size(); ++i)
      (*out)[i] = k * std::sin((*cur)[i]);
    cur = out;
    out = step % 2 == 0 ? &c : &b;
  }
  double s = 0;
  for (double v : *cur)
    s += v * v;
  return s;
}

// Two pairs of buffers swapped in one loop, each pair made in the loop
// after the first pair is read: pointers that never exchange values keep
// lists of their own (the second pair's vectors do not exist where the
// first pair's pointers are read).
[[ct::differentiable]] double twoPairs(const double *x, int n) {
  double s = 0;
  for (int step = 0; step < 2; ++step) {
    std::vector<double> a(x, x + n), b(n);
    std::vector<double> *cur = &a, *next = &b;
    for (int k = 0; k < 2; ++k) {
      for (int i = 0; i < n; ++i)
        (*next)[i] = std::sin((*cur)[i]) + std::cos((*cur)[(i + 1) % n]);
      std::swap(cur, next);
    }
    s += (*cur)[0] * (step + 1);
    std::vector<double> c = {std::cos(s * x[1]), x[2]}, d(2);
    std::vector<double> *from = &c, *to = &d;
    for (int k = 0; k < 3; ++k) {
      for (int i = 0; i < 2; ++i)
        (*to)[i] = std::sin((*from)[i]) * (*from)[(i + 1) % 2];
      std::vector<double> *t = from;
      from = to;
      to = t;
    }
    s += (*from)[0] + (*from)[1] * x[3];
  }
  return s;
}

// A pointer declared null, given a vector in a branch of a loop only
// sometimes, and tested for null (`if (p)`, `p != nullptr`, `!p`, `p ? :`)
// after the loop and inside it; another pointer copied from it, and set to
// null again. A pointer to vectors holds an index into its list of vectors,
// and null is an index of none.
[[ct::differentiable]] double testedForNull(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n);
  for (int i = 0; i < n; ++i)
    b[i] = x[i] * x[(i + 1) % n];
  std::vector<double> *keep = nullptr, *last = nullptr;
  double s = 0;
  for (int k = 0; k < n; ++k) {
    if (keep)
      s += (*keep)[k] * 0.5;
    if (x[k] > 0.5)
      keep = k % 2 ? &a : &b;
    last = keep;
    if (k == n - 1 && x[k] < 0.25)
      keep = nullptr;
  }
  if (keep != nullptr)
    for (double v : *keep)
      s += v * v;
  if (!keep)
    s += 3 * x[0];
  s += last ? (*last)[1] : x[2];
  const std::vector<double> *fixed = x[1] > 0.4 ? &a : nullptr;
  if (fixed)
    s += (*fixed)[2] * x[3];
  return s;
}

// A std::vector made by `new` and kept in a raw pointer variable: it lives
// in memory as C++ lays it out, the variable keeps its address; grown by
// `->push_back`, resized, read by `(*v)[i]`, `->at`, `->back()`, `->size()`
// and range-`for`, freed by `delete` (its memory with it).
[[ct::differentiable]] double madeByNew(const double *x, int n) {
  std::vector<double> *v = new std::vector<double>();
  for (int i = 0; i < n; ++i)
    v->push_back(std::sin(x[i]));
  auto *w = new std::vector<double>(n, 1.0);
  for (int i = 0; i < n; ++i)
    (*w)[i] *= x[i] * (*v)[(i + 1) % n];
  w->resize(2 * n);
  for (int i = 0; i < n; ++i)
    w->at(n + i) = x[i] * x[0];
  double s = (*v)[1] * v->back() + v->size() * x[3];
  for (double e : *w)
    s += e * e;
  delete v;
  delete w;
  return s;
}

// A pointer to the previous layer's activations of an MLP whose network is
// a std::vector of layers holding std::vectors: it starts at the input (a
// vector of the function) and moves to each layer's output (fields kept in
// memory), so it keeps the address of the vector it designates.
struct Layer {
  std::vector<double> w, out;
};
[[ct::differentiable]] double layered(const double *x, int n) {
  std::vector<Layer> layers;
  for (int l = 0; l < 3; ++l) {
    Layer layer;
    for (int i = 0; i < n * n; ++i)
      layer.w.push_back(0.3 * std::cos(x[(i + l) % n] * (i + 1)));
    layers.push_back(layer);
  }
  std::vector<double> input(x, x + n);
  const std::vector<double> *in = &input;
  for (Layer &layer : layers) {
    layer.out.assign(n, 0.0);
    for (int i = 0; i < n; ++i) {
      double s = 0;
      for (int j = 0; j < n; ++j)
        s += layer.w[i * n + j] * (*in)[j];
      layer.out[i] = std::tanh(s + x[i]);
    }
    in = &layer.out;
  }
  double s = 0;
  for (double v : *in)
    s += v * v;
  return s + in->size() * x[0];
}

// A pointer moved among the vectors of an array, chosen at run time (the
// vector whose first element is least), and the same over a std::array:
// an array's vectors are kept in memory, and the pointer keeps the address
// of the one it designates.
[[ct::differentiable]] double bestOfArray(const double *x, int n) {
  std::vector<double> rows[3];
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < n; ++i)
      rows[k].push_back(x[i] * (k + 1) + 0.3 * i - 0.45 * k);
  std::vector<double> *best = &rows[0];
  for (int k = 1; k < 3; ++k)
    if (rows[k][0] * rows[k][0] < (*best)[0] * (*best)[0])
      best = &rows[k];
  double s = 0;
  for (double v : *best)
    s += std::sin(v);
  return s + best->size() * x[1];
}
[[ct::differentiable]] double bestOfStdArray(const double *x, int n) {
  std::array<std::vector<double>, 3> rows;
  for (int k = 0; k < 3; ++k)
    rows[k].assign(n, x[k] * x[k] - 0.2 * k);
  const std::vector<double> *best = &rows.front();
  for (int k = 1; k < 3; ++k)
    if (rows[k][1] > (*best)[1])
      best = &rows[k];
  return (*best)[0] * x[3] + best->back();
}

// A row of a vector of vectors chosen in a loop and read after it.
[[ct::differentiable]] double rowChosen(const double *x, int n) {
  std::vector<std::vector<double>> rows;
  for (int k = 0; k < n; ++k)
    rows.push_back(std::vector<double>(3, x[k] * x[k]));
  std::vector<double> fallback(n, x[0]);
  std::vector<double> *keep = &fallback;
  for (int k = 0; k < n; ++k)
    if (x[k] > 0.5)
      keep = &rows[k];
  double s = 0;
  for (double v : *keep)
    s += v * std::sin(v);
  return s + (*keep)[1] * x[1];
}

int main() {
  const double x[] = {0.3, 0.6, 0.7, 0.2};
  check::checkModes<swapped>("swapped", x, 4);
  check::checkModes<rotated>("rotated", x, 4);
  check::checkModes<joined>("joined", x, 4);
  check::checkModes<chosen>("chosen", x, 4);
  check::checkModes<ofArray>("array", x, 4);
  check::checkModes<ofNested>("nested", x, 4);
  check::checkModes<fromNull>("from null", x, 4);
  check::checkModes<throughHelpers>("helpers", x, 4);
  check::checkModes<copied>("copied", x, 4);
  check::checkModes<swappedParameters>("swapped parameters", x, 4);
  check::checkModes<twoPairs>("two pairs", x, 4);
  check::checkModes<testedForNull>("tested for null", x, 4);
  const double small[] = {0.3, 0.6, 0.7, 0.1};
  check::checkModes<testedForNull>("null at the end", small, 4);
  const double none[] = {0.3, 0.3, 0.2, 0.1};
  check::checkModes<testedForNull>("never given one", none, 4);
  check::checkModes<madeByNew>("made by new", x, 4);
  check::checkModes<layered>("layered", x, 4);
  check::checkModes<rowChosen>("row chosen", x, 4);
  check::checkModes<bestOfArray>("best of an array", x, 4);
  check::checkModes<bestOfStdArray>("best of a std::array", x, 4);
  {
    std::vector<double> v(x, x + 4), dv(4, 0.0), tv = {0.5, -1, 0.25, 2};
    double k = 1.3, dk = 0;
    double value = ct::gradient<fromCaller>(v, k, &dv, &dk);
    check::near("caller's vector: value", value, fromCaller(v, k), 1e-14);
    double directional = 0;
    for (int i = 0; i < 4; ++i) {
      check::near("caller's vector: d/dx", dv[i],
                  check::differenceAt(v.data(), i,
                                      [&] { return fromCaller(v, k); }),
                  1e-7);
      directional += dv[i] * tv[i];
    }
    check::near("caller's vector: d/dk", dk,
                check::centralDifference(
                    [&](double t) { return fromCaller(v, t); }, k),
                1e-7);
    check::near("caller's vector: jvp",
                ct::jvp<fromCaller>(v, k, &tv, 0.0).tangent, directional, 1e-12);
  }
  return check::report();
}
