//===- KeepRuleCalls.cpp - Calls that custom rules replace stay calls -----===//

#include "cotangent/AD/Passes.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-keep-rule-calls"

namespace cotangent::ad {
#define GEN_PASS_DEF_KEEPRULECALLS
#include "cotangent/AD/Passes.h.inc"
} // namespace cotangent::ad

using namespace mlir;
using namespace cotangent;

namespace {

struct KeepRuleCallsPass : ad::impl::KeepRuleCallsBase<KeepRuleCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::DenseSet<StringAttr> bound;
    module.walk([&](Operation *op) {
      if (auto rule = dyn_cast<ct::CustomGradientOp>(op))
        bound.insert(rule.getFunctionAttr().getAttr());
      else if (auto rule = dyn_cast<ct::CustomVjpOp>(op))
        bound.insert(rule.getFunctionAttr().getAttr());
      else if (auto rule = dyn_cast<ct::CustomJvpOp>(op))
        bound.insert(rule.getFunctionAttr().getAttr());
    });
    // [[ct::checkpoint]] functions: reverse mode reruns their calls.
    module.walk([&](func::FuncOp function) {
      if (function->hasAttr("ct.checkpoint"))
        bound.insert(function.getSymNameAttr());
    });
    module.walk([&](func::CallOp call) {
      if (!bound.contains(call.getCalleeAttr().getAttr()))
        return;
      LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << "the call of @"
                              << call.getCallee() << " at " << call.getLoc()
                              << " is kept (a rule or a checkpoint)" << "\n");
      call.setNoInline(true);
    });
  }
};

} // namespace
