//===- CallingConvention.cpp - How compiled code takes its arguments ------===//
//
// A function called as compiled (a library object's member, a function
// with no visible body) takes objects by value and returns them as the
// C++ ABI of the target says: in registers coerced to other types, through
// a hidden result pointer, by a copy in memory. Clang's own CodeGen knows
// this for every target and class, so the frontend asks it (a code
// generator of its own, used only for its ABI tables) and writes down, on
// the func.func, how each lowered operand becomes the arguments of the
// machine-level call (`ct.c_args`) and where the result goes
// (`ct.c_result`). Code generation follows that plan (LowerExternalCalls).
//
//===----------------------------------------------------------------------===//

#include "ModuleLowering.h"

#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Target/LLVMIR/TypeFromLLVM.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/CodeGen/CGFunctionInfo.h"
#include "clang/CodeGen/CodeGenABITypes.h"
#include "clang/CodeGen/ModuleBuilder.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace mlir;

namespace cotangent::frontend {

struct CallingConvention::Tables {
  llvm::LLVMContext context;
  clang::HeaderSearchOptions headerSearch;
  clang::PreprocessorOptions preprocessor;
  clang::CodeGenOptions codeGen;
  std::unique_ptr<clang::CodeGenerator> generator;
};

CallingConvention::CallingConvention(clang::ASTContext &ast)
    : ast(ast), tables(std::make_unique<Tables>()) {
  tables->generator = clang::CreateLLVMCodeGen(
      ast.getDiagnostics(), "cotangent-abi", llvm::vfs::getRealFileSystem(),
      tables->headerSearch, tables->preprocessor, tables->codeGen,
      tables->context);
  tables->generator->Initialize(ast);
}

CallingConvention::~CallingConvention() = default;

namespace {
/// Builds the plan of one function, operand by operand.
class PlanBuilder {
public:
  PlanBuilder(MLIRContext *context, const llvm::DataLayout &dataLayout)
      : b(context), types(*context), dataLayout(dataLayout) {}

  /// An argument of the machine-level call made from operand `operand`.
  void add(int64_t operand, StringRef kind, Type type = nullptr,
           int64_t offset = 0, StringRef extension = "") {
    SmallVector<NamedAttribute> fields{
        b.getNamedAttr("operand", b.getI64IntegerAttr(operand)),
        b.getNamedAttr("kind", b.getStringAttr(kind))};
    if (type)
      fields.push_back(b.getNamedAttr("type", TypeAttr::get(type)));
    if (offset)
      fields.push_back(b.getNamedAttr("offset", b.getI64IntegerAttr(offset)));
    if (!extension.empty())
      fields.push_back(b.getNamedAttr("ext", b.getStringAttr(extension)));
    args.push_back(b.getDictionaryAttr(fields));
  }

  /// An object by value passed in registers: its bytes loaded as `coerced`
  /// (each element its own argument when the ABI flattens a struct).
  void addLoaded(int64_t operand, llvm::Type *coerced, bool flatten) {
    auto *structType = dyn_cast<llvm::StructType>(coerced);
    if (!structType || !flatten)
      return add(operand, "load", types.translateType(coerced));
    const llvm::StructLayout *layout = dataLayout.getStructLayout(structType);
    for (unsigned i = 0; i < structType->getNumElements(); ++i)
      add(operand, "load", types.translateType(structType->getElementType(i)),
          layout->getElementOffset(i));
  }

  DictionaryAttr result(StringRef kind, Type type = nullptr,
                        int64_t operand = -1) {
    SmallVector<NamedAttribute> fields{
        b.getNamedAttr("kind", b.getStringAttr(kind))};
    if (type)
      fields.push_back(b.getNamedAttr("type", TypeAttr::get(type)));
    if (operand >= 0)
      fields.push_back(b.getNamedAttr("operand", b.getI64IntegerAttr(operand)));
    return b.getDictionaryAttr(fields);
  }

  Type translate(llvm::Type *type) { return types.translateType(type); }

