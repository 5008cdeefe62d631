//===- StdAlgorithms.cpp - <algorithm> and <numeric> on contiguous ranges -===//
//
// The algorithms numerical code uses on arrays and vectors (std::fill,
// fill_n, copy, copy_n, for_each, transform, accumulate, inner_product,
// max_element, min_element, sort and stable_sort, also of structs given a
// comparison, and nth_element and partial_sort, whose postconditions a
// sorted range meets) are lowered from their specification, as
// loops over pointers, rather than from the standard library's
// implementation: libstdc++ and libc++ implement them through
// memmove, projections, invoke and pairs of unwrapped iterators, each
// differently. The callables they take (lambdas defined in the function,
// named functions) are inlined or called on the elements.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "clang/AST/DeclCXX.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {
enum class Algorithm {
  Fill,
  FillN,
  Copy,
  CopyN,
  ForEach,
  Transform,
  Accumulate,
  InnerProduct,
  MaxElement,
  MinElement,
  Next,
  Prev,
  Advance,
  Distance,
  Sort,
  /// nth_element and partial_sort: (first, middle, last[, less]).
  PartialSort,
};
} // namespace

static std::optional<Algorithm> getAlgorithm(const clang::FunctionDecl *f,
                                             unsigned numArgs) {
  if (!f->isInStdNamespace() || !f->getIdentifier())
    return std::nullopt;
  // Only the forms without an execution policy.
  std::optional<Algorithm> known =
      llvm::StringSwitch<std::optional<Algorithm>>(f->getName())
          .Case("fill", Algorithm::Fill)
          .Case("fill_n", Algorithm::FillN)
          .Case("copy", Algorithm::Copy)
          .Case("copy_n", Algorithm::CopyN)
          .Case("for_each", Algorithm::ForEach)
          .Case("transform", Algorithm::Transform)
          .Case("accumulate", Algorithm::Accumulate)
          .Case("inner_product", Algorithm::InnerProduct)
          .Case("max_element", Algorithm::MaxElement)
          .Case("min_element", Algorithm::MinElement)
          .Case("next", Algorithm::Next)
          .Case("prev", Algorithm::Prev)
          .Case("advance", Algorithm::Advance)
          .Case("distance", Algorithm::Distance)
          .Case("sort", Algorithm::Sort)
          // (The insertion sort below is stable.)
          .Case("stable_sort", Algorithm::Sort)
          .Case("nth_element", Algorithm::PartialSort)
          .Case("partial_sort", Algorithm::PartialSort)
          .Default(std::nullopt);
  if (!known)
    return std::nullopt;
  unsigned minArgs = 0, maxArgs = 0;
  switch (*known) {
  case Algorithm::Fill:
  case Algorithm::FillN:
  case Algorithm::Copy:
  case Algorithm::CopyN:
  case Algorithm::ForEach:
    minArgs = maxArgs = 3;
    break;
  case Algorithm::Transform:
    minArgs = 4, maxArgs = 5;
    break;
  case Algorithm::Accumulate:
    minArgs = 3, maxArgs = 4;
    break;
  case Algorithm::InnerProduct:
    minArgs = 4, maxArgs = 6;
    break;
  case Algorithm::MaxElement:
  case Algorithm::MinElement:
  case Algorithm::Sort:
    minArgs = 2, maxArgs = 3;
    break;
  case Algorithm::PartialSort:
    minArgs = 3, maxArgs = 4;
    break;
  case Algorithm::Next:
  case Algorithm::Prev:
    minArgs = 1, maxArgs = 2;
    break;
  case Algorithm::Advance:
  case Algorithm::Distance:
    minArgs = maxArgs = 2;
    break;
  }
  if (numArgs < minArgs || numArgs > maxArgs ||
      (*known == Algorithm::InnerProduct && numArgs == 5))
    return std::nullopt;
  return known;
}

