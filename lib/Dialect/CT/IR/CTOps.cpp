//===- CTOps.cpp - Operations of the ct dialect ---------------------------===//

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace cotangent::ct;

//===----------------------------------------------------------------------===//
// Activity lists: `[active, const, dup]`
//===----------------------------------------------------------------------===//

static ParseResult parseActivityList(OpAsmParser &parser, ArrayAttr &list) {
  SmallVector<Attribute> activities;
  auto parseOne = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<Activity> activity = symbolizeActivity(keyword);
    if (!activity)
      return parser.emitError(loc, "expected activity 'const', 'active' or "
                                   "'dup', but got '")
             << keyword << "'";
    activities.push_back(ActivityAttr::get(parser.getContext(), *activity));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseOne))
    return failure();
  list = parser.getBuilder().getArrayAttr(activities);
  return success();
}

static void printActivityList(OpAsmPrinter &printer, Operation *,
                              ArrayAttr list) {
  printer << '[';
  llvm::interleaveComma(list, printer, [&](Attribute attr) {
    printer << stringifyActivity(cast<ActivityAttr>(attr).getValue());
  });
  printer << ']';
}

#define GET_OP_CLASSES
#include "cotangent/Dialect/CT/IR/CTOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared verification helpers
//===----------------------------------------------------------------------===//

namespace {
/// A type that an operand or result must have, and where it comes from.
struct ExpectedType {
  Type type;
  std::string origin;
};
} // namespace

/// Checks `actual` against `expected` and reports the first difference.
/// `what` names one element ("input", "seed", ...); `why` says why there are
/// as many as expected.
static LogicalResult verifyTypeList(Operation *op, StringRef what,
                                    const Twine &why, TypeRange actual,
                                    ArrayRef<ExpectedType> expected) {
  if (actual.size() != expected.size())
    return op->emitOpError()
           << "expects " << expected.size() << " " << what << "(s) (" << why
           << "), but has " << actual.size();
  for (auto [i, type] : llvm::enumerate(actual))
    if (type != expected[i].type)
      return op->emitOpError()
             << what << " #" << i << " has type " << type << ", but "
             << expected[i].origin << " has type " << expected[i].type;
  return success();
}

static std::string describe(const Twine &text) { return text.str(); }

/// What a derivative operand or result of a vector-mode request is
/// expected to match, in words: "the 4 lanes of input #1".
static std::string describeLanes(int64_t lanes, const Twine &text) {
  if (lanes == 1)
    return text.str();
  return ("the " + Twine(lanes) + " lanes of " + text).str();
}

/// Looks `name` up as a function with a builtin function type. `role` names
/// the reference in diagnostics ("callee", "pullback", ...).
static FunctionOpInterface lookupFunction(Operation *op,
                                          SymbolTableCollection &tables,
                                          FlatSymbolRefAttr name,
                                          StringRef role) {
  Operation *symbol = tables.lookupNearestSymbolFrom(op, name);
  if (!symbol) {
    op->emitOpError() << role << " " << name << " does not exist";
    return {};
  }
  auto function = dyn_cast<FunctionOpInterface>(symbol);
  if (!function || !isa<FunctionType>(function.getFunctionType())) {
    InFlightDiagnostic diag = op->emitOpError()
                              << role << " " << name
                              << " is not a function with a builtin "
                                 "function type";
    diag.attachNote(symbol->getLoc()) << name << " is defined here";
    return {};
  }
  return function;
}

static FunctionType getType(FunctionOpInterface function) {
  return cast<FunctionType>(function.getFunctionType());
}

//===----------------------------------------------------------------------===//
// Derivative requests
//===----------------------------------------------------------------------===//

/// The activity enum values of an activity array attribute.
static SmallVector<Activity> toActivities(ArrayAttr list) {
  return llvm::map_to_vector(
      list, [](Attribute attr) { return cast<ActivityAttr>(attr).getValue(); });
}

/// Checks what a request says about itself: one activity per input, each one
/// fitting its input's type.
static LogicalResult verifyActivities(Operation *op, ArrayRef<Activity> list,
                                      ValueRange inputs) {
  if (list.size() != inputs.size())
    return op->emitOpError()
           << "expects one activity per input, but has " << list.size()
           << " activities for " << inputs.size() << " inputs";
  for (auto [i, activity, input] : llvm::enumerate(list, inputs))
    if (!activityFitsType(activity, input.getType()))
      return op->emitOpError()
             << "activity '" << stringifyActivity(activity) << "' of input #"
             << i << " requires " << describeActivityRequirement(activity)
             << ", but the input has type " << input.getType();
  return success();
}

