//===- Derivatives.h - Generated derivative functions -----------*- C++ -*-===//
//
// Internal to lib/AD: the registry of derivative functions of a module, and
// the emitters that fill in their bodies.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_DERIVATIVES_H
#define COTANGENT_LIB_AD_DERIVATIVES_H

#include "cotangent/AD/Activity.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

namespace cotangent::ad {

/// Moves loop-invariant loads out of the scf.for loops under `root`
/// (the ct-hoist-invariant-loads pass; also run on code that forward mode
/// generated, before reverse mode differentiates it).
void hoistInvariantLoads(mlir::Operation *root);

/// Replaces loads of elements just stored or loaded in the same block by
/// their value (the ct-forward-stores pass; also run on code that forward
/// mode generated).
void forwardStores(mlir::Operation *root);


enum class DerivativeKind {
  /// Reverse mode in one function: (args, seeds, shadows) -> (results,
  /// adjoints of active args).
  Pullback,
  /// Forward half of reverse mode for callees: (args, tape) -> results;
  /// pushes what the reverse half needs.
  Forward,
  /// Reverse half: (args, tape, seeds, shadows) -> adjoints.
  Reverse,
  /// Forward mode: (args, tangents) -> (results, result tangents).
  Jvp,
};

/// The type of a derivative of a function of type `type`.
mlir::FunctionType getDerivativeType(mlir::FunctionType type,
                                     DerivativeKind kind,
                                     llvm::ArrayRef<ct::Activity> activities);

/// The activities a call gives its callee's arguments: active floats are
/// active, memory with a shadow is dup (unless a function compiled
/// elsewhere only reads it), the rest const.
llvm::SmallVector<ct::Activity>
getCallActivities(mlir::func::CallOp call, const ActivityAnalysis &activity);

/// Whether argument `i` of `callee`, a function compiled elsewhere
/// (ct.external), points to memory it only reads (ct.readonly).
bool isReadOnlyExternalArgument(mlir::func::FuncOp callee, unsigned i);

/// Whether argument `i` of `function` is its own copy of an aggregate
/// passed by value (ct.by_value) that it may write: where a derivative
/// leaves it constant, it is dup with a zeroed scratch shadow, so that
/// values with derivatives stored into it keep them, as in a local.
bool isWrittenOwnCopy(mlir::func::FuncOp function, unsigned i);

/// Whether `op` calls a function compiled elsewhere (ct.external), or one
/// that does (ct.calls_external): its effects are unknown, so it is run
/// once and never again.
bool callsExternalCode(mlir::Operation *op);

/// The reverse-mode strategies in use (the ct-differentiate options of the
/// same names, which explain them). All on by default.
struct ReverseStrategies {
  bool eagerLoops = true;
  bool recomputeIterations = true;
  bool eagerCalls = true;
  bool commutingIterations = true;
  bool reloadMemory = true;
  bool recomputeValues = true;
};

/// How derivative products are built (the ct-differentiate options of the
/// same names).
struct ProductOptions {
  /// A zero adjoint or tangent times any partial is zero: a select on the
  /// factor being zero around every product of a partial.
  bool strongZero = false;
};

/// Derivative functions of one module, created on request and generated
/// once each. Generation is on demand and recursive: a derivative's body may
/// request derivatives of its callees, and differentiating a generated
/// function generates it first.
class DerivativeRegistry {
public:
  /// Runs the clean-up pipeline on a function (the ct-differentiate pass
  /// runs ct-forward-derivative-cleanup as a dynamic pipeline).
  using Cleanup = std::function<mlir::LogicalResult(mlir::func::FuncOp)>;

  explicit DerivativeRegistry(mlir::ModuleOp module,
                              ReverseStrategies strategies = {},
                              Cleanup cleanup = nullptr);

  const ReverseStrategies &getStrategies() const { return strategies; }
  const ProductOptions &getProductOptions() const { return products; }
  void setProductOptions(ProductOptions options) { products = options; }

  /// The derivative of `primal`, declared now and generated later.
  mlir::func::FuncOp get(mlir::func::FuncOp primal, DerivativeKind kind,
                         llvm::ArrayRef<ct::Activity> activities);

  /// Generates every requested derivative, including those their bodies
  /// request in turn.
  mlir::LogicalResult generateAll();
  /// Generates `function` now if it is a requested derivative not yet
  /// generated (code that reads its body needs it); nothing otherwise.
  mlir::LogicalResult generateNow(mlir::func::FuncOp function);

