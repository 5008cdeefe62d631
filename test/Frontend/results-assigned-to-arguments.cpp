// `m = doubled(m)` for a vector of vectors: the call reads m's old rows
// before the move assignment frees them, and the assignment runs only when
// the two are distinct objects (it freed the rows first, so the call read
// freed memory).
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <vector>

using Mat = std::vector<std::vector<double>>;

static Mat doubled(const Mat &m) {
  Mat r(1, std::vector<double>(1));
  r[0][0] = 2 * m[0][0];
  return r;
}

// CHECK-LABEL: func.func @_Z5twiced(
// The call, reading the old rows:
// CHECK: arith.mulf
// CHECK: %[[DISTINCT:.*]] = arith.cmpi ne
// CHECK-NEXT: scf.if %[[DISTINCT]] {
// CHECK: memref.dealloc
// CHECK: return
[[ct::differentiable]] double twice(double x) {
  Mat m(1, std::vector<double>(1, x));
  m = doubled(m);
  return m[0][0];
}
