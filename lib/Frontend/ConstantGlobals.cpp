//===- ConstantGlobals.cpp - Constant tables as memref globals -----------===//
//
// A differentiable function may read constant data defined outside it:
// `constexpr` and `const` arrays and structs at namespace scope, static
// data members, and `static const` locals, whose initializers the
// compiler evaluates. Each becomes a private constant memref.global of its
// scalars (laid out as in memory, like any aggregate here) read through
// memref.get_global; being constant, it has no derivative.
//
//===----------------------------------------------------------------------===//

#include "ModuleLowering.h"

#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "clang/AST/APValue.h"
#include "clang/AST/DeclCXX.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {
/// Writes the scalars of `value`, an object of `type`, into `out` from
/// `offset` on (in scalars of the object's layout). False for what has no
/// place there (pointers, unions, members of other scalar types).
bool flatten(ModuleLowering &module, const clang::APValue &value,
             clang::QualType type, Type scalar, int64_t offset,
             SmallVectorImpl<Attribute> &out) {
  clang::ASTContext &ast = module.getAST();
  type = type.getCanonicalType();
  if (value.isInt()) {
    // (An integer field packed among floating-point slots is not written
    // here: such tables are refused.)
    if (!isa<IntegerType>(scalar))
      return false;
    out[offset] = IntegerAttr::get(
        scalar, value.getInt().extOrTrunc(scalar.getIntOrFloatBitWidth()));
    return true;
  }
  if (value.isFloat()) {
    auto floatType = dyn_cast<FloatType>(scalar);
    if (!floatType)
      return false;
    out[offset] = FloatAttr::get(floatType, value.getFloat().convertToDouble());
    return true;
  }
  if (value.isArray()) {
    const clang::ArrayType *array = ast.getAsArrayType(type);
    std::optional<Layout> element =
        module.getLayout(array->getElementType(), {}, "an array element");
    if (!element)
      return false;
    for (unsigned i = 0, e = value.getArraySize(); i < e; ++i) {
      const clang::APValue &item = i < value.getArrayInitializedElts()
                                       ? value.getArrayInitializedElt(i)
                                       : value.getArrayFiller();
      if (!flatten(module, item, array->getElementType(), scalar,
                   offset + i * element->size, out))
        return false;
    }
    return true;
  }
  if (value.isStruct()) {
    const auto *record = type->getAsCXXRecordDecl();
    unsigned base = 0;
    for (const clang::CXXBaseSpecifier &spec : record->bases())
      if (!flatten(module, value.getStructBase(base++), spec.getType(), scalar,
                   offset + module.getBaseOffset(record, spec.getType()), out))
        return false;
    for (const clang::FieldDecl *field : record->fields())
      if (!flatten(module, value.getStructField(field->getFieldIndex()),
                   field->getType(), scalar,
                   offset + module.getFieldOffset(field), out))
        return false;
    return true;
  }
  return false;
}
} // namespace

std::optional<memref::GlobalOp>
ModuleLowering::getConstantGlobal(const clang::VarDecl *var,
                                  clang::SourceRange use) {
  var = var->getCanonicalDecl();
  if (auto known = constantGlobals.find(var); known != constantGlobals.end())
    return known->second;
  const clang::VarDecl *definition = var->getInitializingDeclaration();
  const clang::APValue *value =
      definition && definition->getType().isConstQualified()
          ? definition->evaluateValue()
          : nullptr;
  if (!value)
    return getOutsideVariable(var, use);
  std::optional<Layout> layout =
      getLayout(var->getType(), use, "this variable");
  if (!layout)
    return std::nullopt;
  SmallVector<Attribute> scalars(layout->size);
  Attribute zero = isa<FloatType>(layout->scalar)
                       ? Attribute(FloatAttr::get(layout->scalar, 0.0))
                       : Attribute(IntegerAttr::get(layout->scalar, 0));
  std::fill(scalars.begin(), scalars.end(), zero);
  if (!flatten(*this, *value, var->getType(), layout->scalar, 0, scalars)) {
    error(use, "the initializer of '" + var->getQualifiedNameAsString() +
                   "' cannot be read by a differentiable function: only "
                   "numbers, arrays and structs of one scalar type");
    return std::nullopt;
  }
  auto type = MemRefType::get({layout->size}, layout->scalar);
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  std::string name = "__ct_constant." + var->getQualifiedNameAsString() + "." +
                     std::to_string(constantGlobals.size());
  auto global = memref::GlobalOp::create(
      b, getLoc(var->getLocation()), name, b.getStringAttr("private"), type,
      DenseElementsAttr::get(
          RankedTensorType::get({layout->size}, layout->scalar), scalars),
      /*constant=*/true, /*alignment=*/nullptr);
  constantGlobals[var] = global;
  return global;
}

