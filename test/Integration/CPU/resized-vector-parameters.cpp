// std::vector parameters the function resizes (clear, push_back without a
// reserve, insert, erase, resize), directly or through a helper: the
// function takes the caller's vector object and grows it where the caller
// sees it, with C++'s operator new and delete (under AddressSanitizer: no
// allocator mismatch, leak or double free). Forward mode grows the tangent
// vector beside it; reverse mode grows vectors whose elements carry no
// derivative (indices, constants) and, through the entry point, vectors
// whose elements do: their derivative vector holds the seeds of the final
// contents when called (or nothing) and the cotangents of the initial
// contents on return. A differentiable function resizing a local vector
// through another one works in every mode. A vector ct::wrt leaves out that
// receives derivatives is an error
// (test/Diagnostics/lost-derivatives-in-constant-memory.cpp). Closed forms
// and central differences, -O0 and -O2. A function returning a std::vector
// is differentiated as one writing it to such a parameter (ct::jvp returns
// its tangent, ct::pullback takes the seeds of its elements).
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cmath>
#include <vector>

#include "check.h"

using check::near;

// The sines of the positive inputs, then the sum of their squares.
[[ct::differentiable]] double positiveSines(const std::vector<double> &x,
                                            std::vector<double> &out) {
  out.clear();
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i] > 0)
      out.push_back(std::sin(x[i]));
  double s = 0;
  for (double v : out)
    s += v * v;
  return s;
}

// A static member function grows it too.
struct Append {
  static void squares(const std::vector<double> &x, std::vector<double> &out) {
    for (double v : x)
      out.push_back(v * v);
  }
};

static void appendSquares(const std::vector<double> &x,
                          std::vector<double> &out) {
  Append::squares(x, out);
}

// Grown by a helper, then edited in the middle and resized.
[[ct::differentiable]] double edited(const std::vector<double> &x,
                                     std::vector<double> &out) {
  appendSquares(x, out);
  out.insert(out.begin(), 2.0 * x[0]);
  out.erase(out.begin() + 1);
  out.resize(out.size() + 2, x[1]);
  double s = 0;
  for (double v : out)
    s += std::sin(v);
  return s;
}

// The same on copies (as C++ runs it), for central differences.
static double editedPlain(std::vector<double> x, std::vector<double> out) {
  return edited(x, out);
}

// Appends k x[k mod n] for k < 20 (the memory regrown past its capacity).
[[ct::differentiable]] void appendScaled(const std::vector<double> &x,
                                         std::vector<double> &out) {
  for (int k = 0; k < 20; ++k)
    out.push_back(x[k % x.size()] * k);
}

// A local vector grown by another differentiable function.
[[ct::differentiable]] double scaledSquares(const std::vector<double> &x) {
  std::vector<double> buffer;
  appendScaled(x, buffer);
  double s = 0;
  for (double v : buffer)
    s += v * v;
  return s;
}

// The indices of the positive inputs (no derivative), and their squares.
[[ct::differentiable]] double positiveIndices(const std::vector<double> &x,
                                              std::vector<int> &indices) {
  indices.clear();
  double s = 0;
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i] > 0) {
      indices.push_back(static_cast<int>(i));
      s += x[i] * x[i];
    }
  return s;
}

// Weights that carry no derivative, grown in the function: sum w_i x_i.
[[ct::differentiable]] double rampWeights(const std::vector<double> &x,
                                          std::vector<double> &weights) {
  weights.clear();
  for (size_t i = 0; i < x.size(); ++i)
    weights.push_back(i + 1.0);
  double s = 0;
  for (size_t i = 0; i < x.size(); ++i)
    s += weights[i] * x[i];
  return s;
}