/// The type of `a + b` for arithmetic a and b, as far as the lowering
/// cares: floating beats integer, then the wider wins.
clang::QualType FunctionLowering::commonType(clang::QualType a,
                                             clang::QualType c) {
  bool aFloat = a->isRealFloatingType(), cFloat = c->isRealFloatingType();
  if (aFloat != cFloat)
    return aFloat ? a : c;
  return ast.getTypeSize(a) >= ast.getTypeSize(c) ? a : c;
}

bool FunctionLowering::isModelledAlgorithm(const clang::CallExpr *expr) {
  const clang::FunctionDecl *callee = expr->getDirectCallee();
  std::optional<Algorithm> algorithm =
      callee ? getAlgorithm(callee, expr->getNumArgs()) : std::nullopt;
  if (!algorithm)
    return false;
  // A reverse iterator over contiguous memory is a range stepping back
  // (AlgorithmLowering::rangeAt), where the result is no iterator; ranges
  // of other iterators (a list's) are the library's own code, as written.
  clang::QualType result = expr->getType();
  bool givesIterator = result->isPointerType() ||
                       ModuleLowering::isIteratorClass(result) ||
                       *algorithm == Algorithm::Advance;
  return llvm::none_of(expr->arguments(), [&](const clang::Expr *arg) {
    clang::QualType type = arg->getType();
    if (!ModuleLowering::isIteratorClass(type) || isIterator(type))
      return false;
    return givesIterator || !isReversedContiguous(type);
  });
}

clang::QualType FunctionLowering::elementTypeOf(const clang::Expr *pointer) {
  clang::QualType type = pointer->getType().getCanonicalType();
  if (type->isPointerType())
    return type->getPointeeType();
  return getIteratorElement(type);
}

void FunctionLowering::emitCountedLoop(Location l, Value count,
                                       function_ref<void(Value)> body) {
  // A counter slot, like any local: the clean-up makes it an scf.for.
  Address counter = newIndexSlot(constantIndex(0, l), l);
  emitLoop(
      l,
      [&]() -> Value {
        return arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt,
                                     load(counter, l), count);
      },
      [&] { body(load(counter, l)); },
      [&] {
        store(
            arith::AddIOp::create(b, l, load(counter, l), constantIndex(1, l)),
            counter, l);
      },
      /*conditionFirst=*/true);
}

std::optional<FunctionLowering::Callable>
FunctionLowering::callableOf(const clang::Expr *arg) {
  if (std::optional<Closure> closure = closureOf(arg))
    return Callable{closure, nullptr};
  const clang::Expr *stripped = arg->IgnoreParenImpCasts();
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(stripped);
      unary && unary->getOpcode() == clang::UO_AddrOf)
    stripped = unary->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(stripped))
    if (const auto *function = dyn_cast<clang::FunctionDecl>(ref->getDecl()))
      return Callable{std::nullopt, function, std::nullopt};
  // A function object with one call operator, or one call operator
  // template whose instances the library's code made (`std::greater<>`).
  if (const auto *record = arg->getType()->getAsCXXRecordDecl()) {
    SmallVector<const clang::CXXMethodDecl *> calls;
    SmallVector<const clang::FunctionTemplateDecl *> generics;
    for (const clang::Decl *member : record->decls()) {
      const auto *generic = dyn_cast<clang::FunctionTemplateDecl>(member);
      const auto *method = dyn_cast<clang::CXXMethodDecl>(
          generic ? generic->getTemplatedDecl() : member);
      if (!method || method->getOverloadedOperator() != clang::OO_Call)
        continue;
      // (A template no code instantiated has no instance to call:
      // `std::greater<>`'s for pointers, given numbers.)
      if (!generic)
        calls.push_back(method);
      else if (!generic->specializations().empty())
        generics.push_back(generic);
    }
    if (calls.size() + generics.size() == 1) {
      std::optional<Address> object =
          arg->isGLValue() ? lowerLValue(arg) : materializeTemporary(arg);
      if (!object)
        return std::nullopt;
      if (calls.empty())
        return Callable{std::nullopt, nullptr, object, generics.front()};
      return Callable{std::nullopt, calls.front(), object};
    }
  }
  return unsupported<std::optional<Callable>>(
      arg, "this function object cannot be called from differentiable code; "
           "pass a lambda defined in the function, a named function or an "
           "object with one operator()");
}

