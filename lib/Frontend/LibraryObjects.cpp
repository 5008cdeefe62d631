//===- LibraryObjects.cpp - Library objects kept as compiled --------------===//
//
// A lookup table in a std::map, a name in a std::string, a callback in a
// std::function: classes of the standard library whose code is trees of
// nodes, unions and virtual calls, which the memory model does not lay
// out, and through which no derivative needs to flow. Such an object is
// kept as the library compiled it: it is its bytes (aligned as C++ aligns
// it), and every call that works on it (its members, its constructors and
// destructor, the library's functions taking it) is a call of the
// library's compiled code, passed as the target's C++ ABI says
// (CallingConvention.cpp). Numbers read through the references such calls
// return are ordinary loads.
//
// Derivatives cannot enter such an object: the engine follows what flows
// into one (a value stored through a reference it returned, an argument of
// a call that may write it) and reports the call where a derivative would
// have to come back out (docs/Memory.md).
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Frontend/DifferentiableAttr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace mlir;

namespace cotangent::frontend {

/// The class kept as compiled of `type`, through references and pointers.
static const clang::CXXRecordDecl *getKeptClass(clang::QualType type) {
  type = type.getCanonicalType().getNonReferenceType();
  if (type->isPointerType())
    type = type->getPointeeType();
  const auto *record = type->getAsCXXRecordDecl();
  return record && ModuleLowering::isKeptAsCompiled(record) ? record : nullptr;
}

const clang::CXXRecordDecl *
FunctionLowering::getLibraryObjectClass(const clang::CallExpr *expr,
                                        const clang::FunctionDecl *callee) {
  if (!ast.getSourceManager().isInSystemHeader(callee->getLocation()) ||
      isDifferentiable(callee) || module.hasCustomRule(callee))
    return nullptr;
  // The object as the program names it, before conversions to a base
  // (std::unordered_map's `at` is a member of a base of the map).
  if (const auto *member = dyn_cast<clang::CXXMemberCallExpr>(expr)) {
    clang::QualType object =
        member->getImplicitObjectArgument()->IgnoreParenImpCasts()->getType();
    if (const clang::CXXRecordDecl *record = getKeptClass(object))
      return record;
    // A class the memory model has a model of (a std::vector of library
    // objects is laid out as C++ lays it out) given library objects: the
    // library's code works on it where it can be called so, the model
    // elsewhere (VectorObjects.cpp makes, moves and destroys the elements
    // by calls of the library's code; a range of a std::list's iterators
    // is refused where the model reads it).
    if (object->isPointerType())
      object = object->getPointeeType();
    if (isModelledStdClass(object.getCanonicalType()) &&
        !whyNotCallableOnLibraryObject(module, callee).empty())
      return nullptr;
  }
  if (const auto *method = dyn_cast<clang::CXXMethodDecl>(callee))
    if (ModuleLowering::isKeptAsCompiled(method->getParent()))
      return method->getParent();
  const clang::CXXRecordDecl *kept = nullptr;
  for (const clang::Expr *arg : expr->arguments())
    if ((kept = getKeptClass(arg->IgnoreParenImpCasts()->getType())))
      break;
  if (!kept)
    kept = getKeptClass(callee->getReturnType());
  // An algorithm the model writes from its specification given a library
  // object (a std::function) that the library's compiled code cannot take
  // with the rest (iterators): the model's, calling it.
  if (kept && isModelledAlgorithm(expr) &&
      !whyNotCallableOnLibraryObject(module, callee).empty())
    return nullptr;
  return kept;
}

/// The element type of `std::initializer_list<T>`, else null.
static clang::QualType getListElementType(clang::QualType type) {
  const auto *spec = dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
      type.getCanonicalType()->getAsCXXRecordDecl());
  if (!spec || !spec->isInStdNamespace() ||
      spec->getName() != "initializer_list")
    return {};
  return spec->getTemplateArgs()[0].getAsType();
}

/// Whether memory of `type` holds nothing but numbers (no addresses): what
/// a reference returned by the library may designate.
static bool holdsOnlyNumbers(ModuleLowering &module, clang::QualType type) {
  std::optional<Layout> layout = module.tryGetLayout(type);
  return layout && layout->indirect.empty();
}

/// Why the library's `callee` does not lower, from a trial lowering (with
/// what it calls) whose answer every lowering of the translation unit
/// shares, trials inside trials included; "" when it lowers, or while it
/// is being tried (recursion).
static std::string
whyLibraryFunctionDoesNotLower(clang::ASTContext &ast,
                               const clang::FunctionDecl *callee) {
  struct Answers {
    const clang::TranslationUnitDecl *unit = nullptr;
    llvm::DenseMap<const clang::FunctionDecl *, std::string> known;
    llvm::DenseSet<const clang::FunctionDecl *> inProgress;
  };
  static Answers answers;
  if (answers.unit != ast.getTranslationUnitDecl()) {
    answers = Answers();
    answers.unit = ast.getTranslationUnitDecl();
  }
  callee = callee->getCanonicalDecl();
  if (auto known = answers.known.find(callee); known != answers.known.end())
    return known->second;
  if (!answers.inProgress.insert(callee).second)
    return "";
  std::string place;
  std::string why = whyNotLowerable(ast, callee, &place);
  if (!why.empty() && !place.empty())
    why += ", at " + place;
  answers.inProgress.erase(callee);
  answers.known[callee] = why;
  return why;
}

