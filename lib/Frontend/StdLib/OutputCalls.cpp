//===- OutputCalls.cpp - printf and friends, kept as in the primal --------===//
//
// Logging in a differentiable function (`printf("step %d: %g\n", i, s)`,
// `fprintf(stderr, ...)`, `puts`, `fflush(stdout)`) touches no derivative:
// it reads values and writes to a stream. Such calls of the C library's
// output functions are emitted as they are (llvm.call, variadic where the
// function is), with string literals as constant globals and `stdout` /
// `stderr` read from the C library's variables; the AD engine keeps them in
// the primal computation (once per forward sweep) and gives them no
// derivative. Arguments may be numbers, string literals and the streams.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {
/// The C library's output functions this file keeps.
bool isOutputFunction(const clang::FunctionDecl *callee) {
  // (With optimization, glibc's headers give some of them inline bodies;
  // the library still has each as a function.)
  if (!callee->getIdentifier() || !callee->isExternC())
    return false;
  return llvm::StringSwitch<bool>(callee->getName())
      .Cases({"printf", "fprintf", "puts", "fputs", "putchar", "putc", "fputc",
              "fflush"},
             true)
      .Default(false);
}

/// The C stream variables.
bool isStream(const clang::Expr *expr) {
  const auto *ref = dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
  const auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var && var->hasExternalStorage() && var->getIdentifier() &&
         (var->getName() == "stdout" || var->getName() == "stderr");
}
} // namespace

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerOutputCall(const clang::CallExpr *expr,
                                  const clang::FunctionDecl *callee) {
  if (!isOutputFunction(callee))
    return std::nullopt;
  Location l = loc(expr);
  MLIRContext *context = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  ModuleOp module = this->module.getModule();
  OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
  // A module-level symbol, declared once.
  auto global = [&](StringRef name, Type type, bool constant,
                    Attribute value) -> Value {
    if (!module.lookupSymbol(name))
      LLVM::GlobalOp::create(top, l, type, constant,
                             value ? LLVM::Linkage::Private
                                   : LLVM::Linkage::External,
                             name, value);
    return LLVM::AddressOfOp::create(b, l, ptr, name);
  };
  // After an error: a stand-in result, so that nothing else is reported.
  auto reported = [&] {
    return CallResult{
        ub::PoisonOp::create(
            b, l, b.getIntegerType(ast.getTypeSize(callee->getReturnType()))),
        {}};
  };
  SmallVector<Value> operands;
  for (const clang::Expr *arg : expr->arguments()) {
    const clang::Expr *bare = arg->IgnoreParenImpCasts();
    if (const auto *text = dyn_cast<clang::StringLiteral>(bare)) {
      std::string bytes = text->getBytes().str();
      bytes.push_back('\0');
      // Named by content; another text with the same hash gets a suffix.
      std::string base =
          "ct.str." +
          std::to_string(static_cast<size_t>(llvm::hash_value(bytes)));
      std::string name = base;
      for (unsigned k = 1;; ++k) {
        auto existing = module.lookupSymbol<LLVM::GlobalOp>(name);
        if (!existing || existing.getValueAttr() == b.getStringAttr(bytes))
          break;
        name = base + "." + std::to_string(k);
      }
      operands.push_back(
          global(name, LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size()),
                 /*constant=*/true, b.getStringAttr(bytes)));
      continue;
    }
    if (isStream(arg)) {
      StringRef name = cast<clang::DeclRefExpr>(bare)->getDecl()->getName();
      Value at = global(name, ptr, /*constant=*/false, nullptr);
      operands.push_back(LLVM::LoadOp::create(b, l, ptr, at));
      continue;
    }
    clang::QualType type = arg->getType();
    if (!type->isArithmeticType()) {
      unsupported(arg, "'" + callee->getName() +
                           "' in differentiable code may print numbers and "
                           "string literals only; print other values "
                           "outside");
      return reported(); // no other error for this call
    }
    Value value = lowerRValue(arg);
    if (!value)
      return reported();
    if (value.getType().isIndex())
      value = arith::IndexCastOp::create(b, l, b.getI64Type(), value);
    operands.push_back(value);
  }
  // The function's C type.
  SmallVector<Type> params;
  for (const clang::ParmVarDecl *param : callee->parameters())
    params.push_back(param->getType()->isPointerType()
                         ? Type(ptr)
                         : b.getIntegerType(ast.getTypeSize(param->getType())));
  auto type = LLVM::LLVMFunctionType::get(
      b.getIntegerType(ast.getTypeSize(callee->getReturnType())), params,
      callee->isVariadic());
  StringRef name = callee->getName();
  if (!module.lookupSymbol(name))
    LLVM::LLVMFuncOp::create(top, l, name, type);
  auto call = LLVM::CallOp::create(b, l, type, name, operands);
  return CallResult{call.getResult(), {}};
}

} // namespace cotangent::frontend
