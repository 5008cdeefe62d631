// A range-`for` over a range that is not an array, a std::array, a
// std::vector or a list (a class of the user's with an iterator class of
// its own, a std::span) is lowered as C++ expands it: the range bound to a
// reference, begin() and end(), then a loop that compares, reads `*it` and
// increments, each lowered from its own code. The iterator's pointer field
// moved by `p += s` is that field designating where it pointed, moved: the
// loop becomes one over an offset into the caller's array, stepping by the
// stride.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s

struct Strided {
  const double *p;
  int stride, n;
  struct It {
    const double *p;
    int s;
    double operator*() const { return *p; }
    It &operator++() {
      p += s;
      return *this;
    }
    bool operator!=(const It &o) const { return p != o.p; }
  };
  It begin() const { return {p, stride}; }
  It end() const { return {p + n * stride, stride}; }
};

[[ct::differentiable]] double column(const double *x, int n) {
  double s = 0;
  for (double v : Strided{x, 2, n})
    s += v;
  return s;
}

// CHECK-LABEL: func.func @_Z6columnPKdi(
// CHECK: %[[END:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: scf.while (%[[AT:.*]] = %c0, %[[SUM:.*]] = %cst)
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi ne, %[[AT]], %[[END]]
// CHECK-NEXT: scf.condition(%[[MORE]])
// CHECK: ^bb0(%[[I:.*]]: index, %[[ACC:.*]]: f64):
// CHECK-NEXT: %[[V:.*]] = memref.load %arg0[%[[I]]]
// CHECK-NEXT: %[[NEXT:.*]] = arith.addf %[[ACC]], %[[V]]
// (The stride, an int kept in the iterator's slot beside the pointer's
// offset, is read back as the constant stored there.)
// CHECK-NEXT: %[[STEP:.*]] = arith.addi %[[I]], %c2 : index
// CHECK-NEXT: scf.yield %[[STEP]], %[[NEXT]]
