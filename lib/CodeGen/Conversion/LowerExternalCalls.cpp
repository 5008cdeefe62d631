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

/// One argument of a call that follows the target's C++ ABI (ct.c_args).
struct PlannedArgument {
  unsigned operand;
  StringRef kind; // "value", "address", "byval" or "load"
  Type type;      // of "load" and "byval"
  int64_t offset; // of "load", in bytes
  StringAttr extension;

  explicit PlannedArgument(DictionaryAttr entry)
      : operand(entry.getAs<IntegerAttr>("operand").getInt()),
        kind(entry.getAs<StringAttr>("kind").getValue()) {
    if (auto typeAttr = entry.getAs<TypeAttr>("type"))
      type = typeAttr.getValue();
    auto offsetAttr = entry.getAs<IntegerAttr>("offset");
    offset = offsetAttr ? offsetAttr.getInt() : 0;
    extension = entry.getAs<StringAttr>("ext");
  }
};

/// The plan of `function`'s calls, if the frontend wrote one.
std::optional<SmallVector<PlannedArgument>> getPlan(func::FuncOp function) {
  auto entries = function->getAttrOfType<ArrayAttr>(ct::kCallArgumentsAttr);
  if (!entries)
    return std::nullopt;
  return llvm::map_to_vector(entries, [](Attribute entry) {
    return PlannedArgument(cast<DictionaryAttr>(entry));
  });
}

/// What the planned call returns: "void", "value", "pointer" or "store".
StringRef getResultKind(func::FuncOp function, Type &type, int64_t &operand) {
  auto result = function->getAttrOfType<DictionaryAttr>(ct::kCallResultAttr);
  if (auto typeAttr = result.getAs<TypeAttr>("type"))
    type = typeAttr.getValue();
  if (auto operandAttr = result.getAs<IntegerAttr>("operand"))
    operand = operandAttr.getInt();
  return result.getAs<StringAttr>("kind").getValue();
}

/// The parameter and result types of the planned calls of `function`.
void getPlannedTypes(func::FuncOp function, ArrayRef<PlannedArgument> plan,
                     SmallVectorImpl<Type> &params, Type &result) {
  MLIRContext *context = function.getContext();
  FunctionType type = function.getFunctionType();
  auto pointer = LLVM::LLVMPointerType::get(context);
  for (const PlannedArgument &arg : plan)
    params.push_back(arg.kind == "value"  ? type.getInput(arg.operand)
                     : arg.kind == "load" ? arg.type
                                          : pointer);
  Type stored;
  int64_t operand = -1;
  StringRef kind = getResultKind(function, stored, operand);
  result = kind == "value"     ? type.getResult(0)
           : kind == "pointer" ? Type(pointer)
           : kind == "store"   ? stored
                               : LLVM::LLVMVoidType::get(context);
}

/// The llvm.func of `function`, which takes its place (and name), with the
/// arguments of its plan if it has one.
LLVM::LLVMFuncOp
declareInC(func::FuncOp function,
           const std::optional<SmallVector<PlannedArgument>> &plan) {
  OpBuilder b(function);
  FunctionType type = function.getFunctionType();
  SmallVector<Type> params;
  Type result;
  if (plan) {
    getPlannedTypes(function, *plan, params, result);
  } else {
    params = llvm::map_to_vector(type.getInputs(), getCType);
    result = type.getNumResults()
                 ? type.getResult(0)
                 : LLVM::LLVMVoidType::get(function.getContext());
  }
  std::string name = function.getSymName().str();
  Location loc = function.getLoc();
  SmallVector<DictionaryAttr> argAttrs, resultAttrs;
  function.getAllArgAttrs(argAttrs);
  function.getAllResultAttrs(resultAttrs);
  auto declaration = LLVM::LLVMFuncOp::create(
      b, loc, name, LLVM::LLVMFunctionType::get(result, params));
  function.erase();
  if (plan) {
    for (auto [i, arg] : llvm::enumerate(*plan)) {
      if (arg.extension)
        declaration.setArgAttr(i,
                               arg.extension.getValue() == "sext"
                                   ? LLVM::LLVMDialect::getSExtAttrName()
                                   : LLVM::LLVMDialect::getZExtAttrName(),
                               b.getUnitAttr());
      if (arg.kind == "byval")
        declaration.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                               TypeAttr::get(arg.type));
    }
    argAttrs.clear();
  }
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

