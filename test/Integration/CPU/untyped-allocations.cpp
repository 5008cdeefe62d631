// C's allocation functions kept as `void *` before a cast gives the memory
// its type, as C libraries and Eigen's allocator write them: a pointer
// declared first and assigned after, helpers taking and returning `void *`,
// freeing through a helper, a helper returning null early, memory made in
// a branch at a run-time size and kept in a class's field, calloc typed
// later (zeroed), realloc of typed memory through `void *`, a branch the
// compiler decides holding what differentiable code cannot express (a try
// block), and scratch memory chosen between an aligned alloca (its address
// rounded up by integer arithmetic) and malloc, cast once for both, kept by
// a handler that frees it when it owns it (Eigen's stack buffers); memset
// of typed memory (zeroing an array, a struct of numbers and integers, a
// number's bytes set to all ones, a NaN as Eigen's masks make). Reverse
// and forward mode at -O0 and -O2 against closed forms.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <alloca.h>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "check.h"

// An allocator in the style of Eigen's: the bytes as `void *`, checked.
inline void *rawAllocate(std::size_t bytes) {
  void *result;
  result = std::malloc(bytes);
  if (!result && bytes)
    throw std::bad_alloc();
  return result;
}

inline void rawFree(void *memory) { std::free(memory); }

constexpr bool kConstructs = false;

// Typed by the caller's cast; null for no elements.
template <class T> T *allocateArray(std::size_t n) {
  if (n == 0)
    return nullptr;
  T *result = reinterpret_cast<T *>(rawAllocate(sizeof(T) * n));
  if (kConstructs) {
    try {
      for (std::size_t i = 0; i < n; ++i)
        new (result + i) T();
    } catch (...) {
      rawFree(result);
      throw;
    }
  }
  return result;
}

template <class T> void freeArray(T *memory) { rawFree(memory); }

// A vector class owning its memory through the helpers above, resized to a
// size known at run time.
struct Buffer {
  double *data = nullptr;
  long size = 0;
  void resize(long n) {
    if (n != size) {
      freeArray(data);
      if (n > 0)
        data = allocateArray<double>(n);
      else
        data = nullptr;
    }
    size = n;
  }
  ~Buffer() { freeArray(data); }
};

// sum_i (x_i x_{i+1})^2 in a Buffer of n - 1 elements.
[[ct::differentiable]] double neighbourProducts(const double *x, int n) {
  Buffer b;
  b.resize(n - 1);
  for (int i = 0; i + 1 < n; ++i)
    b.data[i] = x[i] * x[i + 1];
  double s = 0;
  for (long i = 0; i < b.size; ++i)
    s += b.data[i] * b.data[i];
  return s;
}

// calloc as `void *`, typed after: prefix sums, sum_i (n - i) x_i.
[[ct::differentiable]] double zeroedPrefix(const double *x, int n) {
  void *bytes = std::calloc(n + 1, sizeof(double));
  auto *prefix = static_cast<double *>(bytes);
  for (int i = 0; i < n; ++i)
    prefix[i + 1] += prefix[i] + x[i];
  double s = 0;
  for (int i = 1; i <= n; ++i)
    s += prefix[i];
  rawFree(prefix);
  return s;
}

// realloc of typed memory, kept as `void *`, then cast back: squares of
// the first half, cubes of the second, summed.
[[ct::differentiable]] double grownThroughVoid(const double *x, int n) {
  int half = n / 2;
  auto *t = static_cast<double *>(std::malloc(half * sizeof(double)));
  for (int i = 0; i < half; ++i)
    t[i] = x[i] * x[i];
  void *grown = std::realloc(t, n * sizeof(double));
  auto *all = static_cast<double *>(grown);
  for (int i = half; i < n; ++i)
    all[i] = x[i] * x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += all[i];
  std::free(grown);
  return s;
}

#define ALIGNED_ALLOCA(bytes)                                                  \
  reinterpret_cast<void *>(                                                    \
      (reinterpret_cast<std::uintptr_t>(alloca((bytes) + 15)) + 15) &          \
      ~std::uintptr_t(15))

// Frees what it holds when it owns it.
struct ScratchHandler {
  double *memory;
  bool owned;
  ~ScratchHandler() {
    if (owned)
      rawFree(memory);
  }
};

// sum_i x_i^2 (x_i + 1) through scratch memory on the stack up to `limit`
// bytes, else on the heap.
[[ct::differentiable]] double scratchSums(const double *x, int n,
                                          int limit) {
  std::size_t bytes = n * sizeof(double);
  bool onHeap = bytes > std::size_t(limit);
  double *t = reinterpret_cast<double *>(!onHeap ? ALIGNED_ALLOCA(bytes)
                                                 : rawAllocate(bytes));
  ScratchHandler handler{onHeap ? t : nullptr, onHeap};
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i] * (x[i] + 1);
  return s;
}

// alloca cast at once: sum_i x_i^3 through stack memory.
[[ct::differentiable]] double stackCubes(const double *x, int n) {
  auto *t = static_cast<double *>(alloca(n * sizeof(double)));
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i];
  return s;
}

struct Tally {
  double sum;
  int count;
  double squares;
};

