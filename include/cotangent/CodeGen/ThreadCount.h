//===- ThreadCount.h - ct.thread_count for OpenMP or serial code -*- C++
//-*-===//

#ifndef COTANGENT_CODEGEN_THREADCOUNT_H
#define COTANGENT_CODEGEN_THREADCOUNT_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace cotangent::codegen {

/// `ct-lower-thread-count`: replaces each `ct.thread_count` by a call of
/// `omp_get_max_threads()` when `openmp` (the translation unit is built
/// with -fopenmp, so parallel loops run on OpenMP threads), by 1 otherwise.
std::unique_ptr<mlir::Pass> createLowerThreadCountPass(bool openmp);
void registerLowerThreadCountPass();

} // namespace cotangent::codegen

#endif // COTANGENT_CODEGEN_THREADCOUNT_H
