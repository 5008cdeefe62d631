//===- CxxHeapFunctions.cpp - Heap memory through operator new ------------===//

#include "cotangent/CodeGen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace cotangent::codegen {

#define GEN_PASS_DEF_CXXHEAPFUNCTIONS
#include "cotangent/CodeGen/Passes.h.inc"

namespace {

/// The Itanium names of `::operator new(std::size_t)` and
/// `::operator delete(void *)` (64-bit size_t).
constexpr StringLiteral kOperatorNew = "_Znwm";
constexpr StringLiteral kOperatorDelete = "_ZdlPv";

/// The declaration of `name` in `module`, created if missing.
LLVM::LLVMFuncOp declare(ModuleOp module, StringRef name,
                         LLVM::LLVMFunctionType type) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  auto b = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

/// Gives `function`, a declaration, the body: call `callee` with its
/// arguments and return what it returns.
void defineAsCallOf(ModuleOp module, LLVM::LLVMFuncOp function,
                    StringRef callee) {
  LLVM::LLVMFuncOp target = declare(module, callee, function.getFunctionType());
  function.setLinkage(LLVM::Linkage::LinkonceODR);
  OpBuilder b(function.getContext());
  Block *entry = function.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  auto call =
      LLVM::CallOp::create(b, function.getLoc(), target, entry->getArguments());
  LLVM::ReturnOp::create(b, function.getLoc(), call.getResults());
}

struct CxxHeapFunctions : impl::CxxHeapFunctionsBase<CxxHeapFunctions> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto [generic, cxx] :
         {std::pair<StringRef, StringRef>{"_mlir_memref_to_llvm_alloc",
                                          kOperatorNew},
          {"_mlir_memref_to_llvm_free", kOperatorDelete}}) {
      auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(generic);
      if (function && function.isExternal())
        defineAsCallOf(module, function, cxx);
    }
  }
};

} // namespace

} // namespace cotangent::codegen
