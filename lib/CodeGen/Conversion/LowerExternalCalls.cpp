//===- ExternalCalls.cpp - Calls of code compiled elsewhere ---------------===//
//
// The frontend declares a function without a visible body that
// differentiable code calls as a func.func marked `ct.external`, in the
// memory model's types (memrefs for pointers). Its code follows the C ABI,
// so each call is rewritten before lowering to LLVM: a memref operand is
// passed as the address of its first element (the aligned pointer moved by
// the memref's offset), a number as it is. A custom rule compiled as
// written (and a function bound to one) is called the same way.
//
//===----------------------------------------------------------------------===//

#include "cotangent/CodeGen/Passes.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-lower-external-calls"

using namespace mlir;

namespace cotangent::codegen {

#define GEN_PASS_DEF_LOWEREXTERNALCALLS
#include "cotangent/CodeGen/Passes.h.inc"
namespace {

/// The C type of a value of `type` in the memory model.
Type getCType(Type type) {
  if (isa<MemRefType>(type))
    return LLVM::LLVMPointerType::get(type.getContext());
  return type;
}

/// `ct.extend` as LLVM's parameter attribute.
void setExtension(DictionaryAttr attrs, OpBuilder &b,
                  function_ref<void(StringRef, Attribute)> set) {
  auto extension = attrs ? attrs.getAs<StringAttr>(ct::kExtendAttr) : nullptr;
  if (!extension)
    return;
  set(extension.getValue() == "sext" ? LLVM::LLVMDialect::getSExtAttrName()
                                     : LLVM::LLVMDialect::getZExtAttrName(),
      b.getUnitAttr());
}

/// The llvm.func of `function`, which takes its place (and name).
LLVM::LLVMFuncOp declareInC(func::FuncOp function) {
  OpBuilder b(function);
  FunctionType type = function.getFunctionType();
  SmallVector<Type> params = llvm::map_to_vector(type.getInputs(), getCType);
  Type result = type.getNumResults()
                    ? type.getResult(0)
                    : LLVM::LLVMVoidType::get(function.getContext());
  std::string name = function.getSymName().str();
  Location loc = function.getLoc();
  SmallVector<DictionaryAttr> argAttrs, resultAttrs;
  function.getAllArgAttrs(argAttrs);
  function.getAllResultAttrs(resultAttrs);
  auto declaration = LLVM::LLVMFuncOp::create(
      b, loc, name, LLVM::LLVMFunctionType::get(result, params));
  function.erase();
  for (unsigned i = 0; i < argAttrs.size(); ++i)
    setExtension(argAttrs[i], b, [&](StringRef key, Attribute value) {
      declaration.setArgAttr(i, key, value);
    });
  if (!resultAttrs.empty())
    setExtension(resultAttrs[0], b, [&](StringRef key, Attribute value) {
      declaration.setResultAttr(0, key, value);
    });
  return declaration;
}

/// The address of `memref`'s first element.
Value getFirstElementAddress(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  auto pointer = LLVM::LLVMPointerType::get(b.getContext());
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), aligned).getResult();
  Value base = LLVM::IntToPtrOp::create(b, loc, pointer, address,
                                        /*dereferenceable=*/nullptr);
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value offset =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), metadata.getOffset());
  return LLVM::GEPOp::create(b, loc, pointer, type.getElementType(), base,
                             ValueRange{offset});
}

struct LowerExternalCalls : impl::LowerExternalCallsBase<LowerExternalCalls> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The derivatives are built: rule bindings, which may name a function
    // compiled as written, have done their work.
    for (Operation &op : llvm::make_early_inc_range(*module.getBody()))
      if (isa<ct::CustomGradientOp, ct::CustomJvpOp, ct::CustomVjpOp>(op))
        op.erase();
    SmallVector<func::FuncOp> externals;
    for (auto function : module.getOps<func::FuncOp>())
      if (function->hasAttr(ct::kExternalAttr))
        externals.push_back(function);
    for (func::FuncOp function : externals) {
      LLVM_DEBUG(llvm::dbgs()
                 << "[" DEBUG_TYPE "] " << "@" << function.getSymName()
                 << " is called with the C ABI" << "\n");
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(function, module);
      SmallVector<func::CallOp> calls;
      for (const SymbolTable::SymbolUse &use : *uses) {
        auto call = dyn_cast<func::CallOp>(use.getUser());
        if (!call) {
          use.getUser()->emitError("a function compiled elsewhere can only "
                                   "be called");
          return signalPassFailure();
        }
        calls.push_back(call);
      }
      LLVM::LLVMFuncOp declaration = declareInC(function);
      for (func::CallOp call : calls) {
        OpBuilder b(call);
        SmallVector<Value> operands;
        for (Value operand : call.getOperands())
          operands.push_back(
              isa<MemRefType>(operand.getType())
                  ? getFirstElementAddress(b, call.getLoc(), operand)
                  : operand);
        auto lowered =
            LLVM::CallOp::create(b, call.getLoc(), declaration, operands);
        call.replaceAllUsesWith(lowered.getResults());
        call.erase();
      }
    }
  }
};

} // namespace

} // namespace cotangent::codegen
