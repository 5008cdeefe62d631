//===- TapedAddresses.h - Addresses the reverse sweep reads back -*- C++
//-*-===//
//
// Reverse mode keeps the address of memory a loop or branch reaches (a
// buffer made there, an address loaded from memory) on the tape, and views
// it again in the reverse sweep. A derivative differentiated again must
// give that view the shadow of the memory whose address was taken: the
// shadow's address travels on the same tape, pushed right after the
// address and popped right before it (docs/Memory.md, item 29).
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_UTILS_TAPEDADDRESSES_H
#define COTANGENT_LIB_AD_UTILS_TAPEDADDRESSES_H

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace cotangent::ad {

/// Pairs the op that reads a view's address for the tape
/// (`memref.extract_aligned_pointer_as_index`) with the `ct.pointer_view`
/// that views it again in the reverse sweep: both carry the same number,
/// so that vector mode widens the two together.
inline constexpr llvm::StringLiteral kTapedAddress = "ct.taped_address";

/// A number for a new pair (unique across threads differentiating other
/// functions too).
mlir::IntegerAttr getNewTapedAddressPair(mlir::Builder &b);

/// Whether `view` is a view rebuilt from an address on the tape.
bool isTapedAddressView(mlir::Value view);

/// The address `push` puts on the tape to view it again, if it is one.
mlir::memref::ExtractAlignedPointerAsIndexOp
getTapedAddress(ct::TapePushOp push);

/// The view rebuilt from the address `pop` takes off the tape, if it is one
/// (the pop, its cast to an integer and a pointer, and the view).
ct::PointerViewOp getRebuiltView(ct::TapePopOp pop);

/// The view rebuilt in the same function from the address `address` reads,
/// if there is one.
ct::PointerViewOp
getRebuiltView(mlir::memref::ExtractAlignedPointerAsIndexOp address);

/// A view of `type` (rank 1 or more, the leading size dynamic) of the
/// memory at `address` (an index), marked with `pair` (kTapedAddress).
mlir::Value buildViewOfAddress(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value address, mlir::MemRefType type,
                               mlir::IntegerAttr pair);

/// A derivative differentiated again: where the view rebuilt from the
/// address `push` puts on the tape has a shadow (`hasShadow`), pushes the
/// address of the shadow of its memory (`shadowOf`) on `tape` after it.
/// Fails, reported, where that memory has none.
mlir::LogicalResult
pushShadowAddress(mlir::OpBuilder &b, ct::TapePushOp push, mlir::Value tape,
                  llvm::function_ref<bool(mlir::Value)> hasShadow,
                  llvm::function_ref<mlir::Value(mlir::Value)> shadowOf);

/// The other half: where the view rebuilt from the address `pop` takes has
/// a shadow, pops that shadow's address from `tape` first and returns its
/// view (null where there is none). Fails, reported, where no address the
/// function puts on the tape pairs with it (another function, a split
/// derivative's forward half, took it).
mlir::FailureOr<mlir::Value>
popShadowAddress(mlir::OpBuilder &b, ct::TapePopOp pop, mlir::Value tape,
                 llvm::function_ref<bool(mlir::Value)> hasShadow);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_UTILS_TAPEDADDRESSES_H
