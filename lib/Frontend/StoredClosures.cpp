//===- StoredClosures.cpp - Lambdas kept in objects, tuples and arrays ----===//
//
// A lambda is no value in the IR: each call lowers its body in place, with
// its captures bound over the names they capture (Lambdas.cpp). A lambda
// with captures kept in memory (a functor template's `F f` given a lambda,
// a std::tuple or std::pair of lambdas, an array of them) is therefore an
// object whose bytes are never read: which lambda it is and where its
// captures live are known beside the object, as the memory a pointer field
// designates is (IndirectFields.cpp). The closure is recorded where it is
// stored, by its place (memref and constant offset); copies of the object
// copy it; a call through the place finds it. Its by-reference captures of
// numbers, arrays and structs are resolved where it is stored (and `this`
// where it is defined, makeClosure), so that a call elsewhere (another
// member function, a helper given the object) reaches the same places.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

namespace cotangent::frontend {

using mlir::Location;
using mlir::Value;

static int64_t scalarBytes(Value memref) {
  return llvm::divideCeil(
      cast<mlir::MemRefType>(memref.getType()).getElementTypeBitWidth(), 8);
}

/// A closure's place: its memory, seen through no view of other scalars (a
/// std::tuple's element in a base of its own), and its byte there.
static std::optional<std::pair<Value, int64_t>> closureKey(Address place) {
  std::optional<int64_t> offset = staticOffset(place.offset);
  if (!offset)
    return std::nullopt;
  Value memory = place.memref;
  int64_t byte = *offset * scalarBytes(memory);
  while (auto view = memory.getDefiningOp<ct::RetypeViewOp>()) {
    std::optional<int64_t> start = staticOffset(view.getIndex());
    if (!start)
      return std::nullopt;
    memory = view.getSource();
    byte += *start * scalarBytes(memory);
  }
  return std::make_pair(memory, byte);
}

static constexpr const char *kChosenAtRunTime =
    "a lambda with captures can be kept in an object at a place known "
    "where the function is compiled (a field of an object the function "
    "makes, an element of a std::tuple or of an array indexed by a "
    "constant), not in a std::vector, in memory the caller passes, or at "
    "an index chosen at run time; keep the lambda in a variable, or a "
    "named function's pointer in the container";

// The code stores one lambda in a place once (a lambda cannot be assigned):
// a second is another path's.
static constexpr const char *kChosenOnPaths =
    "this object is given a lambda on more than one path (a conditional "
    "choosing between objects holding lambdas), so which lambda it holds "
    "is known only at run time; call the lambdas in the branches instead";

bool FunctionLowering::storeClosure(const clang::Expr *init, Address dest) {
  unsigned errorsBefore = module.errorCount();
  std::optional<Closure> closure = closureOf(init);
  if (!closure) {
    if (module.errorCount() == errorsBefore)
      unsupported<bool>(init, "this lambda is not defined in the "
                              "differentiable function, nor stored by it; "
                              "define it there");
    return false;
  }
  std::optional<std::pair<Value, int64_t>> key = closureKey(dest);
  if (!key)
    return unsupported<bool>(init, kChosenAtRunTime);
  if (copiesClosure(init) && !copyClosureState(*closure, init))
    return false;
  // What its body reaches by name is resolved here, where the names mean
  // what the lambda captured: called from another function (a member of
  // the object holding it), they may mean something else.
  // (Pointers and vectors captured by reference stay names, resolved
  // where the lambda is called.)
  for (const clang::LambdaCapture &capture : closure->lambda->captures())
    if (capture.capturesVariable())
      (void)pinCapture(*closure, capture.getCapturedVar());
  if (!storedClosures.try_emplace(*key, std::move(*closure)).second)
    return unsupported<bool>(init, kChosenOnPaths);
  return true;
}

std::optional<FunctionLowering::Closure>
FunctionLowering::storedClosureOf(const clang::Expr *expr) {
  std::optional<Address> place = lowerLValue(expr);
  if (!place)
    return std::nullopt;
  std::optional<std::pair<Value, int64_t>> key = closureKey(*place);
  auto known = key ? storedClosures.find(*key) : storedClosures.end();
  if (known == storedClosures.end())
    return unsupported<std::optional<Closure>>(expr, kChosenAtRunTime);
  return known->second;
}

std::optional<std::pair<Value, int64_t>>
FunctionLowering::storedCallablePlace(const clang::Expr *expr) {
  if (callableMemory.empty() || !expr->isGLValue() ||
      !isStdFunction(expr->getType()))
    return std::nullopt;
  // (A name bound to a callable, not to a place, is not in memory.)
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(strip(expr));
      ref && !places.count(ref->getDecl()))
    return std::nullopt;
  std::optional<Address> place = lowerLValue(expr);
  std::optional<std::pair<Value, int64_t>> key =
      place ? closureKey(*place) : std::nullopt;
  if (key && (storedClosures.count(*key) || storedFunctions.count(*key)))
    return key;
  // A std::function among those the lowering made empty (each holding its
  // callable beside its place), chosen at run time, would call nothing.
  if (place && callableMemory.contains(memoryRoot(place->memref)))
    unsupported<bool>(expr, kChosenAtRunTime);
  return std::nullopt;
}

