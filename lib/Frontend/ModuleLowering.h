//===- ModuleLowering.h - State of one translation unit's lowering -*- C++
//-*-===//
//
// Internal to lib/Frontend, in the spirit of ClangIR's CodeGenModule /
// CodeGenFunction split: ModuleLowering owns the module, the function table,
// the memory layouts of C++ types and the diagnostics; FunctionLowering
// (FunctionLowering.h) lowers one body; MathFunctions.cpp holds <cmath>.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_FRONTEND_MODULELOWERING_H
#define COTANGENT_LIB_FRONTEND_MODULELOWERING_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Mangle.h"

#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>

namespace mlir::scf {
class IfOp;
} // namespace mlir::scf

namespace cotangent::frontend {

/// On the declarations of the C++ ABI's guard functions of static locals
/// (GuardedStatics.cpp): they read and write only the guard they are given.
inline constexpr llvm::StringLiteral kStaticGuardAttr = "ct.static_guard";
/// On the memref.global of a static local initialized under its guard that
/// nothing changes after: no call may give it a copy of its own, since a
/// thread waiting on the guard reads the variable itself once it is free
/// (OutsideVariableCopies.cpp).
inline constexpr llvm::StringLiteral kInitializedOnceAttr =
    "ct.initialized_once";
/// On a memref.global.get whose address is given to C++ (a static local
/// registered for destruction at exit): the variable itself, never a call's
/// copy of it (OutsideVariableCopies.cpp).
inline constexpr llvm::StringLiteral kVariableItselfAttr = "ct.variable_itself";

/// Whether `decl` is part of the C++ standard library (namespace `std` or
/// the implementation's `__gnu_cxx`, at any depth).
bool isStandardLibrary(const clang::Decl *decl);

/// How a C++ object lies in memory: `size` scalars of one type, in order.
/// Every object differentiable code handles has one: a scalar is one
/// element, an array its elements' layouts end to end, a struct its bases'
/// and fields' (which must all share the scalar type, with no padding, so
/// that the layout is the one the C++ compiler gives it).
class CallingConvention;
struct DispatchTarget;

struct Layout {
  mlir::Type scalar;
  clang::QualType scalarType;
  int64_t size;
  /// Fields that are not data but designate memory elsewhere: pointers,
  /// references and std::vectors (IndirectFields.cpp). Their slots are
  /// never read or written as scalars; the memory they designate is known
  /// to the lowering beside the object.
  struct IndirectField {
    int64_t slot;         // first slot, from the object's start
    int64_t slots;        // how many slots the field covers
    int64_t byteOffset;   // from the object's start, in the C++ layout
    clang::QualType type; // the field's type
    /// The field (innermost, for a struct inside); null for a pointer that
    /// is itself an element (of an array or vector of pointers).
    const clang::FieldDecl *decl = nullptr;
    /// One of the pointers of a std::vector kept in memory (isVectorObject):
    /// it holds an address, read and written with ct.load_address and
    /// ct.store_address, never passed as a memref of its own.
    bool inMemory = false;
  };
  llvm::SmallVector<IndirectField, 0> indirect;
  /// Runs of slots whose bytes hold floating-point parts of a narrower type
  /// (the `float` fields of a struct of `double`s). Such parts are read,
  /// written and copied as their own type, through a view of their slots:
  /// a copy of the whole slot would add their adjoints as one wide number.
  struct NarrowRun {
    int64_t slot;  // first slot, from the object's start
    int64_t slots; // how many slots the run covers
    mlir::Type scalar;
  };
  llvm::SmallVector<NarrowRun, 0> narrow;
  /// Lambdas with captures kept in the object (a functor template's `F f`):
  /// their slots hold no data; which lambda each is, and where its
  /// captures live, is known to the lowering beside the object, as for
  /// a lambda variable (Lambdas.cpp, docs/Memory.md).
  struct ClosureField {
    int64_t slot;       // first slot, from the object's start
    int64_t slots;      // how many slots the lambda covers
    int64_t byteOffset; // from the object's start, in the C++ layout
    int64_t bytes;      // the lambda's size
    /// A std::function (the library's object, unless it was made from a
    /// lambda or a named function the lowering knows).
    bool stdFunction = false;
  };
  llvm::SmallVector<ClosureField, 0> closures;

  /// For each slot, whether it holds data (not an indirect field's bytes).
  llvm::SmallVector<bool> dataSlots() const {
    llvm::SmallVector<bool> isData(size, true);
    for (const IndirectField &field : indirect)
      std::fill_n(isData.begin() + field.slot, field.slots, false);
    return isData;
  }
};

class ModuleLowering {
public:
  ModuleLowering(clang::ASTContext &ast, mlir::ModuleOp module);

  /// The func.func of `function`, declared on first use; its body is lowered
  /// later (by lowerPending) if Clang has one.
  mlir::func::FuncOp getFunction(const clang::FunctionDecl *function);

  /// The symbol of `function`: its Itanium-mangled name.
  std::string mangle(const clang::FunctionDecl *function);
  /// The linkage name of a function or variable.
  std::string mangle(clang::GlobalDecl decl);