// memset: sum_i x_i^2 through an array of n zeroed first (then half of
// it zeroed again, after a first pass), a struct zeroed, and a number
// whose bytes are all ones (a NaN, which `v != v` recognises).
[[ct::differentiable]] double zeroedByMemset(const double *x, int n) {
  double *t = new double[n];
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * 10;
  std::memset(t, 0, n * sizeof(double));
  for (int i = 0; i < n; ++i)
    t[i] += x[i] * x[i];
  Tally tally;
  memset(static_cast<void *>(&tally), 0, sizeof tally);
  for (int i = 0; i < n; ++i) {
    tally.sum += t[i];
    tally.count += 1;
  }
  std::memset(t, 0, (n / 2) * sizeof(double));
  for (int i = 0; i < n; ++i)
    tally.squares += t[i] * x[i];
  double mask;
  std::memset(&mask, 0xff, sizeof mask);
  double s = tally.sum + tally.squares / tally.count;
  delete[] t;
  return mask != mask ? s : -s;
}

static void checkMemset() {
  double x[4] = {0.5, -1.5, 2.0, 0.25}, dx[4] = {};
  double v = ct::gradient<zeroedByMemset>(x, 4, dx);
  // sum x_i^2 + (x_2^3 + x_3^3) / 4.
  check::near("memset value", v,
              0.25 + 2.25 + 4.0 + 0.0625 + (8.0 + 0.015625) / 4, 1e-12);
  for (int i = 0; i < 4; ++i)
    check::near("memset gradient", dx[i],
                2 * x[i] + (i >= 2 ? 0.75 * x[i] * x[i] : 0.0), 1e-12);
  double tx[4] = {0, 0, 1, 0};
  check::near("memset jvp", ct::jvp<zeroedByMemset>(x, 4, tx).tangent,
              4.0 + 0.75 * 4.0, 1e-12);
}

static void checkScratchSums() {
  {
    double x[3] = {0.5, -1.0, 2.0}, dx[3] = {};
    check::near("stack value", ct::gradient<stackCubes>(x, 3, dx),
                0.125 - 1.0 + 8.0, 1e-12);
    for (int i = 0; i < 3; ++i)
      check::near("stack gradient", dx[i], 3 * x[i] * x[i], 1e-12);
  }
  double x[4] = {0.5, -1.5, 2.0, 0.25};
  for (int limit : {1024, 8}) {
    double dx[4] = {};
    double v = ct::gradient<scratchSums>(x, 4, limit, dx);
    double expected = 0;
    for (double xi : x)
      expected += xi * xi * (xi + 1);
    check::near("scratch value", v, expected, 1e-12);
    for (int i = 0; i < 4; ++i)
      check::near("scratch gradient", dx[i], 3 * x[i] * x[i] + 2 * x[i],
                  1e-12);
    double tx[4] = {1, 0, 0, 0};
    check::near("scratch jvp", ct::jvp<scratchSums>(x, 4, limit, tx).tangent,
                3 * 0.25 + 1.0, 1e-12);
  }
}

static void checkNeighbourProducts() {
  double x[5] = {0.5, -1.5, 2.0, 0.25, 1.2}, dx[5] = {};
  double v = ct::gradient<neighbourProducts>(x, 5, dx);
  double expected = 0, grad[5] = {};
  for (int i = 0; i < 4; ++i) {
    double p = x[i] * x[i + 1];
    expected += p * p;
    grad[i] += 2 * p * x[i + 1];
    grad[i + 1] += 2 * p * x[i];
  }
  check::near("neighbour value", v, expected, 1e-12);
  for (int i = 0; i < 5; ++i)
    check::near("neighbour gradient", dx[i], grad[i], 1e-12);
  double tx[5] = {1, -1, 0.5, 2, -0.25}, directional = 0;
  for (int i = 0; i < 5; ++i)
    directional += grad[i] * tx[i];
  check::near("neighbour jvp", ct::jvp<neighbourProducts>(x, 5, tx).tangent,
              directional, 1e-12);
  // One element: the buffer of none is the null pointer.
  double one[1] = {3.0}, done[1] = {7.0};
  check::near("neighbour empty", ct::gradient<neighbourProducts>(one, 1, done),
              0.0, 0.0);
  check::near("neighbour empty gradient", done[0], 7.0, 0.0);
}

static void checkZeroedPrefix() {
  double x[4] = {0.3, 0.1, -0.7, 2.0}, dx[4] = {};
  double v = ct::gradient<zeroedPrefix>(x, 4, dx);
  double expected = 0;
  for (int i = 0; i < 4; ++i)
    expected += (4 - i) * x[i];
  check::near("zeroed value", v, expected, 1e-12);
  for (int i = 0; i < 4; ++i)
    check::near("zeroed gradient", dx[i], 4.0 - i, 1e-12);
  double tx[4] = {1, 1, 1, 1};
  check::near("zeroed jvp", ct::jvp<zeroedPrefix>(x, 4, tx).tangent,
              4 + 3 + 2 + 1, 1e-12);
}

static void checkGrownThroughVoid() {
  double x[6] = {0.5, -1.0, 2.0, 0.7, -0.3, 1.1}, dx[6] = {};
  double v = ct::gradient<grownThroughVoid>(x, 6, dx);
  double expected = 0;
  for (int i = 0; i < 6; ++i)
    expected += i < 3 ? x[i] * x[i] : x[i] * x[i] * x[i];
  check::near("grown value", v, expected, 1e-12);
  for (int i = 0; i < 6; ++i)
    check::near("grown gradient", dx[i],
                i < 3 ? 2 * x[i] : 3 * x[i] * x[i], 1e-12);
}

int main() {
  checkScratchSums();
  checkNeighbourProducts();
  checkZeroedPrefix();
  checkGrownThroughVoid();
  checkMemset();
  return check::report();
}
