//===- LLVMOpsInlining.cpp - Inlining functions that hold LLVM ops --------===//
//
// The frontend writes a few LLVM dialect ops into the functions it lowers:
// the null pointer (`nullptr` kept in memory), casts between pointers and
// integers, address arithmetic and calls of C output functions. A function
// holding one must inline like any other, or it stays a call that reverse
// mode splits into halves with a tape between them (and whose forward half
// has no shadows to store next to the addresses it keeps). These ops mean
// the same wherever they are, so they are legal to inline anywhere.
// LLVM's own inliner interface is for `llvm.func` callers; the functions
// inlined here are `func.func`s.
//
//===----------------------------------------------------------------------===//

#include "Transforms/Transforms.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;

namespace {
struct LLVMOpsInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    // Only what the frontend writes into func.func bodies; llvm.func
    // bodies are not ours to inline.
    return !isa<LLVM::LLVMFuncOp>(callable);
  }
  bool isLegalToInline(Operation *op, Region *, bool, IRMapping &) const final {
    return !isa<LLVM::AllocaOp>(op);
  }
};
} // namespace

void cotangent::ad::registerLLVMOpsInlining(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, LLVM::LLVMDialect *dialect) {
    dialect->addInterfaces<LLVMOpsInlinerInterface>();
  });
}
