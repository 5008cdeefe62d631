//===- WorkloadTests.cpp - Benchmark workloads: derivatives are right -----===//
//
// At small sizes: every hand-written derivative agrees with central finite
// differences, and Cotangent's agrees with the hand-written one to 1e-8
// relative; GMM's Hessian-vector product agrees with a finite difference of
// the hand-written gradient. Vector mode: four pullbacks in one sweep equal
// four one by one (GMM, BA), and GMM's full Hessian times a direction is
// the Hessian-vector product, symmetric.
//
//===----------------------------------------------------------------------===//

#include "Workloads.h"
#include "workloads/Ba.h"
#include "workloads/Gmm.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>

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

// The comparison itself must fail on planted errors, or every test above
// could pass on a wrong derivative.
TEST(MaxRelativeError, FailsOnPlantedErrors) {
  const std::vector<double> expected = {1.0, -2.0, 0.5};
  EXPECT_EQ(bench::maxRelativeError(expected, expected), 0.0);
  EXPECT_NEAR(bench::maxRelativeError({1.0, -2.0, 0.6}, expected), 0.2, 1e-12);
  const double nan = std::nan("");
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(bench::maxRelativeError({nan, nan, nan}, expected) < 1e-8);
  EXPECT_FALSE(bench::maxRelativeError({1.0, inf, 0.5}, expected) < 1e-8);
  EXPECT_FALSE(bench::maxRelativeError(expected, {1.0, nan, 0.5}) < 1e-8);
  EXPECT_FALSE(bench::maxRelativeError({1.0, -2.0}, expected) < 1e-8);
  EXPECT_FALSE(bench::maxRelativeError({0.0, 1e-3}, {0.0, 0.0}) < 1e-8);
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

TEST(VectorMode, GmmFourLanesEqualFourPullbacks) {
  bench::gmm::Input in = bench::gmm::generate(3, 4, 5, 7);
  const size_t count = in.parameterCount();
  const double seeds[4] = {1.0, -0.5, 2.0, 0.25};
  std::vector<double> lanes(4 * count), single(4 * count), gradient(count);
  bench::gmm::pullbacks(in, seeds, lanes.data(), true);
  bench::gmm::pullbacks(in, seeds, single.data(), false);
  bench::gmm::gradient(in, gradient.data());
  for (size_t i = 0; i < count; ++i)
    for (int l = 0; l < 4; ++l) {
      EXPECT_NEAR(lanes[4 * i + l], single[4 * i + l],
                  1e-12 * (1 + std::fabs(single[4 * i + l])));
      EXPECT_NEAR(lanes[4 * i + l], seeds[l] * gradient[i],
                  1e-12 * (1 + std::fabs(gradient[i])));
    }
}

TEST(VectorMode, GmmHessianTimesDirectionIsTheHvp) {
  bench::gmm::Input in = bench::gmm::generate(3, 4, 5, 7);
  const size_t count = in.parameterCount();
  std::vector<double> H(count * count), v(count), hv(count);
  for (size_t i = 0; i < count; ++i)
    v[i] = std::sin(double(i) + 1);
  bench::gmm::hessian(in, H.data());
  bench::gmm::hessianVector(in, v.data(), hv.data());
  for (size_t r = 0; r < count; ++r) {
    double dot = 0;
    for (size_t c = 0; c < count; ++c) {
      dot += H[r * count + c] * v[c];
      EXPECT_NEAR(H[r * count + c], H[c * count + r],
                  1e-9 * (1 + std::fabs(H[r * count + c])));
    }
    EXPECT_NEAR(dot, hv[r], 1e-9 * (1 + std::fabs(hv[r])));
  }
}

// GMM with its per-point loop as an OpenMP loop, on two threads: the same
// objective and gradient as the serial formulation (to the rounding of a
// reordered sum), and a JVP equal to the gradient's dot product.
TEST(ParallelLoops, GmmOnTwoThreadsEqualsSerial) {
  bench::gmm::Input in = bench::gmm::generate(4, 5, 64, 7);
  const size_t count = in.parameterCount();
  std::vector<double> serial(count), parallel(count), v(count);
  for (size_t i = 0; i < count; ++i)
    v[i] = std::sin(double(i) + 1);
  bench::gmm::setThreads(2);
  const double f = bench::gmm::gradient(in, serial.data());
  EXPECT_NEAR(bench::gmm::objectiveParallel(in), f, 1e-12 * std::fabs(f));
  EXPECT_NEAR(bench::gmm::gradientParallel(in, parallel.data()), f,
              1e-12 * std::fabs(f));
  double dot = 0;
  for (size_t i = 0; i < count; ++i) {
    EXPECT_NEAR(parallel[i], serial[i], 1e-11 * (1 + std::fabs(serial[i])));
    dot += serial[i] * v[i];
  }
  EXPECT_NEAR(bench::gmm::directionalParallel(in, v.data()), dot,
              1e-10 * (1 + std::fabs(dot)));
}

TEST(VectorMode, BaFourLanesEqualFourPullbacks) {
  bench::ba::Input in = bench::ba::generate(3, 5, 8, 7);
  const double seeds[2 * 4] = {1, 0, 0, 1, 1, 1, 0.5, -2};
  const size_t size = 4 * size_t(in.p) * bench::ba::kBlockColumns;
  std::vector<double> lanes(size), single(size);
  bench::ba::pullbacks(in, seeds, lanes.data(), true);
  bench::ba::pullbacks(in, seeds, single.data(), false);
  for (size_t i = 0; i < size; ++i)
    EXPECT_NEAR(lanes[i], single[i], 1e-12 * (1 + std::fabs(single[i])));
}

INSTANTIATE_TEST_SUITE_P(Workloads, WorkloadTest,
                         testing::Range<size_t>(0, testWorkloads().size()),
                         workloadName);

} // namespace
