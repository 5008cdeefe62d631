//===- PullbackMemoryTest.cpp - What memory holds for the reverse code ----===//

#include "Analysis/PullbackMemory.h"
#include "IRTest.h"
using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {

using PullbackMemoryTest = IRTest;
using ct::Activity;

TEST_F(PullbackMemoryTest, ArgumentsKeepContentsUnlessWritten) {
  // %x is only read; %y is written after the load of it.
  func::FuncOp f = parse(R"mlir(
    func.func @f(%x: memref<4xf64>, %y: memref<4xf64>) -> f64 {
      %c0 = arith.constant 0 : index
      %a = memref.load %x[%c0] {tag = "x"} : memref<4xf64>
      %b = memref.load %y[%c0] {tag = "y"} : memref<4xf64>
      %s = arith.mulf %a, %b : f64
      memref.store %s, %y[%c0] : memref<4xf64>
      return %s : f64
    })mlir");
  ActivityAnalysis activity(f, {Activity::Duplicated, Activity::Duplicated});
  PullbackMemory memory(f, activity, /*deferFrees=*/true);
  // Any written argument may alias any other, so neither keeps its contents.
  EXPECT_FALSE(memory.isUnchangedAfterFunction(tagged<memref::LoadOp>(f, "x")));
  EXPECT_FALSE(memory.isUnchangedAfterFunction(tagged<memref::LoadOp>(f, "y")));
  // Knowing nothing (split halves), nothing keeps its contents.
  EXPECT_FALSE(PullbackMemory().isUnchangedAfterFunction(
      tagged<memref::LoadOp>(f, "x")));
}

TEST_F(PullbackMemoryTest, ReadOnlyAndRestrictArguments) {
  // No argument written: all keep their contents. A `restrict` argument
  // written only before a load keeps what the load read.
  func::FuncOp readOnly = parse(R"mlir(
    func.func @f(%x: memref<4xf64>) -> f64 {
      %c0 = arith.constant 0 : index
      %a = memref.load %x[%c0] {tag = "x"} : memref<4xf64>
      return %a : f64
    })mlir");
  ActivityAnalysis readOnlyActivity(readOnly, {Activity::Duplicated});
  PullbackMemory readOnlyMemory(readOnly, readOnlyActivity, true);
  EXPECT_TRUE(readOnlyMemory.isUnchangedAfterFunction(
      tagged<memref::LoadOp>(readOnly, "x")));

  func::FuncOp f = parse(R"mlir(
    func.func @f(%x: memref<4xf64> {ct.noalias}, %v: f64) -> f64 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      memref.store %v, %x[%c0] : memref<4xf64>
      %a = memref.load %x[%c0] {tag = "before"} : memref<4xf64>
      %b = memref.load %x[%c1] {tag = "rewritten"} : memref<4xf64>
      memref.store %a, %x[%c1] : memref<4xf64>
      %s = arith.mulf %a, %b : f64
      return %s : f64
    })mlir");
  ActivityAnalysis activity(f, {Activity::Duplicated, Activity::Active});
  PullbackMemory memory(f, activity, true);
  EXPECT_FALSE(
      memory.isUnchangedAfterFunction(tagged<memref::LoadOp>(f, "before")));
  EXPECT_FALSE(
      memory.isUnchangedAfterFunction(tagged<memref::LoadOp>(f, "rewritten")));
}

TEST_F(PullbackMemoryTest, LocalBuffersAfterTheirLastWrite) {
  func::FuncOp f = parse(R"mlir(
    func.func @f(%x: f64) -> f64 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %t = memref.alloc() : memref<2xf64>
      memref.store %x, %t[%c0] : memref<2xf64>
      %a = memref.load %t[%c0] {tag = "final"} : memref<2xf64>
      memref.store %a, %t[%c1] : memref<2xf64>
      %b = memref.load %t[%c1] {tag = "last"} : memref<2xf64>
      %s = arith.mulf %a, %b : f64
      memref.dealloc %t : memref<2xf64>
      return %s : f64
    })mlir");
  ActivityAnalysis activity(f, {Activity::Active});
  PullbackMemory deferring(f, activity, /*deferFrees=*/true);
  // A store follows the first load (to another element, but the analysis
  // tells buffers apart, not elements); nothing follows the second.
  EXPECT_FALSE(
      deferring.isUnchangedAfterFunction(tagged<memref::LoadOp>(f, "final")));
  EXPECT_TRUE(
      deferring.isUnchangedAfterFunction(tagged<memref::LoadOp>(f, "last")));
  EXPECT_EQ(deferring.getDeferredFrees().size(), 1u);
  // Freed where the primal frees it, the buffer loses its contents there.
  PullbackMemory freeing(f, activity, /*deferFrees=*/false);
  EXPECT_TRUE(freeing.getDeferredFrees().empty());
  EXPECT_FALSE(
      freeing.isUnchangedAfterFunction(tagged<memref::LoadOp>(f, "last")));
}

TEST_F(PullbackMemoryTest, SelfContainedIterations) {
  // The outer iteration fills %t and reads it back in a nested loop (the
  // value is needed by the reverse code: a product), reads %x, which
  // nothing writes, and writes only local buffers.
  func::FuncOp f = parse(fillAndReadBack(R"mlir(
      scf.for %i = %c0 to %m step %c1 {
        %v = memref.load %res[%i] : memref<8xf64>
        memref.store %v, %x[%i] : memref<?xf64>
      } {tag = "writes_argument"})mlir"));
  ActivityAnalysis activity(
      f, {Activity::Duplicated, Activity::Constant, Activity::Constant});
  PullbackMemory memory(f, activity, true);
  unsigned killDepth = 0;
  // %x is written after the outer loop: its loads do not keep their
  // contents, and the outer iteration does not write them first.
  EXPECT_FALSE(
      memory.isSelfContained(tagged<scf::ForOp>(f, "outer"), killDepth));
  EXPECT_FALSE(memory.isSelfContained(tagged<scf::ForOp>(f, "writes_argument"),
                                      killDepth));

  // Without the loop that writes %x, the outer iteration is
  // self-contained, and reads what it wrote one loop deep.
  tagged<scf::ForOp>(f, "writes_argument")->erase();
  ActivityAnalysis readOnly(
      f, {Activity::Duplicated, Activity::Constant, Activity::Constant});
  PullbackMemory readOnlyMemory(f, readOnly, true);
  EXPECT_TRUE(readOnlyMemory.isSelfContained(tagged<scf::ForOp>(f, "outer"),
                                             killDepth));
  EXPECT_EQ(killDepth, 1u);
}

} // namespace