static void checkForward() {
  const std::vector<double> x{1.0, -2.0, 3.0};
  std::vector<double> tx{0.5, 1.0, 2.0};
  // Not empty before: its old contents and tangents are dropped.
  std::vector<double> out{5.0, 6.0}, tout{0.5, 0.25};
  auto r = ct::jvp<positiveSines>(x, out, &tx, &tout);
  double s1 = std::sin(1.0), s3 = std::sin(3.0);
  near("forward: value", r.value, s1 * s1 + s3 * s3, 1e-13);
  near("forward: tangent", r.tangent,
       2 * s1 * std::cos(1.0) * 0.5 + 2 * s3 * std::cos(3.0) * 2.0, 1e-13);
  near("forward: vector refilled", out.size(), 2, 0);
  near("forward: tangent vector refilled", tout.size(), 2, 0);
  near("forward: contents", out[1], s3, 0);
  near("forward: tangent contents", tout[0], std::cos(1.0) * 0.5, 1e-15);
  near("forward: tangent contents", tout[1], std::cos(3.0) * 2.0, 1e-15);
}

static void checkEdited() {
  std::vector<double> x{0.3, -0.7, 1.1};
  const std::vector<double> before{0.5};
  for (int i = 0; i < 3; ++i) {
    std::vector<double> out = before, tout{0.0};
    std::vector<double> tx(3, 0.0);
    tx[i] = 1.0;
    auto r = ct::jvp<edited>(x, out, &tx, &tout);
    near("edited: value", r.value, editedPlain(x, before), 1e-13);
    near("edited: tangent", r.tangent,
         check::differenceAt(x.data(), i,
                             [&] { return editedPlain(x, before); }),
         1e-7);
    near("edited: size", out.size(), 6, 0);
    near("edited: tangent size", tout.size(), 6, 0);
  }
}

static void checkAppendScaled() {
  const std::vector<double> x{0.4, -1.5, 2.5};
  std::vector<double> tx{1.0, 0.0, 0.0};
  std::vector<double> out{1.0, 2.0, 3.0}, tout{0.0, 0.0, 0.0};
  ct::jvp<appendScaled>(x, out, &tx, &tout);
  near("append: size", out.size(), 23, 0);
  near("append: tangent size", tout.size(), 23, 0);
  near("append: old contents kept", out[2], 3.0, 0);
  near("append: appended", out[3 + 7], x[1] * 7, 0);
  for (int k = 0; k < 20; ++k)
    near("append: tangent", tout[3 + k], k % 3 == 0 ? k : 0.0, 0);

  std::vector<double> dx(3, 0.0);
  double value = ct::gradient<scaledSquares>(x, &dx);
  double expected = 0, d0 = 0;
  for (int k = 0; k < 20; ++k) {
    double v = x[k % 3] * k;
    expected += v * v;
    if (k % 3 == 0)
      d0 += 2 * x[0] * k * k;
  }
  near("local through a function: value", value, expected, 1e-13);
  near("local through a function: gradient", dx[0], d0, 1e-13);
  std::vector<double> t{0.0, 0.0, 1.0};
  near("local through a function: tangent",
       ct::jvp<scaledSquares>(x, &t).tangent,
       check::differenceAt(const_cast<double *>(x.data()), 2,
                           [&] { return ct::jvp<scaledSquares>(x, &t).value; }),
       1e-7);
}

static void checkReverse() {
  const std::vector<double> x{1.5, -2.0, 0.5, 3.0};
  std::vector<int> indices{7};
  std::vector<double> dx(4, 0.0);
  double value = ct::gradient<positiveIndices, ct::wrt<0>>(x, indices, &dx);
  near("indices: value", value, 1.5 * 1.5 + 0.25 + 9.0, 1e-14);
  near("indices: gradient", dx[0], 3.0, 1e-14);
  near("indices: gradient of a negative input", dx[1], 0.0, 0);
  near("indices: gradient", dx[3], 6.0, 1e-14);
  near("indices: size", indices.size(), 3, 0);
  near("indices: contents", indices[2], 3, 0);

  std::vector<double> weights;
  std::vector<double> dx2(4, 0.0);
  value = ct::gradient<rampWeights, ct::wrt<0>>(x, weights, &dx2);
  near("weights: value", value, 1.5 - 4.0 + 1.5 + 12.0, 1e-14);
  for (int i = 0; i < 4; ++i)
    near("weights: gradient", dx2[i], i + 1.0, 0);
  near("weights: size", weights.size(), 4, 0);
}

