//===- ModuleLowering.cpp - One translation unit's lowering ---------------===//

#include "ModuleLowering.h"
#include "NodeResults.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/OutsideVariables.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"
#include "cotangent/Frontend/CheckpointPragma.h"
#include "cotangent/Frontend/DifferentiableAttr.h"
#include "cotangent/Frontend/Lowering.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Transforms/RegionUtils.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Path.h"

using namespace mlir;

namespace cotangent::frontend {

ModuleLowering::ModuleLowering(clang::ASTContext &ast, ModuleOp module)
    : ast(ast), module(module), mangler(ast.createMangleContext()) {
  findRecordsKeepingVectors(ast);
}

Location ModuleLowering::getLoc(clang::SourceLocation loc) {
  clang::PresumedLoc presumed = ast.getSourceManager().getPresumedLoc(
      ast.getSourceManager().getSpellingLoc(loc));
  if (presumed.isInvalid())
    return UnknownLoc::get(getContext());
  return FileLineColLoc::get(getContext(), presumed.getFilename(),
                             presumed.getLine(), presumed.getColumn());
}

void ModuleLowering::error(clang::SourceRange range, const Twine &message) {
  if (quiet)
    return;
  if (speculative) {
    if (!errors++) {
      firstError = message.str();
      clang::PresumedLoc presumed = ast.getSourceManager().getPresumedLoc(
          ast.getSourceManager().getSpellingLoc(range.getBegin()));
      if (presumed.isValid())
        firstErrorPlace =
            (llvm::sys::path::filename(presumed.getFilename()) + ":" +
             Twine(presumed.getLine()) + ":" + Twine(presumed.getColumn()))
                .str();
    }
    return;
  }
  // A signature is checked wherever the function is met; say it once.
  if (!reported.insert({range.getBegin(), message.str()}).second)
    return;
  ++errors;
  // Inside a library: the calls that led there, up to the user's line. One
  // error per user call into a library is enough (lowering std::sort fails
  // in many of its helpers; the user needs the first and the call).
  SmallVector<std::pair<const clang::FunctionDecl *, clang::SourceLocation>>
      chain = callChain(range.getBegin());
  clang::SourceManager &sources = ast.getSourceManager();
  if (!chain.empty() && !isLibrary(chain.back().second) &&
      !reportedLibraryCalls.insert(chain.back().second).second)
    return;
  clang::DiagnosticsEngine &diags = ast.getDiagnostics();
  unsigned id = diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0");
  diags.Report(range.getBegin(), id) << message.str() << range;
  unsigned noteId = diags.getCustomDiagID(clang::DiagnosticsEngine::Note,
                                          "in call to %0 from here");
  for (auto [callee, at] : chain) {
    const auto *method = dyn_cast<clang::CXXMethodDecl>(callee);
    std::string name = method && method->getParent()->isLambda()
                           ? "a lambda in '" +
                                 cast<clang::FunctionDecl>(
                                     method->getParent()->getDeclContext())
                                     ->getQualifiedNameAsString() +
                                 "'"
                           : "'" + callee->getQualifiedNameAsString() + "'";
    diags.Report(at, noteId) << name;
  }
}

bool ModuleLowering::isLibrary(clang::SourceLocation loc) {
  clang::SourceManager &sources = ast.getSourceManager();
  if (sources.isInSystemHeader(loc))
    return true;
  // Cotangent's own headers (<cotangent/dense.h>...), wherever the user's
  // include path finds them.
  clang::PresumedLoc presumed =
      sources.getPresumedLoc(sources.getSpellingLoc(loc));
  if (presumed.isInvalid())
    return false;
  StringRef file = presumed.getFilename();
  return llvm::sys::path::extension(file) == ".h" &&
         llvm::sys::path::filename(llvm::sys::path::parent_path(file)) ==
             "cotangent";
}

SmallVector<std::pair<const clang::FunctionDecl *, clang::SourceLocation>>
ModuleLowering::callChain(clang::SourceLocation error) {
  SmallVector<std::pair<const clang::FunctionDecl *, clang::SourceLocation>>
      chain;
  if (error.isInvalid() || !isLibrary(error))
    return chain;
  // The inlined bodies first, innermost out, then the callers of the
  // function lowered on its own, until a call in the user's code.
  auto add = [&](const clang::FunctionDecl *callee, clang::SourceLocation at) {
    chain.push_back({callee, at});
    return !isLibrary(at);
  };
  const clang::FunctionDecl *function = nullptr;
  for (const Frame &frame : llvm::reverse(frames)) {
    function = frame.function;
    if (frame.call.isInvalid())
      break;
    if (add(frame.function, frame.call))
      return chain;
  }
  appendFirstCalls(function, chain);
  return chain;
}

void ModuleLowering::appendFirstCalls(
    const clang::FunctionDecl *function,
    SmallVectorImpl<
        std::pair<const clang::FunctionDecl *, clang::SourceLocation>> &chain) {
  llvm::DenseSet<const clang::FunctionDecl *> seen;
  while (function && seen.insert(function->getCanonicalDecl()).second) {
    auto caller = firstCalls.find(function->getCanonicalDecl());
    if (caller == firstCalls.end())
      return;
    chain.push_back({function, caller->second.call});
    if (!isLibrary(caller->second.call))
      return;
    function = caller->second.function;
  }
}

bool isAggregate(clang::QualType type) {
  // (A complex number is its two parts in memory: ComplexNumbers.cpp; a
  // SIMD vector its lanes: SimdVectors.cpp.)
  return type->isConstantArrayType() || type->isRecordType() ||
         type->isAnyComplexType() || type->isVectorType();
}

MemRefType getPointerType(Type scalar) {
  return MemRefType::get(
      {ShapedType::kDynamic}, scalar,
      StridedLayoutAttr::get(scalar.getContext(), ShapedType::kDynamic, {1}));
}

/// Whether every slot of `layout` belongs to an indirect field.
static bool isDataless(const Layout &layout) {
  int64_t slots = 0;
  for (const Layout::IndirectField &field : layout.indirect)
    slots += field.slots;
  for (const Layout::ClosureField &closure : layout.closures)
    slots += closure.slots;
  return slots == layout.size;
}

/// Sorts `layout`'s narrow runs and merges those that overlap or touch;
/// false if runs of different types share a slot.
static bool mergeNarrowRuns(Layout &layout) {
  llvm::sort(layout.narrow,
             [](const auto &a, const auto &b) { return a.slot < b.slot; });
  SmallVector<Layout::NarrowRun, 0> merged;
  for (const Layout::NarrowRun &run : layout.narrow) {
    if (!merged.empty() &&
        run.slot <= merged.back().slot + merged.back().slots) {
      Layout::NarrowRun &last = merged.back();
      if (last.scalar != run.scalar && run.slot < last.slot + last.slots)
        return false;
      if (last.scalar == run.scalar) {
        last.slots = std::max(last.slots, run.slot + run.slots - last.slot);
        continue;
      }
    }
    merged.push_back(run);
  }
  layout.narrow = std::move(merged);
  return true;
}

/// Whether `decl` is part of the C++ standard library (namespace `std` or
/// the implementation's `__gnu_cxx`, at any depth).
bool isStandardLibrary(const clang::Decl *decl) {
  const clang::NamespaceDecl *outermost = nullptr;
  for (const clang::DeclContext *context = decl->getDeclContext(); context;
       context = context->getParent())
    if (const auto *ns = dyn_cast<clang::NamespaceDecl>(context);
        ns && !ns->isInline())
      outermost = ns;
  return outermost && outermost->getIdentifier() &&
         (outermost->getName() == "std" || outermost->getName() == "__gnu_cxx");
}

static bool collectScalars(clang::ASTContext &ast, clang::QualType type,
                           SmallVectorImpl<clang::QualType> &scalars);

/// Whether `record`'s data are numbers and pointers to arrays of numbers
/// (structs of numbers), one of them floating-point: an owner of an array
/// as the program's own classes are (std::valarray), whose constructors,
/// destructor and operations are lowered from their own code. The library's
/// other classes (nodes linked by pointers, buffers of characters, type
/// erasure) are kept as compiled.
static bool ownsArrayOfNumbers(const clang::CXXRecordDecl *record) {
  record = record->getDefinition();
  if (!record || record->isPolymorphic() || record->getNumBases() ||
      record->isUnion())
    return false;
  clang::ASTContext &ast = record->getASTContext();
  bool floatingArray = false;
  for (const clang::FieldDecl *field : record->fields()) {
    clang::QualType type = field->getType().getCanonicalType();
    if (field->isBitField())
      return false;
    if (type->isIntegerType() || type->isRealFloatingType())
      continue;
    SmallVector<clang::QualType> scalars;
    if (!type->isPointerType() ||
        !collectScalars(ast, type->getPointeeType(), scalars))
      return false;
    floatingArray |= llvm::any_of(scalars, [](clang::QualType scalar) {
      return scalar->isRealFloatingType();
    });
  }
  return floatingArray;
}

/// Whether `record` is a class of the standard library, whose destructor
/// is kept as the library compiled it (another library's class, as
/// Eigen's, is lowered from its own code, destructor included, as the
/// program's own classes are).
static bool isStandardLibraryClass(const clang::CXXRecordDecl *record) {
  return record->getASTContext().getSourceManager().isInSystemHeader(
             record->getLocation()) &&
         isStandardLibrary(record) && !ownsArrayOfNumbers(record);
}

bool ModuleLowering::isStateUnion(const clang::RecordDecl *record) {
  if (!record || !record->isUnion() || !(record = record->getDefinition()))
    return false;
  // One member holds the value; the others only say there is none (an
  // empty class, a byte): reading the value after writing a marker is
  // undefined in C++, so their bytes never meet. Two members of data
  // would be a reinterpretation of bits, which has no derivative.
  unsigned values = 0;
  for (const clang::FieldDecl *field : record->fields()) {
    clang::QualType type = field->getType().getCanonicalType();
    const clang::CXXRecordDecl *held = type->getAsCXXRecordDecl();
    bool marker = (held && held->isEmpty()) ||
                  (type->isIntegerType() &&
                   record->getASTContext().getTypeSize(type) == 8);
    if (!marker && (field->isBitField() || ++values > 1))
      return false;
  }
  return values == 1;
}

/// Appends the numbers `type` is made of (an array's elements, a class's
/// bases and fields, in order) to `scalars`; false if a part is anything
/// else (a pointer, a bit-field, a union, a class with virtual functions).
static bool collectScalars(clang::ASTContext &ast, clang::QualType type,
                           SmallVectorImpl<clang::QualType> &scalars) {
  type = type.getCanonicalType().getUnqualifiedType();
  if (const clang::ConstantArrayType *array = ast.getAsConstantArrayType(type))
    return collectScalars(ast, array->getElementType(), scalars);
  if (type->isRealFloatingType() || type->isIntegerType() ||
      type->isEnumeralType()) {
    scalars.push_back(type);
    return true;
  }
  const clang::CXXRecordDecl *record = type->getAsCXXRecordDecl();
  if (!record || !(record = record->getDefinition()) || record->isUnion() ||
      record->isPolymorphic() || record->getNumVBases())
    return false;
  for (const clang::CXXBaseSpecifier &base : record->bases())
    if (!collectScalars(ast, base.getType(), scalars))
      return false;
  for (const clang::FieldDecl *field : record->fields())
    if (field->isBitField() || !collectScalars(ast, field->getType(), scalars))
      return false;
  return true;
}

bool ModuleLowering::isOverlayUnion(const clang::RecordDecl *record) {
  if (!record || !record->isUnion() || !(record = record->getDefinition()) ||
      record->field_empty())
    return false;
  clang::ASTContext &ast = record->getASTContext();
  SmallVector<clang::QualType> scalars;
  bool singleScalars = true;
  for (const clang::FieldDecl *field : record->fields()) {
    size_t before = scalars.size();
    if (field->isBitField() || !collectScalars(ast, field->getType(), scalars))
      return false;
    clang::QualType type = field->getType().getCanonicalType();
    singleScalars = singleScalars && scalars.size() == before + 1 &&
                    !type->isArrayType() && !type->isRecordType();
  }
  if (scalars.empty())
    return false;
  // Views of the same slots, each part one number of one floating type.
  clang::QualType floating;
  if (llvm::all_of(scalars, [&](clang::QualType scalar) {
        if (!scalar->isRealFloatingType() ||
            (!floating.isNull() && scalar != floating))
          return false;
        floating = scalar;
        return true;
      }))
    return true;
  // The same bits read as numbers of one width: float or double (not long
  // double, whose 80 bits pad to 128), and integers.
  if (!singleScalars)
    return false;
  floating = {};
  uint64_t width = ast.getTypeSize(scalars.front());
  return llvm::all_of(scalars, [&](clang::QualType scalar) {
    if (ast.getTypeSize(scalar) != width)
      return false;
    if (!scalar->isRealFloatingType())
      return true;
    if ((!floating.isNull() && scalar != floating) ||
        !(scalar->isSpecificBuiltinType(clang::BuiltinType::Float) ||
          scalar->isSpecificBuiltinType(clang::BuiltinType::Double)))
      return false;
    floating = scalar;
    return true;
  });
}

/// Whether the lowering destroys objects of `record`: its own destructor's
/// body, if the program wrote one, then its parts, each of which the
/// lowering destroys (std::vector parts, whose memory it frees, classes
/// that own memory, parts destroyed the same way).
static bool isDestroyedByParts(const clang::CXXRecordDecl *record) {
  // (What a closure's captures own is freed where the lambda is defined.)
  if (record->hasTrivialDestructor() || ModuleLowering::isClosureClass(record))
    return true;
  if (!ModuleLowering::getVectorElementType(
           record->getASTContext().getCanonicalTagType(record))
           .isNull())
    return true;
  // A destructor of the program's own runs first (destroyObject), then the
  // parts'; a library class's is kept as the library compiled it, unless
  // its body is empty (`~evaluator_base() {}`): that one does nothing.
  const clang::FunctionDecl *body = nullptr;
  if (const clang::CXXDestructorDecl *dtor = record->getDestructor();
      dtor && dtor->isUserProvided() && isStandardLibraryClass(record) &&
      !(dtor->hasBody(body) && isa<clang::CompoundStmt>(body->getBody()) &&
        cast<clang::CompoundStmt>(body->getBody())->body_empty()))
    return false;
  // Parts that own memory, or vectors kept in memory, are destroyed by the
  // lowering (destroyObject).
  auto partIsFine = [](clang::QualType type) {
    const clang::CXXRecordDecl *part =
        type->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
    // (A library object kept as compiled is destroyed by the library's
    // destructor, called as compiled.)
    return !part || isDestroyedByParts(part) ||
           ModuleLowering::ownsMemory(part) ||
           ModuleLowering::isKeptAsCompiled(part) ||
           !ModuleLowering::getUniquePointee(type).isNull() ||
           !ModuleLowering::getSharedPointee(type).isNull();
  };
  for (const clang::CXXBaseSpecifier &base : record->bases())
    if (!partIsFine(base.getType()))
      return false;
  return llvm::all_of(record->fields(), [&](const clang::FieldDecl *field) {
    return partIsFine(field->getType());
  });
}

/// The class whose destructor makes isDestroyedByParts(record) false:
/// `record` itself, or the first part (recursively) that has one.
static std::string
describeUnloweredDestructor(const clang::CXXRecordDecl *record) {
  SmallVector<clang::QualType> parts;
  for (const clang::CXXBaseSpecifier &base : record->bases())
    parts.push_back(base.getType());
  for (const clang::FieldDecl *field : record->fields())
    parts.push_back(field->getType());
  for (clang::QualType type : parts)
    if (const clang::CXXRecordDecl *part =
            type->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
        part && !isDestroyedByParts(part) &&
        !ModuleLowering::ownsMemory(part) &&
        ModuleLowering::getUniquePointee(type).isNull() &&
        ModuleLowering::getSharedPointee(type).isNull())
      return describeUnloweredDestructor(part);
  clang::QualType type = record->getASTContext().getCanonicalTagType(record);
  return type.getAsString();
}

bool ModuleLowering::hasOwnDestructor(const clang::CXXRecordDecl *record) {
  record = record->getDefinition();
  if (!record || record->hasTrivialDestructor() ||
      isStandardLibraryClass(record))
    return false;
  const clang::CXXDestructorDecl *dtor = record->getDestructor();
  return dtor && dtor->isUserProvided();
}

/// The records the pointer and reference fields of `record` designate (in
/// it, or in structs and arrays inside it).
static void pointeeRecords(const clang::RecordDecl *record,
                           SmallVectorImpl<const clang::RecordDecl *> &out) {
  record = record ? record->getDefinition() : nullptr;
  if (!record)
    return;
  for (const clang::FieldDecl *field : record->fields()) {
    clang::QualType type = field->getType().getCanonicalType();
    if (!ModuleLowering::getVectorElementType(type).isNull())
      continue;
    const clang::Type *element = type->getBaseElementTypeUnsafe();
    // (A std::unique_ptr owns what it points at: a tree's children.)
    clang::QualType owned = ModuleLowering::getUniquePointee(
        clang::QualType(element, 0).getCanonicalType());
    if (!owned.isNull()) {
      if (const clang::RecordDecl *pointee = owned->getAsRecordDecl())
        out.push_back(pointee->getDefinition());
    } else if (element->isPointerType() || element->isReferenceType()) {
      if (const clang::RecordDecl *pointee = element->getPointeeType()
                                                 ->getBaseElementTypeUnsafe()
                                                 ->getAsRecordDecl())
        out.push_back(pointee->getDefinition());
    } else if (const clang::RecordDecl *inner = element->getAsRecordDecl()) {
      pointeeRecords(inner, out);
    }
  }
}

bool ModuleLowering::isLinked(const clang::RecordDecl *record) {
  record = record ? record->getDefinition() : nullptr;
  if (!record)
    return false;
  // Whether following pointer fields from `record` comes back to it.
  llvm::SmallPtrSet<const clang::RecordDecl *, 8> seen;
  SmallVector<const clang::RecordDecl *> work;
  pointeeRecords(record, work);
  while (!work.empty()) {
    const clang::RecordDecl *next = work.pop_back_val();
    if (next == record)
      return true;
    if (next && seen.insert(next).second)
      pointeeRecords(next, work);
  }
  return false;
}

bool ModuleLowering::isAddressTable(clang::QualType element) {
  element = element.getCanonicalType();
  return element->isPointerType() && !element->isFunctionPointerType() &&
         !element->getPointeeType()->isVoidType() &&
         !holdsUnkeptPointers(element->getPointeeType());
}

bool ModuleLowering::holdsUnkeptPointers(clang::QualType type) {
  const clang::RecordDecl *record =
      type.getCanonicalType()->getBaseElementTypeUnsafe()->getAsRecordDecl();
  record = record ? record->getDefinition() : nullptr;
  if (!record || !getVectorElementType(type.getCanonicalType()).isNull())
    return false;
  for (const clang::FieldDecl *field : record->fields()) {
    clang::QualType fieldType = field->getType().getCanonicalType();
    if ((fieldType->isPointerType() || fieldType->isReferenceType()) &&
        !keepsAddress(field))
      return true;
    if (!fieldType->isPointerType() && !fieldType->isReferenceType() &&
        holdsUnkeptPointers(fieldType))
      return true;
  }
  return false;
}

bool ModuleLowering::ownsMemory(const clang::CXXRecordDecl *record) {
  if (!hasOwnDestructor(record))
    return false;
  record = record->getDefinition();
  // Its own destructor is all there is to destroying it.
  auto partIsFine = [](clang::QualType type) {
    const clang::CXXRecordDecl *part =
        type->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
    return !part || part->hasTrivialDestructor();
  };
  return llvm::all_of(record->bases(),
                      [&](const clang::CXXBaseSpecifier &base) {
                        return partIsFine(base.getType());
                      }) &&
         llvm::all_of(record->fields(), [&](const clang::FieldDecl *field) {
           return partIsFine(field->getType());
         });
}

/// Whether `decl` is one of the library's own classes: declared in a
/// system header under a reserved name (`_Rb_tree_node_base`,
/// `_Hash_node`), never a value a program holds.
static bool isLibraryInternal(const clang::CXXRecordDecl *decl) {
  if (!decl || !decl->getIdentifier() ||
      !decl->getASTContext().getSourceManager().isInSystemHeader(
          decl->getLocation()))
    return false;
  llvm::StringRef name = decl->getName();
  return name.size() > 1 && name[0] == '_' &&
         (name[1] == '_' || llvm::isUpper(name[1]));
}

bool ModuleLowering::isKeptAsCompiled(const clang::CXXRecordDecl *record) {
  record = record ? record->getDefinition() : nullptr;
  if (!record || record->isLambda() ||
      !record->getASTContext().getSourceManager().isInSystemHeader(
          record->getLocation()))
    return false;
  clang::QualType type = record->getASTContext().getCanonicalTagType(record);
  // The classes the memory model has models of.
  if (!getVectorElementType(type).isNull() || isVectorObject(type))
    return false;
  if (const auto *spec =
          dyn_cast<clang::ClassTemplateSpecializationDecl>(record);
      spec && spec->isInStdNamespace() && spec->getName() == "unique_ptr")
    return false;
  if (isSharedPointerClass(record))
    return false;
  if (record->isPolymorphic() || record->getNumVBases() ||
      !isDestroyedByParts(record) ||
      (record->isUnion() && !isLaidOutUnion(record)))
    return true;
  // The proxies and iterators of bits (std::vector<bool>'s `_Bit_reference`
  // and `_Bit_iterator`, libc++'s `__bit_reference`): a word's address and
  // a mask, whose bits only the library's code reads.
  if (isLibraryInternal(record) && (record->getName().starts_with("_Bit_") ||
                                    record->getName().starts_with("__bit_")))
    return true;
  // The library's iterators that are more than an address (std::deque's:
  // the place, its block's bounds and its slot in the table of blocks):
  // stepping them is the library's code. (Those of contiguous memory hold
  // one pointer, Iterators.cpp; a node's, one pointer to a node: below.)
  if (isLibraryInternal(record) && isIteratorClass(type) &&
      std::distance(record->field_begin(), record->field_end()) > 1)
    return true;
  auto isKeptPart = [&](clang::QualType part) {
    part = part.getCanonicalType();
    const clang::Type *element = part->getBaseElementTypeUnsafe();
    if (element->isPointerType() || element->isReferenceType()) {
      const clang::CXXRecordDecl *pointee =
          element->getPointeeType()->getAsCXXRecordDecl();
      return isLibraryInternal(pointee);
    }
    const clang::CXXRecordDecl *held = element->getAsCXXRecordDecl();
    return held && ((held->isUnion() && !isLaidOutUnion(held)) ||
                    isKeptAsCompiled(held));
  };
  return llvm::any_of(record->bases(),
                      [&](const clang::CXXBaseSpecifier &base) {
                        return isKeptPart(base.getType());
                      }) ||
         llvm::any_of(record->fields(), [&](const clang::FieldDecl *field) {
           return isKeptPart(field->getType());
         });
}

CallingConvention &ModuleLowering::getCallingConvention() {
  if (!callingConvention)
    callingConvention = std::make_unique<CallingConvention>(ast);
  return *callingConvention;
}

bool ModuleLowering::holdsOwnedMemory(const clang::CXXRecordDecl *record) {
  record = record ? record->getDefinition() : nullptr;
  if (!record || record->hasTrivialDestructor() || isClosureClass(record))
    return false;
  // A struct holding vectors of itself (a tree's children) is asked about
  // again while it is asked about: that question adds nothing.
  static llvm::SmallPtrSet<const clang::CXXRecordDecl *, 4> asking;
  if (!asking.insert(record).second)
    return false;
  llvm::scope_exit done([&] { asking.erase(record); });
  auto owns = [](clang::QualType type) {
    if (isVectorObject(type.getCanonicalType()) ||
        !getUniquePointee(type).isNull() || !getSharedPointee(type).isNull())
      return true;
    const clang::CXXRecordDecl *part =
        type->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
    return part && getVectorElementType(type.getCanonicalType()).isNull() &&
           (ownsMemory(part) || holdsOwnedMemory(part) ||
            (isKeptAsCompiled(part) && !part->hasTrivialDestructor()));
  };
  return llvm::any_of(record->bases(),
                      [&](const clang::CXXBaseSpecifier &base) {
                        return owns(base.getType());
                      }) ||
         llvm::any_of(record->fields(), [&](const clang::FieldDecl *field) {
           return keepsVectorInMemory(field) || owns(field->getType());
         });
}

bool ModuleLowering::isVectorObject(clang::QualType type) {
  clang::QualType element = getVectorElementType(type);
  if (element.isNull())
    return false;
  // Rows own memory: a vector of vectors keeps each row's three addresses
  // in its elements, so rows grow, shrink and nest to any depth.
  if (!getVectorElementType(element).isNull())
    return true;
  const clang::CXXRecordDecl *record =
      element.getCanonicalType()->getAsCXXRecordDecl();
  if (!record || !(record = record->getDefinition()) ||
      record->hasTrivialDestructor() || record->isLambda())
    return false;
  if (ownsMemory(record) || holdsOwnedMemory(record))
    return true;
  // A library class the memref model does not lay out (std::string).
  return record->getASTContext().getSourceManager().isInSystemHeader(
             record->getLocation()) &&
         !isDestroyedByParts(record);
}

/// Arrays of structs holding pointers are unrolled into this many pointers
/// at most.
static constexpr int64_t kMaxIndirectFields = 256;

static constexpr llvm::StringLiteral kSupportedTypes =
    "use float or double scalars, integers, arrays and structs of them, or "
    "pointers and references to those";

std::optional<Layout> ModuleLowering::getLayout(clang::QualType type,
                                                clang::SourceRange range,
                                                const Twine &what) {
  type = type.getCanonicalType().getUnqualifiedType();
  if (auto known = layouts.find(type.getTypePtr()); known != layouts.end())
    return known->second;
  // A type's problem is reported once, where it is first met.
  if (unsupportedTypes.contains(type.getTypePtr()))
    return std::nullopt;
  std::optional<Layout> layout = computeLayout(type, range, what);
  if (layout)
    layouts[type.getTypePtr()] = *layout;
  else if (!quiet && range.isValid())
    unsupportedTypes.insert(type.getTypePtr());
  return layout;
}

namespace {
/// Computes the layout of one type, one kind of type per member; errors
/// name the type and what has it.
class LayoutComputation {
public:
  LayoutComputation(ModuleLowering &module, clang::QualType type,
                    clang::SourceRange range, const Twine &what)
      : module(module), ast(module.getAST()), context(module.getContext()),
        type(type), range(range), what(what) {}

