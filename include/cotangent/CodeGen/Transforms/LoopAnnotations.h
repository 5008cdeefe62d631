//===- LoopAnnotations.h - Loop hints for LLVM on derivative code -*- C++
//-*-===//

#ifndef COTANGENT_CODEGEN_TRANSFORMS_LOOPANNOTATIONS_H
#define COTANGENT_CODEGEN_TRANSFORMS_LOOPANNOTATIONS_H

namespace llvm {
class Module;
} // namespace llvm

namespace cotangent::codegen {

/// Marks every loop of `module`'s functions `llvm.loop.unroll.runtime.disable`
/// (each loop its own loop ID). Derivative loop bodies are large (primal,
/// adjoint and tape traffic side by side); unrolling them by a trip count
/// known only at run time multiplies the code LLVM then optimises, with no
/// gain in speed: GMM's gradient runs as fast, its HVP faster, and the unit
/// compiles in less time. Vectorisation and full unrolling of constant trip
/// counts are untouched.
void disableRuntimeUnrolling(llvm::Module &module);

} // namespace cotangent::codegen

#endif // COTANGENT_CODEGEN_TRANSFORMS_LOOPANNOTATIONS_H
