// A running index beside the loop counter (`l[idx]` with `idx++`, a
// triangle stored column by column) becomes a function of the induction
// variable: init + (j - lb) * 1 in the body, init + max(ub - lb, 0) after
// the loop, so that no iteration argument carries it and reverse mode can
// recompute it instead of taping it. The values are the C++ ones.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include | FileCheck %s --check-prefix=AD

// CHECK-LABEL: func.func @_Z8triangleiPKdS0_Pd(
// CHECK: scf.for %[[I:.*]] = %c0_i32 to %arg0 step %c1_i32 iter_args(%[[IDX:.*]] = %c0_i32) -> (i32)
// CHECK:   %[[LB:.*]] = arith.addi %[[I]], %c1_i32
// CHECK:   scf.for %[[J:.*]] = %[[LB]] to %arg0 step %c1_i32 {{ *}}: i32 {
// CHECK:     %[[DONE:.*]] = arith.subi %[[J]], %[[LB]] : i32
// CHECK:     %[[AT:.*]] = arith.addi %[[IDX]], %[[DONE]] : i32
// CHECK:     arith.index_cast %[[AT]]
// CHECK:   %[[SPAN:.*]] = arith.subi %arg0, %[[LB]] : i32
// CHECK:   %[[TRIPS:.*]] = arith.maxsi %[[SPAN]], %c0_i32 : i32
// CHECK:   %[[NEXT:.*]] = arith.addi %[[IDX]], %[[TRIPS]] : i32
// CHECK:   scf.yield %[[NEXT]] : i32
// The inner loop's reverse code reads l again at the recomputed index: no
// index is taped per inner iteration (the outer counter, whose step is the
// inner trip count, once per outer iteration).
// AD-LABEL: func.func private @_Z8triangleiPKdS0_Pd.pullback
// AD-NOT: ct.tape_write {{.*}} : index
// AD: return
[[ct::differentiable]] void triangle(int d, const double *__restrict__ l,
                                     const double *__restrict__ x,
                                     double *__restrict__ out) {
  for (int i = 0; i < d; i++)
    out[i] = x[i];
  int idx = 0;
  for (int i = 0; i < d; i++)
    for (int j = i + 1; j < d; j++) {
      out[j] = out[j] + l[idx] * x[i];
      idx++;
    }
}

#include <cotangent/cotangent.h>
void use(int d, const double *l, const double *x, double *out, double *dl,
         double *dx, double *dout) {
  ct::pullback<triangle>(d, l, x, out, dl, dx, dout);
}
