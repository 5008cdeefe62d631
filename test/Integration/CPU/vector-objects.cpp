// std::vectors of classes that own memory, kept in memory as C++ lays them
// out (three addresses: docs/Memory.md): locals grown by resize, push_back
// and emplace_back (without reserve), shrunk by pop_back, resize and clear,
// copied, moved and assigned, elements inserted and erased in the middle,
// walked by range-for, iterators and algorithms; resized inside helpers
// through a pointer; a helper making such a vector in a loop, called twice,
// under reverse vector lanes; a
// vector of matrices in a struct the caller passes (read through its
// addresses), std::vector<std::string> whose size is read, and structs
// holding such vectors. Each element's constructors and destructor are its
// own; reverse and forward mode, vector lanes and Hessian-vector products
// against central differences and closed forms, at -O0 and -O2 (and under
// AddressSanitizer in the sanitizer build: no leak, no use after free).
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "check.h"

/// A small dense matrix owning its buffer (column-major), as numerical
/// codes write them: new[] in constructors, deep copies, a resize that
/// frees and allocates, a move that steals the buffer.
class Mat {
public:
  Mat() : rows(0), cols(0), data(nullptr) {}
  Mat(int r, int c) : rows(r), cols(c) { data = new double[r * c]; }
  Mat(const Mat &other) : rows(0), cols(0), data(nullptr) {
    resize(other.rows, other.cols);
    for (int i = 0; i < rows * cols; ++i)
      data[i] = other.data[i];
  }
  Mat(Mat &&other) : rows(other.rows), cols(other.cols), data(other.data) {
    other.rows = 0;
    other.cols = 0;
    other.data = nullptr;
  }
  ~Mat() {
    if (data)
      delete[] data;
  }
  Mat &operator=(const Mat &other) {
    resize(other.rows, other.cols);
    for (int i = 0; i < rows * cols; ++i)
      data[i] = other.data[i];
    return *this;
  }
  void resize(int r, int c) {
    if (r * c != rows * cols) {
      delete[] data;
      if (r * c > 0)
        data = new double[r * c];
      else
        data = nullptr;
    }
    rows = r;
    cols = c;
  }
  double &operator()(int i, int j) { return data[j * rows + i]; }
  const double &operator()(int i, int j) const { return data[j * rows + i]; }

  int rows, cols;
  double *data;
};

void multiply(const Mat &a, const Mat &b, Mat *out) {
  out->resize(a.rows, b.cols);
  for (int i = 0; i < a.rows; ++i)
    for (int k = 0; k < b.cols; ++k) {
      (*out)(i, k) = 0;
      for (int j = 0; j < a.cols; ++j)
        (*out)(i, k) += a(i, j) * b(j, k);
    }
}

/// A 2x2 rotation by `angle` scaled by `scale`.
void rotation(double angle, double scale, Mat *r) {
  r->resize(2, 2);
  (*r)(0, 0) = scale * std::cos(angle);
  (*r)(1, 0) = scale * std::sin(angle);
  (*r)(0, 1) = -(*r)(1, 0);
  (*r)(1, 1) = (*r)(0, 0);
}

/// The chain's transforms, made by a helper that resizes the vector it is
/// given.
void makeTransforms(const double *angles, int n, std::vector<Mat> *out) {
  auto &transforms = *out;
  transforms.resize(n);
  for (int i = 0; i < n; ++i)
    rotation(angles[i], 1 + 0.1 * i, &transforms[i]);
}

/// The products of the transforms from the root (a kinematic chain), and
/// the squared norm of the last column of every product.
[[ct::differentiable]] double chainEnergy(const double *angles, int n) {
  std::vector<Mat> relatives, absolutes;
  makeTransforms(angles, n, &relatives);
  absolutes.resize(relatives.size());
  for (size_t i = 0; i < relatives.size(); ++i) {
    if (i == 0)
      absolutes[i] = relatives[i];
    else
      multiply(absolutes[i - 1], relatives[i], &absolutes[i]);
  }
  double energy = 0;
  for (const Mat &absolute : absolutes)
    energy += absolute(0, 1) * absolute(0, 1) + absolute(1, 1) * absolute(1, 1) +
              absolute(0, 0);
  return energy;
}

