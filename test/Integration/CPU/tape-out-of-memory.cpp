// A tape the C allocator cannot grow ends the program with a message that
// says what ran out and how much was asked for, not a segmentation fault
// or a wrong derivative. Memory is capped with ulimit -v (1 GiB); the
// recurrence below must remember all n values of x for its reverse sweep
// (8 GiB for n = 2^30). Recorded, that is: without
// `auto-checkpoint=off` the compiler would checkpoint the loop, whose tape
// it sees would be long, and the gradient would fit.
// REQUIRES: plugin
// (AddressSanitizer cannot start under the cap on virtual memory.)
// UNSUPPORTED: asan-programs
// RUN: %clangxx-ct -O2 -fplugin-arg-cotangent-auto-checkpoint=off %s -o %t
// RUN: %t 1000 | FileCheck %s --check-prefix=SMALL
// RUN: (ulimit -v 1048576; not --crash %t 1073741824) 2>&1 | FileCheck %s
// SMALL: gradient ok
// CHECK: cotangent: out of memory: a reverse-mode tape (the values a derivative keeps for its reverse sweep) needs {{[0-9]+}} bytes
// CHECK-NOT: gradient

#include <cotangent/cotangent.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

[[ct::differentiable]] double iterate(double x, long n) {
  for (long i = 0; i < n; ++i)
    x = std::sin(x) + 0.5 * x;
  return x;
}

int main(int argc, char **argv) {
  long n = std::atol(argv[1]);
  double x = 0.3, dx = 0;
  ct::gradient<iterate>(x, n, &dx);
  // Central differences on the small case.
  double h = 1e-6;
  double fd = (iterate(x + h, n) - iterate(x - h, n)) / (2 * h);
  if (std::fabs(dx - fd) <= 1e-6 * std::fmax(1.0, std::fabs(fd)))
    std::printf("gradient ok\n");
  else
    std::printf("gradient FAIL %g %g\n", dx, fd);
  return 0;
}
