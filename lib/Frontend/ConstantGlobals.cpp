//===- ConstantGlobals.cpp - Constant tables as memref globals -----------===//
//
// A differentiable function may read constant data defined outside it:
// `constexpr` and `const` arrays and structs at namespace scope, static
// data members, and `static const` locals, whose initializers the
// compiler evaluates. Each becomes a private constant memref.global of its
// scalars (laid out as in memory, like any aggregate here) read through
// memref.get_global; being constant, it has no derivative. A table of
// function pointers is read where C++ keeps it (the addresses are the
// linker's).
//
//===----------------------------------------------------------------------===//

#include "ModuleLowering.h"

#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "clang/AST/APValue.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/TargetInfo.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {
/// Writes the bytes of `value`, an object of `type`, into `bytes` from byte
/// `offset` on, as the target lays the object out (little-endian). False
/// for what has no bytes of numbers (pointers, unions, bit-fields).
bool writeBytes(clang::ASTContext &ast, const clang::APValue &value,
                clang::QualType type, uint64_t offset,
                MutableArrayRef<uint8_t> bytes) {
  type = type.getCanonicalType();
  auto writeBits = [&](const llvm::APInt &bits) {
    uint64_t size = ast.getTypeSizeInChars(type).getQuantity();
    llvm::APInt wide = bits.zextOrTrunc(size * 8);
    for (uint64_t i = 0; i < size; ++i)
      bytes[offset + i] = wide.extractBitsAsZExtValue(8, 8 * i);
    return true;
  };
  if (value.isInt())
    return writeBits(value.getInt());
  if (value.isFloat())
    return writeBits(value.getFloat().bitcastToAPInt());
  if (value.isArray()) {
    clang::QualType element = ast.getAsArrayType(type)->getElementType();
    uint64_t stride = ast.getTypeSizeInChars(element).getQuantity();
    for (unsigned i = 0, e = value.getArraySize(); i < e; ++i) {
      const clang::APValue &item = i < value.getArrayInitializedElts()
                                       ? value.getArrayInitializedElt(i)
                                       : value.getArrayFiller();
      if (!writeBytes(ast, item, element, offset + i * stride, bytes))
        return false;
    }
    return true;
  }
  if (value.isStruct()) {
    const auto *record = type->getAsCXXRecordDecl();
    const clang::ASTRecordLayout &layout = ast.getASTRecordLayout(record);
    unsigned base = 0;
    for (const clang::CXXBaseSpecifier &spec : record->bases()) {
      uint64_t at =
          layout.getBaseClassOffset(spec.getType()->getAsCXXRecordDecl())
              .getQuantity();
      if (!writeBytes(ast, value.getStructBase(base++), spec.getType(),
                      offset + at, bytes))
        return false;
    }
    for (const clang::FieldDecl *field : record->fields())
      if (field->isBitField() ||
          !writeBytes(ast, value.getStructField(field->getFieldIndex()),
                      field->getType(),
                      offset +
                          layout.getFieldOffset(field->getFieldIndex()) / 8,
                      bytes))
        return false;
    return true;
  }
  return false;
}

/// Whether an object of `type` holds function pointers.
bool holdsFunctionPointers(clang::QualType type) {
  type = type.getCanonicalType();
  if (type->isFunctionPointerType())
    return true;
  if (const auto *array = dyn_cast<clang::ArrayType>(type.getTypePtr()))
    return holdsFunctionPointers(array->getElementType());
  const auto *record = type->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition())
    return false;
  return llvm::any_of(record->bases(),
                      [](const clang::CXXBaseSpecifier &base) {
                        return holdsFunctionPointers(base.getType());
                      }) ||
         llvm::any_of(record->fields(), [](const clang::FieldDecl *field) {
           return holdsFunctionPointers(field->getType());
         });
}

