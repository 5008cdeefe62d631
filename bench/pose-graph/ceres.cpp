//===- ceres.cpp - The pose-graph edge's Jacobian by Ceres's Jets ---------===//
//
// ceres::AutoDiffCostFunction<PoseGraphError, 6, 3, 4, 3, 4>, made once per
// edge as a Ceres user makes it, evaluated with every Jacobian block asked
// for: the functor on dual numbers (ceres::Jet) of 14 partials.
//
//===----------------------------------------------------------------------===//

#include "PoseGraphError.h"

#include <memory>
#include <vector>

#ifdef HAVE_CERES
#include <ceres/autodiff_cost_function.h>
#endif

namespace bench::posegraph {

#ifdef HAVE_CERES
namespace {
using CostFunction = ceres::AutoDiffCostFunction<PoseGraphError, 6, 3, 4, 3, 4>;
std::vector<std::unique_ptr<CostFunction>> costFunctions;
} // namespace

bool prepareCeres(const PoseGraphError *errors, int count) {
  costFunctions.clear();
  for (int i = 0; i < count; ++i)
    costFunctions.emplace_back(new CostFunction(new PoseGraphError(errors[i])));
  return true;
}

void jacobianByCeres(int index, const Edge &edge, EdgeJacobian &out) {
  const double *parameters[4] = {edge.block(0), edge.block(1), edge.block(2),
                                 edge.block(3)};
  costFunctions[index]->Evaluate(parameters, out.residuals, out.blocks);
}
#else
bool prepareCeres(const PoseGraphError *, int) { return false; }
void jacobianByCeres(int, const Edge &, EdgeJacobian &) {}
#endif

} // namespace bench::posegraph