/// Growth one element at a time (push_back of copies and of temporaries,
/// emplace_back with constructor arguments), shrinking, copies and moves of
/// whole vectors.
[[ct::differentiable]] double growAndShrink(const double *x, int n) {
  std::vector<Mat> items;
  for (int i = 0; i < n; ++i) {
    Mat m(1, 2);
    m(0, 0) = x[i];
    m(0, 1) = x[i] * x[i];
    if (i % 2 == 0)
      items.push_back(m);
    else
      items.push_back(Mat(m));
  }
  items.emplace_back(1, 1);
  items.back()(0, 0) = x[0] * x[n - 1];
  std::vector<Mat> copy = items; // deep copies
  items.pop_back();
  items.resize(n - 1);
  double s = 0;
  for (size_t i = 0; i < items.size(); ++i)
    s += items[i](0, 0) * items[i](0, 1);
  std::vector<Mat> moved = std::move(copy);
  s += 3 * moved.back()(0, 0) + double(copy.size());
  std::vector<Mat> assigned;
  assigned = moved;
  std::vector<Mat> &alias = assigned;
  assigned = alias; // assigning a vector to itself keeps it
  s += 0.5 * assigned.back()(0, 0);
  assigned.clear();
  s += double(assigned.size()) + double(assigned.empty());
  return s;
}

/// Elements inserted and erased in the middle (the others move), an
/// iterator loop and an algorithm over the elements.
[[ct::differentiable]] double insertAndErase(const double *x, int n) {
  std::vector<Mat> v;
  for (int i = 0; i < n; ++i) {
    v.emplace_back(1, 1);
    v.back()(0, 0) = x[i];
  }
  v.insert(v.begin() + 1, v[3]);             // x0 x3 x1 x2 x3 ...
  v.emplace(v.begin(), 1, 1);                // y x0 x3 x1 x2 x3 ...
  v.front()(0, 0) = x[1] * x[2];             // y = x1 x2
  v.erase(v.begin() + 2);                    // y x0 x1 x2 x3 ...
  v.erase(v.begin() + 3, v.end());           // y x0 x1
  double s = 0, k = 1;
  for (auto it = v.begin(); it != v.end(); ++it)
    s += k++ * (*it)(0, 0);                  // y + 2 x0 + 3 x1
  std::for_each(v.begin(), v.end(), [&](const Mat &m) { s += m(0, 0) * m(0, 0); });
  return s;
}

/// A struct the caller builds, holding matrices, a vector of matrices and
/// names; the function reads them through the addresses in it.
struct Model {
  std::vector<std::string> names;
  std::vector<Mat> bases;
  Mat weights;
  bool mirrored;
};

[[ct::differentiable]] double modelEnergy(const double *x,
                                          const Model *model) {
  double e = 0;
  for (size_t b = 0; b < model->names.size(); ++b) {
    const Mat &base = model->bases[b];
    for (int i = 0; i < base.rows; ++i)
      e += base(i, 0) * x[b] * x[b] * model->weights(0, b);
  }
  return model->mirrored ? -e : e;
}

/// A local struct holding a vector of matrices and a matrix: destroyed by
/// its parts.
struct Scene {
  std::vector<Mat> parts;
  Mat total;
};

[[ct::differentiable]] double sceneEnergy(const double *x, int n) {
  Scene scene;
  scene.total.resize(1, 1);
  scene.total(0, 0) = 0;
  for (int i = 0; i < n; ++i) {
    scene.parts.emplace_back(1, 1);
    scene.parts[i](0, 0) = std::sin(x[i]);
    scene.total(0, 0) += scene.parts[i](0, 0) * x[i];
  }
  return scene.total(0, 0) * scene.total(0, 0);
}

