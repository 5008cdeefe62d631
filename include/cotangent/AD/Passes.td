//===- Passes.td - Cotangent AD passes ----------------------*- tablegen -*-===//

#ifndef COTANGENT_AD_PASSES_TD
#define COTANGENT_AD_PASSES_TD

include "mlir/Pass/PassBase.td"

def Differentiate : Pass<"ct-differentiate", "::mlir::ModuleOp"> {
  let summary = "Replace derivative requests with calls to generated derivatives";
  let description = [{
    Replaces every `ct.gradient`, `ct.pullback` and `ct.jvp` with a call to a
    derivative function generated in the module, once per function and
    activity pattern: `<f>.pullback.<acts>` (reverse mode, value and
    adjoints), `<f>.jvp.<acts>` (forward mode), and for functions called
    from reverse-mode code `<f>.fwd.<acts>` / `<f>.rev.<acts>`, the forward
    half that records what the reverse half needs on a tape, and the reverse
    half that reads it back. Custom rules bound with `ct.custom_*` are called
    instead of differentiating a body. Functions with unstructured control
    flow (cf branches, early returns) are differentiated through a copy
    lifted to scf (`<f>.structured`). Derivative functions are ordinary
    code, so they can be differentiated again (`ct.jvp` of a function that
    calls `ct.gradient` is a Hessian-vector product). A request with
    `lanes K` calls a copy of the derivative widened to K lanes
    (`<derivative>.lanesK.<which arguments and results carry lanes>`): its
    derivative values become vectors and its shadows gain a lane dimension,
    while its primal code is unchanged and runs once.
  }];
  let dependentDialects = [
    "::cotangent::ct::CTDialect", "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect", "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::ub::UBDialect",
    "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"unconnected", "unconnected", "std::string", "\"warn\"",
           "What to do with an active parameter that does not influence "
           "the result: zero, warn or error">,
    // Reverse-mode strategies. Each only saves tape or time; with all of
    // them off every loop is reversed from the tape, every call is split
    // into fwd/rev halves, and every value the reverse sweep needs from a
    // nested block is taped: the plain strategy the others must agree with.
    Option<"eagerLoops", "eager-loops", "bool", "true",
           "Undo each iteration of a loop whose results reach the return "
           "linearly right after it runs, in the forward sweep">,
    Option<"recomputeIterations", "recompute-iterations", "bool", "true",
           "Rerun a self-contained loop iteration just before undoing it "
           "instead of taping what it computes">,
    Option<"eagerCalls", "eager-calls", "bool", "true",
           "Run a callee's pullback in the forward sweep when its result's "
           "adjoint is known before the call">,
    Option<"commutingIterations", "commuting-iterations", "bool", "true",
           "Run the reverse of a loop whose iterations touch disjoint "
           "elements in the primal's order">,
    Option<"reloadMemory", "reload-memory", "bool", "true",
           "Load again, in the reverse sweep, memory that keeps its contents "
           "to the end of the function (freeing heap buffers at the end) "
           "instead of taping what was loaded">,
    Option<"recomputeValues", "recompute-values", "bool", "true",
           "Recompute short chains of cheap pure ops in the reverse sweep "
           "instead of taping their results">,
    Option<"strongZero", "strong-zero", "bool", "false",
           "A zero adjoint or tangent times any partial is zero, even an "
           "infinite or NaN one (IEEE gives NaN): values that overflow "
           "where no derivative reaches them leave derivatives finite">,
  ];
}

def Internalize : Pass<"ct-internalize", "::mlir::ModuleOp"> {
  let summary = "Make private every function nothing outside the object calls";
  let description = [{
    Only the entry points the C++ frontend generated for the derivative
    calls of the translation unit (`ct.entry_point`) and the derivatives it
    exports to other translation units (`ct.export`) are called from
    outside; every other function with a body becomes private, so that
    `symbol-dce` drops what no derivative reaches once the requests are
    lowered.
  }];
}