/// The object's bytes as the scalars of its layout (a struct's integers
/// and floats of other types lie in the bytes of its slots, as in memory).
bool slotsOf(clang::ASTContext &ast, const clang::APValue &value,
             clang::QualType type, const Layout &layout,
             SmallVectorImpl<Attribute> &slots) {
  if (!ast.getTargetInfo().isLittleEndian())
    return false;
  uint64_t slotBytes = ast.getTypeSizeInChars(layout.scalarType).getQuantity();
  SmallVector<uint8_t> bytes(layout.size * slotBytes, 0);
  if (ast.getTypeSizeInChars(type).getQuantity() >
          static_cast<int64_t>(bytes.size()) ||
      !writeBytes(ast, value, type, 0, bytes))
    return false;
  unsigned bits = layout.scalar.getIntOrFloatBitWidth();
  for (int64_t i = 0; i < layout.size; ++i) {
    llvm::APInt slot(slotBytes * 8, 0);
    for (uint64_t k = 0; k < slotBytes; ++k)
      slot.insertBits(bytes[i * slotBytes + k], 8 * k, 8);
    slot = slot.trunc(bits);
    if (auto floatType = dyn_cast<FloatType>(layout.scalar))
      slots.push_back(FloatAttr::get(
          floatType, llvm::APFloat(floatType.getFloatSemantics(), slot)));
    else
      slots.push_back(IntegerAttr::get(layout.scalar, slot));
  }
  return true;
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
  SmallVector<Attribute> scalars;
  // Function addresses are the linker's to write: such a table is read
  // where C++ keeps it, as a variable is.
  if (layout->indirect.empty() && holdsFunctionPointers(var->getType()))
    return getOutsideVariable(var, use);
  if (!layout->indirect.empty() ||
      !slotsOf(ast, *value, var->getType(), *layout, scalars)) {
    error(use, "the initializer of '" + var->getQualifiedNameAsString() +
                   "' cannot be read by a differentiable function: only "
                   "numbers, arrays and structs of them");
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

/// Whether evaluating `stmt`, the initializer of `self`, reads only
/// constants and changes nothing.
static bool readsOnlyConstants(const clang::Stmt *stmt,
                               const clang::VarDecl *self,
                               ModuleLowering &module, clang::ASTContext &ast) {
  if (!stmt)
    return true;
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(stmt)) {
    const clang::ValueDecl *decl = ref->getDecl();
    if (isa<clang::FunctionDecl, clang::EnumConstantDecl,
            clang::NonTypeTemplateParmDecl>(decl))
      return true;
    const auto *var = dyn_cast<clang::VarDecl>(decl);
    // (A variable is in scope in its own initializer.)
    return var && var != self &&
           (var->isUsableInConstantExpressions(ast) ||
            (!var->hasLocalStorage() && var->getType().isConstant(ast) &&
             var->hasConstantInitialization()) ||
            module.isRecomputedStatic(var));
  }
  if (const auto *call = dyn_cast<clang::CallExpr>(stmt)) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee || (!callee->getBuiltinID() && !callee->isConstexpr()))
      return false;
  }
  if (const auto *construct = dyn_cast<clang::CXXConstructExpr>(stmt);
      construct && !construct->getConstructor()->isConstexpr() &&
      !construct->getConstructor()->isTrivial())
    return false;
  if (const auto *binary = dyn_cast<clang::BinaryOperator>(stmt);
      binary && binary->isAssignmentOp())
    return false;
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(stmt);
      unary && unary->isIncrementDecrementOp())
    return false;
  if (isa<clang::CXXThisExpr, clang::LambdaExpr, clang::CXXNewExpr,
          clang::CXXDeleteExpr, clang::CXXThrowExpr, clang::StmtExpr>(stmt))
    return false;
  return llvm::all_of(stmt->children(), [&](const clang::Stmt *child) {
    return readsOnlyConstants(child, self, module, ast);
  });
}

/// Whether `stmt` only reads `var`'s value: every use of it is loaded at
/// once (not assigned, incremented, addressed or bound to a reference).
bool onlyReads(const clang::Stmt *stmt, const clang::VarDecl *var) {
  if (!stmt)
    return true;
  if (const auto *cast = dyn_cast<clang::ImplicitCastExpr>(stmt);
      cast && cast->getCastKind() == clang::CK_LValueToRValue)
    if (const auto *ref =
            dyn_cast<clang::DeclRefExpr>(cast->getSubExpr()->IgnoreParens());
        ref && ref->getDecl() == var)
      return true;
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(stmt);
      ref && ref->getDecl() == var)
    return false;
  return llvm::all_of(stmt->children(), [&](const clang::Stmt *child) {
    return onlyReads(child, var);
  });
}