/// The type the request's inputs would have if they were a function's
/// arguments; the derivative operands depend on nothing else.
static FunctionType getInputType(Operation *op, ValueRange inputs) {
  return FunctionType::get(op->getContext(), inputs.getTypes(), {});
}

/// Reverse-mode requests: activities fit the inputs and there is one shadow
/// of the right type per dup input.
static LogicalResult verifyReverseOperands(Operation *op,
                                           ArrayRef<Activity> activities,
                                           ValueRange inputs,
                                           ValueRange shadows, int64_t lanes) {
  if (failed(verifyActivities(op, activities, inputs)))
    return failure();
  ReverseSignature sig =
      getReverseSignature(getInputType(op, inputs), activities, lanes);
  SmallVector<ExpectedType> expected;
  for (auto [type, arg] : llvm::zip_equal(sig.shadows, sig.shadowArgs))
    expected.push_back(
        {type, describeLanes(lanes, "dup input #" + Twine(arg))});
  return verifyTypeList(op, "shadow", "one per 'dup' input", shadows.getTypes(),
                        expected);
}

/// Looks up the callee of a request and checks the inputs against its
/// arguments.
static FailureOr<FunctionType> verifyCallee(Operation *op,
                                            SymbolTableCollection &tables,
                                            FlatSymbolRefAttr callee,
                                            ValueRange inputs) {
  FunctionOpInterface function = lookupFunction(op, tables, callee, "callee");
  if (!function)
    return failure();
  FunctionType type = getType(function);
  SmallVector<ExpectedType> expected;
  for (auto [i, arg] : llvm::enumerate(type.getInputs()))
    expected.push_back(
        {arg, describe("argument #" + Twine(i) + " of @" + callee.getValue())});
  if (failed(verifyTypeList(op, "input",
                            "one per argument of @" + callee.getValue(),
                            inputs.getTypes(), expected)))
    return failure();
  return type;
}

/// The results of a reverse-mode request: the callee's, then the adjoints.
static LogicalResult
verifyReverseResults(Operation *op, FlatSymbolRefAttr callee, FunctionType type,
                     const ReverseSignature &sig, TypeRange results) {
  SmallVector<ExpectedType> expected;
  for (auto [i, result] : llvm::enumerate(type.getResults()))
    expected.push_back({result, describe("result #" + Twine(i) + " of @" +
                                         callee.getValue())});
  for (auto [type, arg] : llvm::zip_equal(sig.adjoints, sig.adjointArgs))
    expected.push_back(
        {type, describe("the adjoint of active input #" + Twine(arg))});
  return verifyTypeList(op, "result",
                        "the results of @" + callee.getValue() +
                            ", then one adjoint per "
                            "'active' input",
                        results, expected);
}

SmallVector<Activity> GradientOp::getActivities() {
  return toActivities(getActivity());
}

int64_t GradientOp::getLaneCount() { return 1; }

LogicalResult GradientOp::verify() {
  return verifyReverseOperands(*this, getActivities(), getInputs(),
                               getShadows(), 1);
}

LogicalResult GradientOp::verifySymbolUses(SymbolTableCollection &tables) {
  FailureOr<FunctionType> type =
      verifyCallee(*this, tables, getCalleeAttr(), getInputs());
  if (failed(type))
    return failure();
  if (type->getNumResults() != 1 || !isa<FloatType>(type->getResult(0)))
    return emitOpError() << "needs a callee with exactly one floating-point "
                            "result, but "
                         << getCalleeAttr() << " has type " << *type
                         << "; use ct.pullback to seed several results";
  ReverseSignature sig = getReverseSignature(*type, getActivities());
  return verifyReverseResults(*this, getCalleeAttr(), *type, sig,
                              getResultTypes());
}

SmallVector<Activity> PullbackOp::getActivities() {
  return toActivities(getActivity());
}

int64_t PullbackOp::getLaneCount() { return getLanes().value_or(1); }