/// The instance of `generic` taking `operandTypes` (references stripped);
/// the first one made when none matches; null if none was made.
static const clang::FunctionDecl *
instanceTaking(const clang::FunctionTemplateDecl *generic,
               ArrayRef<clang::QualType> operandTypes) {
  const clang::FunctionDecl *first = nullptr;
  for (const clang::FunctionDecl *instance : generic->specializations()) {
    first = first ? first : instance;
    if (instance->getNumParams() != operandTypes.size())
      continue;
    if (llvm::all_of(llvm::zip(instance->parameters(), operandTypes),
                     [](auto pair) {
                       auto [param, type] = pair;
                       return param->getType()
                                  .getNonReferenceType()
                                  .getCanonicalType()
                                  .getUnqualifiedType() ==
                              type.getCanonicalType().getUnqualifiedType();
                     }))
      return instance;
  }
  return first;
}

const clang::FunctionDecl *
FunctionLowering::calleeOf(const Callable &callable,
                           ArrayRef<clang::QualType> operandTypes) {
  // (The library's code calling a template made the instances it calls.)
  if (callable.generic)
    return instanceTaking(callable.generic, operandTypes);
  if (!callable.closure)
    return callable.function;
  const clang::LambdaExpr *lambda = callable.closure->lambda;
  const clang::FunctionTemplateDecl *generic =
      lambda->getLambdaClass()->getDependentLambdaCallOperator();
  const clang::FunctionDecl *instance =
      generic ? instanceTaking(generic, operandTypes) : nullptr;
  return instance ? instance : lambda->getCallOperator();
}

clang::QualType FunctionLowering::resultTypeOf(const Callable &callable) {
  return calleeOf(callable)
      ->getReturnType()
      .getNonReferenceType()
      .getCanonicalType();
}

Value FunctionLowering::invoke(const Callable &callable,
                               ArrayRef<Operand> operands,
                               const clang::CallExpr *where) {
  Location l = loc(where);
  SmallVector<clang::QualType> operandTypes;
  for (const Operand &operand : operands)
    operandTypes.push_back(operand.type);
  const clang::FunctionDecl *callee = calleeOf(callable, operandTypes);
  if (callee->getNumParams() != operands.size())
    return unsupported(where, "the function given to this algorithm takes "
                              "another number of arguments");
  // Each operand as the parameter takes it: a reference gets the element's
  // memory (a value, a slot holding it), a by-value scalar its value.
  SmallVector<Value> lowered;
  if (callable.object)
    lowered.push_back(materialize(*callable.object, l));
  for (auto [operand, param] :
       llvm::zip_equal(operands, callee->parameters())) {
    clang::QualType type = param->getType().getCanonicalType();
    std::optional<Address> place = operand.place;
    if (type->isReferenceType() || isAggregate(type)) {
      if (!place) {
        Value slot = memref::AllocaOp::create(
            b, l, MemRefType::get({1}, operand.value.getType()));
        place = Address{slot, constantIndex(0, l)};
        store(operand.value, *place, l);
      } else if (!type->isReferenceType()) {
        std::optional<Layout> layout = layoutOf(operand.type, where);
        std::optional<Address> copyPlace =
            allocate(operand.type, where->getSourceRange(), "this argument");
        if (!layout || !copyPlace)
          return nullptr;
        if (!copyObject(*copyPlace, *place, *layout, where))
          return nullptr;
        place = copyPlace;
      }
      lowered.push_back(materialize(*place, l));
      continue;
    }
    Value value = operand.value ? operand.value : load(*place, l);
    lowered.push_back(convert(value, operand.type, type, l));
  }
  clang::QualType returnType = callee->getReturnType().getCanonicalType();
  if (callable.closure) {
    std::optional<CallResult> result =
        inlineBody(where, callee, {}, &*callable.closure, lowered);
    if (!result)
      return nullptr;
    if (result->address)
      return load(*result->address, l);
    return result->scalar;
  }
  if (isAggregate(returnType))
    return unsupported(where, "a function returning a struct cannot be "
                              "given to this algorithm");
  func::FuncOp function = module.getFunction(callee);
  if (!function)
    return nullptr;
  auto call = func::CallOp::create(b, l, function, lowered);
  if (call.getNumResults() == 0)
    return nullptr;
  if (returnType->isReferenceType())
    return load(Address{call.getResult(0), constantIndex(0, l)}, l);
  return call.getResult(0);
}

