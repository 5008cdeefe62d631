//===- LinearShapesTest.cpp - The shapes the reverse strategies match -----===//

#include "Analysis/IterationKills.h"
#include "Analysis/LinearResults.h"
#include "IRTest.h"
#include "cotangent/AD/Interfaces/ScalarDerivativeOpInterface.h"
using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {

using LinearShapesTest = IRTest;

TEST_F(LinearShapesTest, LinearTermsComeFromTheRules) {
  func::FuncOp f = parse(R"mlir(
    func.func @f(%x: f64, %y: f64) -> f64 {
      %a = arith.addf %x, %y {tag = "add"} : f64
      %s = arith.subf %a, %y {tag = "sub"} : f64
      %m = arith.mulf %s, %y {tag = "mul"} : f64
      %d = arith.divf %m, %y {tag = "div"} : f64
      %n = arith.negf %d {tag = "neg"} : f64
      %e = math.sin %n {tag = "sin"} : f64
      return %e : f64
    })mlir");
  auto term = [&](llvm::StringRef tag, unsigned index) {
    return cast<ScalarDerivativeOpInterface>(taggedOp(f, tag))
        .getLinearTerm(index);
  };
  Value y = f.getArgument(1);
  ASSERT_TRUE(term("add", 1));
  EXPECT_FALSE(term("add", 1)->factor || term("add", 1)->negate);
  EXPECT_FALSE(term("sub", 0)->negate);
  EXPECT_TRUE(term("sub", 1)->negate);
  EXPECT_EQ(term("mul", 0)->factor, y);
  EXPECT_EQ(term("mul", 1)->factor, tagged(f, "sub"));
  ASSERT_TRUE(term("div", 0));
  EXPECT_TRUE(term("div", 0)->divide);
  EXPECT_EQ(term("div", 0)->factor, y);
  EXPECT_FALSE(term("div", 1)); // 1/y is not linear in y
  EXPECT_TRUE(term("neg", 0)->negate);
  EXPECT_FALSE(term("sin", 0));
}

/// A loop carrying one value, updated by `update` (which defines %next from
/// %acc and %e).
std::string carriedLoop(llvm::StringRef update) {
  return (R"mlir(
    func.func @f(%x: memref<?xf64>, %n: index, %c: f64) -> f64 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> f64 {
        %e = memref.load %x[%i] : memref<?xf64>
        )mlir" +
          update + R"mlir(
        scf.yield %next : f64
      } {tag = "loop"}
      return %r : f64
    })mlir")
      .str();
}

TEST_F(LinearShapesTest, RunningSums) {
  for (llvm::StringRef sum : {"%next = arith.addf %acc, %e : f64",
                              "%next = arith.addf %e, %acc : f64",
                              "%next = arith.subf %acc, %e : f64",
                              "%s = arith.addf %acc, %e : f64\n"
                              "%next = arith.subf %s, %e : f64"}) {
    func::FuncOp f = parse(carriedLoop(sum));
    EXPECT_TRUE(getRunningSum(tagged<scf::ForOp>(f, "loop"), 0)) << sum.str();
  }
  for (llvm::StringRef notSum :
       {"%next = arith.subf %e, %acc : f64",
        "%next = arith.mulf %acc, %e : f64",
        "%next = arith.addf %acc, %acc : f64", "%next = arith.negf %acc : f64",
        "%s = arith.addf %acc, %e : f64\n"
        "%next = arith.mulf %s, %e : f64"}) {
    func::FuncOp f = parse(carriedLoop(notSum));
    EXPECT_FALSE(getRunningSum(tagged<scf::ForOp>(f, "loop"), 0))
        << notSum.str();
  }
}

TEST_F(LinearShapesTest, RunningSumsThroughBranches) {
  // A sum that every region of a branch passes on (added to or not).
  func::FuncOp both = parse(carriedLoop(R"mlir(
        %positive = arith.cmpf ogt, %e, %e : f64
        %next = scf.if %positive -> f64 {
          %s = arith.addf %acc, %e : f64
          scf.yield %s : f64
        } else {
          scf.yield %acc : f64
        })mlir"));
  EXPECT_TRUE(getRunningSum(tagged<scf::ForOp>(both, "loop"), 0));
  // One region yields something else.
  func::FuncOp one = parse(carriedLoop(R"mlir(
        %positive = arith.cmpf ogt, %e, %e : f64
        %next = scf.if %positive -> f64 {
          %s = arith.addf %acc, %e : f64
          scf.yield %s : f64
        } else {
          scf.yield %e : f64
        })mlir"));
  EXPECT_FALSE(getRunningSum(tagged<scf::ForOp>(one, "loop"), 0));
}

/// A loop over %i writing local buffer %t at `store` and reading it at
/// `load` (indices as SSA names defined in `indices`).
std::string bufferLoop(llvm::StringRef indices, llvm::StringRef load,
                       llvm::StringRef store) {
  return (R"mlir(
    func.func @f(%x: memref<?xf64>, %n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %t = memref.alloca() : memref<64xf64>
      scf.for %i = %c0 to %n step %c1 {
        )mlir" +
          indices + "\n%v = memref.load %t[" + load +
          "] : memref<64xf64>\n%w = arith.mulf %v, %v : f64\n"
          "memref.store %w, %t[" +
          store + R"mlir(] : memref<64xf64>
      } {tag = "loop"}
      return
    })mlir")
      .str();
}

TEST_F(LinearShapesTest, IndependentIterations) {
  // Each iteration touches only its own element: iv + one constant.
  func::FuncOp same = parse(bufferLoop("", "%i", "%i"));
  EXPECT_TRUE(hasIndependentIterations(tagged<scf::ForOp>(same, "loop")));
  func::FuncOp shifted =
      parse(bufferLoop("%j = arith.addi %i, %c2 : index", "%j", "%j"));
  EXPECT_TRUE(hasIndependentIterations(tagged<scf::ForOp>(shifted, "loop")));
  // Reading the element the previous iteration wrote.
  func::FuncOp chained =
      parse(bufferLoop("%j = arith.addi %i, %c1 : index", "%i", "%j"));
  EXPECT_FALSE(hasIndependentIterations(tagged<scf::ForOp>(chained, "loop")));
  // An index that is not the induction variable plus a constant.
  func::FuncOp scaled =
      parse(bufferLoop("%j = arith.muli %i, %c2 : index", "%j", "%j"));
  EXPECT_FALSE(hasIndependentIterations(tagged<scf::ForOp>(scaled, "loop")));
}

} // namespace
