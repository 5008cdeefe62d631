//===- IRTest.h - Parsing IR for the AD unit tests --------------*- C++ -*-===//

#ifndef COTANGENT_UNITTESTS_AD_IRTEST_H
#define COTANGENT_UNITTESTS_AD_IRTEST_H

#include "cotangent/AD/DerivativeOpInterfaces.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

namespace cotangent::ad {

/// A context with the dialects the engine differentiates and their
/// derivative models; functions parsed from text; ops found by tag.
class IRTest : public ::testing::Test {
protected:
  IRTest() {
    mlir::DialectRegistry registry;
    registerDerivativeRules(registry);
    context.appendDialectRegistry(registry);
    context.loadDialect<ct::CTDialect, mlir::func::FuncDialect,
                        mlir::arith::ArithDialect, mlir::math::MathDialect,
                        mlir::memref::MemRefDialect, mlir::scf::SCFDialect>();
  }

  /// The first function of `source`.
  mlir::func::FuncOp parse(llvm::StringRef source) {
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    return *module->getOps<mlir::func::FuncOp>().begin();
  }

  /// The op whose `tag` attribute is `tag`.
  mlir::Operation *taggedOp(mlir::func::FuncOp function, llvm::StringRef tag) {
    mlir::Operation *found = nullptr;
    function.walk([&](mlir::Operation *op) {
      if (auto name = op->getAttrOfType<mlir::StringAttr>("tag"))
        if (name.getValue() == tag)
          found = op;
    });
    EXPECT_TRUE(found) << "no op tagged " << tag.str();
    return found;
  }
  /// Its first result.
  mlir::Value tagged(mlir::func::FuncOp function, llvm::StringRef tag) {
    mlir::Operation *op = taggedOp(function, tag);
    return op ? op->getResult(0) : mlir::Value();
  }
  template <typename OpT>
  OpT tagged(mlir::func::FuncOp function, llvm::StringRef tag) {
    return llvm::cast<OpT>(taggedOp(function, tag));
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

} // namespace cotangent::ad

#endif // COTANGENT_UNITTESTS_AD_IRTEST_H
