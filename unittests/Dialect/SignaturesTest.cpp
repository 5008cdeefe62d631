//===- SignaturesTest.cpp - Derivative signature convention ---------------===//

#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace cotangent::ct;

namespace {

class SignaturesTest : public ::testing::Test {
protected:
  SignaturesTest() : builder(&context) {}

  MLIRContext context;
  Builder builder;
  Type f32 = builder.getF32Type();
  Type f64 = builder.getF64Type();
  Type i32 = builder.getI32Type();
  Type buffer = MemRefType::get({ShapedType::kDynamic}, f64);
  Type intBuffer = MemRefType::get({4}, i32);
  // (f32, i32, memref<?xf64>, memref<4xi32>, f64) -> (f64, i32, f32)
  FunctionType mixed = builder.getFunctionType(
      {f32, i32, buffer, intBuffer, f64}, {f64, i32, f32});
};

TEST_F(SignaturesTest, DefaultActivitiesFollowTypes) {
  EXPECT_EQ(getDefaultActivities(mixed),
            (SmallVector<Activity>{Activity::Active, Activity::Constant,
                                   Activity::Duplicated, Activity::Constant,
                                   Activity::Active}));
}

TEST_F(SignaturesTest, ActivityFitsOnlyDifferentiableTypes) {
  EXPECT_TRUE(activityFitsType(Activity::Active, f32));
  EXPECT_FALSE(activityFitsType(Activity::Active, i32));
  EXPECT_FALSE(activityFitsType(Activity::Active, buffer));
  EXPECT_TRUE(activityFitsType(Activity::Duplicated, buffer));
  EXPECT_FALSE(activityFitsType(Activity::Duplicated, intBuffer));
  EXPECT_FALSE(activityFitsType(Activity::Duplicated, f64));
  EXPECT_TRUE(activityFitsType(Activity::Constant, intBuffer));
}

TEST_F(SignaturesTest, ReverseSignatureListsSeedsShadowsAdjoints) {
  ReverseSignature sig = getReverseSignature(
      mixed, {Activity::Active, Activity::Constant, Activity::Duplicated,
              Activity::Constant, Activity::Constant});
  EXPECT_EQ(sig.seeds, (SmallVector<Type>{f64, f32}));
  EXPECT_EQ(sig.seedResults, (SmallVector<unsigned>{0, 2}));
  EXPECT_EQ(sig.shadows, (SmallVector<Type>{buffer}));
  EXPECT_EQ(sig.shadowArgs, (SmallVector<unsigned>{2}));
  // Argument 4 is f64 but declared const: it gets no adjoint.
  EXPECT_EQ(sig.adjoints, (SmallVector<Type>{f32}));
  EXPECT_EQ(sig.adjointArgs, (SmallVector<unsigned>{0}));
}

TEST_F(SignaturesTest, ForwardSignatureListsTangents) {
  ForwardSignature sig =
      getForwardSignature(mixed, getDefaultActivities(mixed));
  EXPECT_EQ(sig.tangents, (SmallVector<Type>{f32, buffer, f64}));
  EXPECT_EQ(sig.tangentArgs, (SmallVector<unsigned>{0, 2, 4}));
  EXPECT_EQ(sig.resultTangents, (SmallVector<Type>{f64, f32}));
  EXPECT_EQ(sig.tangentResults, (SmallVector<unsigned>{0, 2}));
}

TEST_F(SignaturesTest, RuleTypesAppendDerivativesToPrimalSignature) {
  EXPECT_EQ(
      getPullbackRuleType(mixed),
      builder.getFunctionType(
          {f32, i32, buffer, intBuffer, f64, f64, f32, buffer}, {f32, f64}));
  EXPECT_EQ(getJvpRuleType(mixed),
            builder.getFunctionType(
                {f32, i32, buffer, intBuffer, f64, f32, buffer, f64},
                {f64, i32, f32, f64, f32}));
}

TEST_F(SignaturesTest, FunctionWithoutFloatsHasEmptyDerivative) {
  FunctionType ints = builder.getFunctionType({i32, intBuffer}, {i32});
  EXPECT_EQ(getPullbackRuleType(ints),
            builder.getFunctionType({i32, intBuffer}, {}));
  EXPECT_EQ(getJvpRuleType(ints), ints);
}

} // namespace
