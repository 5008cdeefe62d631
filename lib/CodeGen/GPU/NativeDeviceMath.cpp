//===- NativeDeviceMath.cpp - libdevice calls as NVPTX intrinsics ---------===//

#include "cotangent/CodeGen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-native-device-math"

using namespace mlir;

namespace cotangent::codegen {

#define GEN_PASS_DEF_NATIVEDEVICEMATH
#include "cotangent/CodeGen/Passes.h.inc"

namespace {

/// The intrinsic, selected natively by NVPTX, that computes what the
/// libdevice function `callee` does, built on `operands`; null for others.
Value buildNativeIntrinsic(OpBuilder &b, Location loc, StringRef callee,
                           ValueRange operands) {
  StringRef name = callee;
  if (!name.consume_front("__nv_"))
    return nullptr;
  // The f32 variants end in 'f' (fabsf, floorf...).
  Type type = operands.empty() ? Type() : operands[0].getType();
  if (type && type.isF32())
    name.consume_back("f");
  if (name == "fabs")
    return LLVM::FAbsOp::create(b, loc, operands[0]);
  if (name == "floor")
    return LLVM::FFloorOp::create(b, loc, operands[0]);
  if (name == "ceil")
    return LLVM::FCeilOp::create(b, loc, operands[0]);
  if (name == "trunc")
    return LLVM::FTruncOp::create(b, loc, operands[0]);
  if (name == "sqrt")
    return LLVM::SqrtOp::create(b, loc, operands[0]);
  if (name == "copysign")
    return LLVM::CopySignOp::create(b, loc, operands[0], operands[1]);
  if (name == "fma")
    return LLVM::FMAOp::create(b, loc, operands[0], operands[1], operands[2]);
  return nullptr;
}

/// After convert-gpu-to-nvvm: the libdevice calls it made of the math
/// functions NVPTX computes natively become intrinsics again, so that
/// kernels need no libdevice (ct-offload-loops lets no other math function
/// into a kernel).
struct NativeDeviceMath : impl::NativeDeviceMathBase<NativeDeviceMath> {
  void runOnOperation() override {
    SmallVector<LLVM::CallOp> calls;
    getOperation()->walk([&](LLVM::CallOp call) {
      if (call.getCallee() && call.getCallee()->starts_with("__nv_"))
        calls.push_back(call);
    });
    llvm::SmallDenseSet<StringRef> replaced;
    for (LLVM::CallOp call : calls) {
      OpBuilder b(call);
      Value native = buildNativeIntrinsic(b, call.getLoc(), *call.getCallee(),
                                          call.getArgOperands());
      if (!native)
        continue;
      LLVM_DEBUG(llvm::dbgs()
                 << "[" DEBUG_TYPE "] " << "the call of " << *call.getCallee()
                 << " at " << call.getLoc() << " becomes an intrinsic" << "\n");
      replaced.insert(*call.getCallee());
      call.getResult().replaceAllUsesWith(native);
      call.erase();
    }
    // Their declarations, now unused.
    SmallVector<LLVM::LLVMFuncOp> unused;
    getOperation()->walk([&](LLVM::LLVMFuncOp function) {
      if (function.isExternal() && replaced.contains(function.getName()))
        unused.push_back(function);
    });
    for (LLVM::LLVMFuncOp function : unused)
      function.erase();
  }
};

} // namespace

} // namespace cotangent::codegen
