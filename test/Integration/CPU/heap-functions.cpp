// Memory the function makes and the caller frees, or the caller's memory
// the function frees, goes through the allocation function the source
// names: `new[]` memory is freed by `delete[]`, `malloc`'s (and
// `realloc`'s) by `free`, `new`'s by `delete`; over-aligned objects, and
// memory asked of `aligned_alloc` or the aligned `operator new` with a
// constant alignment, are made aligned, by the aligned forms; in the
// primal, forward and reverse mode alike. (The
// derivative code used to make and free all of it with the plain
// `operator new` and `operator delete`: a program replacing the array forms
// saw unmatched calls, and AddressSanitizer reported the mismatch.) The
// counting build replaces the plain and array forms and checks that each
// kind is balanced; the sanitized build checks every pair.
// RUN: %clangxx-ct -O0 -DCOUNT_HEAP %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 -DCOUNT_HEAP %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx-ct -O1 -fsanitize=address,undefined %s -o %ta && %ta | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "check.h"

using check::near;

#ifdef COUNT_HEAP
namespace counts {
long news, arrayNews, deletes, arrayDeletes;
} // namespace counts
void *operator new(std::size_t n) {
  ++counts::news;
  return std::malloc(n ? n : 1);
}
void *operator new[](std::size_t n) {
  ++counts::arrayNews;
  return std::malloc(n ? n : 1);
}
void operator delete(void *p) noexcept {
  counts::deletes += p != nullptr;
  std::free(p);
}
void operator delete(void *p, std::size_t) noexcept { operator delete(p); }
void operator delete[](void *p) noexcept {
  counts::arrayDeletes += p != nullptr;
  std::free(p);
}
void operator delete[](void *p, std::size_t) noexcept {
  operator delete[](p);
}
#endif

//===-- The caller's memory, made again inside ----------------------------===//

struct Buffer {
  double *data;
  int size;
};

/// Appends x to the buffer (new memory, the old freed), then sums squares:
/// with the buffer {1, 2, 3} scaled by x first, s = 15 x^2.
[[ct::differentiable]] double grow(Buffer &b, double x) {
  double *more = new double[b.size + 1];
  for (int i = 0; i < b.size; ++i)
    more[i] = b.data[i] * x;
  more[b.size] = x;
  delete[] b.data;
  b.data = more;
  b.size += 1;
  double s = 0;
  for (int i = 0; i < b.size; ++i)
    s += b.data[i] * b.data[i];
  return s;
}

void checkGrow() {
  Buffer b{new double[3]{1, 2, 3}, 3};
  near("grow value", grow(b, 2.0), 60.0, 1e-12);
  near("grow size", b.size, 4, 0);
  near("grow last", b.data[3], 2.0, 0);
  delete[] b.data;
  Buffer p{new double[3]{1, 2, 3}, 3}, t{new double[3]{0, 0, 0}, 3};
  auto r = ct::jvp<grow>(p, 2.0, &t, 1.0);
  near("grow jvp value", r.value, 60.0, 1e-12);
  near("grow jvp tangent", r.tangent, 60.0, 1e-12);
  near("grow tangent memory", t.data[3], 1.0, 0); // d more[3] / dx
  near("grow tangent memory 0", t.data[0], 1.0, 0); // d (1 x) / dx
  delete[] p.data;
  delete[] t.data;
}

/// C's memory grown by realloc inside; the caller frees it with free.
[[ct::differentiable]] double appendSquare(Buffer &b, double x) {
  b.data = static_cast<double *>(
      std::realloc(b.data, sizeof(double) * (b.size + 1)));
  b.data[b.size] = x * x;
  b.size += 1;
  double s = 0;
  for (int i = 0; i < b.size; ++i)
    s += b.data[i] * x;
  return s;
}

void checkRealloc() {
  auto cMemory = [](double a, double c) {
    auto *d = static_cast<double *>(std::malloc(2 * sizeof(double)));
    d[0] = a;
    d[1] = c;
    return d;
  };
  Buffer b{cMemory(1, 2), 2}, t{cMemory(0, 0), 2};
  // s = (1 + 2 + x^2) x: 36 at x = 3, ds/dx = 3 + 3 x^2 = 30.
  auto r = ct::jvp<appendSquare>(b, 3.0, &t, 1.0);
  near("realloc jvp value", r.value, 36.0, 1e-12);
  near("realloc jvp tangent", r.tangent, 30.0, 1e-12);
  near("realloc tangent memory", t.data[2], 6.0, 1e-12);
  std::free(b.data);
  std::free(t.data);
}