  /// Functions bound to a CT_CUSTOM_GRADIENT / CT_CUSTOM_JVP rule: calls to
  /// them need no body.
  void addCustomRule(const clang::FunctionDecl *function) {
    customRules.insert(function->getCanonicalDecl());
  }
  bool hasCustomRule(const clang::FunctionDecl *function) const {
    return customRules.contains(function->getCanonicalDecl());
  }

  /// Functions called as Clang compiles them, never lowered: custom rules
  /// (and functions bound to rules) that differentiable code cannot
  /// express, with why not (CustomRules.cpp). Declare them before their
  /// first getFunction.
  void callAsCompiled(const clang::FunctionDecl *function,
                      llvm::StringRef whyNotLowered) {
    compiledByClang[function->getCanonicalDecl()] = whyNotLowered.str();
  }
  bool isCalledAsCompiled(const clang::FunctionDecl *function) const {
    return compiledByClang.contains(function->getCanonicalDecl());
  }
  llvm::StringRef whyNotLowered(const clang::FunctionDecl *function) const {
    auto found = compiledByClang.find(function->getCanonicalDecl());
    if (found == compiledByClang.end())
      return "";
    return found->second;
  }

  /// Functions of the library that work on a library object kept as
  /// compiled (isKeptAsCompiled): called as compiled, never lowered, with
  /// the object's class for the engine's errors (LibraryObjects.cpp).
  /// Declare them before their first getFunction.
  void callOnLibraryObject(const clang::FunctionDecl *function,
                           llvm::StringRef className) {
    libraryObjectCalls[function->getCanonicalDecl()] = className.str();
  }
  bool isCalledOnLibraryObject(const clang::FunctionDecl *function) const {
    return libraryObjectCalls.contains(function->getCanonicalDecl()) ||
           libraryFunctionCalls.contains(function->getCanonicalDecl());
  }
  /// A function of the library whose body differentiable code cannot
  /// express (`std::generate_canonical` computes in `long double`): called
  /// as compiled, with why (LibraryObjects.cpp).
  void callLibraryFunctionAsCompiled(const clang::FunctionDecl *function,
                                     llvm::StringRef whyNotLowered) {
    libraryFunctionCalls[function->getCanonicalDecl()] = whyNotLowered.str();
  }
  /// Whether `function` frees memory one of its pointer parameters points
  /// at (`free(p)`, `delete[] p`, directly or through the functions it
  /// calls): the memory is the caller's, so its body is lowered in place
  /// (HeapMemory.cpp).
  bool freesParameter(const clang::FunctionDecl *function);
  /// Records that `function` calls itself over linked nodes
  /// (FunctionLowering::callsItselfByAddress): its parameters are then
  /// nodes a caller reached through addresses kept in memory, which it may
  /// free as C++ frees them (a tree destroyed recursively).
  void markRecursionOverNodes(const clang::FunctionDecl *function) {
    recursionOverNodes.insert(function->getCanonicalDecl());
  }
  bool isRecursionOverNodes(const clang::FunctionDecl *function) const {
    return recursionOverNodes.contains(function->getCanonicalDecl());
  }
  /// Records that objects of `destructor`'s class are destroyed by calls
  /// of it (nodes owning nodes of their class), first at `where`: lowered
  /// on its own, it destroys the object's parts after its body.
  void markDestroyedByCall(const clang::CXXDestructorDecl *destructor,
                           const clang::Stmt *where) {
    destroyedByCall.try_emplace(destructor->getCanonicalDecl(), where);
  }
  /// Where an object of `destructor`'s class was first destroyed by a
  /// call of it, or null if none is.
  const clang::Stmt *
  getDestroyedByCall(const clang::CXXDestructorDecl *destructor) const {
    return destroyedByCall.lookup(destructor->getCanonicalDecl());
  }
  /// Whether objects of `record` are kept as the library compiled them:
  /// a class of a system header that the memory model does not lay out
  /// (std::map, std::unordered_map, std::string, std::function, streams:
  /// a destructor of its own, virtual functions, unions, pointers to the
  /// library's own node classes). Such an object is its bytes; everything
  /// done to it is a call of the library's compiled code.
  static bool isKeptAsCompiled(const clang::CXXRecordDecl *record);
  /// Marks `function`, the declaration of `decl`, as called as compiled if
  /// it is (a custom rule that does not lower, a library object's or the
  /// library's function); returns whether it is.
  bool declareCalledAsCompiled(const clang::FunctionDecl *decl,
                               mlir::func::FuncOp function);
  /// How the target's ABI passes the arguments of calls as compiled.
  CallingConvention &getCallingConvention();

  /// Every function declared so far, with its func.func.
  const llvm::DenseMap<const clang::FunctionDecl *, mlir::func::FuncOp> &
  getFunctions() const {
    return functions;
  }

  /// Lowers the bodies of every function declared so far, including those
  /// their bodies declare in turn.
  void lowerPending();
  /// Writes on `function`, lowered from the library's `decl`, the calls
  /// that first led to it (ct.call_chain).
  void recordCallChain(const clang::FunctionDecl *decl,
                       mlir::func::FuncOp function);

  /// The layout of `type`, or nullopt if it has none (reporting nothing).
  std::optional<Layout> tryGetLayout(clang::QualType type) {
    bool wasQuiet = quiet;
    quiet = true;
    std::optional<Layout> layout = getLayout(type, {}, "");
    quiet = wasQuiet;
    return layout;
  }
  /// The layout of `type`, or nullopt after reporting `what` at `range` as
  /// unsupported.
  std::optional<Layout> getLayout(clang::QualType type,
                                  clang::SourceRange range,
                                  const llvm::Twine &what);

