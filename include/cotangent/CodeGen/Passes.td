//===- Passes.td - Cotangent code generation passes -------*- tablegen -*-===//
//
// The passes between differentiated MLIR and LLVM IR (ct-lower-to-llvm and
// the GPU path, lib/CodeGen/Pipelines.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_CODEGEN_PASSES_TD
#define COTANGENT_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Conversion
//===----------------------------------------------------------------------===//

def StructuredToBranches : Pass<"ct-structured-to-branches"> {
  let summary = "Lower scf to cf branches, each block's last op first";
  let description = [{
    Lowers scf loops and conditionals to cf branches with upstream's
    patterns, in the conversion driver's order (outer ops before the ops in
    their regions) except that within a block the last op goes first. Each
    lowering splits its block after the op; in that order the ops moved by a
    split are only those up to the next lowered op, so the whole pass is
    linear in the function's size. (The conversion driver behind
    `convert-scf-to-cf` goes first to last: every split moves the rest of the
    function, quadratic in a function with many loops.) What the patterns
    leave structured (scf.parallel becomes scf.for) is left for
    `convert-scf-to-cf`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

def InlineAllocaScopes : Pass<"ct-inline-alloca-scopes"> {
  let summary = "Inline memref.alloca_scope between stack save and restore";
  let description = [{
    Replaces each `memref.alloca_scope` (which convert-scf-to-openmp wraps
    around a parallel loop's body) by its body between an
    `llvm.intr.stacksave` and an `llvm.intr.stackrestore`, as its lowering
    to LLVM would, but before scf becomes cf: the scope's region must stay
    one block until then, and loops in the body would split it.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def NamedHeapFunctions : Pass<"ct-named-heap-functions", "::mlir::ModuleOp"> {
  let summary = "The C++ program's heap memory through the functions it names";
  let description = [{
    A memref.alloc or memref.dealloc naming the C or C++ function the
    source called (`ct.heap_function`: `malloc`, `operator new`,
    `operator new[]`, `free`, `operator delete`, `operator delete[]`; the
    aligned forms where the op has an alignment past what the plain ones
    give) becomes a call of that function: memory the function makes may be
    freed by its caller, and the caller's memory freed inside, so each side
    must free as C++ would (a sanitizer checks it; a program may replace
    the functions). An unnamed memref.dealloc of memory a named memref.alloc
    made (the derivative code freeing the program's memory) calls the
    matching function. The rest keeps finalize-memref-to-llvm's generic
    functions (ct-cxx-heap-functions). Runs before finalize-memref-to-llvm:
    an allocation becomes the call, a `ct.pointer_view` of its address and a
    `memref.reinterpret_cast` to the allocation's type.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::cotangent::ct::CTDialect"];
}

def CxxHeapFunctions : Pass<"ct-cxx-heap-functions", "::mlir::ModuleOp"> {
  let summary = "Heap memory through C++'s operator new and operator delete";
  let description = [{
    Defines the generic allocation functions that finalize-memref-to-llvm
    (with use-generic-functions) calls, `_mlir_memref_to_llvm_alloc` and
    `_mlir_memref_to_llvm_free`, as calls of `::operator new(size_t)` and
    `::operator delete(void *)` (linkonce_odr, so every unit may define
    them). Memory the derivative code allocates or frees may belong to the
    program's C++ objects: a caller's `std::vector` grown inside the
    function is freed by its destructor with operator delete, and the
    memory it held before is freed by the derivative code; both sides must
    use the same allocator (a program may replace operator new).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def LowerExternalCalls : Pass<"ct-lower-external-calls", "::mlir::ModuleOp"> {
  let summary = "Call functions compiled elsewhere (ct.external) with the C ABI";
  let description = [{
    Every call of a function declared `ct.external` (compiled elsewhere,
    called where no derivative flows) becomes an `llvm.call` of the
    function's own symbol with the C ABI: numbers as they are (narrow
    integers widened as `ct.extend` says), each memref as the address of its
    first element. The declaration becomes an `llvm.func`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def LowerThreadCount : Pass<"ct-lower-thread-count", "::mlir::ModuleOp"> {
  let summary = "ct.thread_count: omp_get_max_threads() with OpenMP, else 1";
  let description = [{
    Replaces each `ct.thread_count` by a call of `omp_get_max_threads()`
    when `openmp` (the translation unit is built with -fopenmp, so parallel
    loops run on OpenMP threads), by 1 otherwise.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
  let options = [
    Option<"openmp", "openmp", "bool", "false",
           "Parallel loops run on OpenMP threads">
  ];
}

//===----------------------------------------------------------------------===//
// Transforms
//===----------------------------------------------------------------------===//

def ExpandSpecialFunctions
    : Pass<"ct-expand-special-functions", "::mlir::ModuleOp"> {
  let summary = "Expand ct.polygamma into scf, arith and math code";
  let description = [{
    Replaces the ct functions the C library lacks (`ct.polygamma`, the
    derivatives of lgamma and tgamma) with scf, arith and math code, before
    lowering to LLVM.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect"];
}

def LongDoubleMathToLibm
    : Pass<"ct-long-double-math-to-libm", "::mlir::ModuleOp"> {
  let summary = "Math ops on long double as calls of the C library's `l` "
                "functions";
  let description = [{
    Replaces each math op on `f80` (x86's long double) that has a C library
    function (`math.acosh` and `acoshl`, `math.erf` and `erfl`, ...) with a
    call of it. Runs after math-to-llvm, so that what LLVM has an intrinsic
    for stays an intrinsic; MLIR's math-to-libm knows `f32` and `f64` only.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def LowerVectorsToLLVM : Pass<"ct-lower-vectors-to-llvm", "::mlir::ModuleOp"> {
  let summary = "The vector dialect's own lowering to LLVM, where a module "
                "needs it";
  let description = [{
    Runs convert-vector-to-llvm where the module has a vector op that
    ConvertToLLVM's patterns do not lower as it is (vectors of more than
    one dimension, contractions, transfers, broadcasts of vectors...), and
    nothing otherwise: one-dimensional loads, stores, shuffles, reductions,
    broadcasts of scalars and lane reads and writes need none of its
    greedy rewriting, which walks every op of the module.
  }];
}

def PaddedLaneAccesses : Pass<"ct-padded-lane-accesses"> {
  let summary = "Whole-lane loads and stores of padded scalars, element by "
                "element";
  let description = [{
    Rewrites the vector.load and vector.store of one dimension whose scalars
    are padded in memory (x86's 80-bit long double, 16 bytes in a C++ array)
    into loads and stores of each element: LLVM lays a vector of them out at
    10-byte steps, so a vector access would read the wrong bytes.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def TapeAliasScopes : Pass<"ct-tape-alias-scopes", "::mlir::ModuleOp"> {
  let summary = "Tape slot accesses get a `tape` alias scope, every other "
                "access in their function `noalias` of it";
  let description = [{
    In each LLVM function that accesses tape slots (marked `ct.tape_slot` by
    the tape lowering), gives those accesses a `tape` alias scope and every
    other memory access `noalias` of it. Nothing but the tape ops reaches a
    tape's storage, so this always holds; it spares LLVM the run-time
    overlap checks between the tape and the user's arrays that otherwise
    keep reversed loops from vectorising.
  }];
}

//===----------------------------------------------------------------------===//
// GPU
//===----------------------------------------------------------------------===//

def OffloadLoops : Pass<"ct-offload-loops", "::mlir::ModuleOp"> {
  let summary = "Parallel loops marked ct.device: a GPU path (mapped "
                "scf.parallel between device copies) and the CPU loop as its "
                "fallback";
  let description = [{
    Each outermost `scf.parallel` marked `ct.device` whose body a GPU can
    run becomes, when `ct_gpu_begin()` says a device answers, a copy mapped
    to GPU blocks and threads (for convert-parallel-loops-to-gpu) between
    copies of the memory it uses to and from the device; the loop itself
    stays as the CPU path.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def NameKernels : Pass<"ct-name-kernels", "::mlir::ModuleOp"> {
  let summary = "GPU kernels and their modules get names PTX accepts, the "
                "modules NVPTX's data layout";
  let description = [{
    After gpu-kernel-outlining, kernels and their modules get names PTX
    accepts ('.' and other characters become '_'), and the modules NVPTX's
    data layout.
  }];
}

def ExpandDeviceMath : Pass<"ct-expand-device-math"> {
  let summary = "math.exp and math.log as arithmetic, for GPU kernels";
  let description = [{
    math.exp and math.log as arithmetic, for kernels, where no libm or
    libdevice is linked.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def NativeDeviceMath : Pass<"ct-native-device-math"> {
  let summary = "libdevice calls of sqrt, fabs, floor, ceil, trunc, copysign "
                "and fma as LLVM intrinsics";
  let description = [{
    After convert-gpu-to-nvvm, its libdevice calls of sqrt, fabs, floor,
    ceil, trunc, copysign and fma become the LLVM intrinsics NVPTX selects
    natively.
  }];
}

#endif // COTANGENT_CODEGEN_PASSES_TD