  mlir::func::FuncOp lookupFunction(mlir::FlatSymbolRefAttr name);
  /// The module's symbol table, which functions made outside the registry
  /// (widened derivatives) join so that lookupFunction finds them.
  mlir::SymbolTable &getSymbolTable() { return symbols; }
  /// The reverse-mode rule bound to `function`: a ct.custom_gradient or a
  /// ct.custom_vjp op, or null.
  mlir::Operation *getReverseRule(mlir::func::FuncOp function);
  ct::CustomJvpOp getCustomJvp(mlir::func::FuncOp function);

  mlir::ModuleOp getModule() { return module; }

private:
  struct Job {
    mlir::func::FuncOp primal;
    DerivativeKind kind;
    llvm::SmallVector<ct::Activity> activities;
    /// The other half of a fwd/rev pair; both are generated together.
    mlir::func::FuncOp partner;
    enum { Pending, Running, Done } state = Pending;
  };
  mlir::LogicalResult generate(mlir::func::FuncOp derivative);
  /// Inlines into `function` its calls of generated forward-mode
  /// derivatives (generating them first), so that reverse mode over them
  /// (a Hessian-vector product) differentiates one function, then cleans
  /// it up.
  mlir::LogicalResult inlineForwardDerivatives(mlir::func::FuncOp function);
  /// `function` with its unstructured control flow (cf branches, early
  /// returns) lifted to scf, or null after an error.
  mlir::func::FuncOp getStructured(mlir::func::FuncOp function);
  /// A function that only calls `function`, for differentiating a call.
  mlir::func::FuncOp getCallWrapper(mlir::func::FuncOp function);
  mlir::func::FuncOp declare(mlir::func::FuncOp primal, DerivativeKind kind,
                             llvm::ArrayRef<ct::Activity> activities);