def KeepRuleCalls : Pass<"ct-keep-rule-calls", "::mlir::ModuleOp"> {
  let summary = "Keep calls of functions with custom rules or checkpoints from being inlined";
  let description = [{
    Marks every `func.call` of a function bound by `ct.custom_gradient`,
    `ct.custom_vjp` or `ct.custom_jvp`, or marked `ct.checkpoint` (C++
    `[[ct::checkpoint]]`: reverse mode reruns its calls), `no_inline`. The autodiff pipeline
    inlines callees before differentiating (one function differentiates
    into one combined pullback: no tape between split halves, and memory
    that is only read can be read again in the reverse sweep); a call that a
    rule replaces, or that reverse mode reruns, must stay a call.
  }];
}

def HoistInvariantLoads : Pass<"ct-hoist-invariant-loads"> {
  let summary = "Hoist loop-invariant loads out of scf.for loops";
  let description = [{
    Moves a `memref.load` at the top level of an `scf.for` body whose
    indices are defined outside the loop and whose memory the loop does not
    write out of the loop, guarded by `scf.if` on a non-empty iteration
    space so that it never reads where the program would not. Memory is
    told apart by its root: a local allocation aliases nothing else; memory
    arguments may alias each other, so a load from one is hoisted only when
    the loop writes no argument memory. The reverse sweep then keeps one
    value per outer iteration instead of one per inner iteration.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def ForwardStores : Pass<"ct-forward-stores"> {
  let summary = "Replace loads of just-stored or just-loaded elements by the value";
  let description = [{
    Within a block, a `memref.load` of the same memref at the same index
    values as an earlier store (or load), with no op in between that may
    write memory aliasing it, takes the stored (or loaded) value. Memory is
    told apart by its root, as in `ct-hoist-invariant-loads`. The branches
    of `scf.if` and `scf.index_switch` start with what is known before the
    op; other regions (loop bodies) with what is known of memory the op
    does not write. A value taken from a store needs no tape entry in
    the reverse sweep when the memory is overwritten later; it is recomputed
    or available like any SSA value.
  }];
}

def AutoCheckpoints : Pass<"ct-auto-checkpoint", "::mlir::ModuleOp"> {
  let summary = "Checkpoint a loop whose recorded tape would be long, chosen when it starts";
  let description = [{
    In each function a gradient or pullback request differentiates, each
    `scf.for` inside no other loop that reverse mode could checkpoint (no
    effect outside the function that rerunning iterations would repeat;
    the elements of its memory known) becomes an `scf.if` between two
    versions: the loop with its body outlined as `ct-outline-checkpoints`
    does (the call also carries `ct.checkpoint_auto`), taken when the
    estimated tape (trip count times an estimate of the bytes an iteration
    records) exceeds the runtime's `ct_checkpoint_tape_limit()` and about
    sqrt(trips) snapshots of the loop's state take less than a quarter of
    it; else the loop as it was. Loops whose tape is known when compiling
    to be under 1 MiB, or to be empty, are left alone.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def OutlineCheckpoints : Pass<"ct-outline-checkpoints", "::mlir::ModuleOp"> {
  let summary = "Move the bodies of checkpointed loops into functions of their own";
  let description = [{
    For each loop holding a `ct.checkpoint_loop` marker (from
    `#pragma ct checkpoint`), innermost first. An `scf.for`'s body becomes
    a private function `(iv, iteration arguments..., values from
    outside...) -> (yielded values...)` and the loop calls it once per
    iteration; an `scf.while` (a loop whose trip count is known only when it
    ends) becomes a function `(carried..., values from outside...) ->
    (continues, next carried..., results...)` running the condition and,
    when it holds, the body, which the loop calls from its condition
    region. The call carries `ct.checkpoint_snapshots` (the marker's count)
    and is never inlined. Constants and views of memory made outside the
    loop are remade inside the function, so that it takes whole buffers:
    reverse mode (lib/AD/Checkpointing/CheckpointedLoops.cpp,
    CheckpointedWhileLoops.cpp) copies them into snapshots and reruns the
    function on copies. It runs first in the autodiff pipeline, before the
    inliner can put the loop inside others: a marker with fewer loops
    around it than its `depth` lost its loop to a clean-up (a loop that
    runs at most once) and is dropped.
  }];
}

def UnrollSmallLoops : Pass<"ct-unroll-small-loops", "::mlir::ModuleOp"> {
  let summary = "Fully unroll scf.for loops with a small constant trip count";
  let description = [{
    Unrolls an `scf.for` with a static trip count of at most 8 whose
    unrolled body has at most 128 ops, innermost loops first. Straight-line
    code needs no tape in a combined pullback, and small buffers indexed by
    the unrolled induction variable get constant indices, which
    `ct-forward-stores` can see through.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TapeBlocks : Pass<"ct-tape-blocks", "::mlir::ModuleOp"> {
  let summary = "Loops with a known trip count push and pop their tape entries as one block";
  let description = [{
    An `scf.for` whose body's only tape ops are pushes in the body block
    itself (P of them) pushes T * P slots in a known order, T being its trip
    count: the block is claimed before the loop (`ct.tape_claim`) and each
    push becomes a `ct.tape_write` at slot `k * P + j` (iteration k, j-th
    push). A loop that only pops likewise releases its block before it
    (`ct.tape_release`) and reads its q-th pop of iteration k from slot
    `(T - 1 - k) * P + (P - 1 - q)`. The tape ends as the pushes and pops
    would leave it; the loop body no longer calls into the tape, so it can
    be vectorised. Innermost loops first: a loop holding a claim keeps its
    own pushes.

    A pop-only loop that reverse mode marked `ct.commuting_iterations` (a
    reversed loop counting k from 0 whose iterations commute) then runs the
    other way round: k becomes T - 1 - k, so that it walks the block, and the
    primal's indices, upwards. The mark is dropped from every loop.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def SerializeParallelLoops
    : Pass<"ct-serialize-parallel-loops", "::mlir::ModuleOp"> {
  let summary = "Parallel loops become serial loops marked parallel, to be differentiated";
  let description = [{
    Each `scf.parallel` becomes a nest of `scf.for` marked `ct.parallel`,
    carrying its reductions as iteration arguments combined by the
    `scf.reduce` regions in iteration order. That serial loop computes what
    the parallel one does (up to the order of the reduction), and every
    analysis and strategy of reverse and forward mode applies to it as to
    any loop. The derivative loops made from a marked loop keep the mark;
    `ct-parallelize-loops` then makes parallel those it can prove safe.
    With `all-loops`, every `scf.for` is marked too: a test of
    `ct-parallelize-loops`, which relies on no mark for correctness. With
    `device-loops`, loops marked `ct.device` (for a GPU) have the mark
    "device", which their derivative loops keep too; without it they are
    loops for CPU threads like the others.
  }];
  let options = [
    Option<"allLoops", "all-loops", "bool", "false",
           "Mark every scf.for as a parallel loop (testing)">,
    Option<"deviceLoops", "device-loops", "bool", "false",
           "Keep the GPU mark of loops marked ct.device (compiling for a GPU)">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def ParallelizeLoops : Pass<"ct-parallelize-loops", "::mlir::ModuleOp"> {
  let summary = "Loops marked ct.parallel whose iterations are independent become scf.parallel";
  let description = [{
    A loop marked `ct.parallel` (made from a C++ parallel loop, or one of
    its derivative loops) becomes an `scf.parallel` when its iterations are
    proven independent:
    * every iteration argument is a reduction: the iteration combines its
      previous value, used nowhere else, with one value by an associative
      op (add, mul, max, min), which becomes the `scf.reduce`;
    * memory written by the loop is written either only at elements that
      differ between iterations (an index is an injective function of the
      induction variable, the same in every access), or only by
      accumulations `m[i] = m[i] + v`, which become `memref.atomic_rmw addf`
      (iterations that read a shared element add their adjoints into its
      shadow); memory allocated in the body is the iteration's own;
    * tape slots are written only by position in a block claimed before
      the loop (ct-tape-blocks) and read only from released blocks;
    * nothing else has effects (calls, tape pushes and pops).
    The outermost such loop is converted; loops nested in it stay serial.
    Any other marked loop stays serial, and computes the same numbers.
    The mark is dropped from every loop.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // COTANGENT_AD_PASSES_TD
