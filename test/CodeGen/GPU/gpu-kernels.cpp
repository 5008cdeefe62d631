// cotangent-cc --target=cuda:sm_90 --emit=ptx: the PTX embedded in the
// object, one module per kernel, on every machine (no GPU or CUDA toolkit
// needed). A target loop's forward-mode loop, and its pullback's forward
// sweep and reversed loop, are kernels: a reduction is an atomic add, the
// reversed loop's writes at the iteration's own element plain stores, exp
// an expansion (no libdevice function is left to link).
// RUN: %cotangent-cc --target=cuda:sm_90 --emit=ptx %s -- -std=c++20 -fopenmp -I%cotangent-include | FileCheck %s --implicit-check-not=.extern --implicit-check-not=__nv_
// RUN: not %cotangent-cc --target=cuda:90 --emit=ptx %s -- -std=c++20 -fopenmp -I%cotangent-include 2>&1 | FileCheck %s --check-prefix=BAD
// Without -fopenmp the pragma means nothing: no kernel.
// RUN: %cotangent-cc --target=cuda:sm_90 --emit=ptx %s -- -std=c++20 -I%cotangent-include | FileCheck %s --check-prefix=SERIAL --allow-empty
// BAD: error: cotangent: unknown target 'cuda:90'; expected cuda:sm_NN
// SERIAL-NOT: .entry
#include <cotangent/cotangent.h>

#include <cmath>

[[ct::differentiable]] double softSum(const double *x, double *y, int n) {
  double s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s) \
    map(to : x[0 : n]) map(from : y[0 : n])
  for (int i = 0; i < n; ++i) {
    y[i] = std::exp(x[i]);
    s += y[i] * x[i];
  }
  return s;
}

// CHECK: // gpu module _Z7softSumPKdPdi_jvp_{{.*}}_kernel
// CHECK: .target sm_90
// CHECK: .visible .entry _Z7softSumPKdPdi_jvp_{{.*}}_kernel(
// CHECK:   %ctaid.x
// CHECK:   %tid.x
// CHECK:   atom.global.add.f64
// CHECK: // gpu module _Z7softSumPKdPdi_pullback_{{.*}}_kernel
// CHECK: .visible .entry
// CHECK:   atom.global.add.f64
// CHECK: // gpu module _Z7softSumPKdPdi_pullback_{{.*}}_kernel_{{[0-9]+}}
// CHECK: .visible .entry
// CHECK:   st.global.b64
double gradient(const double *x, double *y, int n, double *dx) {
  return ct::gradient<softSum, ct::wrt<0>>(x, y, n, dx);
}
double tangent(const double *x, double *y, int n, const double *tx) {
  return ct::jvp<softSum, ct::wrt<0>>(x, y, n, tx).tangent;
}
