//===- TapeHelpers.h - The functions tapes lower to --------------*- C++
//-*-===//
//
// Internal to lib/CodeGen: the linkonce_odr LLVM-dialect functions that
// TapeToLLVM.cpp's lowerings of tape operations call, and the layout of a
// tape's header on the stack.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_CODEGEN_TAPEHELPERS_H
#define COTANGENT_LIB_CODEGEN_TAPEHELPERS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace cotangent::tape {

constexpr llvm::StringLiteral kPushHelper = "__ct_tape_push";
constexpr llvm::StringLiteral kPopHelper = "__ct_tape_pop";
constexpr llvm::StringLiteral kFreeHelper = "__ct_tape_free";
constexpr llvm::StringLiteral kReserveHelper = "__ct_tape_reserve";
constexpr llvm::StringLiteral kClaimHelper = "__ct_tape_claim";
constexpr llvm::StringLiteral kReleaseHelper = "__ct_tape_release";

/// The header { ptr data, i64 size, i64 capacity, ptr site, [kInlineSlots
/// x i64] slots }: a small tape (a pullback without loops) never leaves
/// its own slots. The helpers' source spells the same layout.
constexpr int64_t kInlineSlots = 32;
constexpr int64_t kSizeField = 1, kCapacityField = 2, kSiteField = 3,
                  kSlotsField = 4;

/// The header's LLVM type.
mlir::LLVM::LLVMStructType getHeaderType(mlir::MLIRContext *context);

/// Makes sure the module of `from` has the helpers (and declarations of the
/// C library functions they call), parsing them on first use; an error at
/// `from` where the program declares one of those C functions otherwise.
mlir::LogicalResult ensureHelpers(mlir::OpBuilder &builder,
                                  mlir::Operation *from);

/// A new internal global of the module of `from` whose address names one
/// site that makes tapes: the block a freed tape keeps is found again by it.
mlir::LLVM::GlobalOp createSite(mlir::OpBuilder &builder,
                                mlir::Operation *from);

/// The LLVM-dialect source of the helpers that keep freed tapes' blocks
/// (TapeMemoryCache.cpp); ensureHelpers parses it with the others.
llvm::StringRef getMemoryCacheSource();

} // namespace cotangent::tape

#endif // COTANGENT_LIB_CODEGEN_TAPEHELPERS_H