  std::optional<Layout> compute() {
    if (const auto *builtin = type->getAs<clang::BuiltinType>())
      return ofBuiltin(builtin);
    if (const auto *complex = type->getAs<clang::ComplexType>()) {
      // Its real and imaginary parts (ComplexNumbers.cpp).
      clang::QualType part = complex->getElementType();
      std::optional<Layout> own = part->isRealFloatingType()
                                      ? module.getLayout(part, range, what)
                                      : std::nullopt;
      if (!own)
        return unsupported("complex numbers of 'float' and 'double' parts "
                           "are supported");
      return Layout{own->scalar, own->scalarType, 2};
    }
    if (type->isEnumeralType())
      return Layout{IntegerType::get(context, ast.getTypeSize(type)), type, 1};
    // A function pointer holds the function's address: an integer, which
    // a call through it compares (FunctionPointers.cpp).
    if (type->isFunctionPointerType())
      return Layout{IntegerType::get(context, 64), ast.getUIntPtrType(), 1};
    // A pointer to a data member is its offset, one to a member function
    // its address and an adjustment of `this` (MemberPointers.cpp).
    if (type->isMemberPointerType())
      return Layout{IntegerType::get(context, 64), ast.getPointerDiffType(),
                    type->isMemberFunctionPointerType() ? 2 : 1};
    if (type->isPointerType())
      return ofPointer();
    if (const auto *array = ast.getAsConstantArrayType(type))
      return ofArray(array);
    if (ModuleLowering::isVectorObject(type))
      return ofVectorObject();
    // (Vectors of numbers as elements of arrays and vectors are laid out
    // by getVectorInMemoryLayout; as fields, by collectParts.)
    if (!ModuleLowering::getVectorElementType(type).isNull())
      return unsupported("a std::vector can be a variable, a parameter, a "
                         "field, or an element of an array or of a vector, "
                         "but not yet made by 'new' or owned by a smart "
                         "pointer; make it a variable or a field of the "
                         "object instead");
    // SIMD vectors (`vector_size` types, x86's `__m128d`): their lanes in
    // a row (SimdVectors.cpp).
    if (const auto *vector = type->getAs<clang::VectorType>()) {
      clang::QualType lane = vector->getElementType();
      std::optional<Layout> own =
          lane->isArithmeticType() && !lane->isBooleanType()
              ? module.getLayout(lane, range, what)
              : std::nullopt;
      if (!own || own->size != 1)
        return unsupported("SIMD vectors of numbers are supported");
      return Layout{own->scalar, own->scalarType, vector->getNumElements()};
    }
    // A std::unique_ptr as an element (of a std::vector, an array): the
    // address it owns, kept in a `double` slot (see ofVectorObject).
    if (clang::QualType owned = ModuleLowering::getOwnedPointerType(type);
        !owned.isNull())
      return Layout{Float64Type::get(context),
                    ast.DoubleTy,
                    1,
                    {{0, 1, 0, owned, nullptr, /*inMemory=*/true}}};
    // A std::shared_ptr: the addresses of its object and of its count.
    if (!ModuleLowering::getSharedPointee(type).isNull())
      return ofSharedPointer(type);
    const clang::RecordDecl *record = type->getAsRecordDecl();
    if (!record)
      return unsupported(kSupportedTypes);
    record = record->getDefinition();
    if (!record)
      return unsupported("the type is incomplete; define it before the "
                         "differentiable function");
    // (An empty union is an empty class: one byte, no data.)
    if (record->isUnion() && !record->field_empty() &&
        !ModuleLowering::isLaidOutUnion(record))
      return unsupported(
          "a union is differentiated only where its members are views of "
          "the same numbers (every part a number of one floating-point "
          "type, or each member one number of one width: a float and its "
          "bits) or where it holds one value beside empty or one-byte "
          "markers (std::optional's); use a struct, or std::bit_cast");
    return ofRecord(record);
  }