LogicalResult PullbackOp::verify() {
  return verifyReverseOperands(*this, getActivities(), getInputs(),
                               getShadows(), getLaneCount());
}

LogicalResult PullbackOp::verifySymbolUses(SymbolTableCollection &tables) {
  FailureOr<FunctionType> type =
      verifyCallee(*this, tables, getCalleeAttr(), getInputs());
  if (failed(type))
    return failure();
  ReverseSignature sig =
      getReverseSignature(*type, getActivities(), getLaneCount());
  SmallVector<ExpectedType> seeds;
  for (auto [seed, result] : llvm::zip_equal(sig.seeds, sig.seedResults))
    seeds.push_back(
        {seed, describeLanes(getLaneCount(), "result #" + Twine(result) +
                                                 " of @" + getCallee())});
  if (failed(verifyTypeList(*this, "seed",
                            "one per floating-point result of @" + getCallee(),
                            getSeeds().getTypes(), seeds)))
    return failure();
  return verifyReverseResults(*this, getCalleeAttr(), *type, sig,
                              getResultTypes());
}

SmallVector<Activity> JvpOp::getActivities() {
  return toActivities(getActivity());
}

int64_t JvpOp::getLaneCount() { return getLanes().value_or(1); }

LogicalResult JvpOp::verify() {
  if (failed(verifyActivities(*this, getActivities(), getInputs())))
    return failure();
  ForwardSignature sig = getForwardSignature(getInputType(*this, getInputs()),
                                             getActivities(), getLaneCount());
  SmallVector<ExpectedType> expected;
  for (auto [type, arg] : llvm::zip_equal(sig.tangents, sig.tangentArgs))
    expected.push_back(
        {type, describeLanes(getLaneCount(), "input #" + Twine(arg))});
  return verifyTypeList(*this, "tangent", "one per non-'const' input",
                        getTangents().getTypes(), expected);
}

LogicalResult JvpOp::verifySymbolUses(SymbolTableCollection &tables) {
  FailureOr<FunctionType> type =
      verifyCallee(*this, tables, getCalleeAttr(), getInputs());
  if (failed(type))
    return failure();
  ForwardSignature sig =
      getForwardSignature(*type, getActivities(), getLaneCount());
  SmallVector<ExpectedType> expected;
  for (auto [i, result] : llvm::enumerate(type->getResults()))
    expected.push_back(
        {result, describe("result #" + Twine(i) + " of @" + getCallee())});
  for (auto [type, result] :
       llvm::zip_equal(sig.resultTangents, sig.tangentResults))
    expected.push_back({type, describe("the tangent of result #" +
                                       Twine(result) + " of @" + getCallee())});
  return verifyTypeList(*this, "result",
                        "the results of @" + getCallee() +
                            ", then one tangent per floating-point result",
                        getResultTypes(), expected);
}

//===----------------------------------------------------------------------===//
// Custom rules
//===----------------------------------------------------------------------===//

/// A function has at most one reverse-mode rule (custom_gradient or
/// custom_vjp) and at most one forward-mode rule; the later binding is wrong.
static LogicalResult verifyOneRulePerFunction(Operation *op,
                                              FlatSymbolRefAttr function) {
  auto isReverse = [](Operation *rule) {
    return isa<CustomGradientOp, CustomVjpOp>(rule);
  };
  for (Operation &other : op->getBlock()->getOperations()) {
    if (&other == op)
      return success();
    if (!isa<CustomGradientOp, CustomVjpOp, CustomJvpOp>(other) ||
        isReverse(&other) != isReverse(op) ||
        other.getAttrOfType<FlatSymbolRefAttr>("function") != function)
      continue;
    InFlightDiagnostic diag = op->emitOpError()
                              << "binds a second "
                              << (isReverse(op) ? "reverse" : "forward")
                              << "-mode rule to " << function;
    diag.attachNote(other.getLoc()) << "the first one is bound here";
    return diag;
  }
  llvm_unreachable("a rule is in its own block");
}

/// Checks that `rule` has type `expected`, given what kind of rule it is.
static LogicalResult verifyRuleType(Operation *op, StringRef role,
                                    FlatSymbolRefAttr rule, FunctionType actual,
                                    FlatSymbolRefAttr function,
                                    FunctionType expected) {
  if (actual == expected)
    return success();
  return op->emitOpError() << role << " " << rule << " has type " << actual
                           << ", but the " << role << " of " << function
                           << " must have type " << expected;
}