/// Lowers one call of a modelled algorithm: the ranges it names, then one
/// loop per algorithm family. A friend of FunctionLowering, so the families
/// share the range helpers without widening its interface.
class AlgorithmLowering {
public:
  using CallResult = FunctionLowering::CallResult;
  using Result = std::optional<CallResult>;

  AlgorithmLowering(FunctionLowering &fl, const clang::CallExpr *expr)
      : fl(fl), b(fl.b), expr(expr), l(fl.loc(expr)),
        algorithm(*getAlgorithm(expr->getDirectCallee(), expr->getNumArgs())),
        args(expr->arguments()) {}

  Result lower() {
    switch (algorithm) {
    case Algorithm::Fill:
    case Algorithm::FillN:
      return lowerFill();
    case Algorithm::Copy:
    case Algorithm::CopyN:
      return lowerCopy();
    case Algorithm::ForEach:
      return lowerForEach();
    case Algorithm::Transform:
      return lowerTransform();
    case Algorithm::Accumulate:
    case Algorithm::InnerProduct:
      return lowerAccumulate();
    case Algorithm::MaxElement:
    case Algorithm::MinElement:
      return lowerExtremeElement();
    case Algorithm::Next:
    case Algorithm::Prev:
    case Algorithm::Advance:
      return lowerStep();
    case Algorithm::Distance:
      return lowerDistance();
    case Algorithm::Sort:
      return lowerSort(args[1], args.size() == 3 ? args[2] : nullptr);
    case Algorithm::PartialSort:
      // A sorted range is one each of them may leave.
      return lowerSort(args[2], args.size() == 4 ? args[3] : nullptr);
    }
    llvm_unreachable("every algorithm is handled");
  }

private:
  using Value = mlir::Value;
  using Address = cotangent::frontend::Address;
  using Callable = FunctionLowering::Callable;
  using Operand = FunctionLowering::Operand;

  // A range: where it starts, and its element type and size in scalars.
  // A reversed one (of std::reverse_iterators) steps back from `begin`, the
  // place its first iterator's base designates: element i is before it.
  struct Range {
    Address begin;
    clang::QualType element;
    int64_t scalars;
    Layout layout;
    bool reversed = false;
  };

