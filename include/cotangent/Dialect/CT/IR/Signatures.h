//===- Signatures.h - Types of derivative functions -------------*- C++ -*-===//
//
// One place computes the extra operands and results that differentiation adds
// to a function type. Request ops, rule bindings and the AD passes all use it,
// so the convention documented on the ct dialect holds everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_DIALECT_CT_IR_SIGNATURES_H
#define COTANGENT_DIALECT_CT_IR_SIGNATURES_H

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

namespace cotangent::ct {

/// The argument attribute saying that no other memory the function can
/// reach overlaps the argument's (C's `restrict`, as the frontend marks it).
inline constexpr llvm::StringLiteral kNoAliasAttr = "ct.noalias";
/// Marks the functions C++ calls by name: the entry points the frontend
/// generates for the derivative calls of a translation unit, and the
/// derivatives it exports to other translation units.
inline constexpr llvm::StringLiteral kEntryPointAttr = "ct.entry_point";
inline constexpr llvm::StringLiteral kExportAttr = "ct.export";
/// Marks the declaration of a function compiled elsewhere (no visible body,
/// not [[ct::differentiable]], no custom rule) that differentiable code
/// calls where no derivative flows: the engine keeps such calls as they
/// are, and code generation calls the function by its own name with the
/// C ABI (ct-lower-external-calls).
inline constexpr llvm::StringLiteral kExternalAttr = "ct.external";
/// Marks a function that calls such a function, directly or through its
/// callees (and derivatives of it): calling it has effects the engine does
/// not see.
inline constexpr llvm::StringLiteral kCallsExternalAttr = "ct.calls_external";
/// On a function with a reverse-mode rule (ct.custom_vjp) and no forward-mode
/// one: forward mode differentiates its body (the generated matrix kernels,
/// whose loops forward mode differentiates as well as a rule would).
inline constexpr llvm::StringLiteral kForwardFromBodyAttr =
    "ct.forward_from_body";
/// On a function with a reverse-mode rule whose backward half reads none of
/// the memory the call is given (only the copies its forward half returns
/// and the derivative memories): the reverse sweep need not keep that
/// memory as the call left it (the generated matrix kernels).
inline constexpr llvm::StringLiteral kRuleReadsOwnCopiesAttr =
    "ct.rule_reads_own_copies";
/// On such a function that has a body Clang compiles (a custom rule that
/// differentiable code cannot express): why it was not lowered, for the
/// error where a derivative would have to cross it.
inline constexpr llvm::StringLiteral kNotLoweredAttr = "ct.not_lowered";
/// On such a function: it has internal linkage (`static`, an unnamed
/// namespace), so only derivatives linked into its own object file (the
/// plugin's) can call it.
inline constexpr llvm::StringLiteral kInternalLinkageAttr =
    "ct.internal_linkage";
/// On the module: the names of the memref.globals that are C++ thread-local
/// variables (each thread's own), made thread-local in LLVM IR
/// (translateToLLVMIR).
inline constexpr llvm::StringLiteral kThreadLocalGlobalsAttr =
    "ct.thread_local_globals";
/// The LLVM-dialect global a `ct.function_address` of symbol S refers to,
/// `<prefix>S`: the module holds its own copy of S under that name, so the
/// unit's S is named once the module is LLVM IR (translateToLLVMIR).
inline constexpr llvm::StringLiteral kFunctionAddressPrefix =
    "__ct_function_address.";
/// On a `memref.alloc` that grows a `std::vector` the caller owns (its
/// address stored into memory reached from a parameter): reverse mode
/// refuses it when the vector carries derivatives.
inline constexpr llvm::StringLiteral kGrowsCallerMemoryAttr =
    "ct.grows_caller_memory";
/// An argument of such a function that points to memory it only reads (a
/// pointer or reference to const).
inline constexpr llvm::StringLiteral kReadOnlyAttr = "ct.readonly";
/// How the C ABI widens a narrow integer argument or result of such a
/// function: "zext" or "sext".
inline constexpr llvm::StringLiteral kExtendAttr = "ct.extend";

/// On such a function: how the target's C++ ABI (as Clang computes it)
/// passes each lowered operand (`ct.c_args`: one dictionary per argument
/// of the machine-level call, naming its operand and whether it is passed
/// as a value, as the address of its memory, loaded from its memory as a
/// register type at a byte offset, or copied onto the stack) and where the
/// result goes (`ct.c_result`: nothing, a value, a pointer that becomes a
/// memref, or a register value stored into the result's place). Absent:
/// numbers as they are and memrefs as the address of their first element.
inline constexpr llvm::StringLiteral kCallArgumentsAttr = "ct.c_args";
inline constexpr llvm::StringLiteral kCallResultAttr = "ct.c_result";
/// On such a function: the library class whose object it works on, kept as
/// the library compiled it (the engine's error names it).
inline constexpr llvm::StringLiteral kLibraryObjectAttr = "ct.library_object";
/// On such a function: a function of the library (a system header) whose
/// body differentiable code cannot express, with why; it runs as the
/// library compiled it.
inline constexpr llvm::StringLiteral kLibraryCodeAttr = "ct.library_code";

/// On a function lowered from a library's code: the calls that first led
/// to it, innermost first, up to the user's line (an array of [name of the
/// function called, location of the call]); errors inside it end with
/// them as notes.
inline constexpr llvm::StringLiteral kCallChainAttr = "ct.call_chain";

/// Marks a memref argument that is the callee's own copy of an aggregate
/// passed by value (the caller made it): the callee may write it freely.
inline constexpr llvm::StringLiteral kByValueAttr = "ct.by_value";

/// Marks a memory argument whose derivative argument the caller gives with
/// zeros, having taken out the seeds of its final contents (a std::vector
/// the function resizes): the function may make it designate other memory
/// in reverse mode. On a ct.store_address (the address of a vector field
/// of a parameter's object that the function grows, whose seeds the entry
/// point took the same way): that store may.
inline constexpr llvm::StringLiteral kFinalSeedsTakenAttr =
    "ct.final_seeds_taken";

/// Marks the declarations of the highest-order derivatives another
/// translation unit exports: they have no rules of their own.
inline constexpr llvm::StringLiteral kImportedLastOrder =
    "ct.imported_last_order";

/// A floating-point scalar, or a vector of them (the lanes of vector mode,
/// differentiated again): carries its derivative by value.
bool isDifferentiableScalar(mlir::Type type);

/// A memref of such scalars: carries its derivative in a shadow.
bool isDifferentiableMemRef(mlir::Type type);

/// Whether an argument of `type` may take `activity`.
bool activityFitsType(Activity activity, mlir::Type type);

/// What `activity` requires of an argument's type, for diagnostics.
llvm::StringRef describeActivityRequirement(Activity activity);

/// The activity a rule binding gives an argument of `type`: active for
/// floating-point scalars, dup for memrefs of them, const otherwise.
Activity getDefaultActivity(mlir::Type type);
llvm::SmallVector<Activity> getDefaultActivities(mlir::FunctionType type);

/// The `activity` attribute of a request.
mlir::ArrayAttr getActivityArrayAttr(mlir::MLIRContext *context,
                                     llvm::ArrayRef<Activity> activities);

/// The type of a derivative of a value of `type` that carries `lanes`
/// derivatives at once (vector mode): a floating-point scalar becomes a
/// vector of `lanes`; memory of floating-point elements gets a trailing
/// dimension of `lanes` (element i, lane k at i * lanes + k), except that a
/// rank-0 slot holds one vector. `type` itself for one lane; null for a type
/// without such a form.
mlir::Type getLaneType(mlir::Type type, int64_t lanes);

/// Types that reverse mode adds to a call of a function.
/// Each list of types comes with the index of the result or argument that
/// each entry belongs to.
struct ReverseSignature {
  llvm::SmallVector<mlir::Type> seeds; ///< One per floating-point result.
  llvm::SmallVector<unsigned> seedResults;
  llvm::SmallVector<mlir::Type> shadows; ///< One per dup argument.
  llvm::SmallVector<unsigned> shadowArgs;
  llvm::SmallVector<mlir::Type> adjoints; ///< One per active argument.
  llvm::SmallVector<unsigned> adjointArgs;
};
/// With `lanes`, every seed, shadow and adjoint has its lane type.
ReverseSignature getReverseSignature(mlir::FunctionType type,
                                     llvm::ArrayRef<Activity> activities,
                                     int64_t lanes = 1);

/// Types that forward mode adds to a call of a function.
struct ForwardSignature {
  llvm::SmallVector<mlir::Type> tangents; ///< One per non-const arg.
  llvm::SmallVector<unsigned> tangentArgs;
  llvm::SmallVector<mlir::Type> resultTangents; ///< One per float result.
  llvm::SmallVector<unsigned> tangentResults;
};
ForwardSignature getForwardSignature(mlir::FunctionType type,
                                     llvm::ArrayRef<Activity> activities,
                                     int64_t lanes = 1);

/// The type of a user pullback (ct.custom_gradient) for `type`.
mlir::FunctionType getPullbackRuleType(mlir::FunctionType type);

/// The type of a user forward-mode rule (ct.custom_jvp) for `type`.
mlir::FunctionType getJvpRuleType(mlir::FunctionType type);

} // namespace cotangent::ct

#endif // COTANGENT_DIALECT_CT_IR_SIGNATURES_H
