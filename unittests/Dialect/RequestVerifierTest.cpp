//===- RequestVerifierTest.cpp - Building ct requests from C++ ------------===//
//
// The frontend and the AD passes build requests with the C++ API; these tests
// check that what they build verifies, and that mistakes are caught with the
// message a user of the API would need.
//
//===----------------------------------------------------------------------===//

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace cotangent::ct;

namespace {

class RequestVerifierTest : public ::testing::Test {
protected:
  RequestVerifierTest() : builder(&context) {
    context.loadDialect<CTDialect, func::FuncDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
    // func.func private @f(f64, i32) -> f64
    func::FuncOp::create(
        builder, builder.getUnknownLoc(), "f",
        builder.getFunctionType({f64(), builder.getI32Type()}, {f64()}))
        .setPrivate();
    caller = func::FuncOp::create(
        builder, builder.getUnknownLoc(), "caller",
        builder.getFunctionType({f64(), builder.getI32Type()}, {}));
    builder.setInsertionPointToStart(caller.addEntryBlock());
  }

  Type f64() { return builder.getF64Type(); }

  ArrayAttr activities(ArrayRef<Activity> list) {
    return builder.getArrayAttr(
        llvm::map_to_vector(list, [&](Activity a) -> Attribute {
          return ActivityAttr::get(&context, a);
        }));
  }

  /// Verifies the module and returns the text of the first error, if any.
  std::string verifyAndGetError() {
    func::ReturnOp::create(builder, builder.getUnknownLoc());
    std::string message;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (message.empty())
        message = diag.str();
      return success();
    });
    if (succeeded(verify(*module)))
      return "";
    return message;
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
  func::FuncOp caller;
};

TEST_F(RequestVerifierTest, WellFormedGradientVerifies) {
  Value x = caller.getArgument(0), n = caller.getArgument(1);
  auto op = GradientOp::create(
      builder, builder.getUnknownLoc(), TypeRange{f64(), f64()}, "f",
      activities({Activity::Active, Activity::Constant}), ValueRange{x, n},
      ValueRange{});
  EXPECT_EQ(verifyAndGetError(), "");
  EXPECT_EQ(op.getActivities(),
            (SmallVector<Activity>{Activity::Active, Activity::Constant}));
}

TEST_F(RequestVerifierTest, ActiveIntegerIsRejected) {
  Value x = caller.getArgument(0), n = caller.getArgument(1);
  GradientOp::create(builder, builder.getUnknownLoc(),
                     TypeRange{f64(), f64(), f64()}, "f",
                     activities({Activity::Active, Activity::Active}),
                     ValueRange{x, n}, ValueRange{});
  EXPECT_EQ(verifyAndGetError(),
            "'ct.gradient' op activity 'active' of input #1 requires a "
            "floating-point scalar, but the input has type 'i32'");
}

TEST_F(RequestVerifierTest, MissingAdjointResultIsRejected) {
  Value x = caller.getArgument(0), n = caller.getArgument(1);
  PullbackOp::create(builder, builder.getUnknownLoc(), TypeRange{f64()}, "f",
                     activities({Activity::Active, Activity::Constant}),
                     ValueRange{x, n}, ValueRange{x}, ValueRange{},
                     /*lanes=*/IntegerAttr());
  EXPECT_EQ(verifyAndGetError(),
            "'ct.pullback' op expects 2 result(s) (the results of @f, then "
            "one adjoint per 'active' input), but has 1");
}

TEST_F(RequestVerifierTest, JvpTakesOneTangentPerActiveInput) {
  Value x = caller.getArgument(0), n = caller.getArgument(1);
  JvpOp::create(builder, builder.getUnknownLoc(), TypeRange{f64(), f64()}, "f",
                activities({Activity::Active, Activity::Constant}),
                ValueRange{x, n}, ValueRange{x, x},
                /*lanes=*/IntegerAttr());
  EXPECT_EQ(verifyAndGetError(),
            "'ct.jvp' op expects 1 tangent(s) (one per non-'const' input), "
            "but has 2");
}

} // namespace