  std::optional<Range> rangeAt(const clang::Expr *first) {
    clang::QualType base = reversedIteratorOf(first->getType());
    bool reversed = !base.isNull();
    clang::QualType element = !reversed ? fl.elementTypeOf(first)
                              : base->isPointerType()
                                  ? base->getPointeeType()
                                  : fl.getIteratorElement(base);
    if (element.isNull())
      return fl.unsupported<std::optional<Range>>(
          first, "this algorithm is supported on arrays and std::vector "
                 "(pointers and their iterators) only");
    std::optional<Address> begin =
        reversed ? fl.reverseIteratorBase(first) : fl.lowerPointer(first);
    std::optional<Layout> layout = fl.layoutOf(element, first);
    if (!begin || !layout)
      return std::nullopt;
    return Range{*begin, element, layout->size, *layout, reversed};
  }
  Address elementOf(const Range &range, Value i) {
    return fl.rangeElement({range.begin, nullptr, range.reversed}, i,
                           range.scalars, l);
  }
  // The number of elements in [first, last).
  Value distance(const Range &range, const clang::Expr *last) {
    std::optional<Address> end =
        range.reversed ? fl.reverseIteratorBase(last) : fl.lowerPointer(last);
    if (!end)
      return nullptr;
    return fl.countBetween(range.begin, *end, range.reversed, range.scalars,
                           expr);
  }
  Value countOf(const clang::Expr *n) {
    Value value = fl.lowerRValue(n);
    return value ? fl.index(value, n->getType(), l) : nullptr;
  }
  /// `a < c`, or `less(a, c)` on the elements in place; null after an
  /// error.
  Value orderedBy(const std::optional<Callable> &less, const Range &range,
                  Address a, Address c) {
    if (!less)
      return fl.arithmetic(clang::BO_LT, fl.load(a, l), fl.load(c, l),
                           range.element, l);
    Value result = fl.invoke(*less,
                             {Operand{a, nullptr, range.element},
                              Operand{c, nullptr, range.element}},
                             expr);
    return result ? fl.toBool(result, fl.resultTypeOf(*less), l) : nullptr;
  }
  CallResult past(const Range &range, Value count) {
    return CallResult{nullptr, elementOf(range, count)};
  }
  void copyElement(const Range &to, const Range &from, Value i) {
    Address target = elementOf(to, i), source = elementOf(from, i);
    if (to.scalars == 1) {
      fl.store(fl.convert(fl.load(source, l), from.element, to.element, l),
               target, l);
      return;
    }
    fl.copySlots(target, source, to.layout, 0, to.scalars, l);
  }

  Result lowerFill();
  Result lowerCopy();
  Result lowerForEach();
  Result lowerTransform();
  Result lowerAccumulate();
  /// One step of std::accumulate or std::inner_product: `acc` combined with
  /// the term of element `i`.
  void accumulateTerm(const Range &first, const std::optional<Range> &second,
                      Address acc, clang::QualType accType,
                      const std::optional<Callable> &combine,
                      const std::optional<Callable> &multiply, Value i);
  Result lowerExtremeElement();
  Result lowerStep();
  Result lowerDistance();
  /// Sorts [args[0], last), by `less` if given.
  Result lowerSort(const clang::Expr *last, const clang::Expr *less);

  FunctionLowering &fl;
  OpBuilder &b;
  const clang::CallExpr *expr;
  Location l;
  Algorithm algorithm;
  SmallVector<const clang::Expr *> args;
};

AlgorithmLowering::Result AlgorithmLowering::lowerFill() {
  std::optional<Range> range = rangeAt(args[0]);
  if (!range)
    return std::nullopt;
  Value count = algorithm == Algorithm::Fill ? distance(*range, args[1])
                                             : countOf(args[1]);
  if (!count)
    return std::nullopt;
  // The value, converted to the element type once.
  std::optional<Address> value;
  if (range->scalars == 1) {
    Value v = fl.lowerRValue(args[2]);
    if (!v)
      return std::nullopt;
    v = fl.convert(v, args[2]->getType(), range->element, l);
    Value slot =
        memref::AllocaOp::create(b, l, MemRefType::get({1}, v.getType()));
    value = Address{slot, fl.constantIndex(0, l)};
    fl.store(v, *value, l);
  } else {
    value = fl.unpacked(fl.lowerLValue(args[2]), args[2]);
    if (!value)
      return std::nullopt;
  }
  fl.emitCountedLoop(l, count, [&](Value i) {
    fl.copySlots(elementOf(*range, i), *value, range->layout, 0, range->scalars,
                 l);
  });
  if (algorithm == Algorithm::Fill)
    return CallResult{};
  return past(*range, count);
}

