//===- PaddedLaneAccesses.cpp - Lanes of padded scalars, one by one -------===//
//
// A vector access of memory with lanes is one LLVM vector load or store,
// which is right where LLVM's vector layout is the array's: scalars at
// steps of their own size. An 80-bit float takes 10 bytes in an LLVM
// vector but 16 in memory (x86-64's long double), so those accesses are
// made element by element.
//
//===----------------------------------------------------------------------===//

#include "cotangent/CodeGen/Passes.h"
#include "cotangent/Dialect/CT/IR/LaneAccesses.h"

namespace cotangent::codegen {

#define GEN_PASS_DEF_PADDEDLANEACCESSES
#include "cotangent/CodeGen/Passes.h.inc"

namespace {
struct PaddedLaneAccesses : impl::PaddedLaneAccessesBase<PaddedLaneAccesses> {
  void runOnOperation() override {
    ct::scalarizeLaneAccesses(getOperation(), [](mlir::VectorType type) {
      mlir::Type element = type.getElementType();
      if (!element.isIntOrFloat())
        return false;
      unsigned width = element.getIntOrFloatBitWidth();
      return width % 8 != 0 || !llvm::isPowerOf2_32(width / 8);
    });
  }
};
} // namespace

} // namespace cotangent::codegen
