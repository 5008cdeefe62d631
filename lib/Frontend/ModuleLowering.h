//===- ModuleLowering.h - State of one translation unit's lowering -*- C++ -*-===//
//
// Internal to lib/Frontend, in the spirit of ClangIR's CodeGenModule /
// CodeGenFunction split: ModuleLowering owns the module, the function table
// and the diagnostics; FunctionLowering (FunctionLowering.cpp) lowers one
// body; Types.cpp and MathFunctions.cpp hold the tables they share.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_FRONTEND_MODULELOWERING_H
#define COTANGENT_LIB_FRONTEND_MODULELOWERING_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Mangle.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <memory>

namespace cotangent::frontend {

class ModuleLowering {
public:
  ModuleLowering(clang::ASTContext &ast, mlir::ModuleOp module);

  /// The func.func of `function`, declared on first use; its body is lowered
  /// later (by lowerPending) if Clang has one.
  mlir::func::FuncOp getFunction(const clang::FunctionDecl *function);

  /// Lowers the bodies of every function declared so far, including those
  /// their bodies declare in turn.
  void lowerPending();

  /// The MLIR type of a C++ type, or null after reporting `what` at `loc` as
  /// unsupported.
  mlir::Type lowerType(clang::QualType type, clang::SourceRange range,
                       llvm::StringRef what);

  /// An MLIR location for a Clang one.
  mlir::Location getLoc(clang::SourceLocation loc);

  /// Reports an error at `range`: `message` should say what the construct
  /// is, why it cannot be differentiated and the way out.
  void error(clang::SourceRange range, const llvm::Twine &message);
  bool hadError() const { return errors != 0; }

  clang::ASTContext &getAST() { return ast; }
  mlir::MLIRContext *getContext() { return module.getContext(); }

private:
  clang::ASTContext &ast;
  mlir::ModuleOp module;
  std::unique_ptr<clang::MangleContext> mangler;
  llvm::DenseMap<const clang::FunctionDecl *, mlir::func::FuncOp> functions;
  llvm::SmallVector<const clang::FunctionDecl *> pending;
  unsigned errors = 0;
};

/// Lowers the body of `decl` into `function`.
void lowerFunctionBody(ModuleLowering &module,
                       const clang::FunctionDecl *decl,
                       mlir::func::FuncOp function);

/// Builds a <cmath> function as math-dialect ops (or a libm call); returns
/// null if `function` is not one of them.
mlir::Value buildMathFunction(mlir::OpBuilder &builder, mlir::Location loc,
                              const clang::FunctionDecl *function,
                              mlir::ValueRange args, mlir::Type resultType,
                              mlir::ModuleOp module);

} // namespace cotangent::frontend

#endif // COTANGENT_LIB_FRONTEND_MODULELOWERING_H
