//===- LongDoubleMathToLibm.cpp - long double math as C library calls -----===//
//
// MLIR's math-to-libm knows the `float` and `double` functions only, and
// LLVM has no intrinsic for many math functions (acosh, erf, expm1, ...):
// a math op on x86's 80-bit long double that math-to-llvm leaves becomes a
// call of the C library's `l` function (acoshl, erfl, expm1l), which is
// what the program itself would call.
//
//===----------------------------------------------------------------------===//

#include "cotangent/CodeGen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace cotangent::codegen {

#define GEN_PASS_DEF_LONGDOUBLEMATHTOLIBM
#include "cotangent/CodeGen/Passes.h.inc"

namespace {

/// The C library's long double function of each math op that has one.
const llvm::StringMap<StringRef> &libraryFunctions() {
  static const llvm::StringMap<StringRef> functions = {
      {"math.acos", "acosl"},   {"math.acosh", "acoshl"},
      {"math.asin", "asinl"},   {"math.asinh", "asinhl"},
      {"math.atan", "atanl"},   {"math.atan2", "atan2l"},
      {"math.atanh", "atanhl"}, {"math.cbrt", "cbrtl"},
      {"math.ceil", "ceill"},   {"math.cos", "cosl"},
      {"math.cosh", "coshl"},   {"math.erf", "erfl"},
      {"math.erfc", "erfcl"},   {"math.exp", "expl"},
      {"math.exp2", "exp2l"},   {"math.expm1", "expm1l"},
      {"math.floor", "floorl"}, {"math.log", "logl"},
      {"math.log10", "log10l"}, {"math.log1p", "log1pl"},
      {"math.log2", "log2l"},   {"math.powf", "powl"},
      {"math.round", "roundl"}, {"math.roundeven", "roundevenl"},
      {"math.sin", "sinl"},     {"math.sinh", "sinhl"},
      {"math.sqrt", "sqrtl"},   {"math.tan", "tanl"},
      {"math.tanh", "tanhl"},   {"math.trunc", "truncl"}};
  return functions;
}

struct LongDoubleMathToLibmPass
    : impl::LongDoubleMathToLibmBase<LongDoubleMathToLibmPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> calls;
    module.walk([&](Operation *op) {
      if (isa<math::MathDialect>(op->getDialect()) &&
          op->getNumResults() == 1 && op->getResult(0).getType().isF80() &&
          libraryFunctions().contains(op->getName().getStringRef()))
        calls.push_back(op);
    });
    SymbolTable symbols(module);
    for (Operation *op : calls) {
      StringRef name = libraryFunctions().lookup(op->getName().getStringRef());
      Type type = op->getResult(0).getType();
      SmallVector<Type> parameters(op->getNumOperands(), type);
      auto callee = symbols.lookup<func::FuncOp>(name);
      if (!callee) {
        OpBuilder atEnd = OpBuilder::atBlockEnd(module.getBody());
        callee = func::FuncOp::create(
            atEnd, op->getLoc(), name,
            FunctionType::get(module.getContext(), parameters, type));
        callee.setPrivate();
        symbols.insert(callee);
      }
      OpBuilder b(op);
      auto call =
          func::CallOp::create(b, op->getLoc(), callee, op->getOperands());
      op->replaceAllUsesWith(call);
      op->erase();
    }
  }
};

} // namespace
} // namespace cotangent::codegen
