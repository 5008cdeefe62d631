//===- IndexIntervalsTest.cpp - The interval arithmetic of index bounds ---===//
//
// Each expression of one index `i` is bounded for every interval of `i` in
// a grid, and the bounds are compared with the extremes of the expression
// over every value of `i` in the interval, computed here in C++: sound
// (they contain every value), and exact where the arithmetic is monotone.
//
//===----------------------------------------------------------------------===//

#include "cotangent/AD/Analysis/IndexIntervals.h"
#include "IRTest.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <functional>

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

namespace {

using IndexIntervalsTest = IRTest;

struct Case {
  const char *body; // defines %r from %i
  std::function<int64_t(int64_t)> value;
  bool exact;
};

/// C++'s `/` and `%` truncate, as arith.divsi and arith.remsi do.
const Case kCases[] = {
    {"%r = arith.addi %i, %c3 : index", [](int64_t i) { return i + 3; }, true},
    {"%r = arith.subi %c3, %i : index", [](int64_t i) { return 3 - i; }, true},
    {"%r = arith.muli %i, %cm2 : index", [](int64_t i) { return -2 * i; },
     true},
    {"%r = arith.muli %i, %i : index", [](int64_t i) { return i * i; }, false},
    {"%r = arith.minsi %i, %c3 : index",
     [](int64_t i) { return std::min<int64_t>(i, 3); }, true},
    {"%r = arith.maxsi %i, %c3 : index",
     [](int64_t i) { return std::max<int64_t>(i, 3); }, true},
    {"%r = arith.divsi %i, %c3 : index", [](int64_t i) { return i / 3; }, true},
    {"%r = arith.remsi %i, %c3 : index", [](int64_t i) { return i % 3; },
     false},
    {"%p = arith.cmpi slt, %i, %c3 : index\n"
     "%r = arith.select %p, %i, %cm2 : index",
     [](int64_t i) { return i < 3 ? i : -2; }, false},
    {"%p = arith.cmpi sgt, %i, %cm2 : index\n"
     "%r = scf.if %p -> (index) {\n"
     "  %s = arith.muli %i, %c3 : index\n"
     "  scf.yield %s : index\n"
     "} else {\n"
     "  scf.yield %c3 : index\n"
     "}",
     [](int64_t i) { return i > -2 ? 3 * i : 3; }, false},
    {"%p = arith.cmpi slt, %i, %c3 : index\n"
     "%w = arith.extui %p : i1 to i64\n"
     "%r = arith.index_cast %w : i64 to index",
     [](int64_t i) { return i < 3 ? 1 : 0; }, false},
    {"%p = arith.cmpi slt, %i, %c3 : index\n"
     "%w = arith.extsi %p : i1 to i64\n"
     "%r = arith.index_cast %w : i64 to index",
     [](int64_t i) { return i < 3 ? -1 : 0; }, false},
};

TEST_F(IndexIntervalsTest, SoundAndExactWhereMonotone) {
  for (const Case &c : kCases) {
    func::FuncOp f = parse((llvm::Twine(R"mlir(
      func.func @f(%i: index) -> index {
        %c3 = arith.constant 3 : index
        %cm2 = arith.constant -2 : index
        )mlir") + c.body +
                            R"mlir(
        return %r : index
      })mlir")
                               .str());
    Value i = f.getArgument(0);
    Value r = f.getBody().front().getTerminator()->getOperand(0);
    for (int64_t lo = -7; lo <= 7; ++lo) {
      for (int64_t hi = lo; hi <= 7; ++hi) {
        OpBuilder b(f.getBody().front().getTerminator());
        Location loc = f.getLoc();
        std::function<std::optional<Interval>(Value)> bound =
            [&](Value v) -> std::optional<Interval> {
          if (v == i)
            return Interval{arith::ConstantIndexOp::create(b, loc, lo),
                            arith::ConstantIndexOp::create(b, loc, hi)};
          if (std::optional<int64_t> k = getConstantIntValue(v)) {
            Value same = arith::ConstantIndexOp::create(b, loc, *k);
            return Interval{same, same};
          }
          return buildResultInterval(b, loc, v, bound);
        };
        std::optional<Interval> interval = bound(r);
        ASSERT_TRUE(interval) << c.body;
        std::optional<int64_t> low = getConstantIntValue(interval->lo);
        std::optional<int64_t> high = getConstantIntValue(interval->hi);
        ASSERT_TRUE(low && high) << c.body << ": bounds of constants fold";
        int64_t least = c.value(lo), most = c.value(lo);
        for (int64_t x = lo; x <= hi; ++x) {
          least = std::min(least, c.value(x));
          most = std::max(most, c.value(x));
        }
        std::string where = std::string(c.body) + " for i in [" +
                            std::to_string(lo) + ", " + std::to_string(hi) +
                            "]";
        EXPECT_LE(*low, least) << where;
        EXPECT_GE(*high, most) << where;
        if (c.exact) {
          EXPECT_EQ(*low, least) << where;
          EXPECT_EQ(*high, most) << where;
        }
      }
    }
  }
}

TEST_F(IndexIntervalsTest, NoneForDivisorsThatAreNotPositiveConstants) {
  func::FuncOp f = parse(R"mlir(
    func.func @f(%i: index, %n: index) -> index {
      %cm2 = arith.constant -2 : index
      %a = arith.divsi %i, %n {tag = "byVariable"} : index
      %b = arith.divsi %i, %cm2 {tag = "byNegative"} : index
      %c = arith.xori %i, %n {tag = "other"} : index
      return %a : index
    })mlir");
  OpBuilder b(f.getBody().front().getTerminator());
  Location loc = f.getLoc();
  auto known = [&](Value) -> std::optional<Interval> {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    return Interval{zero, zero};
  };
  for (llvm::StringRef tag : {"byVariable", "byNegative", "other"})
    EXPECT_FALSE(
        buildResultInterval(b, loc, taggedOp(f, tag)->getResult(0), known))
        << tag.str();
}

} // namespace
