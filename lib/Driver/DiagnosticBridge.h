//===- DiagnosticBridge.h - MLIR diagnostics as Clang's ---------*- C++ -*-===//

#ifndef COTANGENT_LIB_DRIVER_DIAGNOSTICBRIDGE_H
#define COTANGENT_LIB_DRIVER_DIAGNOSTICBRIDGE_H

#include "mlir/IR/Diagnostics.h"

namespace clang {
class ASTContext;
} // namespace clang

namespace cotangent {

/// While alive, reports every MLIR diagnostic of `context` through Clang's
/// DiagnosticsEngine, at the source location its MLIR location names, with
/// its notes; Clang's error count and exit status then include them.
class DiagnosticBridge : public mlir::ScopedDiagnosticHandler {
public:
  DiagnosticBridge(mlir::MLIRContext *context, clang::ASTContext &ast);
};

} // namespace cotangent

#endif // COTANGENT_LIB_DRIVER_DIAGNOSTICBRIDGE_H
