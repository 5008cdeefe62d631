//===- HeapCounter.cpp - Counting malloc wrappers -------------------------===//
//
// Sizes are malloc_usable_size's, so a free subtracts what its allocation
// added. The benchmarks are single-threaded; the counters are atomic anyway.
//
//===----------------------------------------------------------------------===//

#include "HeapCounter.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <malloc.h>

extern "C" {
void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);
void __libc_free(void *);
}

namespace {

std::atomic<long> live{0}, peak{0};

void *counted(void *p) {
  if (p) {
    long now = live += long(malloc_usable_size(p));
    long seen = peak.load();
    while (now > seen && !peak.compare_exchange_weak(seen, now))
      ;
  }
  return p;
}

void uncount(void *p) {
  if (p)
    live -= long(malloc_usable_size(p));
}

} // namespace

extern "C" {
void *malloc(size_t size) { return counted(__libc_malloc(size)); }
void *calloc(size_t count, size_t size) {
  return counted(__libc_calloc(count, size));
}
void *realloc(void *p, size_t size) {
  uncount(p);
  void *q = __libc_realloc(p, size);
  if (!q && p && size != 0) {
    counted(p); // realloc failed; p is still allocated
    return nullptr;
  }
  return counted(q);
}
void *memalign(size_t alignment, size_t size) {
  return counted(__libc_memalign(alignment, size));
}
void *aligned_alloc(size_t alignment, size_t size) {
  return counted(__libc_memalign(alignment, size));
}
int posix_memalign(void **out, size_t alignment, size_t size) {
  void *p = counted(__libc_memalign(alignment, size));
  if (!p)
    return 12; // ENOMEM
  *out = p;
  return 0;
}
void free(void *p) {
  uncount(p);
  __libc_free(p);
}
}

long bench::peakHeapBytes(const std::function<void()> &run) {
  const long before = live.load();
  peak.store(before);
  run();
  return std::max(0L, peak.load() - before);
}