static void checkGradient(const char *name, double *x, int n,
                          double (*f)(const double *, int), const double *g) {
  for (int i = 0; i < n; ++i) {
    double fd = check::differenceAt(x, i, [&] { return f(x, n); });
    char label[64];
    std::snprintf(label, sizeof label, "%s d%d", name, i);
    check::near(label, g[i], fd, 1e-6);
  }
}

static void checkChain() {
  const int n = 4;
  double angles[n] = {0.3, -0.7, 1.1, 0.25}, g[n] = {};
  double value = ct::gradient<chainEnergy>(angles, n, g);
  check::near("chain value", value, chainEnergy(angles, n), 1e-12);
  checkGradient("chain", angles, n, chainEnergy, g);
  double t[n] = {0.5, -1, 0.25, 2}, directional = 0;
  for (int i = 0; i < n; ++i)
    directional += g[i] * t[i];
  check::near("chain jvp", ct::jvp<chainEnergy>(angles, n, t).tangent,
              directional, 1e-9);
  // Two lanes of tangents, and a Hessian-vector product against
  // differences of gradients.
  double t2[2 * n];
  for (int i = 0; i < n; ++i) {
    t2[2 * i] = t[i];
    t2[2 * i + 1] = i == 2;
  }
  auto lanes = ct::jvp<chainEnergy, ct::lanes<2>>(angles, n, t2);
  check::near("chain lane 0", lanes.tangent[0], directional, 1e-9);
  check::near("chain lane 1", lanes.tangent[1], g[2], 1e-9);
  double hv[n] = {};
  ct::hvp<chainEnergy>(angles, n, t, hv);
  for (int i = 0; i < n; ++i) {
    double gp[n] = {}, gm[n] = {}, h = 1e-5, plus[n], minus[n];
    for (int k = 0; k < n; ++k) {
      plus[k] = angles[k] + h * t[k];
      minus[k] = angles[k] - h * t[k];
    }
    ct::gradient<chainEnergy>(plus, n, gp);
    ct::gradient<chainEnergy>(minus, n, gm);
    check::near("chain hvp", hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);
  }
}

static void checkGrowth() {
  const int n = 5;
  double x[n] = {0.5, 1.5, -0.75, 2, 0.3}, g[n] = {};
  double value = ct::gradient<growAndShrink>(x, n, g);
  // Closed form: sum over i < n-1 of x_i^3, plus 3.5 x_0 x_{n-1}, plus one
  // (the moved-from vector is empty; the cleared one is empty).
  double expected = 3.5 * x[0] * x[n - 1] + 1;
  for (int i = 0; i < n - 1; ++i)
    expected += x[i] * x[i] * x[i];
  check::near("growth value", value, expected, 1e-12);
  checkGradient("growth", x, n, growAndShrink, g);
  double t[n] = {1, 0, 0, 0, 0};
  check::near("growth jvp", ct::jvp<growAndShrink>(x, n, t).tangent,
              3 * x[0] * x[0] + 3.5 * x[n - 1], 1e-9);
}

static void checkInsertAndErase() {
  const int n = 5;
  double x[n] = {0.5, -1.5, 0.75, 2, 0.3}, g[n] = {};
  double value = ct::gradient<insertAndErase>(x, n, g);
  double y = x[1] * x[2];
  check::near("insert value", value,
              y + 2 * x[0] + 3 * x[1] + y * y + x[0] * x[0] + x[1] * x[1],
              1e-12);
  check::near("insert d0", g[0], 2 + 2 * x[0], 1e-12);
  check::near("insert d1", g[1], x[2] + 3 + 2 * y * x[2] + 2 * x[1], 1e-12);
  check::near("insert d2", g[2], x[1] + 2 * y * x[1], 1e-12);
  check::near("insert d3", g[3], 0, 1e-12);
  double t[n] = {0, 0, 1, 0, 0};
  check::near("insert jvp", ct::jvp<insertAndErase>(x, n, t).tangent, g[2],
              1e-12);
}

