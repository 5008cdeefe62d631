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

/// A place a loop carries out: one buffer, another, or none (poison).
static const char *kCarriedPlaces = R"mlir(
    func.func @f(%x: f64, %c: i1, %d: i1) -> f64 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %a = memref.alloca() {tag = "a"} : memref<2xf64>
      %b = memref.alloca() {tag = "b"} : memref<2xf64>
      %none = ub.poison : memref<2xf64>
      %one:2 = scf.while (%i = %c0) : (index) -> (index, memref<2xf64>) {
        %p = scf.if %c -> memref<2xf64> {
          %v = memref.cast %a : memref<2xf64> to memref<2xf64>
          scf.yield %v : memref<2xf64>
        } else {
          scf.yield %none : memref<2xf64>
        }
        scf.condition(%d) %i, %p : index, memref<2xf64>
      } do {
      ^bb0(%i: index, %p: memref<2xf64>):
        scf.yield %i : index
      } attributes {tag = "one"}
      %two = scf.for %i = %c0 to %c1 step %c1 iter_args(%p = %a)
          -> memref<2xf64> {
        scf.yield %b : memref<2xf64>
      } {tag = "two"}
      memref.store %x, %one#1[%c0] : memref<2xf64>
      memref.store %x, %two[%c0] : memref<2xf64>
      %v = memref.load %a[%c0] : memref<2xf64>
      %w = memref.load %b[%c0] : memref<2xf64>
      %r = arith.mulf %v, %w : f64
      return %r : f64
    })mlir";

TEST_F(ActivityTest, MemoryLoopsCarryOutIsEachPlaceItMayBe) {
  func::FuncOp f = parse(kCarriedPlaces);
  Value a = tagged(f, "a"), b = tagged(f, "b");
  Value one = taggedOp(f, "one")->getResult(1);
  Value two = taggedOp(f, "two")->getResult(0);
  EXPECT_EQ(getMemoryRoots(one), (SmallVector<Value, 2>{a}));
  SmallVector<Value, 2> roots = getMemoryRoots(two);
  EXPECT_EQ(roots.size(), 2u);
  EXPECT_TRUE(llvm::is_contained(roots, a) && llvm::is_contained(roots, b));
  // One memory on every path, or one of two.
  EXPECT_EQ(getWholeMemoryPassedOn(one), a);
  EXPECT_FALSE(getWholeMemoryPassedOn(two));
  // Stores through the carried places make both buffers varied.
  ActivityAnalysis activity(f, {ct::Activity::Active, ct::Activity::Constant,
                                ct::Activity::Constant});
  EXPECT_TRUE(activity.hasShadow(a));
  EXPECT_TRUE(activity.hasShadow(b));
}

} // namespace