  Builder b;
  LLVM::TypeFromLLVMIRTranslator types;
  const llvm::DataLayout &dataLayout;
  SmallVector<Attribute> args;
};
} // namespace

static StringRef getExtension(const clang::CodeGen::ABIArgInfo &info) {
  if (!info.isExtend())
    return "";
  return info.isSignExt() ? "sext" : "zext";
}

/// Where the result of a call goes (ct.c_result); null if the ABI returns
/// it in a way the plan has no word for.
static DictionaryAttr describeResult(PlanBuilder &plan,
                                     const clang::CodeGen::ABIArgInfo &info,
                                     clang::QualType resultType,
                                     int64_t resultPlace) {
  switch (info.getKind()) {
  case clang::CodeGen::ABIArgInfo::Ignore:
  case clang::CodeGen::ABIArgInfo::Indirect: // (through the hidden pointer)
    return plan.result("void");
  case clang::CodeGen::ABIArgInfo::Direct:
  case clang::CodeGen::ABIArgInfo::Extend:
    if (resultPlace >= 0)
      return plan.result("store", plan.translate(info.getCoerceToType()),
                         resultPlace);
    if (resultType->isPointerType() || resultType->isReferenceType())
      return plan.result("pointer");
    return plan.result(resultType->isVoidType() ? "void" : "value");
  default:
    return nullptr;
  }
}

std::string CallingConvention::describe(const clang::FunctionDecl *decl,
                                        func::FuncOp function) {
  clang::CodeGen::CodeGenModule &cgm = tables->generator->CGM();
  const auto *method = dyn_cast<clang::CXXMethodDecl>(decl);
  bool isInstance = method && method->isInstance();
  const auto *prototype = decl->getType()->getAs<clang::FunctionProtoType>();
  if (!prototype)
    return "it has no prototype";
  const clang::CodeGen::CGFunctionInfo &info =
      isInstance ? clang::CodeGen::arrangeCXXMethodType(
                       cgm, method->getParent(), prototype, method)
                 : clang::CodeGen::arrangeFreeFunctionType(
                       cgm, decl->getType()
                                ->getCanonicalTypeUnqualified()
                                .getAs<clang::FunctionProtoType>());
  PlanBuilder plan(function.getContext(),
                   tables->generator->GetModule()->getDataLayout());
  // The lowered operands: the object, the parameters, then the place of
  // an aggregate result.
  SmallVector<clang::QualType> operandTypes;
  if (isInstance)
    operandTypes.push_back(method->getThisType());
  for (const clang::ParmVarDecl *param : decl->parameters())
    operandTypes.push_back(param->getType());
  clang::QualType resultType = decl->getReturnType().getCanonicalType();
  int64_t resultPlace = -1;
  if (isAggregate(resultType))
    resultPlace = operandTypes.size();
  if (info.arg_size() != operandTypes.size())
    return "its arguments do not match the ABI's";

  const clang::CodeGen::ABIArgInfo &returnInfo = info.getReturnInfo();
  bool sret = returnInfo.isIndirect();
  if (sret && !returnInfo.isSRetAfterThis())
    plan.add(resultPlace, "address");
  for (auto [i, arg] : llvm::enumerate(info.arguments())) {
    const clang::CodeGen::ABIArgInfo &argInfo = arg.info;
    clang::QualType type = operandTypes[i].getCanonicalType();
    bool byValue = isAggregate(type);
    switch (argInfo.getKind()) {
    case clang::CodeGen::ABIArgInfo::Ignore:
      break;
    case clang::CodeGen::ABIArgInfo::Direct:
    case clang::CodeGen::ABIArgInfo::Extend:
      if (argInfo.getPaddingType() || argInfo.getDirectOffset())
        return "the ABI passes '" + type.getAsString() + "' with padding";
      if (byValue)
        plan.addLoaded(i, argInfo.getCoerceToType(),
                       argInfo.getCanBeFlattened());
      else
        plan.add(i,
                 type->isPointerType() || type->isReferenceType() ? "address"
                                                                  : "value",
                 nullptr, 0, getExtension(argInfo));
      break;
    case clang::CodeGen::ABIArgInfo::Indirect:
    case clang::CodeGen::ABIArgInfo::IndirectAliased:
      // The caller's own copy (the lowering made one), by address; with
      // `byval`, the call copies it once more onto the stack.
      if (!byValue)
        return "the ABI passes '" + type.getAsString() + "' in memory";
      plan.add(
          i, argInfo.getIndirectByVal() ? "byval" : "address",
          argInfo.getIndirectByVal()
              ? plan.translate(clang::CodeGen::convertTypeForMemory(cgm, type))
              : nullptr);
      break;
    default:
      return "the ABI passes '" + type.getAsString() +
             "' in a way Cotangent does not call";
    }
    if (sret && returnInfo.isSRetAfterThis() && i == 0)
      plan.add(resultPlace, "address");
  }

  DictionaryAttr result =
      describeResult(plan, returnInfo, resultType, resultPlace);
  if (!result)
    return "the ABI returns '" + resultType.getAsString() +
           "' in a way Cotangent does not call";
  function->setAttr(ct::kCallArgumentsAttr, plan.b.getArrayAttr(plan.args));
  function->setAttr(ct::kCallResultAttr, result);
  return "";
}

} // namespace cotangent::frontend
