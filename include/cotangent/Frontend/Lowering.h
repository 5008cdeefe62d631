//===- Lowering.h - Differentiable C++ to MLIR ------------------*- C++ -*-===//

#ifndef COTANGENT_FRONTEND_LOWERING_H
#define COTANGENT_FRONTEND_LOWERING_H

#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace clang {
class ASTContext;
} // namespace clang

namespace cotangent::frontend {

/// The entry points (`ct::detail::entry<...>::call`, defined in every
/// translation unit that uses them) and the derivatives exported to other
/// translation units.
using ct::kEntryPointAttr;
using ct::kExportAttr;

/// Loads the dialects the lowering emits into `context`.
void loadFrontendDialects(mlir::MLIRContext &context);

/// Lowers every function of the translation unit marked [[ct::differentiable]]
/// and every function they call whose body is visible into `module`, as
/// func/arith/math/scf/cf/memref with Clang source locations; with them the
/// derivative entry points the unit calls (with their ct requests), its
/// custom rules, and the derivatives it exports to other units. Constructs
/// outside the supported subset are reported as Clang errors at their source
/// range; the result is then failure. The result is what Clang's own code
/// generation would make (locals in stack slots, cf branches): the
/// ct-structure pass turns it into what the AD engine takes.
mlir::LogicalResult lowerTranslationUnit(clang::ASTContext &ast,
                                         mlir::ModuleOp module);

} // namespace cotangent::frontend

#endif // COTANGENT_FRONTEND_LOWERING_H
