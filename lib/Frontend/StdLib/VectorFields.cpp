//===- VectorFields.cpp - Vector fields kept in memory --------------------===//
//
// A struct that a std::vector holds (a layer of an MLP, with its weights and
// biases, in the network's std::vector<Layer>) lives in memory the function
// makes, grows and moves at run time, so its own std::vector fields cannot
// be memory known beside the object (IndirectFields.cpp): each is kept in
// the object as C++ lays it out, three addresses, as the vectors kept in
// memory are (VectorObjects.cpp), and a vector of such structs is one too.
// So is a struct whose vector field the program resizes (`s.xs.push_back(v)`,
// `erase`, `resize`, ..., also through a reference bound to the field, or a
// helper given it): its field's memory is made, grown and freed at run
// time. Which structs: those some std::vector of the translation unit
// holds by value, as its elements or inside them, those with a field the
// program's own code resizes, those a function returns by value from more
// than one `return`, and the structs they hold by value. The
// choice is the type's, so that a struct has one layout in every function
// and in the caller's objects. Member functions of such a field run on its
// three addresses (VectorObjectCalls.cpp); every other use of it as a
// vector (an index, a loop, a helper's argument, a copy into a local
// vector) sees its elements, viewed afresh at each use.
// The same walk finds the pointer fields the program re-seats after their
// object is made (`view.data = other`, or through a reference or pointer
// that may assign it: `std::swap(a.data, b.data)`): those keep their
// address in the object (ModuleLowering::keepsAddress), since they may
// designate another array than the one they were made with; so do those
// of structs reached through a `void *` (a callback's context), read back
// as addresses.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "cotangent/Frontend/DifferentiableAttr.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace cotangent::frontend {

/// The structs whose vector fields are kept in memory
/// (findRecordsKeepingVectors fills it afresh for each translation unit).
static llvm::DenseSet<const clang::RecordDecl *> &recordsKeepingVectors() {
  static llvm::DenseSet<const clang::RecordDecl *> records;
  return records;
}

static llvm::DenseSet<const clang::FieldDecl *> &reseatedFields() {
  static llvm::DenseSet<const clang::FieldDecl *> fields;
  return fields;
}

bool ModuleLowering::isReseatedField(const clang::FieldDecl *field) {
  return field && reseatedFields().contains(field);
}