  /// The constant memref.global holding a constant variable defined outside
  /// the function (ConstantGlobals.cpp), created on first use; nullopt after
  /// reporting at `use` why it cannot be read.
  std::optional<mlir::memref::GlobalOp>
  getConstantGlobal(const clang::VarDecl *var, clang::SourceRange use);
  /// A non-constant variable outside the function (at namespace scope, a
  /// static data member or a static local), as an external memref.global
  /// of its linkage name (ConstantGlobals.cpp).
  std::optional<mlir::memref::GlobalOp>
  getOutsideVariable(const clang::VarDecl *var, clang::SourceRange use);
  /// The external memref.global of `type` that stands for `var` (by its
  /// linkage name, with its C++ name), declared on first use.
  mlir::memref::GlobalOp declareOutsideGlobal(const clang::VarDecl *var,
                                              mlir::MemRefType type,
                                              bool constant);
  /// A std::vector of numbers outside the function (at namespace scope, a
  /// static data member or a static local): an external memref.global of
  /// its three address slots, read and changed where C++ keeps them
  /// (OutsideVectors.cpp); nullopt after reporting at `use` why not.
  std::optional<mlir::memref::GlobalOp>
  getOutsideVector(const clang::VarDecl *var, clang::SourceRange use);
  /// Whether derivative code can name `var` (not thread-local, not one of
  /// several same-named statics of a function); reports at `use` otherwise.
  bool isReachableByName(const clang::VarDecl *var, clang::SourceRange use);
  /// Whether `var` is a static local that keeps its first value (`const`,
  /// or only read) whose initializer, not a constant the compiler folds,
  /// reads only constants and calls only library math and constexpr
  /// functions (`static const double c = std::log(2 * M_PI)`): every
  /// evaluation gives the value it holds, so derivative code evaluates it
  /// where it is declared, as a local.
  bool isRecomputedStatic(const clang::VarDecl *var);
  /// Whether `var` is a static local initialized when control first
  /// passes its declaration (its initializer is not a constant, and it is
  /// not recomputed), under its guard (GuardedStatics.cpp).
  bool isGuardedStatic(const clang::VarDecl *var);
  /// The external memref.global of `var`'s guard variable, by the C++ ABI's
  /// name for it.
  mlir::memref::GlobalOp declareStaticGuard(const clang::VarDecl *var);
  /// The declaration of the C++ ABI's `name` (`__cxa_guard_acquire`, which
  /// returns a flag, or `__cxa_guard_release`), taking a guard.
  mlir::func::FuncOp getStaticGuardFunction(llvm::StringRef name,
                                            bool returnsFlag);
  /// The declaration of `__cxa_atexit` (`__cxa_thread_atexit` for a
  /// thread's own variables), taking its three pointers as integers.
  mlir::func::FuncOp getAtExitFunction(bool threadLocal);
  /// Marks `global` as the C++ variable of each thread's own
  /// (ct::kThreadLocalGlobalsAttr).
  void markThreadLocal(mlir::memref::GlobalOp global);

  /// Where a field or a base class starts in its record, in scalars.
  int64_t getFieldOffset(const clang::FieldDecl *field);
  int64_t getBaseOffset(const clang::CXXRecordDecl *derived,
                        clang::QualType base);

  /// The element type of `std::vector<T>`, of any standard library; null
  /// for every other type (StdVector.cpp).
  static clang::QualType getVectorElementType(clang::QualType type);
  /// The layout of a std::vector kept in memory, whatever its elements:
  /// its three addresses (a row of a vector of vectors, a vector field of
  /// a struct a vector holds).
  std::optional<Layout> getVectorInMemoryLayout(clang::QualType vector,
                                                clang::SourceRange range);
  /// The layout of an object of `type` in memory: getLayout's, and for a
  /// std::vector (a row, an element an iterator or a pointer steps
  /// through), its three addresses.
  std::optional<Layout> getLayoutInMemory(clang::QualType type,
                                          clang::SourceRange range,
                                          const llvm::Twine &what) {
    if (!getVectorElementType(type.getCanonicalType()).isNull())
      return getVectorInMemoryLayout(type, range);
    return getLayout(type, range, what);
  }
  /// The byte offsets of the pointers to the first element and past the
  /// last in a `std::vector` object; nullopt after reporting at `range`.
  std::optional<std::pair<int64_t, int64_t>>
  getVectorPointerOffsets(clang::QualType vector, clang::SourceRange range);
  /// What a std::vector lowers to: a pointer memref of its elements'
  /// scalars whose extent is the vector's size; null after an error.
  mlir::MemRefType getVectorType(clang::QualType vector,
                                 clang::SourceRange range,
                                 const llvm::Twine &what);

