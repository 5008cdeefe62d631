//===- LoopStrategiesTest.cpp - How a pullback reverses each loop ---------===//

#include "Analysis/LoopStrategies.h"
#include "IRTest.h"
using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {

using LoopStrategiesTest = IRTest;
using ct::Activity;

/// Every op with an active result needs reverse (enough for these tests).
bool hasActiveResult(const ActivityAnalysis &activity, Operation &op) {
  bool active = false;
  op.walk([&](Operation *inner) {
    for (Value result : inner->getResults())
      active |= activity.isActive(result);
  });
  return active;
}

TEST_F(LoopStrategiesTest, ProductsAreNotEager) {
  // A carried product's adjoint depends on later iterations: the
  // iterations cannot be undone one by one as they run.
  func::FuncOp f = parse(R"mlir(
    func.func @f(%x: memref<?xf64>, %n: index, %c: f64) -> f64 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %p = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> f64 {
        %e = memref.load %x[%i] : memref<?xf64>
        %next = arith.mulf %acc, %e : f64
        scf.yield %next : f64
      } {tag = "product"}
      return %p : f64
    })mlir");
  ActivityAnalysis activity(
      f, {Activity::Duplicated, Activity::Constant, Activity::Active});
  PullbackMemory memory(f, activity, true);
  LoopStrategies loops(f, activity, memory, true, true, [&](Operation &op) {
    return hasActiveResult(activity, op);
  });
  EXPECT_FALSE(loops.isEager(taggedOp(f, "product")));
  EXPECT_FALSE(loops.isRecomputed(taggedOp(f, "product")));
}

TEST_F(LoopStrategiesTest, SwitchedOffStrategiesChooseNothing) {
  func::FuncOp f = parse(R"mlir(
    func.func @f(%x: memref<?xf64>, %n: index) -> f64 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f64
      %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
        %e = memref.load %x[%i] {tag = "load"} : memref<?xf64>
        %sq = math.sin %e : f64
        %next = arith.addf %acc, %sq : f64
        scf.yield %next : f64
      } {tag = "sum"}
      return %s : f64
    })mlir");
  ActivityAnalysis activity(f, {Activity::Duplicated, Activity::Constant});
  PullbackMemory memory(f, activity, true);
  auto needsReverse = [&](Operation &op) {
    return hasActiveResult(activity, op);
  };
  Operation *sum = taggedOp(f, "sum");
  LoopStrategies on(f, activity, memory, true, true, needsReverse);
  EXPECT_TRUE(on.isEager(sum));
  EXPECT_TRUE(on.getLinearUses(sum).empty()); // straight to the return
  EXPECT_EQ(on.getUndoneAfterRunning(taggedOp(f, "load")), sum);
  LoopStrategies off(f, activity, memory, false, false, needsReverse);
  EXPECT_FALSE(off.isEager(sum));
  EXPECT_EQ(off.getUndoneAfterRunning(taggedOp(f, "load")), nullptr);
}

TEST_F(LoopStrategiesTest, SelfContainedIterationsAreRecomputed) {
  // Each outer iteration fills %t and reads it back one loop deeper; its
  // result goes to a buffer read after the loop, so it is not eager.
  func::FuncOp f = parse(fillAndReadBack());
  ActivityAnalysis activity(
      f, {Activity::Duplicated, Activity::Constant, Activity::Constant});
  PullbackMemory memory(f, activity, true);
  auto needsReverse = [&](Operation &op) {
    return hasActiveResult(activity, op);
  };
  Operation *outer = taggedOp(f, "outer");
  LoopStrategies on(f, activity, memory, true, true, needsReverse);
  EXPECT_FALSE(on.isEager(outer));
  EXPECT_TRUE(on.isRecomputed(outer));
  LoopStrategies off(f, activity, memory, true, /*recompute=*/false,
                     needsReverse);
  EXPECT_FALSE(off.isRecomputed(outer));
}

} // namespace