LogicalResult
CustomGradientOp::verifySymbolUses(SymbolTableCollection &tables) {
  FunctionOpInterface function =
      lookupFunction(*this, tables, getFunctionAttr(), "function");
  FunctionOpInterface pullback =
      function ? lookupFunction(*this, tables, getPullbackAttr(), "pullback")
               : nullptr;
  if (!pullback || failed(verifyOneRulePerFunction(*this, getFunctionAttr())))
    return failure();
  return verifyRuleType(*this, "pullback", getPullbackAttr(), getType(pullback),
                        getFunctionAttr(),
                        getPullbackRuleType(getType(function)));
}

LogicalResult CustomJvpOp::verifySymbolUses(SymbolTableCollection &tables) {
  FunctionOpInterface function =
      lookupFunction(*this, tables, getFunctionAttr(), "function");
  FunctionOpInterface jvp =
      function ? lookupFunction(*this, tables, getJvpAttr(), "jvp") : nullptr;
  if (!jvp || failed(verifyOneRulePerFunction(*this, getFunctionAttr())))
    return failure();
  return verifyRuleType(*this, "jvp", getJvpAttr(), getType(jvp),
                        getFunctionAttr(), getJvpRuleType(getType(function)));
}

LogicalResult CustomVjpOp::verifySymbolUses(SymbolTableCollection &tables) {
  FunctionOpInterface function =
      lookupFunction(*this, tables, getFunctionAttr(), "function");
  FunctionOpInterface forward =
      function ? lookupFunction(*this, tables, getForwardAttr(), "forward")
               : nullptr;
  FunctionOpInterface backward =
      forward ? lookupFunction(*this, tables, getBackwardAttr(), "backward")
              : nullptr;
  if (!backward || failed(verifyOneRulePerFunction(*this, getFunctionAttr())))
    return failure();

  // forward: the function's arguments in; its results, then residuals, out.
  FunctionType type = getType(function);
  FunctionType forwardType = getType(forward);
  ArrayRef<Type> forwardResults = forwardType.getResults();
  if (forwardType.getInputs() != type.getInputs() ||
      forwardResults.take_front(type.getNumResults()) != type.getResults())
    return emitOpError() << "forward " << getForwardAttr() << " has type "
                         << forwardType << ", but it must take the arguments "
                         << "of " << getFunctionAttr() << " and return its "
                         << "results followed by any residuals: " << type;

  // backward: residuals, the function's arguments, seeds and shadows in;
  // adjoints out.
  ArrayRef<Type> residuals = forwardResults.drop_front(type.getNumResults());
  ReverseSignature sig = getReverseSignature(type, getDefaultActivities(type));
  SmallVector<Type> inputs(residuals);
  llvm::append_range(inputs, type.getInputs());
  llvm::append_range(inputs, sig.seeds);
  llvm::append_range(inputs, sig.shadows);
  return verifyRuleType(*this, "backward", getBackwardAttr(), getType(backward),
                        getFunctionAttr(),
                        FunctionType::get(getContext(), inputs, sig.adjoints));
}

//===----------------------------------------------------------------------===//
// Tapes
//===----------------------------------------------------------------------===//

LogicalResult TapePopOp::canonicalize(TapePopOp op, PatternRewriter &rewriter) {
  auto push = dyn_cast_or_null<TapePushOp>(op->getPrevNode());
  if (!push || push.getTape() != op.getTape() ||
      push.getValue().getType() != op.getType())
    return failure();
  rewriter.replaceOp(op, push.getValue());
  rewriter.eraseOp(push);
  return success();
}

LogicalResult TapeFreeOp::canonicalize(TapeFreeOp op,
                                       PatternRewriter &rewriter) {
  auto init = op.getTape().getDefiningOp<TapeInitOp>();
  if (!init || !init->hasOneUse())
    return failure();
  rewriter.eraseOp(op);
  rewriter.eraseOp(init);
  return success();
}

//===----------------------------------------------------------------------===//
// ct.checkpoint_loop
//===----------------------------------------------------------------------===//

