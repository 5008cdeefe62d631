//===- TapeAliasScopes.cpp - Tape slots alias nothing else ----------------===//
//
// A tape's storage (the header's own slots, then heap memory the helpers
// allocate) is reached only through the tape ops. After lowering, LLVM sees
// slot accesses as loads and stores through a pointer loaded from the
// header, which may alias any argument: a loop that reads the tape and
// writes a user's array gets run-time overlap checks, and when LLVM hoists
// those out of an outer loop they cover the whole tape and fail. One alias
// scope per module says what holds: slot accesses (and the tape helpers'
// calls) are in `tape`, and every other load, store or memory intrinsic in
// a function that uses a tape is `noalias` of it. Other calls get neither:
// one may be handed the tape.
//
//===----------------------------------------------------------------------===//

#include "cotangent/CodeGen/Transforms/TapeAliasScopes.h"
#include "cotangent/CodeGen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ct-tape-alias-scopes"

namespace cotangent::codegen {
#define GEN_PASS_DEF_TAPEALIASSCOPES
#include "cotangent/CodeGen/Passes.h.inc"
} // namespace cotangent::codegen

using namespace mlir;
using namespace cotangent;

namespace {

struct TapeAliasScopes : codegen::impl::TapeAliasScopesBase<TapeAliasScopes> {
  void runOnOperation() final {
    MLIRContext *context = &getContext();
    auto domain = LLVM::AliasScopeDomainAttr::get(
        context, StringAttr::get(context, "ct.tape"));
    auto tape = LLVM::AliasScopeAttr::get(
        domain, StringAttr::get(context, "tape slots"));
    auto inTape = ArrayAttr::get(context, {tape});
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      WalkResult slots = func.walk([](Operation *op) {
        return op->hasAttr(codegen::kTapeSlotAccess) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
      });
      if (!slots.wasInterrupted())
        return;
      LLVM_DEBUG(llvm::dbgs()
                 << "[" DEBUG_TYPE "] " << "@" << func.getName()
                 << ": tape slots get their own alias scope" << "\n");
      func.walk([&](LLVM::AliasAnalysisOpInterface access) {
        if (access->removeAttr(codegen::kTapeSlotAccess)) {
          access.setAliasScopes(inTape);
          return;
        }
        // A call may be handed the tape (a split pullback's forward half
        // pushes onto its caller's tape), and its body inlined with the
        // call's scopes: say nothing about it.
        if (isa<LLVM::CallOp, LLVM::InvokeOp>(access.getOperation()))
          return;
        SmallVector<Attribute> noalias;
        if (ArrayAttr old = access.getNoAliasScopesOrNull())
          llvm::append_range(noalias, old);
        noalias.push_back(tape);
        access.setNoAliasScopes(ArrayAttr::get(context, noalias));
      });
    });
  }
};

} // namespace