  mlir::ModuleOp module;
  ReverseStrategies strategies;
  ProductOptions products;
  Cleanup cleanup;
  mlir::SymbolTable symbols;
  llvm::MapVector<mlir::Operation *, Job> jobs;
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> reverseRules;
  llvm::DenseMap<mlir::Operation *, ct::CustomJvpOp> customJvps;
};

/// Emit the body of a derivative function; on failure an error has been
/// reported at the primal construct that could not be differentiated.
mlir::LogicalResult emitJvp(DerivativeRegistry &registry,
                            mlir::func::FuncOp primal,
                            mlir::func::FuncOp derivative,
                            llvm::ArrayRef<ct::Activity> activities);
/// Reverse mode: a combined pullback when `forward == reverse`, else the
/// fwd/rev pair of a callee.
mlir::LogicalResult emitReverse(DerivativeRegistry &registry,
                                mlir::func::FuncOp primal,
                                mlir::func::FuncOp forward,
                                mlir::func::FuncOp reverse,
                                llvm::ArrayRef<ct::Activity> activities);

//===----------------------------------------------------------------------===//
// Small IR helpers shared by the emitters
//===----------------------------------------------------------------------===//

/// A branch op like `op` (scf.if or scf.index_switch) on `selector`, with
/// results of `types` and one empty block per region; the builder's
/// insertion point is left after it.
mlir::Operation *buildBranchLike(mlir::OpBuilder &builder,
                                 mlir::Operation *op, mlir::Value selector,
                                 mlir::TypeRange types);

/// The yield of a branch region, or null for a missing else.
inline mlir::Operation *getBranchYield(mlir::Region &region) {
  return region.empty() ? nullptr : region.front().getTerminator();
}

/// The position of element `k` of a vector of `shape`, in row-major order.
inline llvm::SmallVector<int64_t> delinearize(int64_t k,
                                             llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> position(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    position[d] = k % shape[d];
    k /= shape[d];
  }
  return position;
}

/// The sum of the vector `value` over the dimensions it has in front of
/// `type`'s (all of them for a scalar): the transpose of a broadcast to
/// `type`, and the sum over outer lanes in lanes of lanes (Rules/Vector.cpp).
mlir::Value sumOverLeading(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value value, mlir::Type type);

/// `value` as a constant of a float type, or of a vector of floats (every
/// lane).
mlir::Value buildFloatConstant(mlir::OpBuilder &builder, mlir::Location loc,
                               mlir::Type type, double value);
/// 0 of a float type, or of a vector of floats.
mlir::Value buildZero(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Type type);
/// `value` converted to the float type `type` (extension or truncation), of
/// vectors elementwise.
mlir::Value buildFloatCast(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value value, mlir::Type type);
/// `old + adjoint`, for summing contributions to an adjoint. No source
/// order exists for them, so the sum may be reassociated (LLVM then
/// vectorises adjoint reductions like `dx[c] += L[r][c] * dy[r]` over r)
/// and fused with the products that feed it.
mlir::Value buildAdjointSum(mlir::OpBuilder &builder, mlir::Location loc,
                            mlir::Value old, mlir::Value adjoint);
/// Marks a reversed loop (counting k = 0 .. trips - 1) whose iterations
/// commute but pop the tape: ct-tape-blocks, which turns its pops into reads
/// by position, then runs it in the primal's order.
inline constexpr llvm::StringLiteral kCommutingIterations =
    "ct.commuting_iterations";

/// Marks an scf.for that was an scf.parallel (ct-serialize-parallel-loops)
/// and the loops derivatives make of it; ct-parallelize-loops turns those
/// whose iterations it proves independent back into scf.parallel.
inline constexpr llvm::StringLiteral kParallelLoop = "ct.parallel";
/// The value of kParallelLoop on loops the user asked to run on a GPU
/// (others have a unit attribute).
inline constexpr llvm::StringLiteral kDeviceMark = "device";
/// Whether `loop` is marked parallel for a GPU.
inline bool isDeviceLoop(mlir::Operation *loop) {
  auto mark = loop->getAttrOfType<mlir::StringAttr>(kParallelLoop);
  return mark && mark.getValue() == kDeviceMark;
}
/// Marks a loop each of whose iterations takes back every tape entry it
/// makes (an eager loop's forward sweep, a recomputed loop's reverse): an
/// iteration running in parallel with others may use a tape of its own.
inline constexpr llvm::StringLiteral kIterationTape = "ct.iteration_tape";
/// Gives `derived`, a loop made from `loop`, the mark of a parallel loop if
/// `loop` has it.
inline void copyParallelMark(mlir::Operation *loop, mlir::Operation *derived) {
  if (mlir::Attribute mark = loop->getAttr(kParallelLoop))
    derived->setAttr(kParallelLoop, mark);
}

/// Whether `op` takes or makes a tape.
inline bool usesTape(mlir::Operation *op) {
  return llvm::any_of(op->getOperandTypes(), llvm::IsaPred<ct::TapeType>) ||
         llvm::any_of(op->getResultTypes(), llvm::IsaPred<ct::TapeType>);
}

/// The tape ops of kind OpT in `loop`'s body block, in order, if they are
/// the only ops anywhere in the loop that use a tape, all the same one: the
/// loops ct-tape-blocks turns into blocks.
template <typename OpT>
std::optional<llvm::SmallVector<OpT>> getOnlyTapeOps(mlir::scf::ForOp loop) {
  llvm::SmallVector<OpT> found;
  mlir::Value tape;
  mlir::WalkResult walk = loop.getBody()->walk([&](mlir::Operation *op) {
    if (!usesTape(op))
      return mlir::WalkResult::advance();
    auto typed = llvm::dyn_cast<OpT>(op);
    if (!typed || op->getBlock() != loop.getBody() ||
        (tape && typed.getTape() != tape))
      return mlir::WalkResult::interrupt();
    tape = typed.getTape();
    found.push_back(typed);
    return mlir::WalkResult::advance();
  });
  if (walk.wasInterrupted() || found.empty())
    return std::nullopt;
  return found;
}
/// The trip count max(0, ceildiv(ub - lb, step)) of an scf.for with these
/// bounds, in their type.
mlir::Value buildTripCount(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value lb, mlir::Value ub, mlir::Value step);
/// `value` (an integer or index) as an index.
mlir::Value buildIndexCast(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value value);
/// Stores 0 into every element of `memref`.
void buildZeroFill(mlir::OpBuilder &builder, mlir::Location loc,
                   mlir::Value memref);
/// A fresh zero-filled memref with the shape of `like`, for a shadow that the
/// caller does not need (a rule's derivative of a constant argument). A view
/// of a C pointer, whose extent is unknown, gets reserved scratch memory
/// (cotangent/scratch.h) instead of a buffer of that extent.
mlir::Value buildScratchShadow(mlir::OpBuilder &builder, mlir::Location loc,
                               mlir::Value like);
/// Frees what buildScratchShadow made.
void buildScratchFree(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value scratch);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_DERIVATIVES_H