/// Whether the derivative code can refer to `var` by its linkage name as
/// the unit defines it; reports at `use` why not.
bool ModuleLowering::isReachableByName(const clang::VarDecl *var,
                                       clang::SourceRange use) {
  std::string name = var->getQualifiedNameAsString();
  if (var->getTLSKind() != clang::VarDecl::TLS_None) {
    error(use, "'" + name +
                   "' is thread-local; differentiable functions read and "
                   "write variables outside them only when every thread "
                   "shares them: pass it as a parameter");
    return false;
  }
  if (!var->isStaticLocal())
    return true;
  // A static local initialized when control first reaches it has a guard
  // the derivative code would have to honour.
  const clang::Expr *init = var->getInit();
  if (init && !var->hasConstantInitialization() &&
      !init->isConstantInitializer(ast, /*ForRef=*/false)) {
    error(use, "'" + name +
                   "' is a static variable initialized when the function "
                   "first runs (its initializer is not a constant); "
                   "differentiable functions keep static variables only "
                   "with constant initializers: initialize it with a "
                   "constant, or pass it as a parameter");
    return false;
  }
  // Clang numbers same-named statics of a function in the order its own
  // mangler meets them, which ours cannot know.
  const clang::DeclContext *owner = var->getDeclContext();
  unsigned sameName = llvm::count_if(owner->decls(), [&](clang::Decl *decl) {
    const auto *other = dyn_cast<clang::VarDecl>(decl);
    return other && other->isStaticLocal() &&
           other->getIdentifier() == var->getIdentifier();
  });
  if (sameName > 1) {
    error(use, "'" + name +
                   "' is one of several static variables of this name in "
                   "one function; differentiable code can tell them apart "
                   "only by name: rename them");
    return false;
  }
  return true;
}

std::optional<memref::GlobalOp>
ModuleLowering::getOutsideVariable(const clang::VarDecl *var,
                                   clang::SourceRange use) {
  // A variable another part of the program may change (a configuration, a
  // table filled at start-up, a static local keeping state between calls):
  // the C++ variable itself, declared by its linkage name, read where the
  // code reads it. The AD engine tapes what the forward sweep read of it
  // (it may change meanwhile); floating-point variables the code writes
  // get a copy of their own per call (OutsideVariableCopies.cpp).
  if (!isReachableByName(var, use))
    return std::nullopt;
  std::optional<Layout> layout =
      getLayout(var->getType(), use, "this variable");
  if (!layout)
    return std::nullopt;
  if (!layout->indirect.empty()) {
    error(use, "'" + var->getQualifiedNameAsString() +
                   "' holds pointers or vectors; differentiable functions "
                   "read variables outside them only when they hold numbers: "
                   "pass it as a parameter");
    return std::nullopt;
  }
  std::string name = mangle(clang::GlobalDecl(var));
  if (auto existing = module.lookupSymbol<memref::GlobalOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto global = memref::GlobalOp::create(
      b, getLoc(var->getLocation()), name, b.getStringAttr("public"),
      MemRefType::get({layout->size}, layout->scalar), /*initial_value=*/{},
      /*constant=*/false, /*alignment=*/nullptr);
  global->setAttr("ct.source_name",
                  b.getStringAttr(var->getQualifiedNameAsString()));
  // The plugin resolves it to the unit's own symbol; an object file of the
  // derivatives' own cannot reach it (DerivativeCompiler).
  if (ast.GetGVALinkageForVariable(var) == clang::GVA_Internal)
    global->setAttr(ct::kInternalLinkageAttr, b.getUnitAttr());
  constantGlobals[var->getCanonicalDecl()] = global;
  return global;
}

} // namespace cotangent::frontend