  /// Three address slots: a std::vector kept in memory.
  std::optional<Layout> ofVectorObject();
  /// Two address slots: a std::shared_ptr.
  std::optional<Layout> ofSharedPointer(clang::QualType shared);

private:
  // A part of a record (a non-empty base or a direct field) with its byte
  // offset.
  struct Part {
    clang::QualType type;
    clang::SourceRange range;
    int64_t byteOffset;
  };

  std::optional<Layout> unsupported(const Twine &why) {
    module.error(range, what + " has type '" + type.getAsString() +
                            "', which differentiable code does not "
                            "support: " +
                            why);
    return std::nullopt;
  }
  bool refuse(const Twine &why) {
    unsupported(why);
    return false;
  }

  std::optional<Layout> ofBuiltin(const clang::BuiltinType *builtin);
  std::optional<Layout> ofPointer();
  std::optional<Layout> ofArray(const clang::ConstantArrayType *array);
  std::optional<Layout> ofRecord(const clang::RecordDecl *record);
  /// Appends the three address fields of a std::vector kept in memory, of
  /// type `vector`, at `byteOffset` (the field `decl`, if one); false
  /// after an error.
  bool vectorObjectFields(clang::QualType vector, int64_t byteOffset,
                          const clang::FieldDecl *decl,
                          SmallVectorImpl<Layout::IndirectField> &fields);
  /// Adds the std::unique_ptr `field` at `byteOffset`: a pointer that owns
  /// its memory, an address kept in the object; false after an error.
  bool uniquePointerField(const clang::FieldDecl *field, int64_t byteOffset,
                          SmallVectorImpl<Layout::IndirectField> &fields);
  /// The bases and fields of `record`: data parts in `parts`, pointer,
  /// reference and std::vector fields (which designate memory, they do not
  /// hold data) in `indirectFields`. False after an error.
  /// Whether a class can be laid out at all (refused with the reason if
  /// not: closures, virtual bases, library classes owning resources).
  bool canLayOutClass(const clang::CXXRecordDecl *cxx);
  bool collectParts(const clang::RecordDecl *record,
                    SmallVectorImpl<Part> &parts,
                    SmallVectorImpl<Layout::IndirectField> &indirectFields);
  /// Adds the narrower floating-point `part` (`float` among `double`s), of
  /// layout `own`, to `layout`'s narrow runs; false after an error.
  bool addNarrowPart(Layout &layout, const Layout &own, const Part &part);
  /// The slot type of a record of `parts` (with `partLayouts`).
  Layout chooseSlots(ArrayRef<Part> parts, ArrayRef<Layout> partLayouts,
                     bool hasIndirectFields, bool keepsAddresses);
  /// The slots of a record made of `parts`: their type, then the size and
  /// indirect fields.
  std::optional<Layout>
  slotsOf(ArrayRef<Part> parts,
          SmallVector<Layout::IndirectField> indirectFields,
          bool keepsAddresses = false);

