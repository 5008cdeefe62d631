//===- AllocaScopes.cpp - Alloca scopes become stack save/restore ---------===//

#include "cotangent/CodeGen/AllocaScopes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace cotangent::codegen {
namespace {

void inlineScope(memref::AllocaScopeOp scope) {
  OpBuilder b(scope);
  Location loc = scope.getLoc();
  auto pointer = LLVM::LLVMPointerType::get(scope.getContext());
  Value saved = LLVM::StackSaveOp::create(b, loc, pointer);
  b.setInsertionPointAfter(scope);
  LLVM::StackRestoreOp::create(b, loc, saved);
  spliceAllocaScope(scope);
}

struct InlineAllocaScopes : PassWrapper<InlineAllocaScopes, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(InlineAllocaScopes)
  StringRef getArgument() const final { return "ct-inline-alloca-scopes"; }
  StringRef getDescription() const final {
    return "Inline memref.alloca_scope between stack save and restore";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect>();
  }
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    // Inner scopes first: an outer one then splices a body without scopes.
    getOperation()->walk(
        [&](memref::AllocaScopeOp scope) { scopes.push_back(scope); });
    for (memref::AllocaScopeOp scope : scopes)
      inlineScope(scope);
  }
};

} // namespace

void spliceAllocaScope(memref::AllocaScopeOp scope) {
  Block &body = scope.getBodyRegion().front();
  auto ret = cast<memref::AllocaScopeReturnOp>(body.getTerminator());
  SmallVector<Value> results(ret.getResults());
  ret.erase();
  scope->getBlock()->getOperations().splice(scope->getIterator(),
                                            body.getOperations());
  scope.replaceAllUsesWith(results);
  scope.erase();
}

std::unique_ptr<Pass> createInlineAllocaScopesPass() {
  return std::make_unique<InlineAllocaScopes>();
}

void registerInlineAllocaScopesPass() {
  PassRegistration<InlineAllocaScopes>();
}

} // namespace cotangent::codegen
