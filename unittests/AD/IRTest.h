//===- IRTest.h - Parsing IR for the AD unit tests --------------*- C++ -*-===//

#ifndef COTANGENT_UNITTESTS_AD_IRTEST_H
#define COTANGENT_UNITTESTS_AD_IRTEST_H

#include "cotangent/AD/Interfaces/DerivativeOpInterfaces.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <string>

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

  /// A function whose outer loop (tagged "outer") fills the local buffer
  /// %t from %x in each iteration and reads it back one loop deeper (the
  /// value needed by the reverse code: a product), writing its result to
  /// the local buffer %res; `after` is code after the loop.
  static std::string fillAndReadBack(llvm::StringRef after = "") {
    return (R"mlir(
    func.func @f(%x: memref<?xf64>, %m: index, %n: index) -> f64 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f64
      %t = memref.alloca() : memref<8xf64>
      %res = memref.alloca() : memref<8xf64>
      scf.for %i = %c0 to %m step %c1 {
        scf.for %r = %c0 to %n step %c1 {
          %v = memref.load %x[%r] : memref<?xf64>
          %s = math.sin %v : f64
          memref.store %s, %t[%r] : memref<8xf64>
        }
        %acc = scf.for %j = %c1 to %n step %c1 iter_args(%a = %zero) -> f64 {
          %w = memref.load %t[%j] : memref<8xf64>
          %p = arith.mulf %w, %w : f64
          %q = arith.addf %a, %p : f64
          scf.yield %q : f64
        }
        memref.store %acc, %res[%i] : memref<8xf64>
      } {tag = "outer"}
      )mlir" +
            after + R"mlir(
      %r0 = memref.load %res[%c0] : memref<8xf64>
      return %r0 : f64
    })mlir")
        .str();
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

} // namespace cotangent::ad

#endif // COTANGENT_UNITTESTS_AD_IRTEST_H
