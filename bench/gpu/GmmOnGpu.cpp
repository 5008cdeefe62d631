//===- GmmOnGpu.cpp - GMM's per-point loop as a GPU loop ------------------===//
//
// GmmParallel.cpp with its loop over points as
// `#pragma omp target teams distribute parallel for` (GMM_ON_GPU), compiled
// with -fplugin-arg-cotangent-target=cuda:sm_90: the same entry points
// (objectiveParallel, gradientParallel, directionalParallel), whose
// derivative loops run as kernels where a CUDA device answers.
//
//===----------------------------------------------------------------------===//

#define GMM_ON_GPU 1
#include "../workloads/GmmParallel.cpp"