  ModuleLowering &module;
  clang::ASTContext &ast;
  MLIRContext *context;
  clang::QualType type;
  clang::SourceRange range;
  const Twine &what;
};
} // namespace

std::optional<Layout>
LayoutComputation::ofBuiltin(const clang::BuiltinType *builtin) {
  switch (builtin->getKind()) {
  case clang::BuiltinType::Float:
    return Layout{Float32Type::get(context), type, 1};
  case clang::BuiltinType::Double:
    return Layout{Float64Type::get(context), type, 1};
  case clang::BuiltinType::LongDouble:
    // x86's 80-bit extended precision, laid out in 16 bytes as C++ does.
    if (&ast.getTargetInfo().getLongDoubleFormat() !=
        &llvm::APFloat::x87DoubleExtended())
      break;
    return Layout{Float80Type::get(context), type, 1};
  case clang::BuiltinType::Bool:
    return Layout{IntegerType::get(context, 1), type, 1};
  default:
    if (builtin->isInteger())
      return Layout{IntegerType::get(context, ast.getTypeSize(type)), type, 1};
    break;
  }
  return unsupported(kSupportedTypes);
}

std::optional<Layout> LayoutComputation::ofPointer() {
  // A pointer in memory (an element of an array or vector of pointers):
  // one indirect slot, like a struct's pointer field.
  // What it points to may hold pointers in turn: an address read from
  // memory is followed as far as the program goes (docs/Memory.md).
  clang::QualType pointee = type->getPointeeType();
  if (pointee->isReferenceType() || pointee->isFunctionType() ||
      pointee->isVoidType())
    return unsupported("pointers in memory can point to numbers, arrays, "
                       "structs and pointers, not to functions or 'void'");
  if (!module.getLayout(pointee, range, what))
    return std::nullopt;
  // An address slot is 8 bytes; memory of nothing but addresses has
  // `double` slots so that it has a shadow (of shadow addresses) as
  // memory of numbers does (docs/Memory.md).
  return Layout{
      Float64Type::get(context), ast.DoubleTy, 1, {{0, 1, 0, type, nullptr}}};
}

std::optional<Layout>
LayoutComputation::ofArray(const clang::ConstantArrayType *array) {
  // A std::vector element is kept in memory: its three addresses, as a
  // row of a vector of vectors is (VectorRows.cpp).
  clang::QualType elementType = array->getElementType().getCanonicalType();
  std::optional<Layout> element =
      ModuleLowering::isMemrefVector(elementType)
          ? module.getVectorInMemoryLayout(elementType, range)
          : module.getLayout(elementType, range, what);
  if (!element)
    return std::nullopt;
  int64_t count = array->getSize().getZExtValue();
  if (count == 0)
    return unsupported("arrays need at least one element");
  Layout layout{
      element->scalar, element->scalarType, element->size * count, {}};
  if (count * element->indirect.size() > kMaxIndirectFields)
    return unsupported("it holds more than " + Twine(kMaxIndirectFields) +
                       " pointers, references or vectors; pass them as "
                       "parameters");
  // Each element's indirect fields, narrow runs and closures, where the
  // element lies.
  int64_t elementBytes = ast.getTypeSize(array->getElementType()) / 8;
  for (int64_t i = 0; i < count; ++i) {
    int64_t slot = i * element->size, byte = i * elementBytes;
    for (Layout::IndirectField field : element->indirect) {
      field.slot += slot;
      field.byteOffset += byte;
      layout.indirect.push_back(field);
    }
    for (Layout::NarrowRun run : element->narrow)
      layout.narrow.push_back({run.slot + slot, run.slots, run.scalar});
    for (Layout::ClosureField closure : element->closures) {
      closure.slot += slot;
      closure.byteOffset += byte;
      layout.closures.push_back(closure);
    }
  }
  mergeNarrowRuns(layout);
  return layout;
}

bool LayoutComputation::canLayOutClass(const clang::CXXRecordDecl *cxx) {
  if (cxx->getNumVBases())
    return refuse("it has virtual base classes, which differentiable "
                  "code does not lay out yet; derive from them without "
                  "'virtual'");
  // (One with a deleter holding no data is a pointer: getUniquePointee.)
  if (cxx->getName() == "unique_ptr" && cxx->isInStdNamespace())
    return refuse("its deleter takes storage of its own (a function "
                  "pointer, or a class with data), which differentiable "
                  "code does not lay out yet; write the deleter as a class "
                  "without data whose call operator frees the pointer");
  if (!isDestroyedByParts(cxx) && !ModuleLowering::ownsMemory(cxx))
    return refuse("it owns resources through the destructor of '" +
                  describeUnloweredDestructor(cxx) +
                  "', a library class that differentiable code does "
                  "not lower; pass its data as a pointer and a size");
  return true;
}

bool LayoutComputation::collectParts(
    const clang::RecordDecl *record, SmallVectorImpl<Part> &parts,
    SmallVectorImpl<Layout::IndirectField> &indirectFields) {
  const clang::ASTRecordLayout &recordLayout = ast.getASTRecordLayout(record);
  if (const auto *cxx = dyn_cast<clang::CXXRecordDecl>(record)) {
    if (!canLayOutClass(cxx))
      return false;
    // A class with virtual functions begins with the address of its virtual
    // table (unless a base's does): an integer to the model, written by its
    // constructors, read by virtual calls (VirtualCalls.cpp).
    if (recordLayout.hasOwnVFPtr())
      parts.push_back({ast.getUIntPtrType(), cxx->getSourceRange(), 0});
    for (const clang::CXXBaseSpecifier &base : cxx->bases()) {
      const clang::CXXRecordDecl *baseDecl =
          base.getType()->getAsCXXRecordDecl();
      if (!baseDecl->isEmpty())
        parts.push_back(
            {base.getType(), base.getSourceRange(),
             recordLayout.getBaseClassOffset(baseDecl).getQuantity()});
    }
  }
  for (const clang::FieldDecl *field : record->fields()) {
    if (field->isBitField())
      return refuse("field '" + field->getName() + "' is a bit-field");
    int64_t byteOffset =
        recordLayout.getFieldOffset(field->getFieldIndex()) / 8;
    clang::QualType fieldType = field->getType().getCanonicalType();
    if (ModuleLowering::keepsVectorInMemory(field)) {
      clang::QualType element = ModuleLowering::getVectorElementType(fieldType);
      std::optional<Layout> elementLayout = module.tryGetLayout(element);
      if (element->isPointerType() ||
          (elementLayout && !elementLayout->indirect.empty()))
        return refuse("its field '" + field->getName() +
                      "' is a std::vector of pointers (or of structs holding "
                      "them), which a struct held in a std::vector cannot "
                      "have yet; keep indices into the arrays instead");
      if (!vectorObjectFields(fieldType, byteOffset, field, indirectFields))
        return false;
      continue;
    }
    if (!ModuleLowering::getUniquePointee(fieldType).isNull()) {
      if (!uniquePointerField(field, byteOffset, indirectFields))
        return false;
      continue;
    }
    if (!ModuleLowering::getSharedPointee(fieldType).isNull()) {
      std::optional<Layout> shared = ofSharedPointer(fieldType);
      if (!shared)
        return false;
      for (Layout::IndirectField slot : shared->indirect)
        indirectFields.push_back({0, 0, byteOffset + slot.byteOffset, slot.type,
                                  field, /*inMemory=*/true});
      continue;
    }
    // An iterator field (a reverse_iterator's `current`): the pointer.
    if (clang::QualType pointer = module.getIteratorPointerType(fieldType);
        !pointer.isNull()) {
      indirectFields.push_back({0, 0, byteOffset, pointer, field});
      continue;
    }
    // (A function pointer is an integer part: FunctionPointers.cpp.)
    if ((fieldType->isPointerType() && !fieldType->isFunctionPointerType()) ||
        fieldType->isReferenceType() ||
        (!ModuleLowering::getVectorElementType(fieldType).isNull() &&
         !ModuleLowering::isVectorObject(fieldType))) {
      clang::QualType pointee = fieldType->getPointeeType();
      // (A pointer to a table of pointers, `double **rows`: the table keeps
      // addresses, ModuleLowering::isAddressTable.)
      if (!pointee.isNull() &&
          ((pointee->isPointerType() && !fieldType->isPointerType()) ||
           (pointee->isPointerType() &&
            !ModuleLowering::isAddressTable(pointee)) ||
           pointee->isReferenceType() || pointee->isFunctionType() ||
           (pointee->isVoidType() && !ModuleLowering::keepsAddress(field))))
        return refuse("its field '" + field->getName() + "' has type '" +
                      field->getType().getAsString() +
                      "'; a field can point to or refer to numbers, "
                      "arrays and structs, not to pointers or "
                      "functions");
      indirectFields.push_back({0, 0, byteOffset, field->getType(), field});
      continue;
    }
    parts.push_back({field->getType(), field->getSourceRange(), byteOffset});
  }
  return true;
}

std::optional<Layout>
LayoutComputation::ofRecord(const clang::RecordDecl *record) {
  // A library object kept as compiled is its bytes (LibraryObjects.cpp).
  // (A std::function made from a callable the lowering knows holds it
  // beside its place, as a lambda kept in memory: StoredClosures.cpp.)
  if (const auto *cxx = dyn_cast<clang::CXXRecordDecl>(record);
      cxx && ModuleLowering::isKeptAsCompiled(cxx)) {
    int64_t bytes = ast.getTypeSizeInChars(type).getQuantity();
    Layout layout{IntegerType::get(context, 8), ast.CharTy, bytes};
    if (cxx->isInStdNamespace() && cxx->getIdentifier() &&
        cxx->getName() == "function")
      layout.closures.push_back({0, bytes, 0, bytes, /*stdFunction=*/true});
    return layout;
  }
  // A lambda with captures kept in memory: bytes the lowering never reads;
  // the closure is known beside the object. (One without captures is an
  // empty class, a functor Eigen's unaryExpr keeps.)
  if (const auto *cxx = dyn_cast<clang::CXXRecordDecl>(record);
      ModuleLowering::isClosureClass(cxx)) {
    int64_t bytes = ast.getTypeSizeInChars(type).getQuantity();
    Layout layout{IntegerType::get(context, 8), ast.CharTy, bytes};
    layout.closures.push_back({0, bytes, 0, bytes});
    return layout;
  }
  SmallVector<Part> parts;
  SmallVector<Layout::IndirectField> indirectFields; // slots set later
  if (!collectParts(record, parts, indirectFields))
    return std::nullopt;
  if (parts.empty() && indirectFields.empty()) {
    // An empty class (a functor, a tag) is one byte, as in C++: nothing
    // in it is differentiated.
    if (record->field_empty())
      return Layout{IntegerType::get(context, 8), ast.CharTy, 1};
    return unsupported("it has no fields");
  }
  // Addresses kept among integers need slots that hold 8 bytes. So do the
  // pointers among integers of the program's structs and other libraries'
  // (an Eigen evaluator's data pointer and stride), so that such a struct
  // lies in the slots of any struct holding it beside numbers. (The
  // standard library's pairs of an address and a count,
  // std::initializer_list, keep their integer slots.)
  const auto *cxx = dyn_cast<clang::CXXRecordDecl>(record);
  bool keepsAddresses =
      (cxx && ModuleLowering::ownsMemory(cxx)) || !isStandardLibrary(record) ||
      llvm::any_of(indirectFields, [](const Layout::IndirectField &field) {
        return field.inMemory || ModuleLowering::keepsAddress(field.decl);
      });
  return slotsOf(parts, std::move(indirectFields), keepsAddresses);
}

bool LayoutComputation::uniquePointerField(
    const clang::FieldDecl *field, int64_t byteOffset,
    SmallVectorImpl<Layout::IndirectField> &fields) {
  clang::QualType element =
      ModuleLowering::getAddressType(field)->getPointeeType();
  // (Asked first: a tree's node owning nodes would ask for its own layout
  // while computing it.)
  (void)ModuleLowering::needsDestruction(element);
  // A node owning nodes linked to its own class (a tree's children): what
  // it owns is reached through the addresses the nodes keep, and destroyed
  // by the destructor's function calling itself (destroyObject).
  if (ModuleLowering::isLinked(element->getAsRecordDecl())) {
    fields.push_back(
        {0, 0, byteOffset, ModuleLowering::getAddressType(field), field});
    return true;
  }
  // Objects whose pointers keep their addresses (those of objects owned
  // through a std::unique_ptr do: findRecordsKeepingVectors), also classes
  // owning memory through their own destructor, which runs where the
  // member frees what it owns.
  if (ModuleLowering::holdsUnkeptPointers(element))
    return refuse("its field '" + field->getName() +
                  "' is a std::unique_ptr to objects holding references, "
                  "which is not supported yet; hold pointers instead");
  fields.push_back(
      {0, 0, byteOffset, ModuleLowering::getAddressType(field), field});
  return true;
}

bool LayoutComputation::vectorObjectFields(
    clang::QualType vector, int64_t byteOffset, const clang::FieldDecl *decl,
    SmallVectorImpl<Layout::IndirectField> &fields) {
  // Three addresses, where the standard library keeps them.
  if (!module.getVectorPointerOffsets(vector, range))
    return false;
  if (ast.getTypeSize(vector) != 3 * 64)
    return refuse("this standard library's std::vector is not three "
                  "pointers");
  clang::QualType pointer =
      ast.getPointerType(ModuleLowering::getVectorElementType(vector));
  for (int64_t slot = 0; slot < 3; ++slot)
    fields.push_back(
        {slot, 1, byteOffset + 8 * slot, pointer, decl, /*inMemory=*/true});
  return true;
}

std::optional<Layout>
ModuleLowering::getVectorInMemoryLayout(clang::QualType vector,
                                        clang::SourceRange range) {
  return LayoutComputation(*this, vector.getCanonicalType(), range,
                           "this vector")
      .ofVectorObject();
}

std::optional<Layout>
LayoutComputation::ofSharedPointer(clang::QualType shared) {
  // Both standard libraries keep the object's address, then the control
  // block's. A block the function makes is two `long`s: zero where the
  // library's keep the address of their virtual table (which tells the
  // caller's blocks apart), then the use count.
  if (ast.getTypeSize(shared) != 2 * 64)
    return unsupported("this standard library's std::shared_ptr is not two "
                       "pointers");
  clang::QualType object = ModuleLowering::getSharedPointee(shared);
  return Layout{Float64Type::get(context),
                ast.DoubleTy,
                2,
                {{0, 1, 0, ast.getPointerType(object), nullptr,
                  /*inMemory=*/true},
                 {1, 1, 8, ast.getPointerType(ast.LongTy), nullptr,
                  /*inMemory=*/true}}};
}

std::optional<Layout> LayoutComputation::ofVectorObject() {
  // `double` slots (see ofPointer), so that the vector has a shadow of
  // shadow addresses.
  Layout layout{Float64Type::get(context), ast.DoubleTy, 3, {}};
  if (!vectorObjectFields(type, 0, nullptr, layout.indirect))
    return std::nullopt;
  return layout;
}

Layout LayoutComputation::chooseSlots(ArrayRef<Part> parts,
                                      ArrayRef<Layout> partLayouts,
                                      bool hasIndirectFields,
                                      bool keepsAddresses) {
  std::optional<Layout> layout;
  bool holdsPointerStructs = false;
  for (auto [own, part] : llvm::zip_equal(partLayouts, parts)) {
    // A struct of pointers only has no data to choose the slots; its
    // pointers lie in its own slots, which the record's must then be (a
    // field of it is found in them). An empty class (a functor, a tag)
    // holds no data either.
    if (isDataless(own)) {
      holdsPointerStructs |= !own.indirect.empty();
      continue;
    }
    if (const clang::CXXRecordDecl *held = part.type->getAsCXXRecordDecl();
        held && held->isEmpty())
      continue;
    auto better = [&](const Layout &candidate) {
      if (!layout)
        return true;
      bool floating = isa<FloatType>(candidate.scalar);
      if (floating != isa<FloatType>(layout->scalar))
        return floating;
      return candidate.scalar.getIntOrFloatBitWidth() >
             layout->scalar.getIntOrFloatBitWidth();
    };
    if (better(own))
      layout = Layout{own.scalar, own.scalarType, 0, {}};
  }
  // Empty classes only: bytes.
  if (!layout && !hasIndirectFields && !holdsPointerStructs)
    return Layout{IntegerType::get(context, 8), ast.CharTy, 0, {}};
  // Addresses only, or the addresses a class keeps among integers:
  // `double` slots, so that the object has a shadow holding shadow
  // addresses (see ofPointer); its integers are packed. So for a class
  // with virtual functions and no floating-point data (an interface): its
  // derived classes hold the data, and a view of it is a view of them.
  const clang::CXXRecordDecl *record = type->getAsCXXRecordDecl();
  bool isDynamic = record && record->isDynamicClass();
  if (!layout || (((keepsAddresses && hasIndirectFields) ||
                   holdsPointerStructs || isDynamic) &&
                  !isa<FloatType>(layout->scalar)))
    return Layout{Float64Type::get(context), ast.DoubleTy, 0, {}};
  return *layout;
}

bool LayoutComputation::addNarrowPart(Layout &layout, const Layout &own,
                                      const Part &part) {
  // A run of the slots its bytes lie in, viewed in its own type where it
  // starts.
  int64_t slotBits = layout.scalar.getIntOrFloatBitWidth();
  int64_t ownBits = own.scalar.getIntOrFloatBitWidth();
  std::string partName = "its '" + part.type.getAsString() + "' part";
  if (ownBits >= slotBits)
    return refuse(partName + " and its '" + layout.scalarType.getAsString() +
                  "' parts are floating-point numbers of one size");
  if (!own.indirect.empty())
    return refuse(partName + " holds pointers among '" +
                  own.scalarType.getAsString() +
                  "'s; keep the pointers in fields of the outer struct");
  if ((part.byteOffset * 8) % ownBits != 0)
    return refuse(partName + " is not aligned to its '" +
                  own.scalarType.getAsString() +
                  "'s (a packed struct); drop the packing");
  int64_t firstSlot = part.byteOffset * 8 / slotBits;
  int64_t endBits =
      part.byteOffset * 8 + static_cast<int64_t>(ast.getTypeSize(part.type));
  layout.narrow.push_back(
      {firstSlot, (endBits + slotBits - 1) / slotBits - firstSlot, own.scalar});
  return true;
}

std::optional<Layout>
LayoutComputation::slotsOf(ArrayRef<Part> parts,
                           SmallVector<Layout::IndirectField> indirectFields,
                           bool keepsAddresses) {
  // The record's slots have the type of its floating-point parts (or, with
  // none, of its widest integer part; with only indirect fields, 64-bit
  // integers); integer and bool fields of other types are packed into the
  // slot that holds their bytes (PackedFields.cpp).
  SmallVector<Layout> partLayouts;
  for (const Part &part : parts) {
    // A part declared inside a library is reported where the user's code
    // met the type (the library's line means nothing to the user).
    clang::SourceRange where =
        part.range.isValid() &&
                !ast.getSourceManager().isInSystemHeader(part.range.getBegin())
            ? part.range
            : range;
    std::optional<Layout> own = module.getLayout(
        part.type, where, "a field of '" + type.getAsString() + "'");
    if (!own)
      return std::nullopt;
    partLayouts.push_back(*own);
  }
  std::optional<Layout> layout =
      chooseSlots(parts, partLayouts, !indirectFields.empty(), keepsAddresses);
  uint64_t slotBits = ast.getTypeSize(layout->scalarType);
  for (auto [own, part] : llvm::zip_equal(partLayouts, parts)) {
    // The indirect fields of a struct or an array of structs inside.
    for (const Layout::IndirectField &inner : own.indirect)
      indirectFields.push_back({0, 0, part.byteOffset + inner.byteOffset,
                                inner.type, inner.decl, inner.inMemory});
    for (Layout::ClosureField inner : own.closures) {
      inner.byteOffset += part.byteOffset;
      layout->closures.push_back(inner);
    }
    int64_t firstSlot = part.byteOffset * 8 / static_cast<int64_t>(slotBits);
    if (own.scalar == layout->scalar) {
      // A struct inside with narrow parts of its own.
      for (const Layout::NarrowRun &run : own.narrow)
        layout->narrow.push_back({firstSlot + run.slot, run.slots, run.scalar});
      continue;
    }
    if (isDataless(own))
      continue;
    if (isa<FloatType>(own.scalar)) {
      if (!addNarrowPart(*layout, own, part))
        return std::nullopt;
      continue;
    }
    // An integer, or a struct of one (a std::tuple's element, in a base
    // class of its own), lies in some bytes of one slot; an array or a
    // struct of integers is viewed in its own scalars where it lies
    // (ct.retype_view), which needs them aligned in the object as C++
    // aligns them.
    uint64_t ownBits = ast.getTypeSize(own.scalarType);
    bool viewable =
        own.indirect.empty() && (part.byteOffset * 8) % ownBits == 0;
    bool packable = own.size == 1 && own.indirect.empty() &&
                    (part.type->isScalarType() || part.type->isRecordType());
    if (!packable && !viewable)
      return unsupported("its '" + part.type.getAsString() +
                         "' part, an array or struct of integers among "
                         "fields of type '" +
                         layout->scalarType.getAsString() +
                         "', holds pointers; keep the pointers in fields "
                         "of the outer struct");
  }
  if (ast.getTypeSize(type) % slotBits != 0)
    return unsupported("its size is not a multiple of its '" +
                       layout->scalarType.getAsString() + "' slots");
  if (!mergeNarrowRuns(*layout))
    return unsupported("it holds floating-point parts of two narrower types "
                       "in one '" +
                       layout->scalarType.getAsString() + "' slot");
  layout->size = ast.getTypeSize(type) / slotBits;
  for (Layout::IndirectField &field : indirectFields) {
    uint64_t bits = ast.getTypeSize(field.type.getNonReferenceType());
    if (field.type->isReferenceType())
      bits = ast.getTypeSize(ast.VoidPtrTy);
    if ((field.byteOffset * 8) % slotBits != 0 || bits % slotBits != 0)
      return unsupported("its pointer, reference or vector fields do not "
                         "fill whole '" +
                         layout->scalarType.getAsString() + "' slots");
    field.slot = field.byteOffset * 8 / slotBits;
    field.slots = bits / slotBits;
  }
  layout->indirect = std::move(indirectFields);
  for (Layout::ClosureField &closure : layout->closures) {
    if ((closure.byteOffset * 8) % slotBits != 0)
      return unsupported("it holds a lambda that does not begin a '" +
                         layout->scalarType.getAsString() +
                         "' slot; move the lambda to the front of the "
                         "struct");
    closure.slot = closure.byteOffset * 8 / slotBits;
    closure.slots = llvm::divideCeil(closure.bytes * 8, slotBits);
  }
  return layout;
}

std::optional<Layout> ModuleLowering::computeLayout(clang::QualType type,
                                                    clang::SourceRange range,
                                                    const Twine &what) {
  return LayoutComputation(*this, type, range, what).compute();
}

int64_t ModuleLowering::getFieldOffset(const clang::FieldDecl *field) {
  const clang::ASTRecordLayout &recordLayout =
      ast.getASTRecordLayout(field->getParent());
  uint64_t bits = recordLayout.getFieldOffset(field->getFieldIndex());
  // In the record's slots (a packed integer field: the slot holding it).
  std::optional<Layout> layout =
      getLayout(ast.getCanonicalTagType(field->getParent()), {}, "a record");
  assert(layout && "the record's layout checked its fields");
  return bits / ast.getTypeSize(layout->scalarType);
}

int64_t ModuleLowering::getBaseOffset(const clang::CXXRecordDecl *derived,
                                      clang::QualType base) {
  const clang::CXXRecordDecl *baseDecl = base->getAsCXXRecordDecl();
  if (baseDecl->isEmpty())
    return 0;
  int64_t bytes = ast.getASTRecordLayout(derived)
                      .getBaseClassOffset(baseDecl)
                      .getQuantity();
  // In the derived record's slots (a base of packed integers: the slot
  // holding it).
  std::optional<Layout> layout =
      getLayout(ast.getCanonicalTagType(derived), {}, "a record");
  assert(layout && "the record's layout checked its bases");
  return bytes * 8 / ast.getTypeSize(layout->scalarType);
}

Type ModuleLowering::lowerType(clang::QualType type, clang::SourceRange range,
                               const Twine &what) {
  type = type.getCanonicalType();
  // A std::vector, by value, reference or pointer, is its elements (but
  // one kept in memory, which is an object like any other).
  clang::QualType object = type->isPointerType() || type->isReferenceType()
                               ? type->getPointeeType()
                               : type;
  if (isMemrefVector(object))
    return getVectorType(object, range, what);
  // A standard iterator is the pointer it wraps.
  if (clang::QualType element = getIteratorElementType(object);
      !element.isNull()) {
    std::optional<Layout> layout = getLayout(element, range, what);
    return layout ? getPointerType(layout->scalar) : nullptr;
  }
  if (type->isFunctionPointerType() || type->isMemberPointerType())
    return IntegerType::get(getContext(), 64);
  if (type->isPointerType() || type->isReferenceType()) {
    clang::QualType pointee = type->getPointeeType().getCanonicalType();
    // A pointer to pointers (`const double* const* blocks`) is memory of
    // address slots (ofPointer), read with ct.load_address.
    if (pointee->isReferenceType() || pointee->isFunctionType()) {
      error(range, what + " has type '" + type.getAsString() +
                       "', which differentiable code does not support: " +
                       kSupportedTypes);
      return nullptr;
    }
    // A `void *` (an overload selector a template defaults to 0): bytes,
    // which nothing in differentiable code reads.
    if (pointee->isVoidType())
      return getPointerType(IntegerType::get(getContext(), 8));
    std::optional<Layout> layout = getLayout(pointee, range, what);
    return layout ? getPointerType(layout->scalar) : nullptr;
  }
  std::optional<Layout> layout = getLayout(type, range, what);
  if (!layout)
    return nullptr;
  // Aggregates are passed by address, like the C++ ABI does for all but
  // the smallest.
  return isAggregate(type) ? Type(getPointerType(layout->scalar))
                           : layout->scalar;
}

std::string ModuleLowering::mangle(const clang::FunctionDecl *decl) {
  // Itanium-mangled names: what the C++ side calls and links against.
  // Without virtual bases the complete-object constructor and destructor
  // are the base-object ones, and Clang emits (and calls) only those for
  // inline ones: call them by that name.
  if (const auto *ctor = dyn_cast<clang::CXXConstructorDecl>(decl))
    return mangle(clang::GlobalDecl(ctor, ctor->getParent()->getNumVBases()
                                              ? clang::Ctor_Complete
                                              : clang::Ctor_Base));
  if (const auto *dtor = dyn_cast<clang::CXXDestructorDecl>(decl))
    return mangle(clang::GlobalDecl(dtor, dtor->getParent()->getNumVBases()
                                              ? clang::Dtor_Complete
                                              : clang::Dtor_Base));
  // `__builtin_lround` is the C library's `lround`.
  if (unsigned id = decl->getBuiltinID();
      id && ast.BuiltinInfo.isLibFunction(id))
    return StringRef(ast.BuiltinInfo.getName(id))
        .drop_front(StringRef("__builtin_").size())
        .str();
  return mangle(clang::GlobalDecl(decl));
}

std::string ModuleLowering::mangle(clang::GlobalDecl decl) {
  std::string name;
  llvm::raw_string_ostream stream(name);
  const auto *named = cast<clang::NamedDecl>(decl.getDecl());
  if (isa<clang::CXXConstructorDecl>(named) ||
      mangler->shouldMangleDeclName(named))
    mangler->mangleName(decl, stream);
  else
    stream << named->getName();
  return name;
}

/// What the engine needs to know of `decl` beside its types: its C++ name
/// and parameter names (for diagnostics), [[ct::checkpoint]], `restrict`
/// pointers and aggregates passed by value.
static void describeToEngine(const clang::FunctionDecl *decl,
                             func::FuncOp function) {
  OpBuilder builder(function.getContext());
  function->setAttr("ct.source_name",
                    builder.getStringAttr(decl->getQualifiedNameAsString()));
  if (isCheckpointed(decl))
    function->setAttr("ct.checkpoint", builder.getUnitAttr());
  // The parameters' C++ names, for diagnostics about them ("this" for a
  // member function's object).
  SmallVector<Attribute> names;
  if (const auto *method = dyn_cast<clang::CXXMethodDecl>(decl);
      method && method->isInstance())
    names.push_back(builder.getStringAttr("this"));
  for (const clang::ParmVarDecl *param : decl->parameters())
    names.push_back(builder.getStringAttr(param->getName()));
  function->setAttr("ct.param_names", builder.getArrayAttr(names));
  // `restrict` pointers: no other memory the function reaches overlaps
  // theirs, which lets reverse mode read them again instead of taping.
  const auto *method = dyn_cast<clang::CXXMethodDecl>(decl);
  unsigned firstParam = method && method->isInstance() ? 1 : 0;
  for (auto [i, param] : llvm::enumerate(decl->parameters())) {
    if (param->getType()->isPointerType() &&
        param->getType().isRestrictQualified())
      function.setArgAttr(firstParam + i, ct::kNoAliasAttr,
                          builder.getUnitAttr());
    // An aggregate by value is the callee's own copy.
    if (isAggregate(param->getType().getCanonicalType()))
      function.setArgAttr(firstParam + i, ct::kByValueAttr,
                          builder.getUnitAttr());
  }
}

func::FuncOp ModuleLowering::getFunction(const clang::FunctionDecl *decl) {
  decl = decl->getCanonicalDecl();
  if (auto known = functions.lookup(decl))
    return known;
  const clang::FunctionDecl *definition = nullptr;
  decl->hasBody(definition);
  // The signature: `this` for member functions, the parameters, then the
  // address of an aggregate result (which the caller provides, as in the
  // C++ ABI); scalar, pointer and reference results are returned.
  SmallVector<Type> inputs, results;
  if (const auto *method = dyn_cast<clang::CXXMethodDecl>(decl);
      method && method->isInstance()) {
    Type self = lowerType(method->getThisType(), decl->getSourceRange(),
                          "the object of '" + decl->getNameAsString() + "'");
    if (!self)
      return nullptr;
    inputs.push_back(self);
  }
  for (const clang::ParmVarDecl *param : decl->parameters()) {
    // (A vector the function resizes: the address of the caller's object,
    // whose slots hold addresses, `double`s as ofVectorObject's.)
    Type type = keepsVectorParameterInMemory(param)
                    ? getPointerType(Float64Type::get(getContext()))
                    : lowerType(param->getType(), param->getSourceRange(),
                                "parameter '" + param->getName() + "'");
    if (!type)
      return nullptr;
    inputs.push_back(type);
  }
  clang::QualType returnType = decl->getReturnType();
  if (!returnType->isVoidType()) {
    Type type = lowerType(returnType, decl->getReturnTypeSourceRange(),
                          "the result of '" + decl->getNameAsString() + "'");
    if (!type)
      return nullptr;
    // (A std::vector of the memref model is the memory the callee
    // allocated: the caller frees it. One kept in memory, a vector of
    // vectors, is an object like any other, made at the caller's address.)
    bool byAddress = isAggregate(returnType) &&
                     getIteratorElementType(returnType).isNull() &&
                     !isMemrefVector(returnType);
    // (A node built by recursion: the address of a slot holding its
    // address, NodeResults.h.)
    if (buildsNodesRecursively(decl)) {
      type = lowerType(ast.getPointerType(returnType),
                       decl->getReturnTypeSourceRange(),
                       "the result of '" + decl->getNameAsString() + "'");
      if (!type)
        return nullptr;
      byAddress = true;
    }
    (byAddress ? inputs : results).push_back(type);
  }
  // The memory the indirect fields of the object and of the parameters
  // designate (IndirectFields.cpp); code compiled by the library reads the
  // addresses in its objects itself.
  bool libraryCode = isCalledOnLibraryObject(decl);
  if (const auto *method = dyn_cast<clang::CXXMethodDecl>(decl);
      method && method->isInstance() && !libraryCode &&
      !appendIndirectTypes(method->getThisType(), decl->getSourceRange(),
                           "the object of '" + decl->getNameAsString() + "'",
                           inputs))
    return nullptr;
  for (const clang::ParmVarDecl *param : decl->parameters())
    if (!libraryCode &&
        !appendIndirectTypes(param->getType(), param->getSourceRange(),
                             "parameter '" + param->getName() + "'", inputs))
      return nullptr;
  std::string name = mangle(decl);
  // An entry point called from differentiable code: a function of its own
  // beside the one C++ calls, taking lowered memory instead of pointers.
  bool nestedEntry = isEntryCall(decl);
  if (nestedEntry)
    name += ".nested";
  OpBuilder builder(getContext());
  builder.setInsertionPointToEnd(module.getBody());
  auto function =
      func::FuncOp::create(builder, getLoc(decl->getLocation()), name,
                           builder.getFunctionType(inputs, results));
  describeToEngine(decl, function);
  functions[decl] = function;
  if (nestedEntry)
    nestedEntries.push_back({cast<clang::CXXMethodDecl>(decl), function});
  if (!declareCalledAsCompiled(decl, function) && definition)
    pending.push_back(definition);
  else
    function.setPrivate();
  if (!nestedEntry && !function->hasAttr(ct::kExternalAttr) &&
      isExternalFunction(*this, decl))
    markExternal(*this, decl, function);
  return function;
}

bool ModuleLowering::declareCalledAsCompiled(const clang::FunctionDecl *decl,
                                             func::FuncOp function) {
  Builder builder(getContext());
  if (auto compiled = compiledByClang.find(decl);
      compiled != compiledByClang.end()) {
    markExternal(*this, decl, function);
    function->setAttr(ct::kNotLoweredAttr,
                      builder.getStringAttr(compiled->second));
    // (Only code in the same object file can call it.)
    if (!decl->isExternallyVisible())
      function->setAttr(ct::kInternalLinkageAttr, builder.getUnitAttr());
    return true;
  }
  auto libraryObject = libraryObjectCalls.find(decl);
  auto libraryFunction = libraryFunctionCalls.find(decl);
  if (libraryObject == libraryObjectCalls.end() &&
      libraryFunction == libraryFunctionCalls.end())
    return false;
  markExternal(*this, decl, function);
  if (libraryObject != libraryObjectCalls.end())
    function->setAttr(ct::kLibraryObjectAttr,
                      builder.getStringAttr(libraryObject->second));
  else
    function->setAttr(ct::kLibraryCodeAttr,
                      builder.getStringAttr(libraryFunction->second));
  if (std::string why = getCallingConvention().describe(decl, function);
      !why.empty())
    error(decl->getSourceRange(),
          "'" + decl->getQualifiedNameAsString() +
              "' cannot be called as the library compiled it: " + why);
  return true;
}

void ModuleLowering::lowerPending() {
  // In order of first use, so that diagnostics follow the source.
  for (size_t i = 0; i < pending.size(); ++i) {
    const clang::FunctionDecl *decl = pending[i];
    func::FuncOp function = functions.lookup(decl->getCanonicalDecl());
    lowerFunctionBody(*this, decl, function);
    if (function && isLibrary(decl->getLocation()))
      recordCallChain(decl, function);
  }
  pending.clear();
}

void ModuleLowering::recordCallChain(const clang::FunctionDecl *decl,
                                     func::FuncOp function) {
  // The calls that first led to this library function, up to the user's
  // line: the engine's errors inside it end with them as notes.
  SmallVector<std::pair<const clang::FunctionDecl *, clang::SourceLocation>>
      calls;
  appendFirstCalls(decl, calls);
  if (calls.empty())
    return;
  Builder b(getContext());
  SmallVector<Attribute> chain;
  for (auto [callee, at] : calls)
    chain.push_back(b.getArrayAttr(
        {b.getStringAttr(callee->getQualifiedNameAsString()), getLoc(at)}));
  function->setAttr(ct::kCallChainAttr, b.getArrayAttr(chain));
}

void loadFrontendDialects(MLIRContext &context) {
  // Accessors that return references are inlined (ct-structure).
  DialectRegistry registry;
  func::registerInlinerExtension(registry);
  context.appendDialectRegistry(registry);
  context
      .loadDialect<ct::CTDialect, arith::ArithDialect, cf::ControlFlowDialect,
                   func::FuncDialect, math::MathDialect, memref::MemRefDialect,
                   scf::SCFDialect, ub::UBDialect,
                   // Vector mode's entry points move K lanes at once.
                   vector::VectorDialect>();
}

namespace {
/// Finds the functions marked [[ct::differentiable]] that have a body.
struct DifferentiableFinder
    : public clang::RecursiveASTVisitor<DifferentiableFinder> {
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(clang::FunctionDecl *decl) {
    if (decl->doesThisDeclarationHaveABody() && !decl->isDependentContext() &&
        isDifferentiable(decl))
      found.push_back(decl);
    return true;
  }
  SmallVector<const clang::FunctionDecl *> found;
};
} // namespace

/// Marks `ct.calls_external` every function that calls code compiled
/// elsewhere or writes a variable outside it, directly or through the
/// functions it calls (a fixpoint over the calls), so that the engine knows
/// such calls have effects it cannot see (and never runs them twice).
static void markCallersOfExternalCode(ModuleOp module) {
  auto callsExternal = [&](func::CallOp call) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
    return callee && (callee->hasAttr(ct::kExternalAttr) ||
                      callee->hasAttr(ct::kCallsExternalAttr));
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal() || function->hasAttr(ct::kCallsExternalAttr))
        continue;
      // (Writing a variable outside the function is such an effect too.)
      WalkResult found = function.walk([&](Operation *op) {
        auto call = dyn_cast<func::CallOp>(op);
        return (call && callsExternal(call)) ||
                       ct::getWrittenOutsideVariable(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      });
      if (found.wasInterrupted()) {
        function->setAttr(ct::kCallsExternalAttr,
                          UnitAttr::get(module.getContext()));
        changed = true;
      }
    }
  }
}