/// The pointer field `expr` names (`obj.f`, `p->f`, `f` in a member).
static const clang::FieldDecl *pointerFieldOf(const clang::Expr *expr) {
  const auto *member = dyn_cast<clang::MemberExpr>(expr->IgnoreParenImpCasts());
  const auto *field =
      member ? dyn_cast<clang::FieldDecl>(member->getMemberDecl()) : nullptr;
  return field && field->getType()->isPointerType() ? field : nullptr;
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

/// Whether objects of `type` are numbers and nothing else: numbers, arrays
/// of them, structs of them (no address, no vector, no destructor).
static bool holdsOnlyNumbers(clang::QualType type) {
  type = type.getCanonicalType();
  if (type->isArithmeticType() || type->isEnumeralType())
    return true;
  if (const auto *array = dyn_cast<clang::ConstantArrayType>(type.getTypePtr()))
    return holdsOnlyNumbers(array->getElementType());
  const auto *record = type->getAsCXXRecordDecl();
  if (!record || !(record = record->getDefinition()) ||
      !record->hasTrivialDestructor() || record->isUnion() ||
      record->isPolymorphic())
    return false;
  return llvm::all_of(record->bases(),
                      [](const clang::CXXBaseSpecifier &base) {
                        return holdsOnlyNumbers(base.getType());
                      }) &&
         llvm::all_of(record->fields(), [](const clang::FieldDecl *field) {
           return holdsOnlyNumbers(field->getType());
         });
}

namespace {
/// Adds the structs whose vector field of numbers (or of structs of
/// numbers) code that differentiable functions run resizes: through the
/// field, or through a non-const reference bound to it (a variable, or a
/// helper's parameter given the field); vectors of pointers keep the
/// memref model, within the capacity reserved. Code elsewhere (a main
/// filling a model with push_back) chooses nothing: only the code lowered
/// here sees the layout as memory.
struct ResizedFieldFinder
    : public clang::RecursiveASTVisitor<ResizedFieldFinder> {
  ResizedFieldFinder(clang::ASTContext &ast,
                     llvm::DenseSet<const clang::RecordDecl *> &records)
      : ast(ast), records(records) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(clang::Decl *decl) {
    if (decl && !isa<clang::TranslationUnitDecl>(decl) &&
        ast.getSourceManager().isInSystemHeader(decl->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(decl);
  }
  /// Classes with virtual functions, whose objects are reached through
  /// pointers to their bases, whatever their class: the memory a vector
  /// field of theirs holds must be found in the object itself.
  bool VisitCXXRecordDecl(clang::CXXRecordDecl *record) {
    if (record->isThisDeclarationADefinition() && !record->isDependentType() &&
        record->isDynamicClass())
      dynamicClasses.push_back(record);
    if (record->isThisDeclarationADefinition() && !record->isDependentType() &&
        ModuleLowering::isLinked(record))
      linkedRecords.push_back(record);
    return true;
  }
  SmallVector<const clang::CXXRecordDecl *> dynamicClasses, linkedRecords;
  /// A linked node's pointer field designating a struct that is not linked
  /// (a tree's leaf data, shared parameters): the node keeps its address,
  /// so that struct is reached by an address read back.
  void noteRecordsLinkedTo() {
    for (const clang::CXXRecordDecl *record : linkedRecords)
      for (const clang::FieldDecl *field : record->fields()) {
        clang::QualType type = field->getType();
        if (!type->isPointerType())
          continue;
        clang::QualType pointee = type->getPointeeType();
        if (const clang::RecordDecl *target = pointee->getAsRecordDecl();
            target && !ModuleLowering::isLinked(target))
          noteObjectsReachedByAddress(pointee);
      }
  }
  /// The roots: functions marked differentiable, and functions given to an
  /// entry point as a template argument (`ct::gradient<f>`).
  bool VisitFunctionDecl(clang::FunctionDecl *decl) {
    if (isDifferentiable(decl))
      reach(decl);
    return true;
  }
  bool VisitCallExpr(clang::CallExpr *call) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    const clang::TemplateArgumentList *args =
        callee ? callee->getTemplateSpecializationArgs() : nullptr;
    if (args &&
        StringRef(callee->getQualifiedNameAsString()).starts_with("ct::"))
      for (const clang::TemplateArgument &arg : args->asArray())
        if (arg.getKind() == clang::TemplateArgument::Declaration)
          if (const auto *f = dyn_cast<clang::FunctionDecl>(arg.getAsDecl()))
            reach(f);
    return true;
  }
  void reach(const clang::FunctionDecl *function) {
    const clang::FunctionDecl *definition = nullptr;
    if (!function->hasBody(definition) || !reached.insert(definition).second)
      return;
    if (ast.getSourceManager().isInSystemHeader(definition->getLocation()))
      libraryWork.push_back(definition);
    else
      work.push_back(definition);
  }
  /// Walks what the roots run: their bodies and their callees', adding the
  /// structs whose vector fields they resize.
  void walkReached() {
    while (!work.empty()) {
      const clang::FunctionDecl *function = work.pop_back_val();
      BodyWalker walker(*this);
      walker.function = function;
      walker.TraverseStmt(function->getBody());
      if (const auto *ctor = dyn_cast<clang::CXXConstructorDecl>(function))
        for (const clang::CXXCtorInitializer *init : ctor->inits())
          walker.TraverseStmt(init->getInit());
      noteResultOfReturns(function, walker.returns);
    }
    // Library code chooses no layout, except where it constructs an
    // object again in place.
    while (!libraryWork.empty()) {
      LibraryWalker walker(*this);
      walker.TraverseStmt(libraryWork.pop_back_val()->getBody());
    }
  }
  struct LibraryWalker : public clang::RecursiveASTVisitor<LibraryWalker> {
    explicit LibraryWalker(ResizedFieldFinder &finder) : finder(finder) {}
    ResizedFieldFinder &finder;
    bool VisitCallExpr(clang::CallExpr *call) {
      if (const clang::FunctionDecl *callee = call->getDirectCallee())
        finder.reachLibrary(callee);
      return true;
    }
    bool VisitCXXConstructExpr(clang::CXXConstructExpr *construct) {
      finder.reachLibrary(construct->getConstructor());
      return true;
    }
    bool VisitCXXNewExpr(clang::CXXNewExpr *made) {
      finder.noteConstructedAgain(made);
      return true;
    }
  };
  /// reach, for library functions only (library code's calls of the
  /// user's functions choose no layout).
  void reachLibrary(const clang::FunctionDecl *function) {
    const clang::FunctionDecl *definition = nullptr;
    if (function->hasBody(definition) &&
        ast.getSourceManager().isInSystemHeader(definition->getLocation()))
      reach(definition);
  }
  /// A struct holding vectors that a function returns by value from more
  /// than one `return`: each return gives the result's vectors memory of
  /// its own, made in its branch, so the result finds them in itself.
  void noteResultOfReturns(const clang::FunctionDecl *function,
                           unsigned returns) {
    clang::QualType type = function->getReturnType();
    if (returns > 1 && !type->isReferenceType() && holdsVectorFields(type))
      addHeldRecords(type, records);
  }
  static bool holdsVectorFields(clang::QualType type) {
    const auto *record = type.getCanonicalType()
                             ->getBaseElementTypeUnsafe()
                             ->getAsCXXRecordDecl();
    if (!record || !(record = record->getDefinition()) ||
        !ModuleLowering::getVectorElementType(
             record->getASTContext().getCanonicalTagType(record))
             .isNull())
      return false;
    return llvm::any_of(record->bases(),
                        [](const clang::CXXBaseSpecifier &base) {
                          return holdsVectorFields(base.getType());
                        }) ||
           llvm::any_of(record->fields(), [](const clang::FieldDecl *field) {
             clang::QualType type = field->getType().getCanonicalType();
             return !ModuleLowering::getVectorElementType(type).isNull() ||
                    holdsVectorFields(type);
           });
  }
  struct BodyWalker : public clang::RecursiveASTVisitor<BodyWalker> {
    explicit BodyWalker(ResizedFieldFinder &finder) : finder(finder) {}
    ResizedFieldFinder &finder;
    bool VisitCallExpr(clang::CallExpr *call) {
      const clang::FunctionDecl *callee = call->getDirectCallee();
      if (callee) {
        finder.reach(callee);
        finder.noteArguments(call, callee);
      }
      if (const auto *member = dyn_cast<clang::CXXMemberCallExpr>(call))
        finder.noteResize(member);
      return true;
    }
    bool VisitCXXConstructExpr(clang::CXXConstructExpr *construct) {
      finder.reach(construct->getConstructor());
      if (const clang::CXXRecordDecl *record =
              construct->getConstructor()->getParent();
          record && record->getDestructor())
        finder.reach(record->getDestructor());
      return true;
    }
    bool VisitVarDecl(clang::VarDecl *var) {
      if (const clang::Expr *init = var->getInit()) {
        finder.noteBinding(var, init);
        if (var->getType()->isReferenceType())
          finder.noteWritablePointerField(var->getType().getNonReferenceType(),
                                          init);
      }
      // (An array of pointers to structs: each is read back from memory.)
      if (const clang::ArrayType *array =
              var->getType()->getAsArrayTypeUnsafe())
        if (clang::QualType element = array->getElementType();
            element->isPointerType())
          finder.noteObjectsReachedByAddress(element->getPointeeType());
      return true;
    }
    // (`&current`: the pointer may be assigned through its address.)
    bool VisitUnaryOperator(clang::UnaryOperator *unary) {
      if (unary->getOpcode() == clang::UO_AddrOf) {
        finder.noteMovingObjectPointer(unary->getSubExpr());
        finder.noteWritablePointerField(unary->getType()->getPointeeType(),
                                        unary->getSubExpr());
      }
      return true;
    }
    bool VisitReturnStmt(clang::ReturnStmt *) {
      ++returns;
      return true;
    }
    bool VisitCXXNewExpr(clang::CXXNewExpr *made) {
      finder.noteConstructedAgain(made);
      return true;
    }
    bool VisitBinaryOperator(clang::BinaryOperator *assign) {
      if (assign->getOpcode() == clang::BO_Assign)
        finder.noteReseat(function, assign);
      return true;
    }
    // (A function whose address is taken runs where a pointer calls it.)
    bool VisitDeclRefExpr(clang::DeclRefExpr *ref) {
      if (const auto *callee = dyn_cast<clang::FunctionDecl>(ref->getDecl()))
        finder.reach(callee);
      return true;
    }
    bool VisitCastExpr(clang::CastExpr *cast) {
      if (cast->getSubExpr()->getType()->isVoidPointerType() &&
          cast->getType()->isPointerType())
        noteBehindVoidPointer(cast->getType()->getPointeeType());
      return true;
    }
    const clang::FunctionDecl *function = nullptr;
    /// The body's `return` statements (those of lambdas in it too).
    unsigned returns = 0;
  };
  /// An object reached through a `void *` (a C callback's context) is an
  /// address read back from memory: the pointer fields of its struct, and
  /// of the structs it holds, keep their addresses in it.
  static void noteBehindVoidPointer(clang::QualType type) {
    const auto *record =
        type.getCanonicalType()->getBaseElementTypeUnsafe()->getAsRecordDecl();
    if (!record || !(record = record->getDefinition()))
      return;
    for (const clang::FieldDecl *field : record->fields()) {
      if (field->getType()->isPointerType())
        reseatedFields().insert(field);
      else if (!field->getType()->isReferenceType())
        noteBehindVoidPointer(field->getType());
    }
  }
  /// `obj.f = e` for a pointer field f: re-seated, unless `e` moves it
  /// within its array (`obj.f + k`) or a constructor of f's class sets it.
  void noteReseat(const clang::FunctionDecl *function,
                  const clang::BinaryOperator *assign) {
    noteMovingObjectPointer(assign->getLHS());
    const clang::FieldDecl *field = pointerFieldOf(assign->getLHS());
    if (!field)
      return;
    const auto *ctor = dyn_cast_or_null<clang::CXXConstructorDecl>(function);
    if (ctor && ctor->getParent() == field->getParent())
      return;
    const auto *moved = dyn_cast<clang::BinaryOperator>(
        assign->getRHS()->IgnoreParenImpCasts());
    if (moved && moved->isAdditiveOp() &&
        (pointerFieldOf(moved->getLHS()) == field ||
         pointerFieldOf(moved->getRHS()) == field))
      return;
    reseatedFields().insert(field);
  }
  /// The vector `expr` designates, as a place: a field, or a variable or
  /// parameter (a reference that may be bound to a field).
  static const clang::ValueDecl *placeOf(const clang::Expr *expr) {
    expr = expr->IgnoreParenImpCasts();
    const clang::ValueDecl *place = nullptr;
    if (const auto *member = dyn_cast<clang::MemberExpr>(expr))
      place = dyn_cast<clang::FieldDecl>(member->getMemberDecl());
    else if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr))
      place = dyn_cast<clang::VarDecl>(ref->getDecl());
    if (!place || ModuleLowering::getVectorElementType(
                      place->getType().getNonReferenceType().getCanonicalType())
                      .isNull())
      return nullptr;
    return place;
  }
  /// A non-const reference `alias` bound to the vector `init` designates:
  /// what resizes the alias resizes that vector.
  void noteBinding(const clang::ValueDecl *alias, const clang::Expr *init) {
    clang::QualType type = alias->getType();
    if (!type->isReferenceType() ||
        type.getNonReferenceType().isConstQualified())
      return;
    if (const clang::ValueDecl *source = placeOf(init))
      aliases.push_back({alias, source});
  }
  void noteArguments(const clang::CallExpr *call,
                     const clang::FunctionDecl *callee) {
    forEachBoundArgument(
        call, callee,
        [&](const clang::ParmVarDecl *param, const clang::Expr *arg) {
          noteBinding(param, arg);
          // (`std::swap(current, next)`: each pointer is assigned.)
          clang::QualType type = param->getType();
          if (type->isLValueReferenceType() &&
              !type.getNonReferenceType().isConstQualified())
            noteMovingObjectPointer(arg);
          // (`std::swap(a.data, b.data)`, `std::exchange(v.p, q)`.)
          if (type->isReferenceType())
            noteWritablePointerField(type.getNonReferenceType(), arg);
        });
  }
  /// A pointer field bound to a reference or pointer of type `bound` that
  /// may assign it (`double *&r = v.data`, `double **p = &v.data`, a
  /// helper's `double *&` parameter) is re-seated: whatever the assignment
  /// writes there, the field may designate another array.
  void noteWritablePointerField(clang::QualType bound, const clang::Expr *e) {
    if (bound.isNull() || bound.isConstQualified() || !bound->isPointerType())
      return;
    if (const clang::FieldDecl *field = pointerFieldOf(e))
      reseatedFields().insert(field);
  }
  /// A pointer variable to structs assigned after its declaration
  /// (`current = next`, swapped: double buffers) moves between objects
  /// whose pointer and vector fields may designate different memory:
  /// those fields are found in the object, as for an object reached
  /// through a `void *` or held by a std::vector.
  void noteMovingObjectPointer(const clang::Expr *expr) {
    const auto *ref = dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
    const auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (!var || !var->getType()->isPointerType())
      return;
    noteObjectsReachedByAddress(var->getType()->getPointeeType());
  }
  /// `::new (static_cast<Base *>(this)) Base(p, n)`: an object constructed
  /// again where it is (Eigen's Ref binding itself to an expression's
  /// data, on some paths, or to a copy it makes, on others). Its pointer
  /// fields are re-seated: each keeps the address it is given last.
  void noteConstructedAgain(const clang::CXXNewExpr *made) {
    if (made->getNumPlacementArgs() != 1 ||
        !isa<clang::CXXThisExpr>(made->getPlacementArg(0)->IgnoreParenCasts()))
      return;
    const auto *record = made->getAllocatedType()->getAsCXXRecordDecl();
    if (record && (record = record->getDefinition()))
      noteFieldsReseated(record);
  }
  static void noteFieldsReseated(const clang::CXXRecordDecl *record) {
    for (const clang::CXXBaseSpecifier &base : record->bases())
      if (const auto *part = base.getType()->getAsCXXRecordDecl())
        if (part->getDefinition())
          noteFieldsReseated(part->getDefinition());
    for (const clang::FieldDecl *field : record->fields())
      if (field->getType()->isPointerType())
        reseatedFields().insert(field);
  }
  /// Objects of struct `type` are reached through addresses read back
  /// from memory: their pointer and vector fields are found in them.
  void noteObjectsReachedByAddress(clang::QualType type) {
    const clang::RecordDecl *record = type->getAsRecordDecl();
    if (!record || !record->getDefinition() || ModuleLowering::isLinked(record))
      return;
    noteBehindVoidPointer(type);
    addHeldRecords(type, records);
  }
  void noteResize(const clang::CXXMemberCallExpr *call) {
    const clang::CXXMethodDecl *method = call->getMethodDecl();
    if (!method || !method->getIdentifier() ||
        !llvm::is_contained({"push_back", "emplace_back", "pop_back", "insert",
                             "emplace", "erase", "resize", "clear", "assign",
                             "reserve", "swap", "shrink_to_fit"},
                            method->getName()))
      return;
    const clang::ValueDecl *place = placeOf(call->getImplicitObjectArgument());
    if (!place)
      return;
    // (A reserve is a request: it changes no size.)
    if (method->getName() != "reserve")
      resized.insert(place);
  }
  /// The structs of the fields resized (directly, or through references
  /// bound to them), reserved beforehand or not: C++ grows a vector past
  /// the capacity it reserved.
  void addResizedRecords() {
    for (bool changed = true; changed;) {
      changed = false;
      for (auto [alias, source] : aliases)
        if (resized.contains(alias))
          changed |= resized.insert(source).second;
    }
    for (const clang::ValueDecl *place : resized) {
      const auto *field = dyn_cast<clang::FieldDecl>(place);
      if (!field)
        continue;
      clang::QualType element = ModuleLowering::getVectorElementType(
          field->getType().getCanonicalType());
      if (holdsOnlyNumbers(element))
        addHeldRecords(ast.getCanonicalTagType(field->getParent()), records);
    }
  }
  llvm::DenseSet<const clang::ValueDecl *> resized;
  SmallVector<std::pair<const clang::ValueDecl *, const clang::ValueDecl *>>
      aliases;
  clang::ASTContext &ast;
  llvm::DenseSet<const clang::RecordDecl *> &records;
  llvm::DenseSet<const clang::FunctionDecl *> reached;
  SmallVector<const clang::FunctionDecl *> work, libraryWork;
};
} // namespace

