//===- VectorFields.cpp - Vector fields of structs that vectors hold ------===//
//
// A struct that a std::vector holds (a layer of an MLP, with its weights and
// biases, in the network's std::vector<Layer>) lives in memory the function
// makes, grows and moves at run time, so its own std::vector fields cannot
// be memory known beside the object (IndirectFields.cpp): each is kept in
// the object as C++ lays it out, three addresses, as the vectors kept in
// memory are (VectorObjects.cpp), and a vector of such structs is one too.
// Which structs: those some std::vector of the translation unit holds by
// value, as its elements or inside them. The choice is the type's, so that
// a struct has one layout in every function and in the caller's objects.
// Member functions of such a field run on its three addresses
// (VectorObjectCalls.cpp); every other use of it as a vector (an index, a
// loop, a helper's argument, a copy into a local vector) sees its elements,
// viewed afresh at each use.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace cotangent::frontend {

/// The structs some std::vector of the translation unit holds by value
/// (findRecordsInVectors fills it afresh for each translation unit).
static llvm::DenseSet<const clang::RecordDecl *> &recordsInVectors() {
  static llvm::DenseSet<const clang::RecordDecl *> records;
  return records;
}

/// Adds the struct of `type` (or of its arrays' elements) and the structs
/// it holds by value.
static void addHeldRecords(clang::QualType type,
                           llvm::DenseSet<const clang::RecordDecl *> &records) {
  if (type.isNull())
    return;
  type = type.getCanonicalType();
  const auto *record = type->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
  if (!record || !(record = record->getDefinition()) ||
      !ModuleLowering::getVectorElementType(
           record->getASTContext().getCanonicalTagType(record))
           .isNull() ||
      !records.insert(record).second)
    return;
  for (const clang::CXXBaseSpecifier &base : record->bases())
    addHeldRecords(base.getType(), records);
  for (const clang::FieldDecl *field : record->fields())
    addHeldRecords(field->getType(), records);
}

void ModuleLowering::findRecordsInVectors(clang::ASTContext &ast) {
  llvm::DenseSet<const clang::RecordDecl *> &records = recordsInVectors();
  records.clear();
  clang::IdentifierInfo &stdName = ast.Idents.get("std");
  clang::IdentifierInfo &vectorName = ast.Idents.get("vector");
  for (clang::NamedDecl *found : ast.getTranslationUnitDecl()->lookup(&stdName))
    if (const auto *std = dyn_cast<clang::NamespaceDecl>(found))
      for (clang::NamedDecl *vector : std->lookup(&vectorName))
        if (const auto *vectorTemplate =
                dyn_cast<clang::ClassTemplateDecl>(vector))
          for (const clang::ClassTemplateSpecializationDecl *spec :
               vectorTemplate->specializations())
            addHeldRecords(getVectorElementType(ast.getCanonicalTagType(spec)),
                           records);
}

bool ModuleLowering::isHeldInVector(const clang::RecordDecl *record) {
  record = record ? record->getDefinition() : nullptr;
  return record && recordsInVectors().contains(record);
}

bool ModuleLowering::keepsVectorInMemory(const clang::FieldDecl *field) {
  if (!field)
    return false;
  clang::QualType type = field->getType().getCanonicalType();
  clang::QualType element = getVectorElementType(type);
  return !element.isNull() && getVectorElementType(element).isNull() &&
         !isVectorObject(type) && isHeldInVector(field->getParent());
}

bool FunctionLowering::isVectorObjectExpr(const clang::Expr *expr) {
  clang::QualType type =
      expr->getType().getNonReferenceType().getCanonicalType();
  if (ModuleLowering::isVectorObject(type))
    return true;
  if (ModuleLowering::getVectorElementType(type).isNull())
    return false;
  if (isRowExpr(expr))
    return true;
  expr = stripTemporaries(expr);
  if (const auto *member = dyn_cast<clang::MemberExpr>(expr))
    return ModuleLowering::keepsVectorInMemory(
        dyn_cast<clang::FieldDecl>(member->getMemberDecl()));
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr))
    return vectorObjectReferences.contains(ref->getDecl());
  return false;
}

std::optional<Address>
FunctionLowering::lowerVectorHolder(const clang::Expr *expr) {
  const clang::Expr *object = stripTemporaries(expr);
  if (const auto *member = dyn_cast<clang::MemberExpr>(object);
      member && ModuleLowering::keepsVectorInMemory(
                    dyn_cast<clang::FieldDecl>(member->getMemberDecl())))
    return fieldSlot(member);
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(object))
    if (auto found = vectorObjectReferences.find(ref->getDecl());
        found != vectorObjectReferences.end())
      return found->second;
  if (isRowExpr(object))
    return lowerRowHolder(object);
  return lowerLValue(expr);
}

