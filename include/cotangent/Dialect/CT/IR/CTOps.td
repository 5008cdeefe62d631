//===- CTOps.td - Operations of the ct dialect ------------*- tablegen -*-===//

#ifndef COTANGENT_DIALECT_CT_IR_CTOPS_TD
#define COTANGENT_DIALECT_CT_IR_CTOPS_TD

include "cotangent/Dialect/CT/IR/CTBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"
include "mlir/IR/BuiltinAttributes.td"

class CT_Op<string mnemonic, list<Trait> traits = []>
    : Op<CT_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Derivative requests
//===----------------------------------------------------------------------===//

// The number of derivatives a vector-mode request carries at once.
def CT_Lanes : ConfinedAttr<I64Attr, [IntMinValue<1>, IntMaxValue<64>]>;

// A request calls a derivative of `callee` that the AD passes generate. It has
// no memory-effect traits: like a call, it may read and write anything.
class CT_RequestOp<string mnemonic, list<Trait> traits = []>
    : CT_Op<mnemonic, traits # [
        AttrSizedOperandSegments,
        DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  code commonExtraClassDeclaration = [{
    /// The activity of each primal argument, in argument order.
    ::llvm::SmallVector<::cotangent::ct::Activity> getActivities();
    /// How many derivatives each derivative operand carries (1 without
    /// `lanes`).
    int64_t getLaneCount();
  }];
  let hasVerifier = 1;
}