//===-- Memory made and freed inside, in reverse mode ---------------------===//

/// Scratch of every kind, freed when the pullback is done with it:
/// s = 2 sum x_i^3.
[[ct::differentiable]] double scratch(const double *x, int n) {
  auto *squares = static_cast<double *>(std::malloc(sizeof(double) * n));
  double *doubled = new double[n];
  double *two = new double(2.0);
  for (int i = 0; i < n; ++i) {
    squares[i] = x[i] * x[i];
    doubled[i] = squares[i] * *two;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += doubled[i] * x[i];
  std::free(squares);
  delete[] doubled;
  delete two;
  return s;
}

void checkScratch() {
  double x[3] = {1, 2, 3}, dx[3] = {0, 0, 0};
  ct::gradient<scratch>(x, 3, dx);
  for (int i = 0; i < 3; ++i)
    near("scratch gradient", dx[i], 6 * x[i] * x[i], 1e-12);
  double t[3] = {1, 0, 0};
  auto r = ct::jvp<scratch>(x, 3, t);
  near("scratch jvp", r.tangent, 6.0, 1e-12);
}

//===-- Over-aligned objects: the aligned forms ---------------------------===//

struct alignas(64) Wide {
  double v[8];
};

/// -1 if `new` did not align the object as its type asks; else
/// s = (7 x)(3 x) = 21 x^2.
[[ct::differentiable]] double wide(double x) {
  Wide *w = new Wide;
  Wide *ws = new Wide[3];
  for (int i = 0; i < 8; ++i)
    w->v[i] = ws[2].v[i] = x * i;
  bool aligned = reinterpret_cast<std::uintptr_t>(w) % 64 == 0 &&
                 reinterpret_cast<std::uintptr_t>(ws) % 64 == 0;
  double s = w->v[7] * ws[2].v[3];
  delete w;
  delete[] ws;
  return aligned ? s : -1.0;
}

/// The same through C's aligned_alloc and the aligned operator new called
/// by name: s = sum x^2 i^2 over i < 8 = 140 x^2.
[[ct::differentiable]] double alignedByName(double x) {
  auto *a = static_cast<double *>(std::aligned_alloc(64, 8 * sizeof(double)));
  auto *b = static_cast<double *>(
      ::operator new(8 * sizeof(double), std::align_val_t(32)));
  for (int i = 0; i < 8; ++i) {
    a[i] = x * i;
    b[i] = a[i] * a[i];
  }
  bool aligned = reinterpret_cast<std::uintptr_t>(a) % 64 == 0 &&
                 reinterpret_cast<std::uintptr_t>(b) % 32 == 0;
  double s = 0;
  for (int i = 0; i < 8; ++i)
    s += b[i];
  std::free(a);
  ::operator delete(b, std::align_val_t(32));
  return aligned ? s : -1.0;
}

void checkAligned() {
  near("aligned by name value", alignedByName(0.5), 35.0, 1e-12);
  double byName = 0;
  ct::gradient<alignedByName>(0.5, &byName);
  near("aligned by name gradient", byName, 140.0, 1e-12);
  near("aligned value", wide(2.0), 84.0, 1e-12);
  double dx = 0;
  ct::gradient<wide>(2.0, &dx);
  near("aligned gradient", dx, 84.0, 1e-12);
  near("aligned jvp", ct::jvp<wide>(2.0, 1.0).tangent, 84.0, 1e-12);
}

int main() {
  checkGrow();
  checkRealloc();
  checkScratch();
  checkAligned();
#ifdef COUNT_HEAP
  near("array news made", counts::arrayNews > 0, 1, 0);
  near("array news freed by delete[]", counts::arrayDeletes, counts::arrayNews,
       0);
  near("news freed by delete", counts::deletes, counts::news, 0);
#endif
  return check::report();
}