  /// Whether `record` is a class of the program's (not a library's) whose
  /// destructor is user-provided: destroying one runs that destructor's
  /// body, then destroys its parts (destroyObject).
  static bool hasOwnDestructor(const clang::CXXRecordDecl *record);
  /// Whether `record` is a class of the user's that owns memory: its
  /// destructor is user-provided and is all its destruction (no member or
  /// base destroys anything). Its pointer fields keep addresses
  /// (ct.store_address, ct.load_address: docs/Memory.md), and a local of
  /// it runs the destructor where its scope ends.
  static bool ownsMemory(const clang::CXXRecordDecl *record);
  /// Whether a std::vector of `type` lives in memory as C++ lays it out
  /// (three address slots: first, end, end of capacity) rather than as the
  /// memref of its elements: its elements are vectors (rows), objects that
  /// own memory, or hold such objects, or a library class the memref model
  /// does not lay out (std::string). Its elements are constructed, copied and
  /// destroyed by their own code (VectorObjects.cpp, docs/Memory.md).
  static bool isVectorObject(clang::QualType type);
  /// Whether `type` is a std::vector of the memref model: the memref of
  /// its elements (not one kept in memory).
  static bool isMemrefVector(clang::QualType type) {
    return !getVectorElementType(type).isNull() && !isVectorObject(type);
  }
  /// Whether parameter `param` (a non-const `std::vector&`) is the
  /// caller's vector object, three address slots its function grows,
  /// shrinks or refills (push_back, clear, resize, ...) where the caller
  /// sees it: the function, lowered on its own, takes the object's address
  /// (callers that lower it in place bind it to their own vector).
  static bool keepsVectorParameterInMemory(const clang::ParmVarDecl *param);
  /// Whether objects of `record` hold, in a field or a base, objects that
  /// own memory or vectors kept in memory: destroying one destroys those.
  static bool holdsOwnedMemory(const clang::CXXRecordDecl *record);
  /// Whether `field` is a std::vector of numbers (or of plain structs)
  /// kept in memory as C++ lays it out, as the vector objects are: a field
  /// of a struct that some std::vector of the translation unit holds, by
  /// value, directly or inside another struct, or whose vector field the
  /// program resizes (VectorFields.cpp). Other vector fields designate
  /// memory known beside their object (IndirectFields.cpp).
  static bool keepsVectorInMemory(const clang::FieldDecl *field);
  /// Whether destroying an object of `type` does something: a class with
  /// a destructor of its own, a vector kept in memory, objects holding
  /// them, arrays of them (VectorObjects.cpp).
  static bool needsDestruction(clang::QualType type);
  /// Whether `record` is a lambda's class with captures: kept in memory,
  /// it is a closure the lowering knows beside the object (Layout).
  static bool isClosureClass(const clang::CXXRecordDecl *record) {
    return record && record->isLambda() && record->capture_size() != 0;
  }
  /// Whether elements of `element` that a vector kept in memory holds need
  /// destroying: those above, and rows (vectors of a vector of vectors).
  static bool elementNeedsDestruction(clang::QualType element);
  /// Whether moving an object of `type` to other memory needs its move
  /// constructor (then its destructor on what is left): it holds a library
  /// object kept as compiled, which may point into itself (std::string's
  /// short buffer, std::map's header). Other objects move as their bytes
  /// and addresses, as libraries relocate them.
  static bool movesByConstructor(clang::QualType type);
  /// Whether the std::vector fields of `record` are kept in memory: a
  /// std::vector of the translation unit holds objects of `record` (as
  /// elements, or inside its elements), or the program resizes a vector
  /// field of it (or of a struct holding it).
  static bool keepsVectorFieldsInMemory(const clang::RecordDecl *record);
  /// Finds those structs of `ast` (for keepsVectorInMemory); once per
  /// translation unit, before any layout.
  static void findRecordsKeepingVectors(clang::ASTContext &ast);
  /// Whether code that differentiable functions run assigns pointer field
  /// `field` another pointer after its object is made (`view.data = y`,
  /// not a move within its array): it may designate another array, which
  /// only an address kept in the object can say (found with those
  /// structs).
  static bool isReseatedField(const clang::FieldDecl *field);
  /// Whether `field` is one of those pointer fields, a re-seated one, a
  /// pointer field of a linked object or one designating linked objects
  /// (isLinked), one of a class with virtual functions, or a
  /// std::unique_ptr (whatever class holds it: it is a pointer that owns
  /// its memory).
  static bool keepsAddress(const clang::FieldDecl *field) {
    const auto *record =
        field ? llvm::dyn_cast<clang::CXXRecordDecl>(field->getParent())
              : nullptr;
    if (!record)
      return false;
    if (!getUniquePointee(field->getType()).isNull())
      return true;
    if (!field->getType()->isPointerType() &&
        !field->getType()->isReferenceType())
      return false;
    // (A `void *` field, a C callback's context: the memory it designates
    // is typed by the cast that reads it, so its address is all there is.)
    if (field->getType()->isVoidPointerType())
      return true;
    // (An object of a class with virtual functions is reached through
    // pointers to its bases, whatever its class: the memory a field of it
    // designates is known from the object alone.)
    if (ownsMemory(record) || isLinked(record) || isReseatedField(field) ||
        record->isDynamicClass())
      return true;
    // (A pointer to pointers, `double **rows`, designates a table of
    // addresses, which only an address can find: isAddressTable.)
    if (field->getType()->getPointeeType()->isPointerType())
      return true;
    const clang::RecordDecl *pointee = field->getType()
                                           ->getPointeeType()
                                           ->getBaseElementTypeUnsafe()
                                           ->getAsRecordDecl();
    return pointee && isLinked(pointee);
  }
  /// Whether memory of `element`s is a table of pointers that keeps the
  /// addresses it is given (`new double *[n]`, what a `double **` field
  /// designates): pointers to numbers, or to objects whose own pointers
  /// keep addresses.
  static bool isAddressTable(clang::QualType element);
  /// Whether objects of `record` are linked: following pointer and
  /// reference fields from it comes back to it (a list's `next`, a tree's
  /// children, a node's parent). Such objects are reached through the
  /// addresses in one another, so their pointer fields, and the fields
  /// designating them, keep addresses.
  static bool isLinked(const clang::RecordDecl *record);
  /// Whether `record` is a union of one member holding data and members
  /// that only mark it empty (empty classes, bytes): std::optional's
  /// storage. It is laid out as a struct whose members all start at its
  /// first byte.
  static bool isStateUnion(const clang::RecordDecl *record);
  /// Whether `record` is a union whose members are views of the same
  /// numbers: every part of every member a number of one floating-point
  /// type (`union { struct { double x, y, z; }; double v[3]; }`), or each
  /// member a single number of one width, with at most one floating-point
  /// type among them (`union { float f; std::uint32_t bits; }`: the same
  /// bits read as each, through ct.bit_cast).
  static bool isOverlayUnion(const clang::RecordDecl *record);
  /// A union the memory model lays out: a state union or an overlay union.
  static bool isLaidOutUnion(const clang::RecordDecl *record) {
    return isStateUnion(record) || isOverlayUnion(record);
  }
  /// Whether objects of `type` (or its elements) hold a pointer or
  /// reference field that does not keep its address (one of the memref
  /// model: its slot holds an offset into memory known beside the
  /// object). The address of such an object cannot be kept in memory:
  /// what is read through it would take the offset for an address.
  static bool holdsUnkeptPointers(clang::QualType type);
  /// `T` (or `T[]`) of a std::unique_ptr with the default deleter or a
  /// deleter of an empty class (one address either way); null for other
  /// types.
  static clang::QualType getUniquePointee(clang::QualType type);
  /// The deleter class of such a std::unique_ptr when it is not the
  /// default one (its call operator frees what the pointer owns); null
  /// otherwise.
  static const clang::CXXRecordDecl *getUniqueDeleter(clang::QualType type);
  /// `T` of a std::shared_ptr<T> or a std::weak_ptr<T> (not of an array);
  /// null for other types. Such an object is two addresses, where both
  /// standard libraries keep them: the object's and its control block's
  /// (SharedPointers.cpp).
  static clang::QualType getSharedPointee(clang::QualType type);
  /// Whether `type` is a std::weak_ptr (or libstdc++'s base of it).
  static bool isWeakPointer(clang::QualType type);
  /// std::shared_ptr, or one of the bases a standard library gives it
  /// (libstdc++'s `__shared_ptr` and `__shared_ptr_access`).
  static bool isSharedPointerClass(const clang::CXXRecordDecl *record);
  /// Whether objects of `type` are, or hold, std::shared_ptrs (in arrays,
  /// bases and fields; not behind pointers or in vectors).
  static bool holdsSharedPointers(clang::QualType type);
  /// `T*` for a std::unique_ptr<T> or <T[]> (the pointer it is); null for
  /// other types.
  static clang::QualType getOwnedPointerType(clang::QualType type);
  /// Whether `function`, one of the program's with a body, returns or takes
  /// a std::unique_ptr: its calls are lowered in place, where what it owns
  /// goes to or comes from the caller's variables.
  static bool passesUniquePointers(const clang::FunctionDecl *function);
  /// The pointer type whose address a field that keeps one holds: its own
  /// type, or a std::unique_ptr's getOwnedPointerType.
  static clang::QualType getAddressType(const clang::FieldDecl *field);