LogicalResult lowerTranslationUnit(clang::ASTContext &ast, ModuleOp module) {
  ModuleLowering lowering(ast, module);
  // Rules first: calls to the functions they bind need no body.
  lowerCustomRules(lowering);
  DifferentiableFinder finder;
  finder.TraverseDecl(ast.getTranslationUnitDecl());
  for (const clang::FunctionDecl *decl : finder.found) {
    lowering.getFunction(decl);
    if (isExported(decl))
      exportDerivatives(lowering, decl);
  }
  lowerEntryPoints(lowering);
  lowering.lowerPending();
  // Entry points called by differentiable code, and what their functions
  // call in turn.
  while (lowerNestedEntryPoints(lowering))
    lowering.lowerPending();
  bool pragmasOk = checkCheckpointPragmas(ast);
  if (lowering.hadError() || !pragmasOk)
    return failure();
  // Differentiable functions defined in other translation units.
  SmallVector<std::pair<const clang::FunctionDecl *, func::FuncOp>> imports;
  for (auto [decl, function] : lowering.getFunctions()) {
    if (!function || !function.isExternal() || !isDifferentiable(decl) ||
        lowering.hasCustomRule(decl))
      continue;
    // Its defining unit exports derivatives only for functions declared
    // in a header: with every declaration here in this file, the link
    // would fail on a symbol the user never wrote.
    if (!isDeclaredInHeader(decl)) {
      lowering.error(decl->getSourceRange(),
                     "'" + decl->getQualifiedNameAsString() +
                         "' is differentiated here but defined in another "
                         "file, which exports its derivatives only when it is "
                         "declared [[ct::differentiable]] in a header it "
                         "includes; move this declaration into a header that "
                         "both files include");
      continue;
    }
    imports.push_back({decl, function});
  }
  if (lowering.hadError())
    return failure();
  llvm::sort(imports, [](auto a, auto b) {
    return a.second.getSymName() < b.second.getSymName();
  });
  for (auto [decl, function] : imports)
    importDerivatives(lowering, decl, function);
  copyWrittenOutsideVariables(module);
  markCallersOfExternalCode(module);
  // What the lowering emitted must verify before any pass touches it.
  if (failed(verify(module)))
    return failure();
  return success();
}

} // namespace cotangent::frontend
