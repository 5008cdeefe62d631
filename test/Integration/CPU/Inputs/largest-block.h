//===- largest-block.h - The largest block a piece of code allocates ------===//
//
// For programs linked with -Wl,--wrap=malloc,--wrap=realloc:
// largestBlockOf(f) is the largest size f asked malloc or realloc for (a
// tape grows by doubling, so its last block shows its size; 0 if f asked
// for nothing). Only the calling thread's requests are meant to be
// tracked; other threads should not allocate meanwhile.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_TEST_LARGEST_BLOCK_H
#define COTANGENT_TEST_LARGEST_BLOCK_H

#include <atomic>
#include <cstddef>

namespace largest_block {
inline std::atomic<bool> tracking{false};
inline size_t largest = 0;
inline void note(size_t bytes) {
  if (tracking && bytes > largest)
    largest = bytes;
}
} // namespace largest_block

extern "C" void *__real_malloc(size_t bytes);
extern "C" void *__real_realloc(void *old, size_t bytes);
extern "C" void *__wrap_malloc(size_t bytes) {
  largest_block::note(bytes);
  return __real_malloc(bytes);
}
extern "C" void *__wrap_realloc(void *old, size_t bytes) {
  largest_block::note(bytes);
  return __real_realloc(old, bytes);
}

template <class F> size_t largestBlockOf(F f) {
  largest_block::largest = 0;
  largest_block::tracking = true;
  f();
  largest_block::tracking = false;
  return largest_block::largest;
}

#endif // COTANGENT_TEST_LARGEST_BLOCK_H