  /// The object a parameter of `type` gives access to (the pointee of a
  /// pointer or reference, a by-value aggregate); null for scalars.
  static clang::QualType getParameterObject(clang::QualType type);
  /// The memrefs a function receives, after its declared parameters, for
  /// the indirect fields of the object a parameter of `type` gives access
  /// to (IndirectFields.cpp); false after an error.
  bool appendIndirectTypes(clang::QualType type, clang::SourceRange range,
                           const llvm::Twine &what,
                           llvm::SmallVectorImpl<mlir::Type> &types);
  /// The indirect fields of `layout` that get such a memref: all but the
  /// pointers and references to objects holding pointers themselves, which
  /// the function reads from the caller's object (ct.load_address).
  llvm::SmallVector<Layout::IndirectField>
  getArgumentFields(const Layout &layout);

  /// The element type a standard library iterator over contiguous memory
  /// (std::vector's) steps through; null for every other type
  /// (Iterators.cpp).
  clang::QualType getIteratorElementType(clang::QualType type);
  /// The pointer such an iterator holds (`double *`, `const double *`).
  clang::QualType getIteratorPointerType(clang::QualType type);
  /// Whether `type` is an iterator class of any kind (it names its
  /// `iterator_category`, as every standard iterator does): a
  /// std::reverse_iterator, a list's, as well as the contiguous ones.
  static bool isIteratorClass(clang::QualType type);

