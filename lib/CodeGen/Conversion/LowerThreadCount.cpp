//===- ThreadCount.cpp - ct.thread_count for OpenMP or serial code --------===//

#include "cotangent/CodeGen/Passes.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-lower-thread-count"

using namespace mlir;

namespace cotangent::codegen {

#define GEN_PASS_DEF_LOWERTHREADCOUNT
#include "cotangent/CodeGen/Passes.h.inc"
namespace {

constexpr llvm::StringLiteral kMaxThreads = "omp_get_max_threads";

struct LowerThreadCount : impl::LowerThreadCountBase<LowerThreadCount> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ct::ThreadCountOp> counts;
    module.walk([&](ct::ThreadCountOp op) { counts.push_back(op); });
    if (counts.empty())
      return;
    LLVM_DEBUG(llvm::dbgs()
               << "[" DEBUG_TYPE "] " << counts.size()
               << " thread counts become "
               << (openmp ? "omp_get_max_threads()" : "1") << "\n");
    OpBuilder b(module.getContext());
    func::FuncOp maxThreads;
    if (openmp) {
      maxThreads = module.lookupSymbol<func::FuncOp>(kMaxThreads);
      if (!maxThreads) {
        b.setInsertionPointToEnd(module.getBody());
        maxThreads =
            func::FuncOp::create(b, module.getLoc(), kMaxThreads,
                                 b.getFunctionType({}, {b.getI32Type()}));
        maxThreads.setPrivate();
      }
    }
    for (ct::ThreadCountOp op : counts) {
      b.setInsertionPoint(op);
      Value count;
      if (openmp) {
        Value threads =
            func::CallOp::create(b, op.getLoc(), maxThreads).getResult(0);
        count = arith::IndexCastOp::create(b, op.getLoc(), b.getIndexType(),
                                           threads);
      } else {
        count = arith::ConstantIndexOp::create(b, op.getLoc(), 1);
      }
      op.replaceAllUsesWith(count);
      op.erase();
    }
  }
};

} // namespace

} // namespace cotangent::codegen
