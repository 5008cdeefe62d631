//===- ThreadCount.cpp - ct.thread_count for OpenMP or serial code --------===//

#include "cotangent/CodeGen/ThreadCount.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

namespace cotangent::codegen {
namespace {

constexpr llvm::StringLiteral kMaxThreads = "omp_get_max_threads";

struct LowerThreadCount
    : PassWrapper<LowerThreadCount, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerThreadCount)
  LowerThreadCount() = default;
  LowerThreadCount(const LowerThreadCount &other) : PassWrapper(other) {}
  explicit LowerThreadCount(bool openmp) { this->openmp = openmp; }
  StringRef getArgument() const final { return "ct-lower-thread-count"; }
  StringRef getDescription() const final {
    return "ct.thread_count: omp_get_max_threads() with OpenMP, else 1";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, func::FuncDialect>();
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ct::ThreadCountOp> counts;
    module.walk([&](ct::ThreadCountOp op) { counts.push_back(op); });
    if (counts.empty())
      return;
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
  Option<bool> openmp{*this, "openmp",
                      llvm::cl::desc("Parallel loops run on OpenMP threads"),
                      llvm::cl::init(false)};
};

} // namespace

std::unique_ptr<Pass> createLowerThreadCountPass(bool openmp) {
  return std::make_unique<LowerThreadCount>(openmp);
}

void registerLowerThreadCountPass() { PassRegistration<LowerThreadCount>(); }

} // namespace cotangent::codegen
