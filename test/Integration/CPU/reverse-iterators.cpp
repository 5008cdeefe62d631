// Ranges walked backward by std::reverse_iterator (`v.rbegin()`/`v.rend()`,
// `std::make_reverse_iterator` of a pointer) given to the standard
// algorithms (sort, copy and reverse among them), to loops and to
// std::vector's constructor, `assign` and `insert`: the
// algorithms the compiler models take ranges of pointers and vector
// iterators, so a call with a reverse iterator is lowered from the
// library's own code, as written. Reverse mode, forward
// mode, Hessian-vector products and vector lanes against central
// differences, at -O0 and -O2.
// REQUIRES: plugin
// RUN: %clangxx-ct -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx-ct -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: checks: {{[1-9][0-9]*}} passed, 0 failed

#include <cotangent/cotangent.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>
#include <vector>

#include "modes.h"

// Horner's rule from the last coefficient, by a loop over reverse
// iterators.
[[ct::differentiable]] double horner(const double *x, int n) {
  std::vector<double> c(x, x + n);
  double s = 0;
  for (auto it = c.rbegin(); it != c.rend(); ++it)
    s = s * 0.5 + *it * *it;
  return s;
}

// A vector against its reverse, and a weighted sum from the back.
[[ct::differentiable]] double palindrome(const double *x, int n) {
  std::vector<double> v(x, x + n);
  double folded = std::inner_product(v.begin(), v.end(), v.rbegin(), 0.0);
  double weighted = std::accumulate(v.rbegin(), v.rend(), 0.0,
                                    [](double a, double b) {
                                      return 0.9 * a + std::sin(b);
                                    });
  return folded + weighted;
}

// Suffix sums written in place through reverse iterators, a reversed copy
// (by std::transform) and a transform from the back.
[[ct::differentiable]] double suffixes(const double *x, int n) {
  std::vector<double> v(x, x + n), w(n);
  std::partial_sum(v.rbegin(), v.rend(), v.rbegin());
  std::transform(v.rbegin(), v.rend(), w.begin(),
                 [](double a) { return a; });
  std::transform(w.rbegin(), w.rend(), v.begin(), w.rbegin(),
                 [](double a, double b) { return a * b; });
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * (i + 1);
  return s;
}

// Reverse iterators over the caller's array, and a search from the back.
[[ct::differentiable]] double lastLarge(const double *x, int n) {
  auto first = std::make_reverse_iterator(x + n);
  auto last = std::make_reverse_iterator(x);
  auto found =
      std::find_if(first, last, [](double a) { return std::fabs(a) > 0.6; });
  double tail = std::accumulate(first, found, 0.0);
  return found == last ? tail : tail * *found;
}

// Sorted descending by sorting the reverse range, copied back to front,
// and reversed through reverse iterators: the library's sort, copy and
// reverse, whose code compares reverse iterators by `<=>` of their bases.
[[ct::differentiable]] double descending(const double *x, int n) {
  std::vector<double> v(x, x + n), w(n);
  std::sort(v.rbegin(), v.rend());
  std::copy(v.rbegin(), v.rend(), w.begin());
  std::reverse(w.rbegin(), w.rend() - 1);
  std::copy_n(v.rbegin(), 2, w.begin() + 1);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (i + 1) * v[i] * v[i] + std::sin(w[i]) * (n - i);
  return s;
}

// The caller's array walked backward by pointers' reverse iterators, and a
// local array sorted through them.
[[ct::differentiable]] double backward(const double *x, int n) {
  double a[8];
  std::copy(std::make_reverse_iterator(x + n), std::make_reverse_iterator(x),
            a);
  std::sort(std::make_reverse_iterator(a + n), std::make_reverse_iterator(a));
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * (i + 1) * x[i];
  return s;
}

// Vectors made, assigned and extended from reverse ranges: of a vector,
// of the caller's array and of a vector of vectors.
[[ct::differentiable]] double reversedVectors(const double *x, int n) {
  std::vector<double> v(x, x + n);
  std::vector<double> w(v.rbegin(), v.rend());
  std::vector<double> u;
  u.assign(std::make_reverse_iterator(x + n),
           std::make_reverse_iterator(x + 1));
  u.insert(u.begin() + 1, w.rbegin() + 1, w.rend());
  u.push_back(2.0);
  std::vector<std::vector<double>> rows{v, w}, flipped(rows.rbegin(),
                                                       rows.rend());
  flipped.insert(flipped.end(), rows.rbegin(), rows.rend() - 1);
  double s = 0;
  for (std::size_t i = 0; i < u.size(); ++i)
    s += (i + 1) * u[i] * w[i % n];
  for (std::size_t r = 0; r < flipped.size(); ++r)
    s += (r + 1) * flipped[r][0] * flipped[r][n - 1];
  return s;
}

int main() {
  const double x[5] = {0.3, -0.7, 1.1, 0.5, -0.2};
  check::checkModes<horner>("horner", x, 5);
  check::checkModes<palindrome>("palindrome", x, 5);
  check::checkModes<suffixes>("suffixes", x, 5);
  check::checkModes<lastLarge>("lastLarge", x, 5);
  check::checkModes<descending>("descending", x, 5);
  check::checkModes<backward>("backward", x, 5);
  check::checkModes<reversedVectors>("reversedVectors", x, 5);
  // Closed forms: the orders the library's code leaves.
  check::near("descending order", descending(x, 3),
              1 * 1.1 * 1.1 + 2 * 0.3 * 0.3 + 3 * 0.7 * 0.7 +
                  3 * std::sin(-0.7) + 2 * std::sin(-0.7) + std::sin(0.3),
              1e-14);
  // Closed forms.
  check::near("horner value", horner(x, 2), 0.5 * 0.49 + 0.09, 1e-15);
  // u = x2 x1 x2 x1 2, w = x2 x1 x0; flipped = w, v, w.
  const double x0 = x[0], x1 = x[1], x2 = x[2];
  check::near("reversedVectors value", reversedVectors(x, 3),
              x2 * x2 + 2 * x1 * x1 + 3 * x2 * x0 + 4 * x1 * x2 + 5 * 2 * x1 +
                  (1 + 2 + 3) * x0 * x2,
              1e-14);
  check::near("lastLarge value", lastLarge(x, 5), (0.5 - 0.2) * 1.1, 1e-15);
  return check::report();
}
