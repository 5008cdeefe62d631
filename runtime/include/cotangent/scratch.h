//===- cotangent/scratch.h - Scratch derivative memory of unknown size -*- C++
//-*-===//
//
// A custom rule (or a function exported by another translation unit) takes
// a derivative for every pointer parameter, even where the caller does not
// want that derivative; the generated code then passes scratch memory for
// the rule to write. Its size is that of the memory the parameter points
// to, which for a C pointer is not known. Such scratch memory is reserved
// here instead: a large anonymous mapping whose pages the kernel provides
// (zeroed) only when the rule touches them, and releases whole.
//
// Defined here, weak, so that every translation unit including cotangent.h
// has them and the linker keeps one.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_SCRATCH_H
#define COTANGENT_SCRATCH_H

#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>

namespace ct::detail {
/// The bytes reserved: 2^32 doubles, far beyond what a rule reads through
/// one pointer, and only address space until written.
inline constexpr size_t kScratchBytes = size_t(1) << 35;
} // namespace ct::detail

extern "C" {
__attribute__((weak)) void *ct_scratch_reserve() {
  void *memory =
      mmap(nullptr, ct::detail::kScratchBytes, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) {
    std::fprintf(stderr, "cotangent: cannot reserve scratch memory for the "
                         "derivative of a pointer a custom rule takes\n");
    std::abort();
  }
  return memory;
}
__attribute__((weak)) void ct_scratch_release(void *memory) {
  munmap(memory, ct::detail::kScratchBytes);
}
}

#endif // COTANGENT_SCRATCH_H