  /// The MLIR type of a value of `type`: a scalar for arithmetic types, a
  /// pointer memref (getPointerType) for pointers, references and
  /// aggregates (which are passed by address). Null after an error.
  mlir::Type lowerType(clang::QualType type, clang::SourceRange range,
                       const llvm::Twine &what);

  /// An MLIR location for a Clang one.
  mlir::Location getLoc(clang::SourceLocation loc);

  /// Reports an error at `range`: `message` should say what the construct
  /// is, why it cannot be differentiated and the way out.
  void error(clang::SourceRange range, const llvm::Twine &message);
  bool hadError() const { return errors != 0; }
  unsigned errorCount() const { return errors; }
  /// Whether `loc` is in a library: a system header or one of Cotangent's
  /// own (<cotangent/...>), whose errors get notes back to the user's line.
  bool isLibrary(clang::SourceLocation loc);
  /// From now on, errors are counted but not reported; the first is kept.
  /// For a trial lowering in a module of its own (TrialLowering.cpp).
  void beSpeculative() { speculative = true; }
  const std::string &getFirstError() const { return firstError; }
  /// Where that error is: "file:line:column".
  const std::string &getFirstErrorPlace() const { return firstErrorPlace; }

  /// Where lowering is: the function whose body is being lowered, then the
  /// bodies inlined into it, each with the call that inlined it. An error
  /// inside a system header gets notes at the calls that led there, up to
  /// the user's own line.
  struct Frame {
    const clang::FunctionDecl *function;
    clang::SourceLocation call; // invalid for a body lowered on its own
  };
  void enter(const clang::FunctionDecl *function,
             clang::SourceLocation call = {}) {
    frames.push_back({function, call});
  }
  void leave() { frames.pop_back(); }
  /// Records the first call of `callee`, from the function being lowered,
  /// and the calls of the bodies inlined there (so that the chain from
  /// `callee` goes through them back to a function lowered on its own).
  void noteCall(const clang::FunctionDecl *callee, clang::SourceLocation at) {
    if (frames.empty())
      return;
    firstCalls.try_emplace(callee->getCanonicalDecl(),
                           Frame{frames.back().function, at});
    for (size_t i = frames.size() - 1; i > 0 && frames[i].call.isValid(); --i)
      firstCalls.try_emplace(frames[i].function->getCanonicalDecl(),
                             Frame{frames[i - 1].function, frames[i].call});
  }

  //===--- Virtual functions (VirtualCalls.cpp) ---------------------------===//
  /// The function a virtual call of `method` calls: it compares the
  /// object's virtual-table pointer with those of the unit's classes that
  /// derive from `method`'s and calls the matching class's final overrider.
  /// Null after an error at `where`.
  mlir::func::FuncOp getVirtualDispatch(const clang::CXXMethodDecl *method,
                                        clang::SourceRange where);
  /// The address (ct.vtable_address) that `record`'s constructor stores
  /// in its subobject of class `base` at `baseOffset` bytes; null if the
  /// table has none there.
  mlir::Value buildVTableAddress(mlir::OpBuilder &builder, mlir::Location l,
                                 const clang::CXXRecordDecl *record,
                                 const clang::CXXRecordDecl *base,
                                 int64_t baseOffset);
  /// Where `base` begins in a `derived` object, in bytes; nullopt if it is
  /// not a unique, non-virtual base.
  std::optional<int64_t> getBaseByteOffset(const clang::CXXRecordDecl *derived,
                                           const clang::CXXRecordDecl *base);
  /// Whether destroying an object of static type `type` may do something:
  /// its own destruction, or, through a virtual destructor, that of a class
  /// of the unit derived from it.
  bool mayNeedDestruction(clang::QualType type);
  /// The unit's classes with virtual functions that objects can have.
  llvm::ArrayRef<const clang::CXXRecordDecl *> getConcreteDynamicClasses();

  //===--- Function pointers (FunctionPointers.cpp) -----------------------===//
  /// The functions the unit's own code names other than to call them: the
  /// functions a pointer it makes can hold.
  llvm::ArrayRef<const clang::FunctionDecl *> getAddressTakenFunctions();
  /// The member functions whose address (`&C::f`) the unit's code takes:
  /// those a pointer to a member function it makes can hold.
  llvm::ArrayRef<const clang::CXXMethodDecl *> getAddressTakenMethods();
  /// The address of the unit's `function` (ct.function_address), as a
  /// function pointer holds it.
  mlir::Value buildFunctionAddress(mlir::OpBuilder &builder, mlir::Location l,
                                   const clang::FunctionDecl *function);

  clang::ASTContext &getAST() { return ast; }
  mlir::MLIRContext *getContext() { return module.getContext(); }
  mlir::ModuleOp getModule() { return module; }

  /// The entry points differentiable code calls (a derivative taken inside
  /// a function that is differentiated again), declared with the signature
  /// of lowered code; lowerNestedEntryPoints gives them their bodies.
  llvm::SmallVector<std::pair<const clang::CXXMethodDecl *, mlir::func::FuncOp>>
      nestedEntries;

private:
  void buildDispatch(mlir::OpBuilder &b, mlir::Location l,
                     mlir::func::FuncOp dispatch,
                     const clang::CXXMethodDecl *method,
                     llvm::ArrayRef<DispatchTarget> targets);
  llvm::DenseMap<const clang::CXXMethodDecl *, mlir::func::FuncOp>
      virtualDispatches;
  std::optional<llvm::SmallVector<const clang::CXXRecordDecl *>>
      concreteDynamicClasses;
  std::optional<llvm::SmallVector<const clang::FunctionDecl *>>
      addressTakenFunctions;
  std::optional<llvm::SmallVector<const clang::CXXMethodDecl *>>
      addressTakenMethods;

