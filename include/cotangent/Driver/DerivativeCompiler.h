//===- DerivativeCompiler.h - One translation unit's derivatives -*- C++
//-*-===//
//
// What the plugin and cotangent-cc share: from a parsed translation unit to
// the LLVM module of the derivatives it asks for, stage by stage (the
// lowered primal, the differentiated MLIR, LLVM IR). Every error and
// warning, the AD engine's included, is a Clang diagnostic at a source
// location.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_DRIVER_DERIVATIVECOMPILER_H
#define COTANGENT_DRIVER_DERIVATIVECOMPILER_H

#include "cotangent/Driver/CrashReport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/Timing.h"
#include "llvm/IR/GlobalValue.h"

#include <memory>
#include <string>

namespace clang {
class ASTContext;
} // namespace clang

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace cotangent {

struct CompileOptions {
  /// Where to write every stage (`<file>.mlir`, `.ad.mlir`, `.ll`); none
  /// when empty.
  std::string dumpDir;
  /// What an unconnected active parameter draws: zero, warn or error.
  std::string unconnected = "warn";
  /// Whether derivatives take the optimisations that only save tape or
  /// time (off: the plain strategy, which the optimised ones must match).
  bool optimizeDerivatives = true;
  /// Checkpoint loops whose recorded tape would be long, chosen when they
  /// start (ct-auto-checkpoint).
  bool autoCheckpoint = true;
  /// A zero adjoint or tangent times any partial is zero (off: IEEE, where
  /// zero times infinity is NaN).
  bool strongZero = false;
  /// Treat every loop as a parallel loop (a test of ct-parallelize-loops,
  /// which must prove each derivative loop it makes parallel).
  bool parallelizeAllLoops = false;
  /// The NVIDIA architecture (e.g. "sm_90") that loops marked for a GPU
  /// (`#pragma omp target ... parallel for`) get kernels for; empty: none,
  /// they run on CPU threads.
  std::string gpuChip;
  /// Print, at the end, how long each phase and each MLIR pass took (like
  /// clang's -ftime-report).
  bool timeReport = false;
  /// The linkage of the entry points: linkonce_odr inside a translation
  /// unit (every unit that calls one defines it), weak_odr in an object
  /// file of its own.
  llvm::GlobalValue::LinkageTypes entryLinkage =
      llvm::GlobalValue::LinkOnceODRLinkage;
};

class DerivativeCompiler {
public:
  DerivativeCompiler(clang::ASTContext &ast, CompileOptions options);
  ~DerivativeCompiler();

  /// Lowers the translation unit (entry points, rules, exports).
  mlir::LogicalResult lower();
  /// Differentiates every request, then drops what no entry point or
  /// export reaches.
  mlir::LogicalResult differentiate();
  /// Lowers to LLVM IR in `context`, for the unit's target; entry points
  /// and exports are the only external symbols.
  std::unique_ptr<llvm::Module> translate(llvm::LLVMContext &context);

  /// Whether the unit asks for anything at all.
  bool hasWork();
  mlir::ModuleOp getModule() { return *module; }

private:
  /// With derivatives in an object file of their own: an error for each
  /// function with internal linkage they would call (a `static` custom
  /// rule run as compiled).
  mlir::LogicalResult refuseInternalCallsFromOwnObject();
  void dump(llvm::StringRef suffix,
            llvm::function_ref<void(llvm::raw_ostream &)> print);

  /// First member: covers everything the compiler does.
  CrashReportScope crashReport;
  clang::ASTContext &ast;
  CompileOptions options;
  /// Prints its report when destroyed, after the phases' scopes ended.
  mlir::DefaultTimingManager timing;
  mlir::TimingScope rootTiming;
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

} // namespace cotangent

#endif // COTANGENT_DRIVER_DERIVATIVECOMPILER_H