// Appends to the contents, doubled first: sum of squares of all.
[[ct::differentiable]] double doubledThenAppended(const std::vector<double> &x,
                                                  std::vector<double> &out) {
  for (double &v : out)
    v *= 2;
  for (double v : x)
    out.push_back(std::sin(v) * out[0]);
  double s = 0;
  for (double v : out)
    s += v * v;
  return s;
}

static std::vector<double> doubledThenAppendedPlain(std::vector<double> x,
                                                    std::vector<double> out) {
  for (double &v : out)
    v *= 2;
  for (double v : x)
    out.push_back(std::sin(v) * out[0]);
  return out;
}

static double sumOfSquares(const std::vector<double> &v) {
  double s = 0;
  for (double e : v)
    s += e * e;
  return s;
}

static double weighted(const std::vector<double> &w,
                       const std::vector<double> &v) {
  double s = 0;
  for (size_t j = 0; j < w.size(); ++j)
    s += w[j] * v[j];
  return s;
}

// Reverse mode of vectors whose elements carry derivatives: the derivative
// vector holds the seeds of the final contents (or nothing), then the
// cotangents of the initial contents.
static void checkReverseGrowth() {
  std::vector<double> x{1.0, -2.0, 3.0};
  std::vector<double> initial{0.5, 1.5};
  auto value = [&] {
    return sumOfSquares(doubledThenAppendedPlain(x, initial));
  };
  {
    std::vector<double> out = initial, dx(3, 0.0), dout;
    double v = ct::gradient<doubledThenAppended>(x, out, &dx, &dout);
    near("reverse growth: value", v, value(), 1e-13);
    near("reverse growth: size", out.size(), 5, 0);
    near("reverse growth: derivative vector of the initial size", dout.size(),
         2, 0);
    for (int i = 0; i < 3; ++i)
      near("reverse growth: gradient", dx[i],
           check::differenceAt(x.data(), i, value), 1e-7);
    for (int i = 0; i < 2; ++i)
      near("reverse growth: cotangent of the initial contents", dout[i],
           check::differenceAt(initial.data(), i, value), 1e-7);
  }
  {
    // Seeds w of the final contents, and 0.5 of the result.
    const std::vector<double> w{0.1, 0.2, 0.3, 0.4, 0.5};
    auto seeded = [&] {
      std::vector<double> final = doubledThenAppendedPlain(x, initial);
      return weighted(w, final) + 0.5 * sumOfSquares(final);
    };
    std::vector<double> out = initial, dx(3, 0.0), dout = w;
    ct::pullback<doubledThenAppended>(x, out, 0.5, &dx, &dout);
    near("seeded: derivative vector of the initial size", dout.size(), 2, 0);
    for (int i = 0; i < 3; ++i)
      near("seeded: gradient", dx[i],
           check::differenceAt(x.data(), i, seeded), 1e-7);
    for (int i = 0; i < 2; ++i)
      near("seeded: cotangent of the initial contents", dout[i],
           check::differenceAt(initial.data(), i, seeded), 1e-7);
  }
  {
    // Refilled from empty: the seeds of the final contents only.
    const std::vector<double> w{2.0, -1.0};
    std::vector<double> out{9.0, 9.0, 9.0}, dx(3, 0.0), dout = w;
    ct::pullback<positiveSines>(x, out, 0.0, &dx, &dout);
    near("refilled: derivative vector of the initial size", dout.size(), 3,
         0);
    near("refilled: old contents have no cotangent", dout[0], 0.0, 0);
    near("refilled: gradient", dx[0], 2.0 * std::cos(1.0), 1e-14);
    near("refilled: gradient of a dropped input", dx[1], 0.0, 0);
    near("refilled: gradient", dx[2], -1.0 * std::cos(3.0), 1e-14);
  }
  {
    std::vector<double> out{0.5}, dout, dx(3, 0.0);
    const std::vector<double> before{0.5};
    ct::gradient<edited>(x, out, &dx, &dout);
    for (int i = 0; i < 3; ++i)
      near("edited in reverse: gradient", dx[i],
           check::differenceAt(x.data(), i,
                               [&] { return editedPlain(x, before); }),
           1e-7);
  }
}

