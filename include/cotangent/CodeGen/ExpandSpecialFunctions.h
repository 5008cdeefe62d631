//===- ExpandSpecialFunctions.h - ct functions without a library -*- C++
//-*-===//

#ifndef COTANGENT_CODEGEN_EXPANDSPECIALFUNCTIONS_H
#define COTANGENT_CODEGEN_EXPANDSPECIALFUNCTIONS_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace cotangent::codegen {

/// `ct-expand-special-functions`: replaces the ct functions the C library
/// lacks (`ct.polygamma`, the derivatives of lgamma and tgamma) with scf,
/// arith and math code, before lowering to LLVM.
std::unique_ptr<mlir::Pass> createExpandSpecialFunctionsPass();
void registerExpandSpecialFunctionsPass();

} // namespace cotangent::codegen

#endif // COTANGENT_CODEGEN_EXPANDSPECIALFUNCTIONS_H