void ModuleLowering::findRecordsKeepingVectors(clang::ASTContext &ast) {
  llvm::DenseSet<const clang::RecordDecl *> &records = recordsKeepingVectors();
  records.clear();
  reseatedFields().clear();
  ResizedFieldFinder finder(ast, records);
  finder.TraverseAST(ast);
  finder.walkReached();
  finder.noteRecordsLinkedTo();
  finder.addResizedRecords();
  // Structs a std::vector holds, and structs a std::unique_ptr or a
  // std::shared_ptr owns: their objects are reached through addresses kept
  // in memory, where a vector field must be found in the object itself,
  // and an owned object's pointer field its address.
  clang::IdentifierInfo &stdName = ast.Idents.get("std");
  for (StringRef holder : {"vector", "unique_ptr", "shared_ptr"}) {
    clang::IdentifierInfo &holderName = ast.Idents.get(holder);
    for (clang::NamedDecl *found :
         ast.getTranslationUnitDecl()->lookup(&stdName))
      if (const auto *std = dyn_cast<clang::NamespaceDecl>(found))
        for (clang::NamedDecl *decl : std->lookup(&holderName))
          if (const auto *holderTemplate =
                  dyn_cast<clang::ClassTemplateDecl>(decl))
            for (const clang::ClassTemplateSpecializationDecl *spec :
                 holderTemplate->specializations()) {
              clang::QualType type = ast.getCanonicalTagType(spec);
              clang::QualType held =
                  holder == "vector"       ? getVectorElementType(type)
                  : holder == "unique_ptr" ? getUniquePointee(type)
                                           : getSharedPointee(type);
              addHeldRecords(held, records);
              // (And their pointer fields keep their addresses in them.)
              if (holder != "vector" && !held.isNull())
                ResizedFieldFinder::noteBehindVoidPointer(held);
            }
  }
  for (const clang::CXXRecordDecl *record : finder.dynamicClasses)
    addHeldRecords(ast.getCanonicalTagType(record), records);
}

