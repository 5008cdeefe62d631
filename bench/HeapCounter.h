//===- HeapCounter.h - Peak heap use of a piece of code -------------------===//
//
// The benchmark binary replaces malloc and friends with counting wrappers
// around glibc's (HeapCounter.cpp); peakHeapBytes(run) is the most heap
// memory `run` had allocated at once beyond what was live before it.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_BENCH_HEAPCOUNTER_H
#define COTANGENT_BENCH_HEAPCOUNTER_H

#include <functional>

namespace bench {
long peakHeapBytes(const std::function<void()> &run);
} // namespace bench

#endif // COTANGENT_BENCH_HEAPCOUNTER_H
