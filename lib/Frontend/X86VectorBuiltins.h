//===- X86VectorBuiltins.h - x86's packet builtins, lane by lane -*- C++
//-*-===//
//
// What x86's builtins on packets compute, as functions of their operands'
// lanes (X86VectorBuiltins.cpp). Names are past `__builtin_ia32_`.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_FRONTEND_X86VECTORBUILTINS_H
#define COTANGENT_LIB_FRONTEND_X86VECTORBUILTINS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace cotangent::frontend {

/// The integer constant `v` of `type`.
mlir::Value integerConstant(mlir::OpBuilder &b, mlir::Location l,
                            mlir::Type type, int64_t v);

/// The integer `value` as one of `type`, zero-extended or truncated (a
/// shift's count, a mask of another width).
mlir::Value resizedUnsigned(mlir::OpBuilder &b, mlir::Location l,
                            mlir::Value value, mlir::Type type);

/// The integer of `type` whose bit i is `flags[i]` (i1 values): a
/// movemask's sign bits, a comparison's AVX-512 mask.
mlir::Value packedBits(mlir::OpBuilder &b, mlir::Location l,
                       llvm::ArrayRef<mlir::Value> flags, mlir::Type type);

/// The comparison an x86 `cmp` builtin's name or immediate asks for
/// (`_mm_cmplt_pd`, `_mm256_cmp_pd(a, b, _CMP_GT_OQ)`, AVX-512's 32
/// predicates; signalling and quiet forms compare alike), or none.
std::optional<mlir::arith::CmpFPredicate>
x86Comparison(llvm::StringRef name, std::optional<uint64_t> immediate);

/// One lane of the x86 builtin `name` that works lane by lane on
/// floating-point packets (comparisons, minima, maxima, blends, roundings,
/// square roots), or null for another builtin.
mlir::Value x86Lane(mlir::OpBuilder &b, mlir::Location l, llvm::StringRef name,
                    llvm::ArrayRef<mlir::Value> operands,
                    std::optional<uint64_t> immediate);

/// The `resultLanes` lanes the x86 builtin `name` makes of its vector
/// operands' lanes (`arguments`) and its immediate, or none for a builtin
/// that is not one of these: shuffles, extractions and insertions of parts,
/// permutations, horizontal and alternating sums, and the lane-by-lane
/// builtins of x86Lane.
std::optional<llvm::SmallVector<mlir::Value>>
x86BuiltinLanes(mlir::OpBuilder &b, mlir::Location l, llvm::StringRef name,
                llvm::ArrayRef<llvm::SmallVector<mlir::Value>> arguments,
                std::optional<uint64_t> immediate, unsigned resultLanes);

} // namespace cotangent::frontend

#endif // COTANGENT_LIB_FRONTEND_X86VECTORBUILTINS_H
