// What libraries' numerical kernels write around their arithmetic lowers to
// nothing: an assembly comment, a prefetch hint, a destructor call of a
// number, a call of a function with an empty body; a null pointer to a type
// only declared is memory of no elements, and a test of it that the
// lowering knows takes its branch alone; a library function on integers
// only whose body does not lower (a thread-local variable of another file)
// is called as compiled.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I %S/Inputs | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I %S/Inputs | %cotangent-opt > /dev/null

#include "integer-library.h"

struct ParallelInfo; // declared only

inline void ignoreUnused(const double &) {}

inline void scale(const double *x, double *y, ParallelInfo *info = nullptr) {
  if (info)
    y[1] = 1.0;
  else
    y[1] = 2.0;
  y[0] = x[0] * y[1];
}

[[ct::differentiable]] double idioms(const double *x) {
  double y[2];
  asm("# the kernel starts here");
  __builtin_prefetch(x);
  ignoreUnused(x[0]);
  scale(x, y);
  using Number = double;
  y[1].~Number();
  long size = 0;
  cachedSize(&size);
  return y[0] + static_cast<double>(size);
}

// The else branch only (info is null), no assembly, no prefetch, no call
// of the empty function; the integer function called as compiled.
// CHECK-LABEL: func.func @_Z6idiomsPKd(
// CHECK-NOT: scf.if
// CHECK-NOT: inline_asm
// CHECK-NOT: prefetch
// CHECK-NOT: ignoreUnused
// CHECK: %[[TWO:.*]] = arith.constant 2.0
// CHECK: %[[X0:.*]] = memref.load %arg0[%c0]
// CHECK-NEXT: arith.mulf %[[X0]], %[[TWO]]
// CHECK: call @_Z10cachedSizePl(
// CHECK: func.func private @_Z10cachedSizePl({{.*}}ct.external, ct.library_code = "'cachedCacheSize' is a thread-local variable defined in another file