std::optional<bool> FunctionLowering::storeStdFunction(const clang::Expr *init,
                                                       clang::QualType type,
                                                       Address dest) {
  // Made from a named function, a lambda, or a std::function holding one.
  const clang::FunctionDecl *function = functionHeldBy(init);
  if (!function &&
      (init->getType()->isFunctionType() || isFunctionPointer(init->getType())))
    function = knownFunction(init); // `f = softplus;`
  std::optional<Closure> closure =
      function ? std::nullopt : concreteClosureOf(init);
  bool copiesHeld = false;
  if (!function && !closure) {
    const auto *construct =
        dyn_cast<clang::CXXConstructExpr>(init->IgnoreImplicit());
    const clang::Expr *source =
        construct && construct->getNumArgs() == 1 ? construct->getArg(0) : init;
    std::optional<std::pair<Value, int64_t>> from =
        storedCallablePlace(source->IgnoreImplicit());
    if (!from)
      return std::nullopt; // the library's
    copiesHeld = true;
    function = storedFunctions.lookup(*from);
    if (!function)
      closure = storedClosures.lookup(*from);
  }
  // Only in the function's own stack objects, whose places are all known:
  // one made in memory of the heap (a std::vector's element) stays the
  // library's, unless it would copy one the lowering holds.
  std::optional<std::pair<Value, int64_t>> key = closureKey(dest);
  Value root = memoryRoot(dest.memref);
  if (!key || !root.getDefiningOp<mlir::memref::AllocaOp>())
    return copiesHeld
               ? std::optional<bool>(unsupported<bool>(init, kChosenAtRunTime))
               : std::nullopt;
  if (storedClosures.count(*key) || storedFunctions.count(*key))
    return unsupported<bool>(init, kChosenOnPaths);
  if (closure && copiesClosure(init) && !copyClosureState(*closure, init))
    return false;
  // The library's object is empty (zero bytes, which its destructor
  // leaves alone): the calls are the callable's.
  std::optional<Layout> layout = layoutOf(type, init);
  if (!layout)
    return false;
  fillZero(dest, *layout, loc(init));
  callableMemory.insert(root);
  if (function)
    storedFunctions[*key] = function;
  else
    storedClosures[*key] = std::move(*closure);
  return true;
}

bool FunctionLowering::copiesClosure(const clang::Expr *expr) {
  const auto *construct =
      dyn_cast<clang::CXXConstructExpr>(expr->IgnoreImplicit());
  return construct && construct->getConstructor()->isCopyConstructor();
}

bool FunctionLowering::copyClosureState(Closure &closure,
                                        const clang::Stmt *where) {
  if (!closure.lambda->isMutable())
    return true;
  Location l = loc(where);
  for (auto &[captured, pointer] : closure.pointerCopies)
    pointer.second = newIndexSlot(load(pointer.second, l), l);
  for (const clang::LambdaCapture &capture : closure.lambda->captures()) {
    if (!capture.capturesVariable() ||
        capture.getCaptureKind() != clang::LCK_ByCopy)
      continue;
    auto copy = closure.copies.find(capture.getCapturedVar());
    if (copy == closure.copies.end())
      continue;
    clang::QualType type =
        capture.getCapturedVar()->getType().getNonReferenceType();
    Address old = copy->second;
    if (isVector(type)) {
      std::optional<Address> fresh = copyOfVector(old, type, where);
      if (!fresh)
        return false;
      cleanups.push_back(fresh->memref);
      copy->second = *fresh;
      continue;
    }
    std::optional<Address> fresh =
        allocate(type, where->getSourceRange(), "this copy of a lambda");
    std::optional<Layout> layout = layoutOf(type, where);
    if (!fresh || !layout || !copyObject(*fresh, old, *layout, where))
      return false;
    copy->second = *fresh;
  }
  return true;
}

bool FunctionLowering::copyClosures(Address dest, Address source,
                                    const Layout &layout,
                                    const clang::Stmt *where) {
  Location l = loc(where);
  for (const Layout::ClosureField &field : layout.closures) {
    std::optional<std::pair<Value, int64_t>> from =
        closureKey(offsetBy(source, field.slot, l));
    std::optional<std::pair<Value, int64_t>> to =
        closureKey(offsetBy(dest, field.slot, l));
    // (A std::function made by the library is copied by the library.)
    if (field.stdFunction && from && storedFunctions.count(*from)) {
      if (!to || storedFunctions.count(*to))
        return unsupported<bool>(where, to ? kChosenOnPaths : kChosenAtRunTime);
      storedFunctions[*to] = storedFunctions.lookup(*from);
      continue;
    }
    auto known = from ? storedClosures.find(*from) : storedClosures.end();
    if (field.stdFunction && known == storedClosures.end())
      continue;
    if (!to || known == storedClosures.end())
      return unsupported<bool>(where, kChosenAtRunTime);
    Closure copy = known->second;
    if (!copyClosureState(copy, where))
      return false;
    if (!storedClosures.try_emplace(*to, std::move(copy)).second)
      return unsupported<bool>(where, kChosenOnPaths);
  }
  return true;
}

} // namespace cotangent::frontend
