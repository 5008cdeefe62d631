//===- StdAlgorithms.cpp - <algorithm> and <numeric> on contiguous ranges -===//
//
// The algorithms numerical code uses on arrays and vectors (std::fill,
// fill_n, copy, copy_n, for_each, transform, accumulate, inner_product,
// max_element, min_element) are lowered from their specification, as
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
  return callee && getAlgorithm(callee, expr->getNumArgs()).has_value();
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
  // A function object with one call operator (not a template).
  if (const auto *record = arg->getType()->getAsCXXRecordDecl()) {
    SmallVector<const clang::CXXMethodDecl *> calls;
    for (const clang::CXXMethodDecl *method : record->methods())
      if (method->getOverloadedOperator() == clang::OO_Call)
        calls.push_back(method);
    if (calls.size() == 1) {
      std::optional<Address> object =
          arg->isGLValue() ? lowerLValue(arg) : materializeTemporary(arg);
      if (!object)
        return std::nullopt;
      return Callable{std::nullopt, calls.front(), object};
    }
  }
  return unsupported<std::optional<Callable>>(
      arg, "this function object cannot be called from differentiable code; "
           "pass a lambda defined in the function, a named function or an "
           "object with one (non-template) operator()");
}

const clang::FunctionDecl *
FunctionLowering::calleeOf(const Callable &callable) {
  return callable.closure ? callable.closure->lambda->getCallOperator()
                          : callable.function;
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
  const clang::FunctionDecl *callee = calleeOf(callable);
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

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerAlgorithm(const clang::CallExpr *expr) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  const clang::FunctionDecl *callee = expr->getDirectCallee();
  Algorithm algorithm = *getAlgorithm(callee, expr->getNumArgs());
  SmallVector<const clang::Expr *> args(expr->arguments());

  // A range: where it starts, and its element type and size in scalars.
  struct Range {
    Address begin;
    clang::QualType element;
    int64_t scalars;
  };
  auto rangeAt = [&](const clang::Expr *first) -> std::optional<Range> {
    clang::QualType element = elementTypeOf(first);
    if (element.isNull())
      return unsupported<std::optional<Range>>(
          first, "this algorithm is supported on arrays and std::vector "
                 "(pointers and their iterators) only");
    std::optional<Address> begin = lowerPointer(first);
    std::optional<Layout> layout = layoutOf(element, first);
    if (!begin || !layout)
      return std::nullopt;
    return Range{*begin, element, layout->size};
  };
  auto elementOf = [&](const Range &range, Value i) {
    Value at =
        range.scalars == 1
            ? i
            : arith::MulIOp::create(b, l, i, constantIndex(range.scalars, l))
                  .getResult();
    return offsetBy(range.begin, at, l);
  };
  // The number of elements in [first, last).
  auto distance = [&](const Range &range, const clang::Expr *last) -> Value {
    std::optional<Address> end = lowerPointer(last);
    if (!end)
      return nullptr;
    auto positions = comparablePositions(range.begin, *end, expr);
    if (!positions)
      return nullptr;
    Value scalars =
        arith::SubIOp::create(b, l, positions->second, positions->first);
    return range.scalars == 1
               ? scalars
               : arith::DivSIOp::create(b, l, scalars,
                                        constantIndex(range.scalars, l))
                     .getResult();
  };
  auto countOf = [&](const clang::Expr *n) -> Value {
    Value value = lowerRValue(n);
    return value ? index(value, n->getType(), l) : nullptr;
  };
  auto past = [&](const Range &range, Value count) {
    return CallResult{nullptr, elementOf(range, count)};
  };
  auto copyElement = [&](const Range &to, const Range &from, Value i) {
    Address target = elementOf(to, i), source = elementOf(from, i);
    if (to.scalars == 1) {
      store(convert(load(source, l), from.element, to.element, l), target, l);
      return;
    }
    copy(target, source, to.scalars, l);
  };

  switch (algorithm) {
  case Algorithm::Fill:
  case Algorithm::FillN: {
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
      Value v = lowerRValue(args[2]);
      if (!v)
        return std::nullopt;
      v = convert(v, args[2]->getType(), range->element, l);
      Value slot =
          memref::AllocaOp::create(b, l, MemRefType::get({1}, v.getType()));
      value = Address{slot, constantIndex(0, l)};
      store(v, *value, l);
    } else {
      value = unpacked(lowerLValue(args[2]), args[2]);
      if (!value)
        return std::nullopt;
    }
    emitCountedLoop(l, count, [&](Value i) {
      copy(elementOf(*range, i), *value, range->scalars, l);
    });
    if (algorithm == Algorithm::Fill)
      return CallResult{};
    return past(*range, count);
  }
  case Algorithm::Copy:
  case Algorithm::CopyN: {
    std::optional<Range> from = rangeAt(args[0]);
    if (!from)
      return std::nullopt;
    Value count = algorithm == Algorithm::Copy ? distance(*from, args[1])
                                               : countOf(args[1]);
    std::optional<Range> to = rangeAt(args[2]);
    if (!count || !to)
      return std::nullopt;
    if (from->scalars != to->scalars)
      return unsupported<Result>(expr, "std::copy between elements of "
                                       "different types is not supported");
    emitCountedLoop(l, count, [&](Value i) { copyElement(*to, *from, i); });
    return past(*to, count);
  }
  case Algorithm::ForEach: {
    std::optional<Range> range = rangeAt(args[0]);
    if (!range)
      return std::nullopt;
    Value count = distance(*range, args[1]);
    std::optional<Callable> f = callableOf(args[2]);
    if (!count || !f)
      return std::nullopt;
    emitCountedLoop(l, count, [&](Value i) {
      invoke(*f, {Operand{elementOf(*range, i), nullptr, range->element}},
             expr);
    });
    return CallResult{};
  }
  case Algorithm::Transform: {
    bool binary = args.size() == 5;
    std::optional<Range> first = rangeAt(args[0]);
    if (!first)
      return std::nullopt;
    Value count = distance(*first, args[1]);
    std::optional<Range> second;
    if (binary && !(second = rangeAt(args[2])))
      return std::nullopt;
    std::optional<Range> out = rangeAt(args[binary ? 3 : 2]);
    std::optional<Callable> f = callableOf(args[binary ? 4 : 3]);
    if (!count || !out || !f)
      return std::nullopt;
    if (out->scalars != 1)
      return unsupported<Result>(expr, "std::transform into elements that "
                                       "are not numbers is not supported");
    clang::QualType resultType = resultTypeOf(*f);
    emitCountedLoop(l, count, [&](Value i) {
      SmallVector<Operand> operands{
          Operand{elementOf(*first, i), nullptr, first->element}};
      if (binary)
        operands.push_back(
            Operand{elementOf(*second, i), nullptr, second->element});
      if (Value v = invoke(*f, operands, expr))
        store(convert(v, resultType, out->element, l), elementOf(*out, i), l);
    });
    return past(*out, count);
  }
  case Algorithm::Accumulate:
  case Algorithm::InnerProduct: {
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
    Value init = lowerRValue(initExpr);
    if (!count || !init)
      return std::nullopt;
    if (!accType->isArithmeticType() || first->scalars != 1 ||
        (second && second->scalars != 1))
      return unsupported<Result>(expr, "this algorithm is supported on "
                                       "ranges of numbers only");
    std::optional<Callable> combine, multiply;
    unsigned opIndex = inner ? 4 : 3;
    if (args.size() > opIndex) {
      combine = callableOf(args[opIndex]);
      if (!combine)
        return std::nullopt;
      if (inner && !(multiply = callableOf(args[opIndex + 1])))
        return std::nullopt;
    }
    Value slot =
        memref::AllocaOp::create(b, l, MemRefType::get({1}, init.getType()));
    Address acc{slot, constantIndex(0, l)};
    store(init, acc, l);
    emitCountedLoop(l, count, [&](Value i) {
      // The term: *first, or op2(*first1, *first2) (by default their
      // product), in its own type.
      Value term;
      clang::QualType termType = first->element;
      Address x = elementOf(*first, i);
      if (!inner) {
        term = load(x, l);
      } else {
        Address y = elementOf(*second, i);
        if (multiply) {
          term = invoke(*multiply,
                        {Operand{x, nullptr, first->element},
                         Operand{y, nullptr, second->element}},
                        expr);
          termType = resultTypeOf(*multiply);
        } else {
          Value a = load(x, l), c = load(y, l);
          termType = commonType(first->element, second->element);
          term =
              arithmetic(clang::BO_Mul, convert(a, first->element, termType, l),
                         convert(c, second->element, termType, l), termType, l);
        }
      }
      if (!term)
        return;
      Value current = load(acc, l);
      Value next;
      if (combine) {
        next = invoke(*combine,
                      {Operand{std::nullopt, current, accType},
                       Operand{std::nullopt, term, termType}},
                      expr);
        if (next)
          next = convert(next, resultTypeOf(*combine), accType, l);
      } else {
        // init = init + term, in the usual arithmetic conversions.
        clang::QualType common = commonType(accType, termType);
        next = convert(
            arithmetic(clang::BO_Add, convert(current, accType, common, l),
                       convert(term, termType, common, l), common, l),
            common, accType, l);
      }
      if (next)
        store(next, acc, l);
    });
    return CallResult{load(acc, l), {}};
  }
  case Algorithm::MaxElement:
  case Algorithm::MinElement: {
    if (args.size() == 3)
      return unsupported<Result>(expr, "std::max_element and "
                                       "std::min_element with a comparison "
                                       "are not supported; compare in a "
                                       "loop");
    std::optional<Range> range = rangeAt(args[0]);
    if (!range)
      return std::nullopt;
    Value count = distance(*range, args[1]);
    if (!count)
      return std::nullopt;
    if (range->scalars != 1)
      return unsupported<Result>(expr, "this algorithm is supported on "
                                       "ranges of numbers only");
    // The first best element, as the standard specifies (`<` only).
    Address best = newIndexSlot(constantIndex(0, l), l);
    bool isMax = algorithm == Algorithm::MaxElement;
    emitCountedLoop(l, count, [&](Value i) {
      Value current = load(elementOf(*range, load(best, l)), l);
      Value candidate = load(elementOf(*range, i), l);
      Value better =
          isMax
              ? arithmetic(clang::BO_LT, current, candidate, range->element, l)
              : arithmetic(clang::BO_LT, candidate, current, range->element, l);
      store(arith::SelectOp::create(b, l, better, i, load(best, l)), best, l);
    });
    return past(*range, load(best, l));
  }
  case Algorithm::Next:
  case Algorithm::Prev:
  case Algorithm::Advance: {
    std::optional<Range> range = rangeAt(args[0]);
    Value n = args.size() == 2 ? countOf(args[1]) : constantIndex(1, l);
    if (!range || !n)
      return std::nullopt;
    Value scalars =
        range->scalars == 1
            ? n
            : arith::MulIOp::create(b, l, n, constantIndex(range->scalars, l))
                  .getResult();
    if (algorithm == Algorithm::Advance) {
      // The iterator variable itself moves.
      if (!stepPointerVariable(args[0], scalars, /*backwards=*/false,
                               /*returnOld=*/false))
        return std::nullopt;
      return CallResult{};
    }
    return CallResult{nullptr, moveBy(range->begin, scalars,
                                      algorithm == Algorithm::Prev, l)};
  }
  case Algorithm::Distance: {
    std::optional<Range> range = rangeAt(args[0]);
    if (!range)
      return std::nullopt;
    Value count = distance(*range, args[1]);
    Type type = typeOf(expr);
    if (!count || !type)
      return std::nullopt;
    return CallResult{arith::IndexCastOp::create(b, l, type, count), {}};
  }
  case Algorithm::Sort: {
    // Insertion sort, from the specification's postcondition: the same
    // elements, each not less than the one before. Swaps move values, so
    // derivatives follow them; O(n^2) compares, for the short ranges
    // differentiable code sorts.
    std::optional<Range> range = rangeAt(args[0]);
    if (!range)
      return std::nullopt;
    Value count = distance(*range, args[1]);
    std::optional<Callable> less;
    if (args.size() == 3 && !(less = callableOf(args[2])))
      return std::nullopt;
    if (!count)
      return std::nullopt;
    if (range->scalars != 1)
      return unsupported<Result>(expr, "std::sort is supported on ranges "
                                       "of numbers only");
    auto isLess = [&](Address a, Address c) -> Value {
      if (!less)
        return arithmetic(clang::BO_LT, load(a, l), load(c, l), range->element,
                          l);
      Value result = invoke(*less,
                            {Operand{a, nullptr, range->element},
                             Operand{c, nullptr, range->element}},
                            expr);
      return result ? toBool(result, resultTypeOf(*less), l) : nullptr;
    };
    Value one = constantIndex(1, l), zero = constantIndex(0, l);
    emitCountedLoop(l, count, [&](Value i) {
      Address j = newIndexSlot(i, l);
      emitLoop(
          l,
          [&]() -> Value {
            // j > 0 && a[j] < a[j - 1] (a[0] read when j == 0: in bounds).
            Value at = load(j, l);
            Value positive = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::sgt, at, zero);
            Value before = arith::SelectOp::create(
                b, l, positive, arith::SubIOp::create(b, l, at, one), zero);
            Value ordered =
                isLess(elementOf(*range, at), elementOf(*range, before));
            if (!ordered)
              return positive;
            return arith::AndIOp::create(b, l, positive, ordered);
          },
          [&] {
            Value at = load(j, l);
            Value before = arith::SubIOp::create(b, l, at, one);
            Address x = elementOf(*range, at), y = elementOf(*range, before);
            Value vx = load(x, l), vy = load(y, l);
            store(vy, x, l);
            store(vx, y, l);
            store(before, j, l);
          },
          [] {}, /*conditionFirst=*/true);
    });
    return CallResult{};
  }
  }
  llvm_unreachable("every algorithm is handled");
}

} // namespace cotangent::frontend