def CT_GradientOp : CT_RequestOp<"gradient"> {
  let summary = "value and reverse-mode gradient of a scalar function";
  let description = [{
    Calls the reverse-mode derivative of `callee`, a function with exactly one
    floating-point result, with that result's seed fixed to 1. Results are the
    callee's result followed by the adjoint of each `active` argument; the
    shadow of each `dup` argument receives `+=` the cotangent of its initial
    contents.

    ```mlir
    %v, %dx, %dy = ct.gradient @f(%x, %y, %p) shadows(%dp)
        activity [active, active, dup]
        : (f64, f64, memref<?xf64>, memref<?xf64>) -> (f64, f64, f64)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       CT_ActivityArrayAttr:$activity,
                       Variadic<AnyType>:$inputs,
                       Variadic<AnyType>:$shadows);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $inputs `)` (`shadows` `(` $shadows^ `)`)?
    `activity` custom<ActivityList>($activity) attr-dict
    `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = commonExtraClassDeclaration;
}

def CT_PullbackOp : CT_RequestOp<"pullback"> {
  let summary = "reverse-mode derivative with explicit result seeds";
  let description = [{
    Calls the reverse-mode derivative of `callee` with one seed per
    floating-point result of the callee (the cotangent of that result, in the
    order of the results). Results are the callee's results followed by the
    adjoint of each `active` argument; `dup` shadows are updated in place.

    ```mlir
    %v, %dx = ct.pullback @f(%x, %n) seeds(%s) activity [active, const]
        : (f64, i32, f64) -> (f64, f64)
    ```

    With `lanes K` (vector mode), K seeds go through one reverse sweep: the
    primal is computed once, and every seed, shadow and adjoint carries K
    lanes. A scalar's is a `vector<K x T>`; memory's has a trailing
    dimension of K (element i, lane k at i * K + k; a rank-0 slot holds a
    vector).

    ```mlir
    %v, %dx = ct.pullback @f(%x, %p) seeds(%s) shadows(%dp) lanes 4
        activity [active, dup]
        : (f64, memref<?xf64>, vector<4xf64>, memref<?x4xf64>)
          -> (f64, vector<4xf64>)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       CT_ActivityArrayAttr:$activity,
                       Variadic<AnyType>:$inputs,
                       Variadic<AnyType>:$seeds,
                       Variadic<AnyType>:$shadows,
                       OptionalAttr<CT_Lanes>:$lanes);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $inputs `)` (`seeds` `(` $seeds^ `)`)?
    (`shadows` `(` $shadows^ `)`)? (`lanes` $lanes^)?
    `activity` custom<ActivityList>($activity) attr-dict
    `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = commonExtraClassDeclaration;
}

def CT_JvpOp : CT_RequestOp<"jvp"> {
  let summary = "forward-mode derivative (Jacobian-vector product)";
  let description = [{
    Calls the forward-mode derivative of `callee`. Takes one tangent per
    non-`const` argument: a scalar of the argument's type for `active`, a
    memref of the argument's type for `dup` (the tangent of the memory's
    contents; for in/out memory it receives the tangent of the final
    contents). Results are the callee's results followed by the tangent of
    each floating-point result.

    ```mlir
    %v, %dv = ct.jvp @f(%x, %p) tangents(%tx, %tp) activity [active, dup]
        : (f64, memref<4xf64>, f64, memref<4xf64>) -> (f64, f64)
    ```

    With `lanes K` (vector mode), K tangents go through one forward sweep;
    tangents and result tangents have lane types as in `ct.pullback`.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       CT_ActivityArrayAttr:$activity,
                       Variadic<AnyType>:$inputs,
                       Variadic<AnyType>:$tangents,
                       OptionalAttr<CT_Lanes>:$lanes);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $inputs `)` (`tangents` `(` $tangents^ `)`)? (`lanes` $lanes^)?
    `activity` custom<ActivityList>($activity) attr-dict
    `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = commonExtraClassDeclaration;
}

//===----------------------------------------------------------------------===//
// Markers
//===----------------------------------------------------------------------===//

def CT_StopGradientOp : CT_Op<"stop_gradient",
    [Pure, SameOperandsAndResultType]> {
  let summary = "the value of its operand, with zero derivative";
  let description = [{
    Returns its operand unchanged; in every mode of differentiation the
    result's derivative is zero, whatever the operand depends on. It is kept
    through canonicalization so that the AD passes see it.

    ```mlir
    %c = ct.stop_gradient %x : f64
    ```
  }];
  let arguments = (ins FloatLike:$input);
  let results = (outs FloatLike:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def CT_PassThroughOp : CT_Op<"pass_through",
    [Pure, AllTypesMatch<["value", "input", "result"]>]> {
  let summary = "a value differentiated as the identity of another";
  let description = [{
    Returns `value`, but differentiates as if it returned `input`: the
    result's tangent is `input`'s tangent and its adjoint flows unchanged to
    `input`. `value` itself gets no derivative. This expresses
    straight-through estimators (`ct::pass_through<g>(x)` is
    `ct.pass_through g(x), x`).

    ```mlir
    %r = ct.pass_through %rounded, %x : f32
    ```
  }];
  let arguments = (ins FloatLike:$value, FloatLike:$input);
  let results = (outs FloatLike:$result);
  let assemblyFormat = "$value `,` $input attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// C library functions the math dialect lacks
//===----------------------------------------------------------------------===//

// A pure function of floating-point scalars that lowers to a call of the C
// library function `libraryName` (`f`-suffixed for f32, `l` for f80) and
// has a derivative rule of its own.
class CT_LibraryMathOp<string mnemonic, string name>
    : CT_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let results = (outs AnyFloat:$result);
  let assemblyFormat = "operands attr-dict `:` type($result)";
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral getLibraryName() {
      return ::llvm::StringLiteral("}] # name # [{");
    }
  }];
}

def CT_HypotOp : CT_LibraryMathOp<"hypot", "hypot"> {
  let summary = "sqrt(x^2 + y^2) without overflow or underflow";
  let description = [{
    The C library's `hypot`: exact where `x*x + y*y` would overflow.

    ```mlir
    %h = ct.hypot %x, %y : f64
    ```
  }];
  let arguments = (ins AnyFloat:$x, AnyFloat:$y);
}

def CT_LgammaOp : CT_LibraryMathOp<"lgamma", "lgamma"> {
  let summary = "log |Γ(x)|";
  let description = [{
    The C library's `lgamma`. Its derivative is `ct.polygamma 0`.

    ```mlir
    %l = ct.lgamma %x : f64
    ```
  }];
  let arguments = (ins AnyFloat:$x);
}

def CT_TgammaOp : CT_LibraryMathOp<"tgamma", "tgamma"> {
  let summary = "Γ(x)";
  let description = [{
    The C library's `tgamma`. Its derivative is `Γ(x) ψ(x)`
    (`ct.polygamma 0`).

    ```mlir
    %g = ct.tgamma %x : f64
    ```
  }];
  let arguments = (ins AnyFloat:$x);
}

def CT_PolygammaOp : CT_Op<"polygamma", [Pure, SameOperandsAndResultType]> {
  let summary = "ψ⁽ⁿ⁾(x), the n-th derivative of the digamma function";
  let description = [{
    `ψ⁽ⁿ⁾(x) = dⁿ⁺¹/dxⁿ⁺¹ log Γ(x)`, for `n` ≥ 0 (`n = 0` is digamma). The
    C library has no such function: the derivatives of `lgamma` and
    `tgamma` use it, and its own derivative is `ct.polygamma n+1`, so
    derivatives of any order exist. `ct-expand-special-functions` expands
    it before code generation: the recurrence ψ⁽ⁿ⁾(x) = ψ⁽ⁿ⁾(x+1) −
    (−1)ⁿ n! / xⁿ⁺¹ moves x above 12 + n, where the asymptotic series
    (Bernoulli numbers to B₁₆) is accurate to a few ulps in double; for
    x < 0 and n = 0 the reflection ψ(x) = ψ(1−x) − π / tan(πx) is used
    first. At the poles (0, −1, −2, ...) the result is ±inf or NaN.

    ```mlir
    %d = ct.polygamma 0, %x : f64
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$order,
                       AnyFloat:$x);
  let results = (outs AnyFloat:$result);
  let assemblyFormat = "$order `,` $x attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Error paths
//===----------------------------------------------------------------------===//

def CT_ProcessResource : Resource<"::cotangent::ct::ProcessResource">;

def CT_AbortOp : CT_Op<"abort", [MemoryEffects<[MemWrite<CT_ProcessResource>]>]> {
  let summary = "print a message on stderr and end the program";
  let description = [{
    What a call of a function that does not return (`abort`, a failed
    `assert`, `std::terminate`, `__builtin_trap`) becomes in differentiable
    code: it writes `message` and a newline to stderr and aborts. It touches
    no value, so it has no derivative and never blocks differentiation;
    derivatives keep it where the primal has it.

    ```mlir
    ct.abort "f.cpp:12: f: Assertion `n > 0' failed."
    ```
  }];
  let arguments = (ins StrAttr:$message);
  let assemblyFormat = "$message attr-dict";
}

//===----------------------------------------------------------------------===//
// The C ABI of entry points
//===----------------------------------------------------------------------===//

def CT_CheckpointResource : Resource<"::cotangent::ct::CheckpointResource">;

def CT_CheckpointLoopOp : CT_Op<"checkpoint_loop",
    [MemoryEffects<[MemWrite<CT_CheckpointResource>]>]> {
  let summary = "marks the loop around it for binomial checkpointing";
  let description = [{
    What `#pragma ct checkpoint` before a C++ loop becomes: the first op of
    the loop's body. It does nothing when it runs; its effect on its own
    resource only keeps clean-ups from dropping it. Before differentiation,
    `ct-outline-checkpoints` moves the body of the loop around it into a
    function of its own and drops the marker, so that reverse mode can
    rerun iterations from snapshots of the loop's state.
    `snapshots` is how many snapshots the reverse sweep may keep; 0 asks
    for the default. `depth` is how many loops enclosed the marker in the
    C++ function, the marked one included: clean-ups fold away loops that
    run at most once, moving their body (and the marker) into the
    enclosing code, and a marker with fewer loops around it than its depth
    is dropped rather than taken for an outer loop's.

    ```mlir
    scf.for %i = %lb to %ub step %c1 {
      ct.checkpoint_loop snapshots 8 depth 1
      ...
    }
    ```
  }];
  let arguments = (ins I64Attr:$snapshots, I64Attr:$depth);
  let assemblyFormat = "`snapshots` $snapshots `depth` $depth attr-dict";
  let hasVerifier = 1;
}

def CT_ParallelLoopResource
    : Resource<"::cotangent::ct::ParallelLoopResource">;

def CT_ParallelLoopOp : CT_Op<"parallel_loop",
    [MemoryEffects<[MemWrite<CT_ParallelLoopResource>]>]> {
  let summary = "marks the loop around it as an OpenMP parallel loop";
  let description = [{
    What `#pragma omp parallel for` before a C++ loop becomes: the first op
    of the loop's body, until ct-structure turns the loop (and the
    `collapse - 1` loops nested in it) into an `scf.parallel`. Its operands
    are the values the reduction variables hold when an iteration starts
    (once slots are promoted, the loop's iteration arguments), each with
    its reduction in `kinds`: "add", "mul", "max" or "min". `depth` is how
    many loops enclosed the marker in the C++ function, the marked one
    included: a marker with fewer loops around it (a loop that ran at most
    once was folded away) is dropped and the loop stays serial. `device`
    (from `#pragma omp target ... parallel for`) asks for the loop to run
    on a GPU when compiling for one. It does nothing when it runs; its effect on its own resource only keeps
    clean-ups from dropping it.

    ```mlir
    scf.for %i = %lb to %ub step %c1 iter_args(%s = %init) -> (f64) {
      ct.parallel_loop collapse 1 depth 1 reduce ["add"](%s : f64)
      ...
    }
    ```
  }];
  let arguments = (ins Variadic<AnyTypeOf<[AnyFloat, AnySignlessInteger]>>:$reduced,
                       DefaultValuedAttr<StrArrayAttr, "{}">:$kinds,
                       I64Attr:$collapse, I64Attr:$depth,
                       UnitAttr:$device);
  let assemblyFormat = [{
    (`device` $device^)? `collapse` $collapse `depth` $depth
    (`reduce` $kinds^ `(` $reduced `:` type($reduced) `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def CT_ThreadCountOp : CT_Op<"thread_count", [NoMemoryEffect]> {
  let summary = "how many threads parallel loops run on";
  let description = [{
    The number of threads an `scf.parallel` loop here runs on: OpenMP's
    `omp_get_max_threads()` in a translation unit built with `-fopenmp`,
    1 otherwise (ct-lower-to-llvm). Reverse mode splits loops that add
    into shared adjoints into this many chunks, each with private copies
    (ct-parallelize-loops).

    ```mlir
    %threads = ct.thread_count
    ```
  }];
  let results = (outs Index:$count);
  let assemblyFormat = "attr-dict";
}

def CT_LLVMPointer : Type<CPred<"::llvm::isa<::mlir::LLVM::LLVMPointerType>($_self)">,
                          "LLVM pointer", "::mlir::LLVM::LLVMPointerType"> {
  let builderCall = "::mlir::LLVM::LLVMPointerType::get($_builder.getContext())";
}

def CT_PointerViewOp : CT_Op<"pointer_view", [Pure]> {
  let summary = "a memref view of the memory a C pointer addresses";
  let description = [{
    The derivative entry points that C++ calls take raw pointers; the
    functions the frontend lowers take 1-D strided memrefs. `ct.pointer_view`
    makes the view: base and aligned pointer `pointer`, offset 0, stride 1,
    and a size that no C++ object reaches (2^60 elements), since a C pointer
    does not carry its extent. The lowered C++ only reads the size to size
    the views it passes on for `p + k`; it accesses exactly the elements
    the C++ program does. A 2-D view with a static inner dimension views
    memory with the lanes of vector mode (element i, lane k at i * K + k).

    ```mlir
    %p = ct.pointer_view %arg0 : memref<?xf64, strided<[1], offset: ?>>
    ```
  }];
  let arguments = (ins CT_LLVMPointer:$pointer);
  let results = (outs MemRefRankOf<[AnyType], [1, 2]>:$view);
  let assemblyFormat = "$pointer attr-dict `:` type($view)";
  let extraClassDeclaration = [{
    /// The size every view gets.
    static constexpr int64_t kUnknownExtent = int64_t(1) << 60;
  }];
}

def CT_VectorViewOp : CT_Op<"vector_view", [MemoryEffects<[MemRead]>]> {
  let summary = "a memref view of the elements of a std::vector";
  let description = [{
    A `std::vector` crosses into a derivative entry point as the address of
    the C++ object. Every standard library keeps a vector as three pointers
    to its elements (first, one past the last, end of the capacity); the
    frontend finds the first two in the object's layout and records their
    byte offsets. `ct.vector_view` reads them and makes the view: base and
    aligned pointer the first element, offset 0, stride 1, and size the
    bytes between the two pointers in scalars of the view's element type (a
    vector of structs is a run of their scalars), so that the lowered code
    reads `size()` from the view's extent.

    ```mlir
    %v = ct.vector_view %arg0 {begin = 0 : i64, end = 8 : i64}
        : memref<?xf64, strided<[1], offset: ?>>
    ```
  }];
  let arguments = (ins CT_LLVMPointer:$object, I64Attr:$begin, I64Attr:$end);
  let results = (outs MemRefRankOf<[AnyType], [1]>:$view);
  let assemblyFormat = "$object attr-dict `:` type($view)";
}

//===----------------------------------------------------------------------===//
// Addresses kept in memory (docs/Memory.md)
//===----------------------------------------------------------------------===//

def CT_StoreAddressOp : CT_Op<"store_address", [
    MemoryEffects<[MemWrite]>]> {
  let summary = "store the address of a view's first element in a slot";
  let description = [{
    Writes the address of the first element of `view` into the 8 bytes
    that start at element `index` of `holder` (a pointer field or a pointer
    element, whatever the scalar type of the object holding it). The memory
    `view` designates escapes: a `ct.load_address` may give it back.
    Derivatives: the shadow of the holder receives the address of the
    shadow of the view, at the same slot. In vector mode the shadow is a
    2-D view, its inner dimension the lanes.

    ```mlir
    ct.store_address %array, %object[%c1]
        : memref<?xf64, strided<[1], offset: ?>>, memref<3xf64>
    ```
  }];
  let arguments = (ins MemRefRankOf<[AnyType], [1, 2]>:$view,
                       Arg<MemRefRankOf<[AnyType], [1]>, "", [MemWrite]>:$holder,
                       Index:$index);
  let assemblyFormat = [{
    $view `,` $holder `[` $index `]` attr-dict `:` type($view) `,` type($holder)
  }];
  let hasVerifier = 1;
}

def CT_LoadAddressOp : CT_Op<"load_address", [
    MemoryEffects<[MemRead]>]> {
  let summary = "a view of the memory whose address a slot holds";
  let description = [{
    Reads the address in the 8 bytes that start at element `index` of
    `holder` (written by `ct.store_address`, or by the C++ caller) and
    makes a view of the memory there: base and aligned pointer that
    address, offset 0, stride 1, and the extent of a C pointer
    (`ct.pointer_view`'s, since an address does not carry one).
    Derivatives: its shadow is the view the holder's shadow has at the
    same slot (in vector mode, a 2-D view whose inner dimension is the
    lanes).

    ```mlir
    %p = ct.load_address %blocks[%i]
        : memref<?xf64, strided<[1], offset: ?>>
          -> memref<?xf64, strided<[1], offset: ?>>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[AnyType], [1]>, "", [MemRead]>:$holder,
                       Index:$index);
  let results = (outs MemRefRankOf<[AnyType], [1, 2]>:$view);
  let assemblyFormat = [{
    $holder `[` $index `]` attr-dict `:` type($holder) `->` type($view)
  }];
  let hasVerifier = 1;
}

def CT_AllocationSizeOp : CT_Op<"allocation_size", [
    MemoryEffects<[MemRead]>]> {
  let summary = "how many scalars the heap memory at a view's start holds";
  let description = [{
    The number of scalars of the view's element type that fit in the heap
    memory starting at the view's first element, as the C library's
    allocator knows it (`malloc_usable_size`, which may count more than was
    asked for, never less); 0 for a null address. `realloc` needs the size
    of memory whose address was read back from memory: C only lets it be
    given memory from the allocation functions, which all say their size
    this way. It has no derivative; the reverse sweep reads it from the
    tape, since the memory may be freed by then. Of a view with lanes
    (vector mode: elements of a fixed number of lanes), it counts elements.
    Memory the operation was not given by an allocation function is
    undefined behaviour, as for `realloc`.

    ```mlir
    %n = ct.allocation_size %old : memref<?xf64, strided<[1], offset: ?>>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[AnyType], [1, 2]>, "", [MemRead]>:$memory);
  let results = (outs Index:$count);
  let assemblyFormat = "$memory attr-dict `:` type($memory)";
}

def CT_RetypeViewOp : CT_Op<"retype_view", [Pure, ViewLikeOpInterface]> {
  let summary = "a view of a memref's bytes as scalars of another type";
  let description = [{
    Views the bytes that start at element `index` of `source` as scalars of
    the result's element type: base and aligned pointer that element's
    address, offset 0, stride 1, and the source's remaining bytes counted in
    the result's scalars (rounded down). An object is a run of slots of one
    scalar type, and C++ lays out parts of other types in their bytes: an
    array of `int`s, or a `float`, among the fields of a struct of doubles.
    The index may be negative: the view then starts before the source's
    first element, in the same allocation (a derived object around the
    base subobject a view designates). Derivatives: a view of
    floating-point scalars has the same view of the source's shadow; a view
    of integers has none.

    ```mlir
    %ids = ct.retype_view %object[%c2]
        : memref<?xf64, strided<[1], offset: ?>>
          -> memref<?xi32, strided<[1], offset: ?>>
    ```
  }];
  let arguments = (ins MemRefRankOf<[AnyType], [1]>:$source, Index:$index);
  let results = (outs MemRefRankOf<[AnyType], [1]>:$view);
  let assemblyFormat = [{
    $source `[` $index `]` attr-dict `:` type($source) `->` type($view)
  }];
  let extraClassDeclaration = [{
    ::mlir::Value getViewSource() { return getSource(); }
  }];
  let hasVerifier = 1;
}

def CT_VTableAddressOp : CT_Op<"vtable_address", [Pure]> {
  let summary = "the address a C++ object's virtual-table pointer holds";
  let description = [{
    The address, as an integer, `offset` bytes into the global `symbol` (a
    class's virtual table, by its mangled name): the value a constructor
    stores in an object's virtual-table pointer, and the one a virtual call
    compares it with to know the object's class. The table is the C++
    compiler's, so objects made by code compiled as written and objects
    made by differentiated code agree. An integer: no derivative.

    ```mlir
    %circle = ct.vtable_address "_ZTV6Circle" + 16
    ```
  }];
  let arguments = (ins StrAttr:$symbol, I64Attr:$offset);
  let results = (outs I64:$address);
  let assemblyFormat = "$symbol `+` $offset attr-dict";
}

def CT_FunctionAddressOp : CT_Op<"function_address", [Pure]> {
  let summary = "the address of a C++ function, as a function pointer holds it";
  let description = [{
    The address, as an integer, of the function the C++ compiler emits as
    `symbol` (its mangled name): the value a C++ function pointer holds.
    It is the unit's own function, not the differentiable code's copy of
    it, so pointers made by code compiled as written (a caller's, passed
    in) and pointers made by differentiated code compare equal, and a call
    through one compares it with the addresses of the functions it may
    designate. An integer: no derivative.

    ```mlir
    %square = ct.function_address "_Z6squared"
    ```
  }];
  let arguments = (ins StrAttr:$symbol);
  let results = (outs I64:$address);
  let assemblyFormat = "$symbol attr-dict";
}

def CT_BitCastOp : CT_Op<"bit_cast", [Pure]> {
  let summary = "the bits of a number read as a number of another type";
  let description = [{
    C++'s `std::bit_cast` between numbers of the same width (a `double`'s
    bits as a `uint64_t`, and back), and the reinterpretations of SIMD
    code. No derivative goes through the bits of a floating-point value:
    canonicalization rewrites the bit tricks that have one into the
    floating-point operation they compute (flipping, clearing or setting
    the sign bit, copying another value's sign), and differentiation
    refuses a floating-point result made from the bits of a value that
    carries a derivative. (`arith.bitcast` is the frontend's own packing
    of integers into the slots of structs of floating-point numbers,
    where no floating-point value is reinterpreted.)

    ```mlir
    %bits = ct.bit_cast %x : f64 to i64
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnySignlessInteger, AnyFloat]>:$input);
  let results = (outs AnyTypeOf<[AnySignlessInteger, AnyFloat]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Custom derivative rules
//===----------------------------------------------------------------------===//

// Rule bindings live at module level. Every argument of the bound function
// takes its default activity: floating-point scalars are `active`, memrefs of
// floating-point elements are `dup`, everything else is `const`.
class CT_RuleOp<string mnemonic> : CT_Op<mnemonic, [
    HasParent<"::mlir::ModuleOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]>;

def CT_CustomGradientOp : CT_RuleOp<"custom_gradient"> {
  let summary = "bind a user pullback to a function";
  let description = [{
    Reverse-mode derivatives of `function` call `pullback` instead of
    differentiating `function`'s body (which need not exist). `pullback` has
    the signature of `ct.pullback` on `function` with default activities,
    without the primal results: it takes the arguments, one seed per
    floating-point result and one shadow per `dup` argument, and returns the
    adjoint of each `active` argument.

    ```mlir
    ct.custom_gradient @log1pexp pullback @log1pexp_pullback
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$function,
                       FlatSymbolRefAttr:$pullback);
  let assemblyFormat = "$function `pullback` $pullback attr-dict";
}

def CT_CustomVjpOp : CT_RuleOp<"custom_vjp"> {
  let summary = "bind a split forward/backward rule to a function";
  let description = [{
    Reverse-mode derivatives of `function` call `forward` in the primal sweep
    and `backward` in the reverse sweep. `forward` takes `function`'s
    arguments and returns its results followed by any number of residuals
    (kept for the reverse sweep: on the tape when the call is in a loop);
    `backward` takes those residuals, then `function`'s arguments (as the
    reverse sweep sees them), one seed per floating-point result and one
    shadow per `dup` argument, and returns the adjoint of each `active`
    argument.

    ```mlir
    ct.custom_vjp @solve forward @solve_fwd backward @solve_bwd
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$function,
                       FlatSymbolRefAttr:$forward,
                       FlatSymbolRefAttr:$backward);
  let assemblyFormat =
      "$function `forward` $forward `backward` $backward attr-dict";
}

def CT_CustomJvpOp : CT_RuleOp<"custom_jvp"> {
  let summary = "bind a user forward-mode rule to a function";
  let description = [{
    Forward-mode derivatives of `function` call `jvp` instead of
    differentiating `function`'s body. `jvp` has the signature of `ct.jvp` on
    `function` with default activities: the arguments and one tangent per
    non-`const` argument in, the results and the tangent of each
    floating-point result out.

    ```mlir
    ct.custom_jvp @log1pexp jvp @log1pexp_jvp
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$function,
                       FlatSymbolRefAttr:$jvp);
  let assemblyFormat = "$function `jvp` $jvp attr-dict";
}

//===----------------------------------------------------------------------===//
// Tapes
//===----------------------------------------------------------------------===//

def CT_TapeResource : Resource<"::cotangent::ct::TapeResource">;

// What a tape stores: scalars only. Every entry takes one 8-byte slot, but
// x86's 80-bit long double, which takes two.
def CT_TapeElement : AnyTypeOf<[F16, BF16, F32, F64, F80, I1, I8, I16, I32, I64, Index],
    "scalar of at most 64 bits, or an 80-bit float">;

def CT_TapeInitOp : CT_Op<"tape_init", [MemoryEffects<[MemAlloc<CT_TapeResource>]>]> {
  let summary = "create an empty tape";
  let results = (outs CT_TapeType:$tape);
  let assemblyFormat = "attr-dict `:` type($tape)";
}

def CT_TapePushOp : CT_Op<"tape_push"> {
  let summary = "push a value onto a tape";
  let arguments = (ins
      Arg<CT_TapeType, "", [MemRead<CT_TapeResource>, MemWrite<CT_TapeResource>]>:$tape,
      CT_TapeElement:$value);
  let assemblyFormat = "$tape `,` $value attr-dict `:` type($value)";
}

def CT_TapePopOp : CT_Op<"tape_pop"> {
  let summary = "pop the value pushed last from a tape";
  let description = [{
    The result's type must be the type of the value pushed last; the AD
    passes emit pops in exactly the reverse order of the pushes.
  }];
  let arguments = (ins
      Arg<CT_TapeType, "", [MemRead<CT_TapeResource>, MemWrite<CT_TapeResource>]>:$tape);
  let results = (outs CT_TapeElement:$value);
  let assemblyFormat = "$tape attr-dict `:` type($value)";
  // A pop right after a push of the same tape gives back the pushed value.
  let hasCanonicalizeMethod = 1;
}

def CT_TapeReserveOp : CT_Op<"tape_reserve"> {
  let summary = "make room for a known number of pushes";
  let description = [{
    Grows the tape's storage, if needed, so that `count` more values can be
    pushed without growing it again. The AD passes emit it before loops whose
    trip count is known on entry, so that a loop's tape entries are allocated
    once, sized from the trip count.
  }];
  let arguments = (ins
      Arg<CT_TapeType, "", [MemRead<CT_TapeResource>, MemWrite<CT_TapeResource>]>:$tape,
      Index:$count);
  let assemblyFormat = "$tape `,` $count attr-dict";
}

def CT_TapeClaimOp : CT_Op<"tape_claim"> {
  let summary = "push a block of slots at once";
  let description = [{
    Pushes `count` slots with unspecified contents and returns the address
    of the first; `ct.tape_write` fills them. The address is valid until the
    tape next grows (a push, reserve or claim). A loop with a known trip
    count writes the values it would push into one block claimed before it
    (ct-tape-blocks), leaving the tape as the pushes would.
  }];
  let arguments = (ins
      Arg<CT_TapeType, "", [MemRead<CT_TapeResource>, MemWrite<CT_TapeResource>]>:$tape,
      Index:$count);
  let results = (outs CT_LLVMPointer:$block);
  let assemblyFormat = "$tape `,` $count attr-dict";
}

def CT_TapeReleaseOp : CT_Op<"tape_release"> {
  let summary = "pop a block of slots at once";
  let description = [{
    Pops the `count` slots pushed last and returns the address of the first
    of them, from where `ct.tape_read` reads them. The address is valid until
    the tape next grows.
  }];
  let arguments = (ins
      Arg<CT_TapeType, "", [MemRead<CT_TapeResource>, MemWrite<CT_TapeResource>]>:$tape,
      Index:$count);
  let results = (outs CT_LLVMPointer:$block);
  let assemblyFormat = "$tape `,` $count attr-dict";
}

def CT_TapeWriteOp : CT_Op<"tape_write"> {
  let summary = "store a value into slot `index` of a claimed block";
  let arguments = (ins
      Arg<CT_LLVMPointer, "", [MemWrite<CT_TapeResource>]>:$block,
      Index:$index, CT_TapeElement:$value);
  let assemblyFormat = "$value `,` $block `[` $index `]` attr-dict `:` type($value)";
}

def CT_TapeReadOp : CT_Op<"tape_read"> {
  let summary = "load the value in slot `index` of a released block";
  let arguments = (ins
      Arg<CT_LLVMPointer, "", [MemRead<CT_TapeResource>]>:$block,
      Index:$index);
  let results = (outs CT_TapeElement:$value);
  let assemblyFormat = "$block `[` $index `]` attr-dict `:` type($value)";
}

def CT_TapeFreeOp : CT_Op<"tape_free"> {
  let summary = "release a tape and its storage";
  let arguments = (ins
      Arg<CT_TapeType, "", [MemFree<CT_TapeResource>]>:$tape);
  let assemblyFormat = "$tape attr-dict";
  // A tape that is created and freed but never used disappears.
  let hasCanonicalizeMethod = 1;
}

#endif // COTANGENT_DIALECT_CT_IR_CTOPS_TD