bool ModuleLowering::keepsVectorFieldsInMemory(
    const clang::RecordDecl *record) {
  record = record ? record->getDefinition() : nullptr;
  return record && recordsKeepingVectors().contains(record);
}

bool ModuleLowering::keepsVectorInMemory(const clang::FieldDecl *field) {
  if (!field)
    return false;
  clang::QualType type = field->getType().getCanonicalType();
  clang::QualType element = getVectorElementType(type);
  return !element.isNull() && getVectorElementType(element).isNull() &&
         !isVectorObject(type) && keepsVectorFieldsInMemory(field->getParent());
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
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr);
      ref && vectorObjectReferences.contains(ref->getDecl()))
    return true;
  if (isOwnedVectorAccess(expr, clang::OO_Star))
    return true;
  // `*p` of a pointer variable given a vector made by `new`.
  if (const auto *deref = dyn_cast<clang::UnaryOperator>(expr);
      deref && deref->getOpcode() == clang::UO_Deref &&
      readsVectorAddressHolder(deref->getSubExpr()))
    return true;
  return outsideVectorOf(expr) != nullptr;
}

bool FunctionLowering::isOwnedVectorAccess(const clang::Expr *expr,
                                           clang::OverloadedOperatorKind op) {
  // `*owner` or `owner->` of a std::unique_ptr or std::shared_ptr owning a
  // std::vector, which lives in the memory it owns as C++ lays it out.
  const auto *call =
      dyn_cast<clang::CXXOperatorCallExpr>(stripTemporaries(expr));
  if (!call || call->getOperator() != op || call->getNumArgs() != 1)
    return false;
  // (The object, before its conversion to the library's base class that
  // declares the operator.)
  clang::QualType owner =
      call->getArg(0)->IgnoreImpCasts()->getType().getNonReferenceType();
  clang::QualType owned = getUniquePointee(owner).isNull()
                              ? ModuleLowering::getSharedPointee(owner)
                              : getUniquePointee(owner);
  return !owned.isNull() && isVector(owned.getCanonicalType());
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
  // `*owner`: the vector in the memory the smart pointer owns.
  if (isOwnedVectorAccess(object, clang::OO_Star)) {
    std::optional<CallResult> owned =
        lowerCall(cast<clang::CallExpr>(object), std::nullopt);
    return owned ? owned->address : std::nullopt;
  }
  if (const clang::VarDecl *outside = outsideVectorOf(object))
    return outsideVectorHolder(outside, object->getSourceRange());
  // `*p`: the vector made by `new` whose address the variable keeps.
  if (const auto *deref = dyn_cast<clang::UnaryOperator>(object);
      deref && deref->getOpcode() == clang::UO_Deref &&
      readsVectorAddressHolder(deref->getSubExpr()))
    return lowerPointer(deref->getSubExpr());
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
  Address to{memory, constantIndex(0, l)};
  Value scalars =
      arith::MulIOp::create(b, l, count, constantIndex(vector.elementSlots, l));
  if (vector.layout)
    copyElements(to, elements, scalars, *vector.layout, l);
  else
    copy(to, elements, scalars, l);
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
