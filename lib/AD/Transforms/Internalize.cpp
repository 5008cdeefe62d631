//===- Internalize.cpp - The ct-internalize pass --------------------------===//

#include "cotangent/AD/Passes.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-internalize"

namespace cotangent::ad {
#define GEN_PASS_DEF_INTERNALIZE
#include "cotangent/AD/Passes.h.inc"
} // namespace cotangent::ad

using namespace mlir;

namespace {

struct InternalizePass
    : public cotangent::ad::impl::InternalizeBase<InternalizePass> {
  void runOnOperation() override {
    for (auto function : getOperation().getOps<func::FuncOp>())
      if (!function->hasAttr(cotangent::ct::kEntryPointAttr) &&
          !function->hasAttr(cotangent::ct::kExportAttr) &&
          !function.isExternal()) {
        LLVM_DEBUG(llvm::dbgs()
                   << "[" DEBUG_TYPE "] " << "@" << function.getSymName()
                   << " becomes private" << "\n");
        function.setPrivate();
      }
  }
};

} // namespace
