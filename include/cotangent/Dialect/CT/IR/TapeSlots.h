//===- TapeSlots.h - How many slots a tape entry takes ----------*- C++ -*-===//
//
// A tape is a stack of 8-byte slots: every entry takes one, but x86's
// 80-bit long double, which takes two (its bits' low and high words). The
// engine counts slots by it (reservations, tape blocks of one-slot
// entries) and code generation lowers pushes and pops by it.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_DIALECT_CT_IR_TAPESLOTS_H
#define COTANGENT_DIALECT_CT_IR_TAPESLOTS_H

#include "mlir/IR/Types.h"

namespace cotangent::ct {

/// The 8-byte slots a tape entry of `type` takes.
inline int64_t getTapeSlots(mlir::Type type) {
  return type.isIntOrFloat() && type.getIntOrFloatBitWidth() > 64 ? 2 : 1;
}

} // namespace cotangent::ct

#endif // COTANGENT_DIALECT_CT_IR_TAPESLOTS_H