LogicalResult cotangent::ct::CheckpointLoopOp::verify() {
  if (getSnapshotsAttr().getInt() < 0)
    return emitOpError("needs a snapshot count of at least 1, or 0 for the "
                       "default");
  if (getDepthAttr().getInt() < 1)
    return emitOpError("needs a loop depth of at least 1 (the marked loop)");
  return success();
}

//===----------------------------------------------------------------------===//
// ct.parallel_loop
//===----------------------------------------------------------------------===//

LogicalResult cotangent::ct::ParallelLoopOp::verify() {
  if (getKinds().size() != getReduced().size())
    return emitOpError("needs one reduction kind per reduced value");
  for (Attribute kind : getKinds())
    if (!llvm::is_contained({"add", "mul", "max", "min"},
                            cast<StringAttr>(kind).getValue()))
      return emitOpError("has an unknown reduction kind ") << kind;
  if (getCollapse() < 1)
    return emitOpError("needs a collapse count of at least 1");
  if (getDepth() < 1)
    return emitOpError("needs a loop depth of at least 1 (the marked loop)");
  return success();
}

bool cotangent::ct::isCallerMemory(Value memory) {
  while (true) {
    while (auto view = memory.getDefiningOp<ViewLikeOpInterface>())
      memory = view.getViewSource();
    if (auto argument = dyn_cast<BlockArgument>(memory))
      return argument.getOwner()->isEntryBlock() &&
             isa<FunctionOpInterface>(argument.getOwner()->getParentOp());
    auto load = memory.getDefiningOp<LoadAddressOp>();
    if (!load)
      return false;
    memory = load.getHolder();
  }
}

std::string cotangent::ct::getSourcePosition(Location loc) {
  if (auto position = loc->findInstanceOf<FileLineColLoc>())
    return (position.getFilename().getValue() + ":" +
            Twine(position.getLine()) + ":" + Twine(position.getColumn()))
        .str();
  std::string printed;
  llvm::raw_string_ostream os(printed);
  loc.print(os);
  return printed;
}

//===----------------------------------------------------------------------===//
// ct.store_address, ct.load_address
//===----------------------------------------------------------------------===//

/// A holder's address slot is 8 bytes from one of its elements, so that
/// element must be a scalar whose size divides 8.
static LogicalResult verifyAddressHolder(Operation *op, Type holder) {
  Type element = cast<MemRefType>(holder).getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() < 8 ||
      64 % element.getIntOrFloatBitWidth() != 0)
    return op->emitOpError("needs a holder of 8-, 16-, 32- or 64-bit "
                           "scalars, not ")
           << element;
  return success();
}

static LogicalResult verifyAddressedView(Operation *op, Type view) {
  auto type = cast<MemRefType>(view);
  if (!type.getElementType().isIntOrFloat())
    return op->emitOpError("needs a view of scalars, not ") << view;
  if (type.getRank() == 2 && type.isDynamicDim(1))
    return op->emitOpError("needs the lanes of a 2-D view to be static, "
                           "not ")
           << view;
  return success();
}

LogicalResult cotangent::ct::StoreAddressOp::verify() {
  if (failed(verifyAddressHolder(*this, getHolder().getType())))
    return failure();
  return verifyAddressedView(*this, getView().getType());
}

LogicalResult cotangent::ct::LoadAddressOp::verify() {
  if (failed(verifyAddressHolder(*this, getHolder().getType())))
    return failure();
  return verifyAddressedView(*this, getView().getType());
}

//===----------------------------------------------------------------------===//
// ct.retype_view
//===----------------------------------------------------------------------===//

LogicalResult cotangent::ct::RetypeViewOp::verify() {
  // Scalars of whole bytes, or bools (a byte each in memory).
  auto isByteScalar = [](Type type) {
    return type.isInteger(1) ||
           (type.isIntOrFloat() && type.getIntOrFloatBitWidth() % 8 == 0);
  };
  if (!isByteScalar(getSource().getType().getElementType()) ||
      !isByteScalar(getView().getType().getElementType()))
    return emitOpError("views scalars of whole bytes (or bools) as scalars "
                       "of whole bytes");
  auto layout = dyn_cast<StridedLayoutAttr>(getView().getType().getLayout());
  if (!layout || layout.getStrides() != ArrayRef<int64_t>{1})
    return emitOpError("makes a view of stride 1");
  return success();
}
