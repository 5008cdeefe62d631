//===- RerunEffects.h - Why checkpoints cannot rerun some code --*- C++ -*-===//
//
// Internal to lib/AD: a checkpoint's reverse sweep runs the code it
// checkpoints again. Code compiled elsewhere, and writes of variables
// outside the function, must not run twice; the errors that refuse such
// checkpoints (of loops and of calls) say why in the same words.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_CHECKPOINTING_RERUNEFFECTS_H
#define COTANGENT_LIB_AD_CHECKPOINTING_RERUNEFFECTS_H

#include "llvm/ADT/StringRef.h"

namespace cotangent::ad {

/// What calling code compiled elsewhere again would do.
inline constexpr llvm::StringLiteral kExternalCodeRunTwice =
    "(its effects twice, a random generator's other numbers)";

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_CHECKPOINTING_RERUNEFFECTS_H