  std::optional<Layout> computeLayout(clang::QualType type,
                                      clang::SourceRange range,
                                      const llvm::Twine &what);

  clang::ASTContext &ast;
  mlir::ModuleOp module;
  std::unique_ptr<clang::MangleContext> mangler;
  llvm::DenseMap<const clang::FunctionDecl *, mlir::func::FuncOp> functions;
  llvm::DenseMap<const clang::Type *, Layout> layouts;
  /// Types whose layout was refused (and reported).
  llvm::DenseSet<const clang::Type *> unsupportedTypes;
  llvm::SmallVector<const clang::FunctionDecl *> pending;
  llvm::DenseSet<const clang::FunctionDecl *> customRules;
  llvm::DenseMap<const clang::VarDecl *, mlir::memref::GlobalOp>
      constantGlobals;
  unsigned errors = 0;
  /// Set while asking whether a layout exists: errors are not reported.
  bool quiet = false;
  /// Set for a trial lowering: errors are counted, not reported.
  bool speculative = false;
  std::string firstError, firstErrorPlace;
  /// Functions called as compiled (callAsCompiled), with why.
  llvm::DenseMap<const clang::FunctionDecl *, std::string> compiledByClang;
  /// Functions called on library objects (callOnLibraryObject).
  llvm::DenseMap<const clang::FunctionDecl *, std::string> libraryObjectCalls;
  /// freesParameter's answers (false while a function is being asked).
  llvm::DenseMap<const clang::FunctionDecl *, bool> parameterFreeing;
  llvm::DenseSet<const clang::FunctionDecl *> recursionOverNodes;
  llvm::DenseMap<const clang::FunctionDecl *, const clang::Stmt *>
      destroyedByCall;
  /// Library functions called as compiled (callLibraryFunctionAsCompiled).
  llvm::DenseMap<const clang::FunctionDecl *, std::string> libraryFunctionCalls;
  std::unique_ptr<CallingConvention> callingConvention;
  /// The errors reported, so that none is reported twice.
  std::set<std::pair<clang::SourceLocation, std::string>> reported;
  llvm::SmallVector<Frame> frames;
  /// For each function lowered on its own: its caller and the call.
  llvm::DenseMap<const clang::FunctionDecl *, Frame> firstCalls;
  /// The calls that first led to `function` (lowered on its own), then to
  /// its caller, and so on, up to a call in the user's code.
  void appendFirstCalls(
      const clang::FunctionDecl *function,
      llvm::SmallVectorImpl<std::pair<const clang::FunctionDecl *,
                                      clang::SourceLocation>> &chain);
  /// For an error inside a library: each call that led there, from the
  /// innermost out, ending at the user's own line when there is one.
  llvm::SmallVector<
      std::pair<const clang::FunctionDecl *, clang::SourceLocation>>
  callChain(clang::SourceLocation error);
  /// The user's calls into libraries already reported.
  llvm::DenseSet<clang::SourceLocation> reportedLibraryCalls;
};

/// How the target's C++ ABI passes the arguments and result of a function
/// called as compiled, from Clang's own CodeGen (CallingConvention.cpp).
class CallingConvention {
public:
  explicit CallingConvention(clang::ASTContext &ast);
  ~CallingConvention();
  /// Writes the plan of calls of `decl` on `function` (ct.c_args,
  /// ct.c_result); returns why the ABI's way cannot be followed, or "".
  std::string describe(const clang::FunctionDecl *decl,
                       mlir::func::FuncOp function);

private:
  struct Tables;
  clang::ASTContext &ast;
  std::unique_ptr<Tables> tables;
};

/// Whether objects of `type` are aggregates: arrays and classes, which live
/// in memory and are passed by address.
bool isAggregate(clang::QualType type);

/// What pointers, references and aggregates lower to: a 1-D memref of
/// scalars with a dynamic size and offset, so that `p + k` is a view of the
/// same type.
mlir::MemRefType getPointerType(mlir::Type scalar);

/// Lowers the body of `decl` into `function`.
void lowerFunctionBody(ModuleLowering &module, const clang::FunctionDecl *decl,
                       mlir::func::FuncOp function);

/// Functions of the C library or of namespace std, not the user's own.
bool isMathLibraryFunction(const clang::FunctionDecl *function);
/// `name` without `__builtin_` and, unless `isKnown` accepts it whole,
/// without the `f`/`l` of its float and long double spellings.
llvm::StringRef
mathFunctionBase(llvm::StringRef name,
                 llvm::function_ref<bool(llvm::StringRef)> isKnown);
/// C's `remainder(x, y)`: x - n y, n the nearest integer to x / y.
mlir::Value buildRemainder(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value x, mlir::Value y);
/// C's `ldexp(x, n)`: x 2^n, for integer n of any width.
mlir::Value scaleByPowerOfTwo(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value x, mlir::Value n);
/// Builds a <cmath> function as math-dialect ops (or a libm call); returns
/// null if `function` is not one of them.
mlir::Value buildMathFunction(mlir::OpBuilder &builder, mlir::Location loc,
                              const clang::FunctionDecl *function,
                              mlir::ValueRange args, mlir::Type resultType,
                              mlir::ModuleOp module);
/// Clang's `__builtin_elementwise_<name>` (`name` without the prefix) of
/// scalar `operands`, or of one lane of each vector operand; null for a
/// builtin not lowered.
mlir::Value buildElementwiseBuiltin(mlir::OpBuilder &b, mlir::Location l,
                                    llvm::StringRef name,
                                    mlir::ValueRange operands, bool isSigned);
/// The <cmath> function called `name` (`exp`, `log1p`, `pow`...) of
/// `args`, as buildMathFunction builds it; null for another name or
/// arity.
mlir::Value buildNamedMathFunction(mlir::OpBuilder &builder, mlir::Location loc,
                                   llvm::StringRef name, mlir::ValueRange args,
                                   mlir::Type resultType);

/// The class template ct::detail::<name> of <cotangent/cotangent.h>, if the
/// translation unit includes it.
const clang::ClassTemplateDecl *findCotangentTemplate(clang::ASTContext &ast,
                                                      llvm::StringRef name);

/// Builds the derivative entry points (ct::gradient<f>, ...) the
/// translation unit calls (EntryPoints.cpp).
void lowerEntryPoints(ModuleLowering &module);
/// Gives the entry points that differentiable code calls their bodies;
/// false when there was none left to build.
bool lowerNestedEntryPoints(ModuleLowering &module);
/// Whether `function` is the `call` of a derivative entry point
/// (`ct::detail::entry<...>::call`), which the plugin defines.
bool isEntryCall(const clang::FunctionDecl *function);
/// Whether `decl` is declared directly in Cotangent's namespace ct::detail
/// (the header's entry points and helpers such as result_into).
bool isInCotangentDetail(const clang::Decl *decl);

/// An `scf.if` on `condition` with both branches empty (no yields yet):
/// one arm of a dispatch (VirtualCalls.cpp, FunctionPointers.cpp).
mlir::scf::IfOp buildChoice(mlir::OpBuilder &b, mlir::Location l,
                            mlir::TypeRange results, mlir::Value condition);
/// Ends the program with `message` where a dispatch found no target; a
/// poison value of each of `results` for the branch to yield.
llvm::SmallVector<mlir::Value> buildAbort(mlir::OpBuilder &b, mlir::Location l,
                                          llvm::StringRef message,
                                          mlir::TypeRange results);

/// Whether a call of `function` calls code compiled elsewhere as it is: no
/// visible body, not [[ct::differentiable]], no custom rule, not an entry
/// point (ExternalCalls.cpp).
bool isExternalFunction(ModuleLowering &module,
                        const clang::FunctionDecl *function);
/// Why differentiable code cannot call such a function (its signature has
/// no C-ABI form in the memory model: an object by value, a pointer
/// result, ...), or an empty string when it can.
std::string whyNotCallable(ModuleLowering &module,
                           const clang::FunctionDecl *function);
/// Why differentiable code cannot call the library's compiled `function`,
/// which works on a library object kept as compiled (its signature holds
/// addresses, or it returns a reference into memory of numbers it was
/// given); empty when it can (LibraryObjects.cpp).
std::string whyNotCallableOnLibraryObject(ModuleLowering &module,
                                          const clang::FunctionDecl *function);
/// Marks the declaration `function` of such a callee for the engine and
/// for code generation (ct.external, ct.readonly, ct.extend).
void markExternal(ModuleLowering &module, const clang::FunctionDecl *decl,
                  mlir::func::FuncOp function);

/// Why `function` (with the functions it calls) cannot be lowered as
/// differentiable code, from a trial lowering in a module of its own that
/// reports nothing; empty when it can (TrialLowering.cpp). `place`, if
/// given, gets where the first problem is ("file:line:column").
std::string whyNotLowerable(clang::ASTContext &ast,
                            const clang::FunctionDecl *function,
                            std::string *place = nullptr);

/// Binds the CT_CUSTOM_GRADIENT / CT_CUSTOM_JVP rules (CustomRules.cpp).
void lowerCustomRules(ModuleLowering &module);

/// Gives each floating-point variable outside the functions that they
/// write a copy of its own per call (OutsideVariableCopies.cpp).
void copyWrittenOutsideVariables(mlir::ModuleOp module);

/// Whether other translation units may differentiate `function` from its
/// declaration alone, so that this one exports its derivatives
/// (CrossTranslationUnit.cpp).
bool isExported(const clang::FunctionDecl *function);
/// Whether some declaration of `function` is in a header (not in the main
/// file): what makes its defining translation unit export it.
bool isDeclaredInHeader(const clang::FunctionDecl *function);
void exportDerivatives(ModuleLowering &module,
                       const clang::FunctionDecl *function);
/// Binds `function`, declared here and defined elsewhere, to the
/// derivatives its translation unit exports.
void importDerivatives(ModuleLowering &module, const clang::FunctionDecl *decl,
                       mlir::func::FuncOp function);

} // namespace cotangent::frontend

#endif // COTANGENT_LIB_FRONTEND_MODULELOWERING_H