static void checkModel() {
  Model model;
  for (int b = 0; b < 3; ++b) {
    model.names.push_back("bone" + std::to_string(b));
    model.bases.emplace_back(2, 1);
    model.bases[b](0, 0) = 1 + b;
    model.bases[b](1, 0) = 0.5 * b;
  }
  model.weights = Mat(1, 3);
  for (int b = 0; b < 3; ++b)
    model.weights(0, b) = 0.25 * (b + 1);
  model.mirrored = true;
  double x[3] = {0.7, -1.2, 2.1}, g[3] = {};
  double value = ct::gradient<modelEnergy, ct::wrt<0>>(x, &model, g);
  check::near("model value", value, modelEnergy(x, &model), 1e-12);
  for (int b = 0; b < 3; ++b) {
    double column = model.bases[b](0, 0) + model.bases[b](1, 0);
    check::near("model gradient", g[b],
                -2 * x[b] * column * model.weights(0, b), 1e-12);
  }
  double t[3] = {1, 1, 1};
  check::near("model jvp",
              ct::jvp<modelEnergy, ct::wrt<0>>(x, &model, t).tangent,
              g[0] + g[1] + g[2], 1e-12);
  // Lanes (the constant model carries none) and a Hessian-vector product:
  // the Hessian is diagonal, -2 * column * weight.
  double t2[6] = {1, 0, 0, 1, 0, 0};
  auto lanes = ct::jvp<modelEnergy, ct::wrt<0>, ct::lanes<2>>(x, &model, t2);
  check::near("model lane 0", lanes.tangent[0], g[0], 1e-12);
  check::near("model lane 1", lanes.tangent[1], g[1], 1e-12);
  double hv[3] = {};
  ct::hvp<modelEnergy, ct::wrt<0>>(x, &model, t, hv);
  for (int b = 0; b < 3; ++b) {
    double column = model.bases[b](0, 0) + model.bases[b](1, 0);
    check::near("model hvp", hv[b], -2 * column * model.weights(0, b), 1e-12);
  }
}

static void checkScene() {
  const int n = 4;
  double x[n] = {0.2, -0.4, 1.3, 0.9}, g[n] = {};
  ct::gradient<sceneEnergy>(x, n, g);
  checkGradient("scene", x, n, sceneEnergy, g);
  double t[n] = {0, 0, 1, 0};
  check::near("scene jvp", ct::jvp<sceneEnergy>(x, n, t).tangent, g[2], 1e-9);
}

/// Makes a vector of matrices in a loop, shrinks it in a branch, reads it.
static double stagesOf(double x) {
  std::vector<Mat> stages;
  for (int i = 0; i < 2; ++i) {
    stages.emplace_back(1, 1);
    stages.back()(0, 0) = x * (i + 1);
  }
  if (x >= 0.5)
    stages.resize(1);
  for (size_t k = 0; k < stages.size(); ++k)
    x += stages[k](0, 0) * x;
  return x;
}

[[ct::differentiable]] double twoStages(double *out, double x) {
  out[0] = stagesOf(x);
  out[1] = stagesOf(2 * x);
  return x;
}

/// Two lanes of seeds (one per output) through a helper called twice that
/// keeps the addresses of memory it makes in a loop.
static void checkHelperLanes() {
  for (double x : {0.3, 0.7}) {
    double out[2], seeds[2] = {0, 0}, dout[4] = {1, 0, 0, 1}, dx[2] = {};
    ct::pullback<twoStages, ct::lanes<2>>(out, x, seeds, dout, dx);
    for (int k = 0; k < 2; ++k) {
      double fd = check::centralDifference(
          [&](double t) {
            double o[2];
            twoStages(o, t);
            return o[k];
          },
          x);
      check::near("helper called twice, lane", dx[k], fd, 1e-7);
    }
  }
}

int main() {
  checkHelperLanes();
  checkChain();
  checkGrowth();
  checkInsertAndErase();
  checkModel();
  checkScene();
  return check::report();
}
