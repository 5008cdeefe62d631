//===- LoopAnnotations.cpp - Loop hints for LLVM on derivative code -------===//
//
// Done on LLVM IR, after translation: LLVM finds the loops, and each gets a
// distinct loop ID (MLIR's loop annotations are attributes, and equal ones
// translate to one shared ID, which LLVM's loop passes do not expect).
//
//===----------------------------------------------------------------------===//

#include "cotangent/CodeGen/Transforms/LoopAnnotations.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

void cotangent::codegen::disableRuntimeUnrolling(llvm::Module &module) {
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    llvm::DominatorTree dominators(function);
    llvm::LoopInfo loops(dominators);
    for (llvm::Loop *loop : loops.getLoopsInPreorder())
      llvm::addStringMetadataToLoop(loop, "llvm.loop.unroll.runtime.disable");
  }
}