/// Whether `var`, a static local, keeps the value it was initialized with:
/// declared `const`, or only ever read in its function.
static bool keepsItsValue(const clang::VarDecl *var, clang::ASTContext &ast) {
  if (var->getType().isConstant(ast))
    return true;
  const auto *owner =
      dyn_cast_or_null<clang::FunctionDecl>(var->getParentFunctionOrMethod());
  return owner && owner->getBody() && onlyReads(owner->getBody(), var);
}

bool ModuleLowering::isRecomputedStatic(const clang::VarDecl *var) {
  const clang::Expr *init = var->getInit();
  return var->isStaticLocal() && init && keepsItsValue(var, ast) &&
         !var->hasConstantInitialization() &&
         !init->isConstantInitializer(ast, /*ForRef=*/false) &&
         readsOnlyConstants(init, var, *this, ast);
}

/// Why a thread-local variable outside any function cannot be named by
/// derivative code, or null when it can.
static const char *whyThreadLocalIsUnreachable(const clang::VarDecl *var) {
  const clang::VarDecl *definition = var->getDefinition();
  if (!definition)
    return "defined in another file";
  if (!definition->hasConstantInitialization())
    return "initialized when each thread first uses it";
  if (definition->needsDestruction(var->getASTContext()) !=
      clang::QualType::DK_none)
    return "destroyed when each thread ends";
  return nullptr;
}

/// Whether the derivative code can refer to `var` by its linkage name as
/// the unit defines it; reports at `use` why not.
bool ModuleLowering::isReachableByName(const clang::VarDecl *var,
                                       clang::SourceRange use) {
  std::string name = var->getQualifiedNameAsString();
  // A thread-local variable outside any function is reached directly only
  // when it is defined here with a constant and nothing to destroy; C++
  // reaches the others through a function of the defining file's, which
  // makes the thread's copy on its first use.
  if (var->getTLSKind() != clang::VarDecl::TLS_None && !var->isStaticLocal())
    if (const char *why = whyThreadLocalIsUnreachable(var)) {
      error(use, "'" + name + "' is a thread-local variable " + why +
                     "; differentiable functions use thread-local "
                     "variables outside functions only when this file "
                     "defines them with a constant and nothing to destroy: "
                     "pass it as a parameter, or make it a 'thread_local' "
                     "variable of the function");
      return false;
    }
  if (!var->isStaticLocal())
    return true;
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

memref::GlobalOp ModuleLowering::declareOutsideGlobal(const clang::VarDecl *var,
                                                      MemRefType type,
                                                      bool constant) {
  std::string name = mangle(clang::GlobalDecl(var));
  if (auto existing = module.lookupSymbol<memref::GlobalOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto global = memref::GlobalOp::create(
      b, getLoc(var->getLocation()), name, b.getStringAttr("public"), type,
      /*initial_value=*/{}, constant, /*alignment=*/nullptr);
  global->setAttr("ct.source_name",
                  b.getStringAttr(var->getQualifiedNameAsString()));
  // The plugin resolves it to the unit's own symbol; an object file of the
  // derivatives' own cannot reach it (DerivativeCompiler).
  if (ast.GetGVALinkageForVariable(var) == clang::GVA_Internal)
    global->setAttr(ct::kInternalLinkageAttr, b.getUnitAttr());
  if (var->getTLSKind() != clang::VarDecl::TLS_None)
    markThreadLocal(global);
  return global;
}

void ModuleLowering::markThreadLocal(memref::GlobalOp global) {
  SmallVector<Attribute> names;
  if (auto known =
          module->getAttrOfType<ArrayAttr>(ct::kThreadLocalGlobalsAttr))
    names.append(known.begin(), known.end());
  names.push_back(global.getSymNameAttr());
  module->setAttr(ct::kThreadLocalGlobalsAttr,
                  ArrayAttr::get(module.getContext(), names));
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
  // (A constant one, a table of function pointers, is read-only memory:
  // never copied back, OutsideVariableCopies.cpp. A `const` static local
  // initialized on the first call is written there.)
  memref::GlobalOp global = declareOutsideGlobal(
      var, MemRefType::get({layout->size}, layout->scalar),
      var->getType().isConstant(ast) && !isGuardedStatic(var));
  constantGlobals[var->getCanonicalDecl()] = global;
  return global;
}

} // namespace cotangent::frontend
