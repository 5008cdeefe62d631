//===- WorkloadTests.cpp - Benchmark workloads: derivatives are right -----===//
//
// At small sizes: every hand-written derivative agrees with central finite
// differences, and Cotangent's agrees with the hand-written one to 1e-8
// relative; GMM's Hessian-vector product agrees with a finite difference of
// the hand-written gradient.
//
//===----------------------------------------------------------------------===//

#include "Workloads.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cctype>
#include <cstdio>

namespace {

class WorkloadTest : public testing::TestWithParam<size_t> {
protected:
  const bench::Workload &workload();
};

const std::vector<bench::Workload> &testWorkloads();

const bench::Workload &WorkloadTest::workload() {
  return testWorkloads()[GetParam()];
}

TEST_P(WorkloadTest, ManualMatchesFiniteDifferences) {
  const bench::Workload &w = workload();
  std::vector<double> manual(w.derivativeSize), difference(w.derivativeSize);
  w.manual(manual.data());
  for (size_t unit = 0; unit < w.differenceUnits; ++unit)
    w.difference(unit, difference.data());
  // Central differences with h = 1e-6 carry an absolute error of about
  // 1e-10 |f|; entries far below the largest are compared at 1e-3 of it,
  // and 1e-5 relative is what they resolve (a wrong formula is off by O(1)).
  const double error = bench::maxRelativeError(manual, difference, 1e-3);
  std::printf("%s: hand-written vs finite differences %.2e\n", w.name.c_str(),
              error);
  EXPECT_LT(error, 1e-5) << w.name;
}

TEST_P(WorkloadTest, CotangentMatchesManual) {
  const bench::Workload &w = workload();
  std::vector<double> manual(w.derivativeSize), cotangent(w.derivativeSize);
  w.manual(manual.data());
  w.derivative(cotangent.data());
  const double error = bench::maxRelativeError(cotangent, manual);
  std::printf("%s: Cotangent vs hand-written %.2e\n", w.name.c_str(), error);
  EXPECT_LT(error, 1e-8) << w.name;
  // Nonzero derivatives, so that the comparison means something.
  double norm = 0;
  for (double value : manual)
    norm += value * value;
  EXPECT_GT(norm, 0) << w.name;
}

TEST_P(WorkloadTest, HessianVectorMatchesFiniteDifferences) {
  const bench::Workload &w = workload();
  if (!w.hessianVector)
    GTEST_SKIP() << w.name << " offers no Hessian-vector product";
  std::vector<double> hv(w.derivativeSize), difference(w.derivativeSize);
  w.hessianVector(hv.data());
  w.hessianVectorDifference(difference.data());
  const double error = bench::maxRelativeError(hv, difference, 1e-3);
  std::printf("%s: Hessian-vector product vs finite differences %.2e\n",
              w.name.c_str(), error);
  EXPECT_LT(error, 1e-5) << w.name;
}

/// The test-scale workloads, built once.
const std::vector<bench::Workload> &testWorkloads() {
  static const std::vector<bench::Workload> all =
      bench::makeWorkloads(bench::Scale::Test);
  return all;
}

std::string workloadName(const testing::TestParamInfo<size_t> &info) {
  std::string name = testWorkloads()[info.param].name;
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Workloads, WorkloadTest,
                         testing::Range<size_t>(0, testWorkloads().size()),
                         workloadName);

} // namespace
