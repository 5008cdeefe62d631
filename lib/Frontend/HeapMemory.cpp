//===- HeapMemory.cpp - new and delete ------------------------------------===//
//
// `new T[n]`, `new T(x)` and their `delete` in differentiable code:
// memref.alloc of n times T's scalars and memref.dealloc. The AD engine
// gives such memory a shadow like any local buffer. Also the destruction
// of objects of classes that own memory where their scope ends.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "SpecialMembers.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/HeapFunctions.h"
#include "cotangent/Frontend/DifferentiableAttr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/TargetInfo.h"

using namespace mlir;

namespace cotangent::frontend {

/// `expr` before its conversion to `void *` (placement new's, free's and
/// realloc's argument).
static const clang::Expr *beforeVoidPointer(const clang::Expr *expr) {
  while (const auto *cast = dyn_cast<clang::CastExpr>(strip(expr)))
    if (cast->getType()->isVoidPointerType() &&
        cast->getSubExpr()->getType()->isPointerType())
      expr = cast->getSubExpr();
    else
      break;
  return expr;
}

/// Eigen's own aligned allocation, where the C library's malloc does not
/// align enough (AVX's 32 bytes): `malloc` of the size and the alignment,
/// the address rounded up past it, and the address malloc gave kept in the
/// word before. It is called by name (NamedHeapFunctions.cpp makes it), so
/// that the caller's Eigen frees what the function makes, and the other
/// way around.
static constexpr StringLiteral kEigenHandmadeMalloc =
    "Eigen::internal::handmade_aligned_malloc";
static constexpr StringLiteral kEigenHandmadeFree =
    "Eigen::internal::handmade_aligned_free";
/// Its realloc (`conservativeResize` with AVX): new memory of its malloc,
/// the old contents that fit, the old memory freed by its free.
static constexpr StringLiteral kEigenHandmadeRealloc =
    "Eigen::internal::handmade_aligned_realloc";

bool isEigenHandmadeFree(const clang::FunctionDecl *callee) {
  return callee->getIdentifier() &&
         callee->getName() == "handmade_aligned_free" &&
         callee->getQualifiedNameAsString() == kEigenHandmadeFree;
}

static bool isEigenHandmadeMalloc(const clang::FunctionDecl *callee) {
  return callee->getIdentifier() &&
         callee->getName() == "handmade_aligned_malloc" &&
         callee->getQualifiedNameAsString() == kEigenHandmadeMalloc;
}

static bool isEigenHandmadeRealloc(const clang::FunctionDecl *callee) {
  return callee->getIdentifier() &&
         callee->getName() == "handmade_aligned_realloc" &&
         callee->getQualifiedNameAsString() == kEigenHandmadeRealloc;
}

/// The parameter `arg` names (through conversions to `void *`), if any.
static const clang::ParmVarDecl *namedParameter(const clang::Expr *arg) {
  const auto *ref = dyn_cast<clang::DeclRefExpr>(
      beforeVoidPointer(arg)->IgnoreParenImpCasts());
  return ref ? dyn_cast<clang::ParmVarDecl>(ref->getDecl()) : nullptr;
}

/// Whether `stmt` frees memory a parameter of its function points at.
static bool freesParameterIn(ModuleLowering &module, const clang::Stmt *stmt) {
  if (!stmt)
    return false;
  if (const auto *erase = dyn_cast<clang::CXXDeleteExpr>(stmt);
      erase && namedParameter(erase->getArgument()))
    return true;
  if (const auto *call = dyn_cast<clang::CallExpr>(stmt))
    if (const clang::FunctionDecl *callee = call->getDirectCallee()) {
      unsigned id = callee->getBuiltinID();
      bool freeing =
          id == clang::Builtin::BIfree || isGlobalOperatorDelete(call) ||
          isEigenHandmadeFree(callee) || isEigenHandmadeRealloc(callee) ||
          id == clang::Builtin::BIrealloc ||
          id == clang::Builtin::BI__builtin_realloc;
      for (const clang::Expr *arg : call->arguments())
        if (namedParameter(arg) && (freeing || module.freesParameter(callee)))
          return true;
    }
  return llvm::any_of(stmt->children(), [&](const clang::Stmt *child) {
    return freesParameterIn(module, child);
  });
}

bool ModuleLowering::freesParameter(const clang::FunctionDecl *function) {
  const clang::FunctionDecl *definition = nullptr;
  if (!function->hasBody(definition))
    return false;
  if (auto known = parameterFreeing.find(definition);
      known != parameterFreeing.end())
    return known->second;
  parameterFreeing[definition] = false; // (recursion)
  bool frees = freesParameterIn(*this, definition->getBody());
  parameterFreeing[definition] = frees;
  return frees;
}

/// The objects of each element of an array `new` of `type`: `type` itself,
/// or for `new T[n][m]` the m objects of type T in each.
static std::pair<clang::QualType, uint64_t>
objectsPerElement(clang::QualType type, const clang::ASTContext &ast) {
  uint64_t count = 1;
  while (const clang::ConstantArrayType *array =
             ast.getAsConstantArrayType(type)) {
    count *= array->getZExtSize();
    type = array->getElementType();
  }
  return {type, count};
}

std::optional<Address>
FunctionLowering::lowerNew(const clang::CXXNewExpr *expr) {
  using Result = std::optional<Address>;
  Location l = loc(expr);
  if (expr->getNumPlacementArgs() == 1 && !expr->isArray() &&
      expr->getOperatorNew()->isReservedGlobalPlacementOperator())
    return lowerPlacementNew(expr);
  if (expr->getNumPlacementArgs() != 0 ||
      !expr->getOperatorNew()->isReplaceableGlobalAllocationFunction())
    return unsupported<Result>(expr, "placement and class-specific 'new' "
                                     "cannot be differentiated");
  clang::QualType type = expr->getAllocatedType();
  // (A std::vector made by `new` lives in memory as C++ lays it out: its
  // three addresses.)
  std::optional<Layout> layout = elementLayoutOf(type, expr);
  if (!layout)
    return std::nullopt;
  Value count = constantIndex(1, l);
  if (std::optional<const clang::Expr *> size = expr->getArraySize()) {
    Value n = lowerRValue(*size);
    if (!n)
      return std::nullopt;
    count = index(n, (*size)->getType(), l);
  }
  Value scalars =
      arith::MulIOp::create(b, l, count, constantIndex(layout->size, l));
  // (Over-aligned types get the aligned `operator new`, as C++ calls it.)
  IntegerAttr alignment;
  if (expr->passAlignment())
    alignment =
        b.getI64IntegerAttr(ast.getTypeAlignInChars(type).getQuantity());
  auto made = memref::AllocOp::create(
      b, l, MemRefType::get({ShapedType::kDynamic}, layout->scalar),
      ValueRange{scalars}, ValueRange{}, alignment);
  made->setAttr(
      ct::kHeapFunctionAttr,
      b.getStringAttr(expr->isArray() ? "operator new[]" : "operator new"));
  Value memory = made;
  Address address{memory, constantIndex(0, l)};
  // A table of pointers (`new double *[n]`, rows made one by one, the
  // table kept in a field) keeps the addresses it is given: what each
  // designates is known only at run time.
  if (ModuleLowering::isAddressTable(type))
    keepAllAddresses(memory, *layout);
  const clang::Expr *init = expr->getInitializer();
  if (!init)
    return address; // default-initialized: indeterminate, as in C++
  if (!expr->isArray())
    return initializeObject(init, type, address) ? Result(address)
                                                 : std::nullopt;
  // `new T[n]` of a class: each element made by its default constructor
  // (nothing to do for a trivial one, as C++ leaves them indeterminate).
  // `new T[n]()` of a class: zeros, then what its implicit constructor
  // does (default member initializers), or its own constructor.
  // (Each object of `new T[n][m]`: n * m of them.)
  auto [element, perRow] = objectsPerElement(type, ast);
  Value objects = arith::MulIOp::create(b, l, count, constantIndex(perRow, l));
  if (const auto *construct = dyn_cast<clang::CXXConstructExpr>(init);
      construct && llvm::all_of(construct->arguments(), [](auto *arg) {
        return isa<clang::CXXDefaultArgExpr>(arg);
      })) {
    bool zeroFirst = construct->requiresZeroInitialization();
    return constructEach(construct, construct->getConstructor(), element,
                         address, objects, zeroFirst)
               ? Result(address)
               : std::nullopt;
  }
  // `new T[n]()` / `new T[n]{}`: every element value-initialized. Other
  // array initializers are refused.
  const auto *list = dyn_cast<clang::InitListExpr>(init);
  bool zero =
      isa<clang::ImplicitValueInitExpr, clang::CXXScalarValueInitExpr>(init) ||
      (list && list->getNumInits() == 0);
  if (list && !zero)
    return initializeNewArray(expr, list, *layout, address, count)
               ? Result(address)
               : std::nullopt;
  if (!zero)
    return unsupported<Result>(init, "this initializer of an array 'new' is "
                                     "not supported; assign the elements "
                                     "after 'new T[n]()'");
  if (element->getAsCXXRecordDecl())
    return valueInitializeEach(expr, element, address, objects)
               ? Result(address)
               : std::nullopt;
  fill(memory, scalars,
       arith::ConstantOp::create(b, l, layout->scalar,
                                 b.getZeroAttr(layout->scalar)),
       l);
  return address;
}

bool FunctionLowering::initializeNewArray(const clang::CXXNewExpr *expr,
                                          const clang::InitListExpr *list,
                                          const Layout &layout, Address first,
                                          Value count) {
  // (With a size known only at run time, C++ throws when it is smaller
  // than the list; with a constant one Clang has checked it.)
  std::optional<const clang::Expr *> size = expr->getArraySize();
  if (!size || !*size || !(*size)->getIntegerConstantExpr(ast))
    return unsupported<bool>(list, "an array 'new' of a size known only at "
                                   "run time cannot be given initial "
                                   "values; assign the elements after "
                                   "'new T[n]()'");
  Location l = loc(list);
  clang::QualType type = expr->getAllocatedType();
  unsigned given = list->getNumInits();
  auto at = [&](unsigned i) {
    return offsetBy(first, constantIndex(int64_t(i) * layout.size, l), l);
  };
  for (unsigned i = 0; i < given; ++i)
    if (!initializeObject(list->getInit(i), type, at(i)))
      return false;
  // The elements the list does not give: as its filler says (an aggregate
  // with default member initializers), else value-initialized.
  Value rest = arith::SubIOp::create(b, l, count, constantIndex(given, l));
  const clang::Expr *filler = list->getArrayFiller();
  if (filler && !isa<clang::ImplicitValueInitExpr>(filler)) {
    bool made = true;
    emitCountedLoop(l, rest, [&](Value i) {
      Value scalars = arith::MulIOp::create(
          b, l, arith::AddIOp::create(b, l, i, constantIndex(given, l)),
          constantIndex(layout.size, l));
      made &= initializeObject(filler, type, offsetBy(first, scalars, l));
    });
    return made;
  }
  auto [element, perRow] = objectsPerElement(type, ast);
  if (element->getAsCXXRecordDecl())
    return valueInitializeEach(
        expr, element, at(given),
        arith::MulIOp::create(b, l, rest, constantIndex(perRow, l)));
  fill(first.memref,
       arith::MulIOp::create(b, l, rest, constantIndex(layout.size, l)),
       arith::ConstantOp::create(b, l, layout.scalar,
                                 b.getZeroAttr(layout.scalar)),
       l, constantIndex(int64_t(given) * layout.size, l));
  return true;
}

std::optional<SmallVector<const clang::Expr *>>
FunctionLowering::defaultArguments(const clang::FunctionDecl *callee,
                                   unsigned given, const clang::Stmt *where) {
  SmallVector<const clang::Expr *> args;
  for (const clang::ParmVarDecl *param :
       callee->parameters().drop_front(given)) {
    if (!param->hasDefaultArg() || param->hasUninstantiatedDefaultArg() ||
        param->hasUnparsedDefaultArg())
      return unsupported<std::optional<SmallVector<const clang::Expr *>>>(
          where, "the default argument of parameter '" + param->getName() +
                     "' of '" + callee->getQualifiedNameAsString() +
                     "' is not available here; pass it explicitly");
    args.push_back(param->getDefaultArg());
  }
  return args;
}

bool FunctionLowering::constructEach(const clang::Expr *where,
                                     const clang::CXXConstructorDecl *ctor,
                                     clang::QualType type, Address first,
                                     Value count, bool zeroFirst) {
  std::optional<Layout> layout = layoutOf(type, where);
  if (!layout)
    return false;
  Location l = loc(where);
  if (ctor && ctor->isTrivial())
    ctor = nullptr;
  if (!ctor && !zeroFirst)
    return true;
  std::optional<SmallVector<const clang::Expr *>> args;
  if (ctor && !(args = defaultArguments(ctor, 0, where)))
    return false;
  // A library object kept as compiled: the library's constructor.
  if (ctor && ModuleLowering::isKeptAsCompiled(ctor->getParent()) &&
      !callsLibraryCode(ctor, ctor->getParent(), where))
    return false;
  bool made = true;
  auto constructAt = [&](Value i) {
    Address at = offsetBy(
        first, arith::MulIOp::create(b, l, i, constantIndex(layout->size, l)),
        l);
    if (zeroFirst)
      fillZero(at, *layout, l);
    if (ctor)
      made &= emitCall(where, ctor, at, *args, std::nullopt).has_value();
  };
  // A constructor's body may make blocks, which an scf.for cannot hold.
  if (std::optional<int64_t> only = mlir::getConstantIntValue(count); only == 1)
    constructAt(constantIndex(0, l));
  else if (ctor)
    emitCountedLoop(l, count, constructAt);
  else
    forEachIndex(b, l, count, constructAt);
  return made;
}

bool FunctionLowering::valueInitializeEach(const clang::Expr *where,
                                           clang::QualType type, Address first,
                                           Value count) {
  const auto *record = type->getAsCXXRecordDecl();
  if (!record || record->hasTrivialDefaultConstructor())
    return constructEach(where, nullptr, type, first, count,
                         /*zeroFirst=*/true);
  const clang::CXXConstructorDecl *ctor = defaultConstructorOf(record);
  if (!ctor)
    return unsupported<bool>(where, "'" + type.getAsString() +
                                        "' has no default constructor that "
                                        "this code can run; give the value "
                                        "of the elements");
  // Value-initialization zeroes the object first unless its class provides
  // the constructor itself.
  return constructEach(where, ctor, type, first, count,
                       /*zeroFirst=*/!ctor->isUserProvided());
}

/// The pointer in `layout` that designates objects whose own pointers are
/// the memref model's (known beside each object, which an address read
/// back cannot find), or anything else but a pointer; null if none.
static const Layout::IndirectField *unkeptPointee(const Layout &layout) {
  for (const Layout::IndirectField &field : layout.indirect)
    if (!field.type->isPointerType() ||
        ModuleLowering::holdsUnkeptPointers(field.type->getPointeeType()))
      return &field;
  return nullptr;
}

/// The type of what `field` designates, as the user wrote it.
static std::string designated(const Layout::IndirectField &field,
                              const clang::ASTContext &ast) {
  clang::QualType type = field.type.getNonReferenceType();
  if (type->isPointerType())
    type = type->getPointeeType();
  return type.getUnqualifiedType().getAsString(ast.getPrintingPolicy());
}

Value FunctionLowering::variableArrayScalars(clang::QualType type, Location l,
                                             clang::SourceRange range) {
  Value count = constantIndex(1, l);
  while (const clang::ArrayType *array = ast.getAsArrayType(type)) {
    Value length;
    if (const auto *constant = dyn_cast<clang::ConstantArrayType>(array))
      length = constantIndex(constant->getSize().getZExtValue(), l);
    else if (const auto *variable = dyn_cast<clang::VariableArrayType>(array))
      length = variableLengths.lookup(variable);
    if (!length) {
      module.error(range, "the length of this array of variable length is "
                          "not known here; declare the array in the "
                          "function");
      return nullptr;
    }
    count = arith::MulIOp::create(b, l, count, length);
    type = array->getElementType();
  }
  std::optional<Layout> layout = module.getLayout(type, range, "an element");
  if (!layout)
    return nullptr;
  return arith::MulIOp::create(b, l, count, constantIndex(layout->size, l));
}

bool FunctionLowering::declareVariableLengthArray(const clang::VarDecl *var) {
  auto refuse = [&](const Twine &message) {
    module.error(var->getSourceRange(), message);
    return false;
  };
  // Each length evaluated once, where the declaration runs, as C evaluates
  // it; inner lengths are kept for the subscripts (`a[i]` is an array of m).
  Location l = module.getLoc(var->getLocation());
  clang::QualType element = var->getType();
  while (const clang::ArrayType *array = ast.getAsArrayType(element)) {
    if (const auto *variable = dyn_cast<clang::VariableArrayType>(array)) {
      const clang::Expr *size = variable->getSizeExpr();
      Value n = size ? lowerRValue(size) : nullptr;
      if (!n)
        return size ? false
                    : refuse("an array of variable length needs "
                             "its length");
      variableLengths[variable] = index(n, size->getType(), l);
    }
    element = array->getElementType();
  }
  // (Structs get their trivial default constructor: nothing to run.)
  const auto *construct =
      dyn_cast_or_null<clang::CXXConstructExpr>(var->getInit());
  bool leftUninitialized =
      !var->getInit() ||
      (construct && construct->getConstructor()->isTrivial());
  if (!leftUninitialized || ModuleLowering::needsDestruction(element))
    return refuse("an array of variable length can hold numbers and "
                  "structs of numbers left uninitialized; use a std::vector");
  std::optional<Layout> layout = module.getLayout(
      element, var->getSourceRange(), "an element of '" + var->getName() + "'");
  if (!layout)
    return false;
  if (const Layout::IndirectField *field = unkeptPointee(*layout))
    return refuse("an array of variable length can hold numbers, pointers "
                  "and structs of them, not pointers to '" +
                  designated(*field, ast) +
                  "' objects holding pointers of their own; use a "
                  "std::vector");
  // The memory is the heap's rather than the stack's, so that one declared
  // in a loop does not grow the stack each iteration.
  Value scalars =
      variableArrayScalars(var->getType(), l, var->getSourceRange());
  if (!scalars)
    return false;
  Value memory = memref::AllocOp::create(
      b, l, MemRefType::get({ShapedType::kDynamic}, layout->scalar),
      ValueRange{scalars});
  cleanups.push_back(memory);
  places[var] = Address{memory, constantIndex(0, l)};
  // Its pointers keep the addresses they are given, as those of memory
  // made by `new[]` do: the slots' number is known at run time only.
  keepAllAddresses(memory, *layout);
  return true;
}

std::optional<Address>
FunctionLowering::lowerPlacementNew(const clang::CXXNewExpr *expr) {
  using Result = std::optional<Address>;
  // `::new (p) T(args)`: T constructed where p, a `T *` made `void *`,
  // points (a class rebuilding its base in its own memory).
  const clang::Expr *place = beforeVoidPointer(expr->getPlacementArg(0));
  clang::QualType type = expr->getAllocatedType();
  if (!place->getType()->isPointerType() ||
      !ast.hasSameUnqualifiedType(place->getType()->getPointeeType(), type))
    return unsupported<Result>(expr,
                               "placement 'new' of a '" + type.getAsString() +
                                   "' can be differentiated only where a '" +
                                   type.getAsString() + " *' points; pass one");
  std::optional<Address> address = unpacked(lowerPointer(place), place);
  if (!address)
    return std::nullopt;
  const clang::Expr *init = expr->getInitializer();
  if (!init)
    return address;
  return initializeObject(init, type, *address) ? Result(address)
                                                : std::nullopt;
}

bool FunctionLowering::initializeObject(const clang::Expr *init,
                                        clang::QualType type, Address dest) {
  if (isVector(type.getCanonicalType()))
    return initializeVectorInMemory(init, type, dest);
  return initialize(init, type, dest);
}

void FunctionLowering::fill(Value memory, Value count, Value value, Location l,
                            Value from) {
  scf::ForOp::create(b, l, constantIndex(0, l), count, constantIndex(1, l),
                     ValueRange{},
                     [&](OpBuilder &inner, Location at, Value i, ValueRange) {
                       if (from)
                         i = arith::AddIOp::create(inner, at, from, i);
                       memref::StoreOp::create(inner, at, value, memory, i);
                       scf::YieldOp::create(inner, at);
                     });
}

void FunctionLowering::destroyAtScopeEnd(clang::QualType type, Address object,
                                         const clang::Expr *at) {
  const auto *record = type->getAsCXXRecordDecl();
  if (at && ModuleLowering::needsDestruction(type) &&
      !(record && ModuleLowering::ownsMemory(record))) {
    // Vectors kept in memory, objects holding them or objects that own
    // memory, arrays of such objects (VectorObjects.cpp), library objects
    // kept as compiled (LibraryObjects.cpp).
    cleanups.push_back(object.memref);
    objectCleanups[object.memref] = {type, at};
    return;
  }
  if (!record || !ModuleLowering::ownsMemory(record))
    return;
  cleanups.push_back(object.memref);
  destructors[object.memref] = {record->getDestructor(), at};
}

void FunctionLowering::lowerDelete(const clang::CXXDeleteExpr *expr) {
  std::optional<Address> pointer = lowerPointer(expr->getArgument());
  if (pointer && destroyDeleted(expr, *pointer))
    freeMemory(*pointer, expr, "'delete'", "'new'");
}

bool FunctionLowering::destroyDeleted(const clang::CXXDeleteExpr *expr,
                                      Address pointer) {
  // The objects' destructors run first, as C++ runs them (nothing for
  // null).
  clang::QualType type = expr->getDestroyedType();
  if (type.isNull() || !module.mayNeedDestruction(type) ||
      nullPointers.contains(pointer.memref))
    return true;
  Location l = loc(expr);
  if (!expr->isArrayForm()) {
    emitIfNotNull(pointer.memref, l, [&] {
      destroyDynamicObject(type, pointer, expr, expr->getArgument());
    });
    return true;
  }
  // As many as `new[]` made: its memory's scalars, in the element's.
  std::optional<Layout> layout = layoutOf(type, expr);
  if (!layout)
    return false;
  auto made = memoryRoot(pointer.memref).getDefiningOp<memref::AllocOp>();
  if (!made || made.getDynamicSizes().size() != 1)
    return unsupported<bool>(expr, "'delete[]' of objects with "
                                   "destructors cannot be differentiated "
                                   "here: the memory was not made by "
                                   "'new[]' in this function, so the "
                                   "count of its objects is not known; "
                                   "keep them in a std::vector");
  Value count = arith::DivUIOp::create(b, l, made.getDynamicSizes().front(),
                                       constantIndex(layout->size, l));
  emitIfNotNull(pointer.memref, l,
                [&] { destroyElements(type, pointer, count, expr); });
  return true;
}

/// Names on `freed` the function C++ calls to free the memory at `where`
/// (a `delete` expression, or a call of `free`, `realloc` or
/// `operator delete`), with the alignment the aligned `delete` is given.
static void nameDeallocation(memref::DeallocOp freed, const clang::Expr *where,
                             const clang::ASTContext &ast) {
  StringRef function = "free";
  std::optional<int64_t> alignment;
  const clang::FunctionDecl *callee = nullptr;
  if (const auto *deleted = dyn_cast<clang::CXXDeleteExpr>(where)) {
    function = deleted->isArrayForm() ? "operator delete[]" : "operator delete";
    callee = deleted->getOperatorDelete();
    if (callee && callee->getNumParams() > 1 &&
        llvm::any_of(callee->parameters(), [](const clang::ParmVarDecl *p) {
          return p->getType()->isEnumeralType(); // std::align_val_t
        }))
      alignment =
          ast.getTypeAlignInChars(deleted->getDestroyedType()).getQuantity();
  } else if (const auto *call = dyn_cast<clang::CallExpr>(where);
             call && call->getDirectCallee() &&
             (isEigenHandmadeFree(call->getDirectCallee()) ||
              isEigenHandmadeRealloc(call->getDirectCallee()))) {
    function = kEigenHandmadeFree;
  } else if (const auto *call = dyn_cast<clang::CallExpr>(where);
             call && isGlobalOperatorDelete(call)) {
    callee = call->getDirectCallee();
    // (An aligned form called by name: its alignment is a run-time value,
    // so the plain form is named only where no alignment is passed.)
    if (call->getNumArgs() > 1 &&
        call->getArg(call->getNumArgs() - 1)->getType()->isEnumeralType())
      return;
    function = callee->getOverloadedOperator() == clang::OO_Array_Delete
                   ? "operator delete[]"
                   : "operator delete";
  }
  OpBuilder b(freed);
  freed->setAttr(ct::kHeapFunctionAttr, b.getStringAttr(function));
  if (alignment)
    freed->setAttr(ct::kHeapAlignmentAttr, b.getI64IntegerAttr(*alignment));
}

bool FunctionLowering::freeMemory(Address pointer, const clang::Expr *where,
                                  StringRef how, StringRef made) {
  // Only memory this function allocated can be freed here (at the pointer
  // the allocation returned: C and C++ require it, so the offset is 0).
  // (A view of it, as a pointer parameter of a function lowered in place
  // is: C allows only the pointer the allocation returned, so the view
  // begins where the memory does.)
  Value memory = memoryRoot(pointer.memref);
  // `free(c ? p : nullptr)` (a pointer chosen between memory and none, as
  // Eigen's stack-memory handler keeps it): each choice's own, freed in
  // its branch; the null pointer needs nothing.
  if (nullPointers.contains(pointer.memref) || nullPointers.contains(memory))
    return true;
  if (auto choice = memory.getDefiningOp<arith::SelectOp>()) {
    Location l = loc(where);
    auto branch = scf::IfOp::create(b, l, choice.getCondition(),
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    for (auto [block, chosen] :
         {std::pair(branch.thenBlock(), choice.getTrueValue()),
          std::pair(branch.elseBlock(), choice.getFalseValue())}) {
      b.setInsertionPoint(block->getTerminator());
      if (!freeMemory(Address{chosen, pointer.offset}, where, how, made))
        return false;
    }
    return true;
  }
  // An address kept in memory (the buffer of a class that owns memory):
  // the memory the allocation gave, as C++ requires.
  // So is a node that a function recursing over linked nodes, lowered on
  // its own, is given (its caller read the address from memory); not the
  // caller's memory given to a function it differentiates.
  bool givenNode = isa<BlockArgument>(memory) && decl == loweredDecl &&
                   !isDifferentiable(decl) && module.isRecursionOverNodes(decl);
  if (!memory.getDefiningOp<ct::LoadAddressOp>() &&
      !memory.getDefiningOp<memref::AllocOp>() && !givenNode)
    return unsupported<bool>(where, how +
                                        " of memory that this function did "
                                        "not allocate with " +
                                        made + " cannot be differentiated");
  auto freed = memref::DeallocOp::create(b, loc(where), memory);
  nameDeallocation(freed, where, ast);
  return true;
}

//===----------------------------------------------------------------------===//
// C's allocation functions
//===----------------------------------------------------------------------===//

namespace {
enum class CAllocation {
  None,
  Malloc,
  Calloc,
  Realloc,
  AlignedAlloc,
  Alloca,
  EigenHandmade,
  EigenHandmadeRealloc
};

/// Whether `kind` reallocates: C's realloc, Eigen's.
bool reallocates(CAllocation kind) {
  return kind == CAllocation::Realloc ||
         kind == CAllocation::EigenHandmadeRealloc;
}
} // namespace

/// Whether `call` calls the global `operator new` or `operator new[]`
/// (also `__builtin_operator_new`, which libraries call for it), or, if
/// `deleting`, `operator delete` or `operator delete[]`; `alignment` is
/// set to the argument giving an alignment, if one does.
static bool isGlobalOperator(const clang::CallExpr *call, bool deleting,
                             const clang::Expr **alignment = nullptr) {
  const clang::FunctionDecl *callee = call->getDirectCallee();
  if (!callee)
    return false;
  unsigned builtin = callee->getBuiltinID();
  clang::OverloadedOperatorKind kind = callee->getOverloadedOperator();
  bool matches =
      deleting
          ? builtin == clang::Builtin::BI__builtin_operator_delete ||
                ((kind == clang::OO_Delete || kind == clang::OO_Array_Delete) &&
                 callee->isReplaceableGlobalAllocationFunction())
          : builtin == clang::Builtin::BI__builtin_operator_new ||
                ((kind == clang::OO_New || kind == clang::OO_Array_New) &&
                 callee->isReplaceableGlobalAllocationFunction());
  // (An alignment is a std::align_val_t after the size; the builtins take
  // the arguments of the operator they call.)
  if (matches && alignment)
    for (const clang::Expr *arg : call->arguments())
      if (arg->getType()->isEnumeralType())
        *alignment = arg;
  return matches;
}

bool isGlobalOperatorNew(const clang::CallExpr *call) {
  return isGlobalOperator(call, /*deleting=*/false);
}

bool isGlobalOperatorDelete(const clang::CallExpr *call) {
  return isGlobalOperator(call, /*deleting=*/true);
}

/// The C allocation function `expr` calls.
static CAllocation cAllocation(const clang::Expr *expr) {
  const auto *call = dyn_cast<clang::CallExpr>(expr->IgnoreParenImpCasts());
  const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  if (!callee)
    return CAllocation::None;
  // `::operator new(bytes)` called as a function (a container's storage,
  // std::valarray's): untyped bytes, as malloc's.
  if (isGlobalOperatorNew(call))
    return CAllocation::Malloc;
  if (isEigenHandmadeMalloc(callee) && call->getNumArgs() == 2)
    return CAllocation::EigenHandmade;
  if (isEigenHandmadeRealloc(callee) && call->getNumArgs() == 3)
    return CAllocation::EigenHandmadeRealloc;
  switch (callee->getBuiltinID()) {
  case clang::Builtin::BImalloc:
  case clang::Builtin::BI__builtin_malloc:
    return CAllocation::Malloc;
  case clang::Builtin::BIcalloc:
  case clang::Builtin::BI__builtin_calloc:
    return CAllocation::Calloc;
  case clang::Builtin::BIrealloc:
  case clang::Builtin::BI__builtin_realloc:
    return CAllocation::Realloc;
  case clang::Builtin::BIalloca:
  case clang::Builtin::BI__builtin_alloca:
    return CAllocation::Alloca;
  default:
    // (aligned_alloc is not a builtin of every C library.)
    return callee->isExternC() && callee->getName() == "aligned_alloc"
               ? CAllocation::AlignedAlloc
               : CAllocation::None;
  }
}

/// The argument of `call`, an allocation, that asks an alignment, if any.
static const clang::Expr *alignmentArgument(const clang::CallExpr *call) {
  CAllocation kind = cAllocation(call);
  const clang::Expr *aligned =
      kind == CAllocation::AlignedAlloc    ? call->getArg(0)
      : kind == CAllocation::EigenHandmade ? call->getArg(1)
                                           : nullptr;
  isGlobalOperator(call, /*deleting=*/false, &aligned);
  return aligned;
}

/// The alignment `call`, an allocation, asks (a constant), if any.
static std::optional<uint64_t> askedAlignment(const clang::CallExpr *call,
                                              const clang::ASTContext &ast) {
  const clang::Expr *aligned = alignmentArgument(call);
  clang::Expr::EvalResult alignment;
  if (!aligned || !aligned->EvaluateAsInt(alignment, ast))
    return std::nullopt;
  return alignment.Val.getInt().getZExtValue();
}

bool isCAllocation(const clang::CallExpr *call) {
  return cAllocation(call) != CAllocation::None;
}

bool isFreshAllocation(const clang::Expr *expr) {
  if (!expr)
    return false;
  expr = expr->IgnoreParenImpCasts();
  if (isa<clang::CXXNewExpr>(expr))
    return true;
  const auto *cast = dyn_cast<clang::ExplicitCastExpr>(expr);
  return cast && cast->getType()->isPointerType() &&
         cAllocation(cast->getSubExpr()) != CAllocation::None;
}

Value FunctionLowering::allocationBytes(const clang::CallExpr *call) {
  Location l = loc(call);
  auto argument = [&](unsigned i) -> Value {
    Value v = lowerRValue(call->getArg(i));
    return v ? index(v, call->getArg(i)->getType(), l) : nullptr;
  };
  CAllocation kind = cAllocation(call);
  // A stricter alignment than malloc's, asked of aligned_alloc (or of an
  // aligned operator new), is the allocation's (askedAlignment): a
  // constant, since the memory is made by the function the source names,
  // with that alignment.
  const clang::Expr *aligned = alignmentArgument(call);
  uint64_t natural = ast.getTargetInfo().getSuitableAlign() / 8;
  if (aligned && !askedAlignment(call, ast))
    return unsupported(aligned,
                       "memory with an alignment that is not a constant "
                       "cannot be differentiated yet; use a constant, or "
                       "malloc (" +
                           Twine(natural) + " bytes)");
  // calloc(count, size); aligned_alloc(alignment, size); realloc(p, size);
  // the others' size is their first argument (operator new's nothrow tag
  // follows it).
  Value bytes =
      argument(kind == CAllocation::AlignedAlloc || reallocates(kind) ||
                       kind == CAllocation::Calloc
                   ? 1
                   : 0);
  if (!bytes || kind != CAllocation::Calloc)
    return bytes;
  Value count = argument(0);
  return count ? arith::MulIOp::create(b, l, count, bytes).getResult()
               : nullptr;
}

std::optional<FunctionLowering::OldMemory>
FunctionLowering::reallocatedMemory(const clang::CallExpr *call) {
  using Result = std::optional<OldMemory>;
  Location l = loc(call);
  const clang::Expr *given = beforeVoidPointer(call->getArg(0));
  std::optional<Address> old = unpacked(lowerPointer(given), call);
  if (!old)
    return std::nullopt;
  // Eigen's realloc is told the bytes the old memory holds (its free knows
  // nothing of the C library's sizes).
  if (cAllocation(call) == CAllocation::EigenHandmadeRealloc &&
      !isa<clang::CXXDefaultArgExpr>(call->getArg(2))) {
    Value bytes = lowerRValue(call->getArg(2));
    if (!bytes)
      return std::nullopt;
    Type scalar = cast<MemRefType>(old->memref.getType()).getElementType();
    return OldMemory{*old,
                     arith::DivUIOp::create(
                         b, l, index(bytes, call->getArg(2)->getType(), l),
                         constantIndex(scalar.getIntOrFloatBitWidth() / 8, l))};
  }
  // A pointer variable only ever given allocations keeps their size.
  if (const auto *ref =
          dyn_cast<clang::DeclRefExpr>(given->IgnoreParenImpCasts())) {
    auto pointer = pointers.find(ref->getDecl());
    if (pointer != pointers.end() && pointer->second.reallocSize.memref)
      return OldMemory{*old, load(pointer->second.reallocSize, l)};
  }
  if (untypedAllocations.contains(old->memref.getDefiningOp()))
    return unsupported<Result>(call, "'realloc' of memory no cast has given "
                                     "a type yet cannot be differentiated; "
                                     "cast it to the type it holds first");
  // The old contents are copied, as many as fit: their number is known of
  // memory the function allocated and names. An address read back from
  // memory views as much as any object could hold, so the C library is
  // asked how much its allocation holds (realloc is only given memory of
  // the allocation functions).
  if (memoryRoot(old->memref).getDefiningOp<memref::AllocOp>())
    return OldMemory{*old, extentFrom(*old, l)};
  Value held = ct::AllocationSizeOp::create(b, l, old->memref);
  return OldMemory{*old, arith::SubIOp::create(b, l, held, old->offset)};
}

Value FunctionLowering::extentFrom(Address target, Location l) {
  // (nullptr's stand-in has no elements.)
  return arith::SubIOp::create(
      b, l, memref::DimOp::create(b, l, target.memref, 0), target.offset);
}

Operation *FunctionLowering::makeCMemory(const clang::CallExpr *call,
                                         Type element, Value count,
                                         IntegerAttr alignment) {
  if (std::optional<uint64_t> asked = askedAlignment(call, ast);
      asked && (!alignment || *asked > alignment.getValue().getZExtValue()))
    alignment = b.getI64IntegerAttr(*asked);
  // alloca's memory lives on the stack until the function returns (the
  // function lowered in place that called it: the differentiated one).
  Location l = loc(call);
  auto type = MemRefType::get({ShapedType::kDynamic}, element);
  if (cAllocation(call) == CAllocation::Alloca)
    return memref::AllocaOp::create(b, l, type, ValueRange{count}, ValueRange{},
                                    alignment);
  auto made = memref::AllocOp::create(b, l, type, ValueRange{count},
                                      ValueRange{}, alignment);
  StringRef function = "malloc";
  if (cAllocation(call) == CAllocation::EigenHandmade)
    function = kEigenHandmadeMalloc;
  // (Eigen's realloc aligns as its malloc was asked to, a constant of its
  // configuration: the most any of its packets asks is enough.)
  if (cAllocation(call) == CAllocation::EigenHandmadeRealloc) {
    function = kEigenHandmadeMalloc;
    made.setAlignment(kMostRoundedAlignment);
  }
  if (isGlobalOperatorNew(call))
    function =
        call->getDirectCallee()->getOverloadedOperator() == clang::OO_Array_New
            ? "operator new[]"
            : "operator new";
  made->setAttr(ct::kHeapFunctionAttr, b.getStringAttr(function));
  return made;
}

std::optional<Layout>
FunctionLowering::cMemoryLayout(const clang::CastExpr *cast) {
  using Result = std::optional<Layout>;
  std::optional<Layout> layout =
      layoutOf(cast->getType()->getPointeeType(), cast);
  if (!layout || layout->indirect.empty())
    return layout;
  // Pointers in C's memory keep the addresses they are given (its zero
  // bytes are null pointers, as in C), so they may designate any memory
  // an address read back can find.
  if (const Layout::IndirectField *field = unkeptPointee(*layout))
    return unsupported<Result>(
        cast, "memory from C's allocation functions can hold numbers, "
              "pointers and structs of them, not objects whose pointers "
              "designate '" +
                  designated(*field, ast) +
                  "' objects holding pointers of their own; use 'new'");
  return layout;
}

void FunctionLowering::keepCMemoryAddresses(Address memory,
                                            const Layout &layout) {
  if (!layout.indirect.empty())
    keepAllAddresses(memory.memref, layout);
}

std::optional<Address>
FunctionLowering::allocateCMemory(const clang::CallExpr *call, Type scalar,
                                  Value bytes, std::optional<OldMemory> old) {
  Location l = loc(call);
  Value scalars = arith::DivUIOp::create(
      b, l, bytes, constantIndex(scalar.getIntOrFloatBitWidth() / 8, l));
  Value memory = makeCMemory(call, scalar, scalars)->getResult(0);
  if (cAllocation(call) == CAllocation::Calloc)
    fill(memory, scalars,
         arith::ConstantOp::create(b, l, scalar, b.getZeroAttr(scalar)), l);
  Address address{memory, constantIndex(0, l)};
  if (!old)
    return address;
  // realloc: the old contents, as many as fit, then the old memory freed.
  Value kept = arith::MinUIOp::create(b, l, scalars, old->scalars);
  // Objects of the pointer's type, each part in its own type.
  clang::QualType pointer = call->getArg(0)->IgnoreParenImpCasts()->getType();
  std::optional<Layout> element;
  if (pointer->isPointerType() && !pointer->getPointeeType()->isVoidType())
    element = module.tryGetLayout(pointer->getPointeeType());
  if (element && element->scalar == scalar) {
    // (Pointers in C's memory keep their addresses, read back from a
    // variable's slot too: copied as addresses, with their shadows'.)
    keepAllAddresses(old->memory.memref, *element);
    copyElements(address, old->memory, kept, *element, l);
  } else
    copy(address, old->memory, kept, l);
  if (!freeMemory(old->memory, call, "'realloc'", "'malloc' or 'new'"))
    return std::nullopt;
  return address;
}

std::optional<Address>
FunctionLowering::lowerCAllocation(const clang::CastExpr *cast) {
  using Result = std::optional<Address>;
  // `(T *)malloc(bytes)`: C's memory is untyped, and the cast that follows
  // gives it its type, so the memory is made here, of T's scalars, and
  // freed by `free` (or `realloc`) as memory `new` makes is by `delete`.
  const auto *call =
      llvm::cast<clang::CallExpr>(cast->getSubExpr()->IgnoreParenImpCasts());
  std::optional<Layout> layout = cMemoryLayout(cast);
  if (!layout)
    return std::nullopt;
  Value bytes = allocationBytes(call);
  if (!bytes)
    return std::nullopt;
  std::optional<OldMemory> old;
  if (reallocates(cAllocation(call)) && !isNullPointer(call->getArg(0), ast) &&
      !(old = reallocatedMemory(call)))
    return std::nullopt;
  std::optional<Address> memory =
      allocateCMemory(call, layout->scalar, bytes, old);
  if (memory)
    keepCMemoryAddresses(*memory, *layout);
  return memory;
}

std::optional<Address>
FunctionLowering::lowerUntypedAllocation(const clang::CallExpr *call) {
  Location l = loc(call);
  // realloc of typed memory: memory of the same type.
  if (reallocates(cAllocation(call)) && !isNullPointer(call->getArg(0), ast)) {
    std::optional<OldMemory> old = reallocatedMemory(call);
    Value bytes = old ? allocationBytes(call) : nullptr;
    if (!bytes)
      return std::nullopt;
    return allocateCMemory(
        call, cast<MemRefType>(old->memory.memref.getType()).getElementType(),
        bytes, old);
  }
  Value bytes = allocationBytes(call);
  if (!bytes)
    return std::nullopt;
  // Aligned as malloc aligns, which alignment idioms rely on (alignedUp).
  Operation *memory =
      makeCMemory(call, b.getI8Type(), bytes, b.getI64IntegerAttr(kCAlignment));
  untypedAllocations[memory] = cAllocation(call) == CAllocation::Calloc;
  return Address{memory->getResult(0), constantIndex(0, l)};
}

std::optional<Address>
FunctionLowering::lowerVoidPointerCast(const clang::CastExpr *cast) {
  using Result = std::optional<Address>;
  std::optional<Layout> layout =
      layoutOf(cast->getType()->getPointeeType(), cast);
  if (!layout)
    return std::nullopt;
  // `(T *)(c ? a : b)` is `c ? (T *)a : (T *)b`: each allocation is typed
  // in its own branch (Eigen's `cond ? alloca(n) : aligned_malloc(n)`).
  if (const auto *choice =
          dyn_cast<clang::ConditionalOperator>(strip(cast->getSubExpr())))
    return choosePointerWithEffects(
        choice, layout->scalar, [&](const clang::Expr *arm) -> Result {
          std::optional<Address> pointer = unpacked(lowerPointer(arm), arm);
          return pointer ? typedMemory(*pointer, cast, layout->scalar)
                         : std::nullopt;
        });
  std::optional<Address> pointer =
      unpacked(lowerPointer(cast->getSubExpr()), cast);
  return pointer ? typedMemory(*pointer, cast, layout->scalar) : std::nullopt;
}

std::optional<Address>
FunctionLowering::typedMemory(Address pointer, const clang::CastExpr *cast,
                              Type scalar) {
  using Result = std::optional<Address>;
  auto type = llvm::cast<MemRefType>(pointer.memref.getType());
  if (type.getElementType() == scalar)
    return pointer;
  if (nullPointers.contains(pointer.memref))
    return nullAddress(scalar, loc(cast));
  // An address read back from memory as `void *` (a callback's context in
  // a struct field): the address of a `T`, as C++ reads it.
  // (Its offset, in bytes, is 0 where C++ can see it: `void *` has no
  // arithmetic.)
  // The slot is read again where it was read (it may hold another
  // address by the time of the cast).
  if (auto bytes = pointer.memref.getDefiningOp<ct::LoadAddressOp>();
      bytes && type.getElementType().isInteger(8)) {
    Location l = loc(cast);
    Value scalars = arith::DivUIOp::create(
        b, l, pointer.offset,
        constantIndex(scalar.getIntOrFloatBitWidth() / 8, l));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfter(bytes);
    return Address{ct::LoadAddressOp::create(b, l, getPointerType(scalar),
                                             bytes.getHolder(),
                                             bytes.getIndex()),
                   scalars};
  }
  Operation *untyped = pointer.memref.getDefiningOp();
  if ((!untyped || !untypedAllocations.contains(untyped)) &&
      type.getElementType().isInteger(8))
    return unsupported<Result>(
        cast, "converting 'void *' to '" + cast->getType().getAsString() +
                  "' cannot be differentiated: the bytes it points at are "
                  "chosen at run time among allocations (or kept in "
                  "memory) before a cast gives them their type; cast each "
                  "allocation to its type where it is made");
  if (!untyped || !untypedAllocations.contains(untyped))
    return unsupported<Result>(
        cast, "converting 'void *' to '" + cast->getType().getAsString() +
                  "' cannot be differentiated: the memory it points at "
                  "was not made of '" +
                  cast->getType()->getPointeeType().getAsString() +
                  "' (differentiable code uses pointers of one element "
                  "type per array)");
  std::optional<Layout> layout = cMemoryLayout(cast);
  if (!layout || !typeAllocation(untyped, scalar, cast))
    return std::nullopt;
  keepCMemoryAddresses(pointer, *layout);
  return pointer;
}

std::optional<Address>
FunctionLowering::alignedUp(const clang::CastExpr *cast) {
  using Result = std::optional<Address>;
  // `reinterpret_cast<void *>((uintptr_t(p) + k) & ~k)`: p rounded up to a
  // multiple of k + 1, which p is when its memory is aligned to that
  // (Eigen's aligned alloca: 16 bytes, or 32 with AVX, whose memory is
  // then made so aligned). An address made of other integers has no memory
  // differentiable code knows.
  auto constant = [&](const clang::Expr *expr) -> std::optional<uint64_t> {
    clang::Expr::EvalResult value;
    if (!expr->EvaluateAsInt(value, ast))
      return std::nullopt;
    return value.Val.getInt().getZExtValue();
  };
  const auto *mask = dyn_cast<clang::BinaryOperator>(
      cast->getSubExpr()->IgnoreParenImpCasts());
  // The sum `uintptr_t(p) + k`, its constant written in parts as macros
  // spell it (`uintptr_t(p) + ALIGN - 1` is `(uintptr_t(p) + ALIGN) - 1`).
  std::optional<uint64_t> k;
  const clang::Expr *summed = nullptr;
  if (mask && mask->getOpcode() == clang::BO_And) {
    k = 0;
    summed = mask->getLHS()->IgnoreParenImpCasts();
    while (const auto *step = dyn_cast<clang::BinaryOperator>(summed)) {
      bool add = step->getOpcode() == clang::BO_Add;
      if (!add && step->getOpcode() != clang::BO_Sub)
        break;
      if (std::optional<uint64_t> right = constant(step->getRHS())) {
        *k += add ? *right : -*right;
        summed = step->getLHS()->IgnoreParenImpCasts();
      } else if (std::optional<uint64_t> left = constant(step->getLHS());
                 left && add) {
        *k += *left;
        summed = step->getRHS()->IgnoreParenImpCasts();
      } else {
        break;
      }
    }
  }
  std::optional<uint64_t> bits = k ? constant(mask->getRHS()) : std::nullopt;
  // (`uintptr_t(p)`, a functional cast, is the conversion itself.)
  const auto *address =
      summed ? dyn_cast<clang::CastExpr>(summed->IgnoreParens()) : nullptr;
  while (address && address->getCastKind() == clang::CK_NoOp)
    address = dyn_cast<clang::CastExpr>(address->getSubExpr()->IgnoreParens());
  unsigned width = bits ? ast.getTypeSize(mask->getType()) : 0;
  uint64_t all = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  if (!bits || !address ||
      address->getCastKind() != clang::CK_PointerToIntegral ||
      !llvm::isPowerOf2_64(*k + 1) || (*bits | *k) != all ||
      (*bits & *k) != 0 || *k + 1 > kMostRoundedAlignment)
    return unsupported<Result>(
        cast, "converting an integer to a pointer cannot be differentiated "
              "(rounding the address of memory from C's allocation "
              "functions up to its alignment is the one such use); keep "
              "the pointer");
  std::optional<Address> pointer =
      unpacked(lowerPointer(address->getSubExpr()), cast);
  if (!pointer)
    return std::nullopt;
  Operation *made = pointer->memref.getDefiningOp();
  if (!made || !untypedAllocations.contains(made))
    return unsupported<Result>(
        cast, "rounding an address up to an alignment can be differentiated "
              "only of memory C's allocation functions or alloca made here, "
              "whose alignment is known");
  // (Past malloc's own alignment, the memory is made that aligned: the
  // rounding then keeps its address.)
  auto aligned = [&](auto memory) {
    if (*k + 1 > memory.getAlignment().value_or(kCAlignment))
      memory.setAlignment(*k + 1);
  };
  if (auto allocation = dyn_cast<memref::AllocOp>(made))
    aligned(allocation);
  else if (auto onStack = dyn_cast<memref::AllocaOp>(made))
    aligned(onStack);
  return pointer;
}

bool FunctionLowering::typeAllocation(Operation *untyped, Type scalar,
                                      const clang::Expr *where) {
  // What may have used the bytes before their type was known: tests of
  // the address (alignment, null) and freeing, which read no element.
  for (Operation *user : untyped->getUsers())
    if (!isa<memref::DeallocOp, memref::ExtractAlignedPointerAsIndexOp,
             memref::ExtractStridedMetadataOp>(user))
      return unsupported<bool>(where, "the memory C's allocation function "
                                      "made is used before this cast gives "
                                      "it its type; cast it first");
  // The allocation becomes one of the scalars, where it was made, so that
  // every value naming it stays valid.
  Location l = untyped->getLoc();
  bool zero = untypedAllocations.lookup(untyped);
  untypedAllocations.erase(untyped);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(untyped);
  // (The one operand of either allocation is its size in bytes.)
  Value scalars = arith::DivUIOp::create(
      b, l, untyped->getOperand(0),
      constantIndex(scalar.getIntOrFloatBitWidth() / 8, l));
  untyped->setOperand(0, scalars);
  Value memory = untyped->getResult(0);
  memory.setType(MemRefType::get({ShapedType::kDynamic}, scalar));
  for (Operation *user : untyped->getUsers())
    if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(user))
      metadata.getBaseBuffer().setType(MemRefType::get({}, scalar));
  if (zero) {
    b.setInsertionPointAfter(untyped);
    fill(memory, scalars,
         arith::ConstantOp::create(b, l, scalar, b.getZeroAttr(scalar)), l);
  }
  return true;
}

bool FunctionLowering::lowerFree(const clang::CallExpr *call) {
  if (isNullPointer(call->getArg(0), ast))
    return true; // free(nullptr) does nothing
  std::optional<Address> pointer =
      unpacked(lowerPointer(beforeVoidPointer(call->getArg(0))), call);
  if (isGlobalOperatorDelete(call))
    return pointer &&
           freeMemory(*pointer, call, "'operator delete'", "'operator new'");
  return pointer && freeMemory(*pointer, call, "'free'", "'malloc'");
}

} // namespace cotangent::frontend