AlgorithmLowering::Result AlgorithmLowering::lowerCopy() {
  std::optional<Range> from = rangeAt(args[0]);
  if (!from)
    return std::nullopt;
  Value count = algorithm == Algorithm::Copy ? distance(*from, args[1])
                                             : countOf(args[1]);
  std::optional<Range> to = rangeAt(args[2]);
  if (!count || !to)
    return std::nullopt;
  if (from->scalars != to->scalars)
    return fl.unsupported<Result>(expr, "std::copy between elements of "
                                        "different types is not supported");
  fl.emitCountedLoop(l, count, [&](Value i) { copyElement(*to, *from, i); });
  return past(*to, count);
}

AlgorithmLowering::Result AlgorithmLowering::lowerForEach() {
  std::optional<Range> range = rangeAt(args[0]);
  if (!range)
    return std::nullopt;
  Value count = distance(*range, args[1]);
  std::optional<Callable> f = fl.callableOf(args[2]);
  if (!count || !f)
    return std::nullopt;
  fl.emitCountedLoop(l, count, [&](Value i) {
    fl.invoke(*f, {Operand{elementOf(*range, i), nullptr, range->element}},
              expr);
  });
  return CallResult{};
}

AlgorithmLowering::Result AlgorithmLowering::lowerTransform() {
  bool binary = args.size() == 5;
  std::optional<Range> first = rangeAt(args[0]);
  if (!first)
    return std::nullopt;
  Value count = distance(*first, args[1]);
  std::optional<Range> second;
  if (binary && !(second = rangeAt(args[2])))
    return std::nullopt;
  std::optional<Range> out = rangeAt(args[binary ? 3 : 2]);
  std::optional<Callable> f = fl.callableOf(args[binary ? 4 : 3]);
  if (!count || !out || !f)
    return std::nullopt;
  if (out->scalars != 1)
    return fl.unsupported<Result>(expr, "std::transform into elements that "
                                        "are not numbers is not supported");
  clang::QualType resultType = fl.resultTypeOf(*f);
  fl.emitCountedLoop(l, count, [&](Value i) {
    SmallVector<Operand> operands{
        Operand{elementOf(*first, i), nullptr, first->element}};
    if (binary)
      operands.push_back(
          Operand{elementOf(*second, i), nullptr, second->element});
    if (Value v = fl.invoke(*f, operands, expr))
      fl.store(fl.convert(v, resultType, out->element, l), elementOf(*out, i),
               l);
  });
  return past(*out, count);
}

AlgorithmLowering::Result AlgorithmLowering::lowerAccumulate() {
  bool inner = algorithm == Algorithm::InnerProduct;
  std::optional<Range> first = rangeAt(args[0]);
  if (!first)
    return std::nullopt;
  Value count = distance(*first, args[1]);
  std::optional<Range> second;
  if (inner && !(second = rangeAt(args[2])))
    return std::nullopt;
  const clang::Expr *initExpr = args[inner ? 3 : 2];
  clang::QualType accType = initExpr->getType().getCanonicalType();
  Value init = fl.lowerRValue(initExpr);
  if (!count || !init)
    return std::nullopt;
  if (!accType->isArithmeticType() || first->scalars != 1 ||
      (second && second->scalars != 1))
    return fl.unsupported<Result>(expr, "this algorithm is supported on "
                                        "ranges of numbers only");
  std::optional<Callable> combine, multiply;
  unsigned opIndex = inner ? 4 : 3;
  if (args.size() > opIndex) {
    combine = fl.callableOf(args[opIndex]);
    if (!combine)
      return std::nullopt;
    if (inner && !(multiply = fl.callableOf(args[opIndex + 1])))
      return std::nullopt;
  }
  Value slot =
      memref::AllocaOp::create(b, l, MemRefType::get({1}, init.getType()));
  Address acc{slot, fl.constantIndex(0, l)};
  fl.store(init, acc, l);
  fl.emitCountedLoop(l, count, [&](Value i) {
    accumulateTerm(*first, second, acc, accType, combine, multiply, i);
  });
  return CallResult{fl.load(acc, l), {}};
}