/// Whether `callee` takes and returns integers only (by value, pointer or
/// reference), a free function.
static bool worksOnIntegersOnly(const clang::FunctionDecl *callee) {
  auto integral = [](clang::QualType type) {
    type = type.getCanonicalType();
    if (type->isPointerType() || type->isReferenceType())
      type = type->getPointeeType().getCanonicalType();
    return type->isIntegralOrEnumerationType();
  };
  const auto *method = dyn_cast<clang::CXXMethodDecl>(callee);
  return !(method && method->isInstance()) &&
         (callee->getReturnType()->isVoidType() ||
          integral(callee->getReturnType())) &&
         llvm::all_of(callee->parameters(), [&](const clang::ParmVarDecl *p) {
           return integral(p->getType());
         });
}

bool FunctionLowering::runsAsLibraryCompiledIt(
    const clang::FunctionDecl *callee, ArrayRef<const clang::Expr *> args) {
  if (module.isCalledOnLibraryObject(callee))
    return true;
  // A function of the standard library, with a body, called rather than
  // inlined: lowered from its body when it can be, else called as
  // compiled. So is any function that works on integers only (Eigen's
  // cache sizes, read once into a static by the processor's cpuid): no
  // derivative can go through it. (Other libraries' problems are reported
  // where they are.)
  const clang::FunctionDecl *definition = nullptr;
  clang::QualType result = callee->getReturnType().getCanonicalType();
  // (Integers only: wherever it is, found by -I or -isystem, or the
  // program's own: nothing it does can carry a derivative.)
  bool integersOnly = worksOnIntegersOnly(callee);
  if ((!integersOnly &&
       (!ast.getSourceManager().isInSystemHeader(callee->getLocation()) ||
        !isStandardLibrary(callee))) ||
      !callee->hasBody(definition) || isDifferentiable(callee) ||
      module.hasCustomRule(callee) || module.isCalledAsCompiled(callee) ||
      isEntryCall(callee) || callee->isVariadic() || result->isPointerType() ||
      result->isReferenceType() || isIterator(result) || isVector(result) ||
      takesIndirectFields(callee) || takesEmptyClassObjects(callee) ||
      passesVectorsInMemory(callee, args))
    return false;
  std::string why = whyLibraryFunctionDoesNotLower(ast, callee);
  if (why.empty() || !whyNotCallableOnLibraryObject(module, callee).empty())
    return false;
  module.callLibraryFunctionAsCompiled(callee, why);
  return true;
}

std::string whyNotCallableOnLibraryObject(ModuleLowering &module,
                                          const clang::FunctionDecl *callee) {
  bool givenFloatMemory = false;
  auto why = [&](clang::QualType type, const Twine &what) -> std::string {
    type = type.getCanonicalType();
    if (type->isVoidType() || type->isIntegerType() || type->isEnumeralType() ||
        type->isRealFloatingType())
      return "";
    clang::QualType object = type;
    if (type->isPointerType() || type->isReferenceType()) {
      object = type->getPointeeType();
      // (A vector of library objects holds their addresses: no numbers.)
      clang::QualType element =
          ModuleLowering::getVectorElementType(object.getCanonicalType());
      bool holdsKept = !element.isNull() && getKeptClass(element);
      if (!getKeptClass(object) && !object->isVoidType() && !holdsKept) {
        std::optional<Layout> layout = module.tryGetLayout(object);
        givenFloatMemory |= layout && isa<FloatType>(layout->scalar) &&
                            !object.isConstQualified();
      }
    }
    // (A std::vector kept in memory is laid out as C++ lays it out; a list
    // of values is made so for the call.)
    clang::QualType listed = getListElementType(object);
    if (getKeptClass(object) || holdsOnlyNumbers(module, object) ||
        ModuleLowering::isVectorObject(object.getCanonicalType()) ||
        (!listed.isNull() &&
         (getKeptClass(listed) || holdsOnlyNumbers(module, listed))))
      return "";
    return (what + " has type '" + type.getAsString() + "'").str();
  };
  if (const auto *method = dyn_cast<clang::CXXMethodDecl>(callee);
      method && method->isInstance())
    if (std::string problem = why(method->getThisType(), "its object");
        !problem.empty())
      return problem;
  for (const clang::ParmVarDecl *param : callee->parameters()) {
    // (The library's own names, `__r`, mean nothing to the user: its
    // position does.)
    llvm::StringRef name = param->getName();
    bool reserved =
        name.empty() || (name.size() > 1 && name[0] == '_' &&
                         (name[1] == '_' || llvm::isUpper(name[1])));
    std::string what =
        reserved ? "its parameter " +
                       std::to_string(param->getFunctionScopeIndex() + 1)
                 : "its parameter '" + name.str() + "'";
    if (std::string problem = why(param->getType(), what); !problem.empty())
      return problem;
  }
  bool givenMemory = givenFloatMemory;
  clang::QualType result = callee->getReturnType().getCanonicalType();
  if (std::string problem = why(result, "its result"); !problem.empty())
    return problem;
  // A reference it returns must be into the library object, not into
  // memory of numbers the program gave it (which may carry derivatives).
  if ((result->isPointerType() || result->isReferenceType()) && givenMemory)
    return "it returns a reference and is given memory of floating-point "
           "numbers it could point into";
  return "";
}