// Pushes a place chosen at run time (`c ? x : y`, a glvalue) in a loop:
// the number is copied, no derivative of the place is needed (fuzz seed
// 1200023 was refused).
[[ct::differentiable]] double chosenPushes(double x, double y,
                                           std::vector<double> &out) {
  for (int i = 0; i < 3; ++i)
    out.push_back(i % 2 == 0 ? x : y);
  double s = 0;
  for (double v : out)
    s += v * v;
  return s;
}

static void checkChosenPushes() {
  std::vector<double> out{1.0}, dout;
  double dx = 0, dy = 0;
  double v = ct::gradient<chosenPushes>(0.5, -2.0, out, &dx, &dy, &dout);
  near("chosen pushes: value", v, 1.0 + 2 * 0.25 + 4.0, 1e-15);
  near("chosen pushes: d/dx", dx, 2 * 2 * 0.5, 1e-15);
  near("chosen pushes: d/dy", dy, 2 * -2.0, 1e-15);
  near("chosen pushes: cotangent of the initial contents", dout[0], 2.0,
       1e-15);
}

struct Pair {
  double a, b;
};

// A std::vector result, whose size the call decides: ct::jvp returns it
// with its tangent, ct::pullback takes the seeds of its elements.
[[ct::differentiable]] std::vector<double>
scaledSines(const std::vector<double> &x, double k) {
  std::vector<double> out;
  for (double v : x)
    if (v > 0)
      out.push_back(k * std::sin(v));
  return out;
}

[[ct::differentiable]] std::vector<Pair> pairs(const std::vector<double> &x) {
  std::vector<Pair> out;
  for (size_t i = 0; i + 1 < x.size(); ++i)
    out.push_back({x[i] * x[i + 1], std::exp(x[i])});
  return out;
}

static void checkVectorResults() {
  std::vector<double> x{1.0, -2.0, 3.0}, tx{1.0, 1.0, 1.0};
  const double k = 2.0;
  auto r = ct::jvp<scaledSines>(x, k, &tx, 0.5);
  near("vector result: size", r.value.size(), 2, 0);
  near("vector result: tangent size", r.tangent.size(), 2, 0);
  near("vector result: value", r.value[1], k * std::sin(3.0), 1e-15);
  near("vector result: tangent", r.tangent[0],
       k * std::cos(1.0) + 0.5 * std::sin(1.0), 1e-14);

  const std::vector<double> seeds{1.0, 10.0};
  std::vector<double> dx(3, 0.0);
  double dk = 0;
  std::vector<double> value = ct::pullback<scaledSines>(x, k, seeds, &dx, &dk);
  near("vector result by pullback", value[0], k * std::sin(1.0), 1e-15);
  near("vector result: pullback", dx[0], k * std::cos(1.0), 1e-14);
  near("vector result: pullback of a dropped input", dx[1], 0.0, 0);
  near("vector result: pullback", dx[2], 10 * k * std::cos(3.0), 1e-13);
  near("vector result: pullback of a scalar", dk,
       std::sin(1.0) + 10 * std::sin(3.0), 1e-14);

  // Structs of numbers: one seed per element, its fields.
  std::vector<double> y{0.5, -0.25, 1.5};
  const std::vector<Pair> pairSeeds{{1.0, 0.5}, {-2.0, 0.25}};
  auto weighted = [&] {
    double s = 0;
    for (size_t i = 0; i + 1 < y.size(); ++i)
      s += pairSeeds[i].a * y[i] * y[i + 1] + pairSeeds[i].b * std::exp(y[i]);
    return s;
  };
  std::vector<double> dy(3, 0.0);
  ct::pullback<pairs>(y, pairSeeds, &dy);
  for (int i = 0; i < 3; ++i)
    near("vector of structs result: pullback", dy[i],
         check::differenceAt(y.data(), i, weighted), 1e-7);
}

int main() {
  checkForward();
  checkVectorResults();
  checkChosenPushes();
  checkReverseGrowth();
  checkEdited();
  checkAppendScaled();
  checkReverse();
  return check::report();
}