void AlgorithmLowering::accumulateTerm(const Range &first,
                                       const std::optional<Range> &second,
                                       Address acc, clang::QualType accType,
                                       const std::optional<Callable> &combine,
                                       const std::optional<Callable> &multiply,
                                       Value i) {
  // The term: *first, or op2(*first1, *first2) (by default their product),
  // in its own type.
  Value term;
  clang::QualType termType = first.element;
  Address x = elementOf(first, i);
  if (!second) {
    term = fl.load(x, l);
  } else {
    Address y = elementOf(*second, i);
    if (multiply) {
      term = fl.invoke(*multiply,
                       {Operand{x, nullptr, first.element},
                        Operand{y, nullptr, second->element}},
                       expr);
      termType = fl.resultTypeOf(*multiply);
    } else {
      Value a = fl.load(x, l), c = fl.load(y, l);
      termType = fl.commonType(first.element, second->element);
      term = fl.arithmetic(
          clang::BO_Mul, fl.convert(a, first.element, termType, l),
          fl.convert(c, second->element, termType, l), termType, l);
    }
  }
  if (!term)
    return;
  Value current = fl.load(acc, l);
  Value next;
  if (combine) {
    next = fl.invoke(*combine,
                     {Operand{std::nullopt, current, accType},
                      Operand{std::nullopt, term, termType}},
                     expr);
    if (next)
      next = fl.convert(next, fl.resultTypeOf(*combine), accType, l);
  } else {
    // init = init + term, in the usual arithmetic conversions.
    clang::QualType common = fl.commonType(accType, termType);
    next = fl.convert(
        fl.arithmetic(clang::BO_Add, fl.convert(current, accType, common, l),
                      fl.convert(term, termType, common, l), common, l),
        common, accType, l);
  }
  if (next)
    fl.store(next, acc, l);
}

AlgorithmLowering::Result AlgorithmLowering::lowerExtremeElement() {
  std::optional<Range> range = rangeAt(args[0]);
  if (!range)
    return std::nullopt;
  std::optional<Callable> less;
  if (args.size() == 3 && !(less = fl.callableOf(args[2])))
    return std::nullopt;
  Value count = distance(*range, args[1]);
  if (!count)
    return std::nullopt;
  if (range->scalars != 1 && !less)
    return fl.unsupported<Result>(expr, "std::max_element and "
                                        "std::min_element of structs need a "
                                        "comparison (a lambda or function)");
  auto isLess = [&](Address a, Address c) {
    return orderedBy(less, *range, a, c);
  };
  // The first best element, as the standard specifies: max_element keeps
  // the first of equal largest (replaced only when best < candidate),
  // min_element the first of equal smallest (when candidate < best).
  Address best = fl.newIndexSlot(fl.constantIndex(0, l), l);
  bool isMax = algorithm == Algorithm::MaxElement;
  bool failed = false;
  fl.emitCountedLoop(l, count, [&](Value i) {
    Address current = elementOf(*range, fl.load(best, l));
    Address candidate = elementOf(*range, i);
    Value better =
        isMax ? isLess(current, candidate) : isLess(candidate, current);
    if (!better) {
      failed = true;
      return;
    }
    fl.store(arith::SelectOp::create(b, l, better, i, fl.load(best, l)), best,
             l);
  });
  if (failed)
    return std::nullopt;
  return past(*range, fl.load(best, l));
}

