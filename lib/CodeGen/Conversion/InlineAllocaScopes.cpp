//===- AllocaScopes.cpp - Alloca scopes become stack save/restore ---------===//

#include "cotangent/CodeGen/Conversion/AllocaScopes.h"
#include "cotangent/CodeGen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-inline-alloca-scopes"

using namespace mlir;

namespace cotangent::codegen {

#define GEN_PASS_DEF_INLINEALLOCASCOPES
#include "cotangent/CodeGen/Passes.h.inc"
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

struct InlineAllocaScopes : impl::InlineAllocaScopesBase<InlineAllocaScopes> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    // Inner scopes first: an outer one then splices a body without scopes.
    getOperation()->walk(
        [&](memref::AllocaScopeOp scope) { scopes.push_back(scope); });
    for (memref::AllocaScopeOp scope : scopes) {
      LLVM_DEBUG(llvm::dbgs()
                 << "[" DEBUG_TYPE "] " << "the alloca scope at "
                 << scope.getLoc()
                 << " is inlined between a stack save and restore" << "\n");
      inlineScope(scope);
    }
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

} // namespace cotangent::codegen