bool FunctionLowering::callsLibraryCode(const clang::FunctionDecl *callee,
                                        const clang::CXXRecordDecl *record,
                                        const clang::Stmt *where) {
  std::string className = clang::QualType(ast.getCanonicalTagType(record))
                              .getAsString(ast.getPrintingPolicy());
  if (std::string why = whyNotCallableOnLibraryObject(module, callee);
      !why.empty())
    return unsupported<bool>(
        where, "'" + callee->getQualifiedNameAsString() + "' works on a '" +
                   className +
                   "', which differentiable code keeps as the library "
                   "compiled it, and cannot be called so: " +
                   why +
                   "; call it outside the differentiable function and pass "
                   "the numbers it gives");
  module.callOnLibraryObject(callee, className);
  return true;
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerLibraryObjectCall(const clang::CallExpr *expr,
                                         const clang::FunctionDecl *callee,
                                         const clang::CXXRecordDecl *record,
                                         std::optional<Address> dest) {
  if (!callsLibraryCode(callee, record, expr))
    return std::nullopt;
  SmallVector<const clang::Expr *> args(expr->arguments());
  std::optional<Address> object;
  const auto *method = dyn_cast<clang::CXXMethodDecl>(callee);
  if (method && method->isInstance()) {
    if (const auto *member = dyn_cast<clang::CXXMemberCallExpr>(expr)) {
      const auto *memberExpr =
          dyn_cast<clang::MemberExpr>(strip(member->getCallee()));
      const clang::Expr *base = member->getImplicitObjectArgument();
      object = memberExpr && memberExpr->isArrow() ? lowerPointer(base)
                                                   : lowerLValue(base);
    } else {
      object = lowerLValue(args[0]);
      args.erase(args.begin());
    }
    if (!object)
      return std::nullopt;
  }
  return emitCall(expr, callee, object, args, dest);
}

std::optional<Address>
FunctionLowering::lowerStringLiteral(const clang::StringLiteral *literal) {
  // Its characters and the terminating zero, as constant data (what a
  // library function taking `const char*` reads).
  if (literal->getCharByteWidth() != 1)
    return unsupported<std::optional<Address>>(
        literal, "only narrow string literals can be passed to the library");
  Location l = loc(literal);
  SmallVector<int8_t> bytes(literal->getBytes().begin(),
                            literal->getBytes().end());
  bytes.resize(
      ast.getAsConstantArrayType(literal->getType())->getSize().getZExtValue(),
      0);
  auto type = MemRefType::get({static_cast<int64_t>(bytes.size())},
                              b.getIntegerType(8));
  OpBuilder top = OpBuilder::atBlockBegin(module.getModule().getBody());
  auto global = memref::GlobalOp::create(
      top, l,
      ("__ct_string." + function.getSymName() + "." +
       std::to_string(stringLiterals++))
          .str(),
      top.getStringAttr("private"), type,
      DenseElementsAttr::get(
          RankedTensorType::get(type.getShape(), type.getElementType()),
          ArrayRef<int8_t>(bytes)),
      /*constant=*/true, /*alignment=*/nullptr);
  Value memref = memref::GetGlobalOp::create(b, l, type, global.getSymName());
  return Address{memref, constantIndex(0, l)};
}

std::optional<Address> FunctionLowering::lowerListForLibrary(
    const clang::CXXStdInitializerListExpr *list, clang::QualType type) {
  // As C++ lays a std::initializer_list out: the address of the values'
  // array, then their count.
  Location l = loc(list);
  const clang::Expr *array = list->getSubExpr();
  std::optional<Address> values =
      array->isGLValue() ? lowerLValue(array) : materializeTemporary(array);
  std::optional<Address> object =
      allocate(type, list->getSourceRange(), "this list");
  std::optional<Layout> layout = layoutOf(type, list);
  const auto *arrayType = ast.getAsConstantArrayType(array->getType());
  if (!values || !object || !layout || !arrayType || layout->size != 2 ||
      !layout->scalar.isInteger(64))
    return unsupported<std::optional<Address>>(
        list, "this list cannot be passed to the library's code");
  ct::StoreAddressOp::create(b, l, materialize(*values, l), object->memref,
                             constantIndex(0, l));
  Value count = arith::ConstantOp::create(
      b, l, b.getI64IntegerAttr(arrayType->getSize().getZExtValue()));
  memref::StoreOp::create(b, l, count, object->memref,
                          ValueRange{constantIndex(1, l)});
  return object;
}

} // namespace cotangent::frontend
