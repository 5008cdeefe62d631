//===- Internalize.cpp - The ct-internalize pass --------------------------===//

#include "cotangent/AD/Passes.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

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
          !function.isExternal())
        function.setPrivate();
  }
};

} // namespace