/// A memref of `type` designating the memory at `address` (a reference
/// the library returned): one element, at offset 0.
Value buildMemRef(OpBuilder &b, Location loc, MemRefType type, Value address) {
  MLIRContext *context = b.getContext();
  Type i64 = b.getI64Type();
  auto sizes = LLVM::LLVMArrayType::get(i64, type.getRank());
  auto descriptorType = LLVM::LLVMStructType::getLiteral(
      context, {address.getType(), address.getType(), i64, sizes, sizes});
  Value descriptor = LLVM::PoisonOp::create(b, loc, descriptorType);
  auto constant = [&](int64_t value) {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(value));
  };
  auto insert = [&](Value value, ArrayRef<int64_t> position) {
    descriptor =
        LLVM::InsertValueOp::create(b, loc, descriptor, value, position);
  };
  insert(address, {0});
  insert(address, {1});
  insert(constant(0), {2});
  for (int64_t d = 0; d < type.getRank(); ++d) {
    insert(constant(1), {3, d});
    insert(constant(1), {4, d});
  }
  return UnrealizedConversionCastOp::create(b, loc, type, descriptor)
      .getResult(0);
}

/// Replaces `call` of `declaration` by the machine-level call its plan
/// describes.
void emitPlannedCall(func::CallOp call, LLVM::LLVMFuncOp declaration,
                     ArrayRef<PlannedArgument> plan, StringRef resultKind,
                     int64_t resultOperand) {
  OpBuilder b(call);
  Location loc = call.getLoc();
  auto pointer = LLVM::LLVMPointerType::get(b.getContext());
  auto addressOf = [&](unsigned operand, int64_t offset) {
    Value address = getFirstElementAddress(b, loc, call.getOperand(operand));
    if (!offset)
      return address;
    Value bytes = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                           b.getI64IntegerAttr(offset));
    return LLVM::GEPOp::create(b, loc, pointer, b.getI8Type(), address,
                               ValueRange{bytes})
        .getResult();
  };
  SmallVector<Value> operands;
  for (const PlannedArgument &arg : plan) {
    if (arg.kind == "value")
      operands.push_back(call.getOperand(arg.operand));
    else if (arg.kind == "load")
      operands.push_back(LLVM::LoadOp::create(
          b, loc, arg.type, addressOf(arg.operand, arg.offset)));
    else
      operands.push_back(addressOf(arg.operand, 0));
  }
  auto lowered = LLVM::CallOp::create(b, loc, declaration, operands);
  if (resultKind == "store")
    LLVM::StoreOp::create(b, loc, lowered.getResult(),
                          addressOf(resultOperand, 0));
  if (resultKind == "value")
    call.getResult(0).replaceAllUsesWith(lowered.getResult());
  if (resultKind == "pointer")
    call.getResult(0).replaceAllUsesWith(
        buildMemRef(b, loc, cast<MemRefType>(call.getResult(0).getType()),
                    lowered.getResult()));
  call.erase();
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
      std::optional<SmallVector<PlannedArgument>> plan = getPlan(function);
      Type stored;
      int64_t resultOperand = -1;
      StringRef resultKind =
          plan ? getResultKind(function, stored, resultOperand) : "";
      LLVM::LLVMFuncOp declaration = declareInC(function, plan);
      for (func::CallOp call : calls) {
        if (plan) {
          emitPlannedCall(call, declaration, *plan, resultKind, resultOperand);
          continue;
        }
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