std::optional<FunctionLowering::VectorObject>
FunctionLowering::vectorObjectOf(const clang::Expr *expr,
                                 const clang::Stmt *where) {
  std::optional<Address> holder = lowerVectorHolder(expr);
  if (!holder)
    return std::nullopt;
  return vectorObjectAt(*holder, expr->getType(), where);
}

bool FunctionLowering::bindVectorReference(const clang::ValueDecl *var,
                                           const clang::Expr *init) {
  clang::QualType type = var->getType();
  // (An inlined helper's parameter may have been bound to a field by an
  // earlier call.)
  vectorObjectReferences.erase(var);
  if (!init || !type->isReferenceType() ||
      !isVector(type.getNonReferenceType()) || !isVectorObjectExpr(init))
    return false;
  if (std::optional<Address> holder = lowerVectorHolder(init))
    vectorObjectReferences[var] = *holder;
  else
    invalid.insert(var);
  return true;
}

bool FunctionLowering::passesVectorsInMemory(
    const clang::FunctionDecl *callee, ArrayRef<const clang::Expr *> args) {
  for (auto [arg, param] : llvm::zip(args, callee->parameters())) {
    clang::QualType type = param->getType();
    if (type->isLValueReferenceType() &&
        !type.getNonReferenceType().isConstQualified() &&
        isVector(type.getNonReferenceType()) && isVectorObjectExpr(arg))
      return true;
  }
  return false;
}

std::optional<Address>
FunctionLowering::viewVectorInMemory(Address holder, clang::QualType type,
                                     const clang::Stmt *where) {
  std::optional<VectorObject> vector = vectorObjectAt(holder, type, where);
  if (!vector || !hasElementLayout(*vector, where, "read"))
    return std::nullopt;
  Location l = loc(where);
  Value scalars =
      arith::MulIOp::create(b, l, vectorObjectCount(*vector, vector->end, l),
                            constantIndex(vector->elementSlots, l));
  Value view =
      memref::SubViewOp::create(b, l, vectorObjectElements(*vector, l),
                                ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
                                ArrayRef<OpFoldResult>{scalars},
                                ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  return Address{view, constantIndex(0, l)};
}

void FunctionLowering::fillVectorObject(const VectorObject &vector,
                                        Address elements, Value count,
                                        const clang::Stmt *where) {
  // The old elements dropped (numbers, or structs of numbers: nothing to
  // destroy), room for the new ones, their scalars copied in.
  Location l = loc(where);
  setVectorObjectSlot(vector, vector.end, vectorObjectElements(vector, l),
                      constantIndex(0, l), l);
  reserveVectorObject(vector, count, where);
  Value memory = vectorObjectElements(vector, l);
  copy(
      Address{memory, constantIndex(0, l)}, elements,
      arith::MulIOp::create(b, l, count, constantIndex(vector.elementSlots, l)),
      l);
  setVectorObjectSlot(vector, vector.end, memory, count, l);
}

bool FunctionLowering::assignVectorInMemory(const VectorObject &vector,
                                            clang::QualType type,
                                            const clang::Expr *source) {
  if (!hasElementLayout(vector, source, "copied"))
    return false;
  Location l = loc(source);
  clang::SourceRange range = source->getSourceRange();
  // An object's elements are read where they are (the memory of a vector
  // of the memref model, or another vector kept in memory, viewed); what
  // a constructor or a call makes is made first, as a vector of its own.
  std::optional<Address> elements = source->isGLValue()
                                        ? lowerLValue(source)
                                        : createVector(source, type, range);
  if (!elements)
    return false;
  fillVectorObject(vector, *elements, vectorSize(*elements, type, l), source);
  return true;
}

/// Whether `construct` is one that constructVectorObject runs in place:
/// empty, with a size (and a value), or a copy or move of a vector kept in
/// memory.
bool FunctionLowering::constructsInPlace(
    const clang::CXXConstructExpr *construct) {
  SmallVector<const clang::Expr *> args;
  for (const clang::Expr *arg : construct->arguments())
    if (!isa<clang::CXXDefaultArgExpr>(arg))
      args.push_back(arg);
  if (args.empty())
    return true;
  if (construct->getConstructor()->isCopyOrMoveConstructor())
    return isVectorObjectExpr(args[0]);
  return args[0]->getType()->isIntegerType() && args.size() <= 2;
}

bool FunctionLowering::initializeVectorInMemory(const clang::Expr *init,
                                                clang::QualType type,
                                                Address holder) {
  std::optional<VectorObject> vector = vectorObjectAt(holder, type, init);
  if (!vector)
    return false;
  if (const auto *construct =
          dyn_cast<clang::CXXConstructExpr>(stripTemporaries(init));
      construct && constructsInPlace(construct))
    return constructVectorObject(construct, holder);
  // Any other way of making a vector (a list of values, a range, a copy of
  // a vector of the memref model, a call): made aside, then copied in.
  clearVectorObject(*vector, loc(init));
  return assignVectorInMemory(*vector, type, init);
}

} // namespace cotangent::frontend
