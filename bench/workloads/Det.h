//===- Det.h - Determinant by expansion in minors (GradBench "det") -------===//
//
// det(A) of an n x n row-major matrix by recursive Laplace expansion along
// the first remaining row: n! products, no pivoting. The gradient is the
// cofactor matrix.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_BENCH_DET_H
#define COTANGENT_BENCH_DET_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench::det {

struct Input {
  int n = 0;
  std::vector<double> a;
  size_t parameterCount() const { return a.size(); }
};

Input generate(int n, uint64_t seed);

double objective(const Input &in);
double objectiveAt(const Input &in, const double *a);
double gradient(const Input &in, double *grad);
double gradientManual(const Input &in, double *grad);

} // namespace bench::det

#endif // COTANGENT_BENCH_DET_H