AlgorithmLowering::Result AlgorithmLowering::lowerStep() {
  std::optional<Range> range = rangeAt(args[0]);
  Value n = args.size() == 2 ? countOf(args[1]) : fl.constantIndex(1, l);
  if (!range || !n)
    return std::nullopt;
  Value scalars =
      range->scalars == 1
          ? n
          : arith::MulIOp::create(b, l, n, fl.constantIndex(range->scalars, l))
                .getResult();
  if (algorithm == Algorithm::Advance) {
    // The iterator variable itself moves.
    if (!fl.stepPointerVariable(args[0], scalars, /*backwards=*/false,
                                /*returnOld=*/false))
      return std::nullopt;
    return CallResult{};
  }
  return CallResult{nullptr, fl.moveBy(range->begin, scalars,
                                       algorithm == Algorithm::Prev, l)};
}

AlgorithmLowering::Result AlgorithmLowering::lowerDistance() {
  std::optional<Range> range = rangeAt(args[0]);
  if (!range)
    return std::nullopt;
  Value count = distance(*range, args[1]);
  Type type = fl.typeOf(expr);
  if (!count || !type)
    return std::nullopt;
  return CallResult{arith::IndexCastOp::create(b, l, type, count), {}};
}

AlgorithmLowering::Result
AlgorithmLowering::lowerSort(const clang::Expr *last,
                             const clang::Expr *lessExpr) {
  // Insertion sort, from the specification's postcondition: the same
  // elements, each not less than the one before. Swaps move values, so
  // derivatives follow them; O(n^2) compares, for the short ranges
  // differentiable code sorts.
  std::optional<Range> range = rangeAt(args[0]);
  if (!range)
    return std::nullopt;
  Value count = distance(*range, last);
  std::optional<Callable> less;
  if (lessExpr && !(less = fl.callableOf(lessExpr)))
    return std::nullopt;
  if (!count)
    return std::nullopt;
  // Structs (of numbers: pointers would need their places swapped too)
  // move through a temporary, each part in its own type.
  bool aggregate = isAggregate(range->element);
  if (aggregate && (!less || !range->layout.indirect.empty()))
    return fl.unsupported<Result>(
        expr, "std::" + expr->getDirectCallee()->getName() +
                  " is supported on ranges of numbers, and of structs of "
                  "numbers given a comparison (a lambda or function)");
  std::optional<Address> saved;
  if (aggregate && !(saved = fl.allocate(range->element, expr->getSourceRange(),
                                         "an element being sorted")))
    return std::nullopt;
  auto swap = [&](Address x, Address y) {
    if (saved) {
      fl.copySlots(*saved, x, range->layout, 0, range->scalars, l);
      fl.copySlots(x, y, range->layout, 0, range->scalars, l);
      fl.copySlots(y, *saved, range->layout, 0, range->scalars, l);
      return;
    }
    Value vx = fl.load(x, l), vy = fl.load(y, l);
    fl.store(vy, x, l);
    fl.store(vx, y, l);
  };
  auto isLess = [&](Address a, Address c) {
    return orderedBy(less, *range, a, c);
  };
  Value one = fl.constantIndex(1, l), zero = fl.constantIndex(0, l);
  fl.emitCountedLoop(l, count, [&](Value i) {
    Address j = fl.newIndexSlot(i, l);
    fl.emitLoop(
        l,
        [&]() -> Value {
          // j > 0 && a[j] < a[j - 1] (a[0] read when j == 0: in bounds).
          Value at = fl.load(j, l);
          Value positive =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, at, zero);
          Value before = arith::SelectOp::create(
              b, l, positive, arith::SubIOp::create(b, l, at, one), zero);
          Value ordered =
              isLess(elementOf(*range, at), elementOf(*range, before));
          if (!ordered)
            return positive;
          return arith::AndIOp::create(b, l, positive, ordered);
        },
        [&] {
          Value at = fl.load(j, l);
          Value before = arith::SubIOp::create(b, l, at, one);
          swap(elementOf(*range, at), elementOf(*range, before));
          fl.store(before, j, l);
        },
        [] {}, /*conditionFirst=*/true);
  });
  return CallResult{};
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerAlgorithm(const clang::CallExpr *expr) {
  return AlgorithmLowering(*this, expr).lower();
}

} // namespace cotangent::frontend
