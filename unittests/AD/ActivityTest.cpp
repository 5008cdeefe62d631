//===- ActivityTest.cpp - Activity analysis queries -----------------------===//

#include "IRTest.h"

#include "cotangent/AD/Analysis/Activity.h"
using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {

using ActivityTest = IRTest;

TEST_F(ActivityTest, VariedAndUsefulMakeActive) {
  func::FuncOp f = parse(R"mlir(
    func.func @f(%x: f64, %c: f64, %n: i32) -> f64 {
      %k = arith.sitofp %n {tag = "k"} : i32 to f64
      %cc = arith.mulf %c, %c {tag = "cc"} : f64
      %dead = math.sin %x {tag = "dead"} : f64
      %s = ct.stop_gradient %x {tag = "stopped"} : f64
      %a = arith.mulf %x, %cc {tag = "a"} : f64
      %r = arith.addf %a, %k {tag = "r"} : f64
      return %r : f64
    })mlir");
  ActivityAnalysis activity(f, {ct::Activity::Active, ct::Activity::Constant,
                                ct::Activity::Constant});
  EXPECT_TRUE(activity.isActive(f.getArgument(0)));
  EXPECT_FALSE(activity.isActive(f.getArgument(1)));
  EXPECT_FALSE(activity.isActive(tagged(f, "k")));       // integer source
  EXPECT_FALSE(activity.isActive(tagged(f, "cc")));      // const only
  EXPECT_FALSE(activity.isActive(tagged(f, "dead")));    // not useful
  EXPECT_FALSE(activity.isActive(tagged(f, "stopped"))); // cut
  EXPECT_TRUE(activity.isActive(tagged(f, "a")));
  EXPECT_TRUE(activity.isActive(tagged(f, "r")));
  EXPECT_TRUE(activity.isArgumentConnected(0));
}

TEST_F(ActivityTest, LoopCarriedValuesJoinBothWays) {
  // %acc starts constant but becomes varied through the yield.
  func::FuncOp f = parse(R"mlir(
    func.func @f(%x: f64, %n: index) -> f64 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant {tag = "zero"} 0.0 : f64
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
        %m = arith.addf %acc, %x {tag = "m"} : f64
        scf.yield %m : f64
      } {tag = "loop"}
      return %r : f64
    })mlir");
  ActivityAnalysis activity(f, {ct::Activity::Active, ct::Activity::Constant});
  EXPECT_TRUE(activity.isActive(tagged(f, "loop")));
  EXPECT_TRUE(activity.isActive(tagged(f, "m")));
  EXPECT_FALSE(activity.isActive(tagged(f, "zero")));
}

TEST_F(ActivityTest, MemoryGetsShadowWhenVariedAndRead) {
  func::FuncOp f = parse(R"mlir(
    func.func @f(%x: f64, %out: memref<4xf64>) -> f64 {
      %c0 = arith.constant 0 : index
      %used = memref.alloca() {tag = "used"} : memref<4xf64>
      %unread = memref.alloca() {tag = "unread"} : memref<4xf64>
      %constant = memref.alloca() {tag = "constant"} : memref<4xf64>
      %one = arith.constant 1.0 : f64
      memref.store %x, %used[%c0] : memref<4xf64>
      memref.store %x, %unread[%c0] : memref<4xf64>
      memref.store %one, %constant[%c0] : memref<4xf64>
      %a = memref.load %used[%c0] : memref<4xf64>
      %b = memref.load %constant[%c0] : memref<4xf64>
      %r = arith.mulf %a, %b : f64
      return %r : f64
    })mlir");
  ActivityAnalysis activity(f,
                            {ct::Activity::Active, ct::Activity::Duplicated});
  EXPECT_TRUE(activity.hasShadow(tagged(f, "used")));
  EXPECT_FALSE(activity.hasShadow(tagged(f, "unread")));
  EXPECT_FALSE(activity.hasShadow(tagged(f, "constant")));
  // A dup argument always has its shadow, even if only written.
  EXPECT_TRUE(activity.hasShadow(f.getArgument(1)));
  EXPECT_FALSE(activity.isArgumentConnected(1));
}

} // namespace
