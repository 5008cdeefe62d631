// Pointer variables to std::vectors are indices into the one list of
// vectors they designate (here a, then b): std::swap of two of them
// exchanges their indices, carried by the loop, and each read selects the
// vector its index names. No address is kept in memory.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null
#include <utility>
#include <vector>

// CHECK-LABEL: func.func @_Z7swappedPKdi
// CHECK-NOT: ct.store_address
// CHECK: %[[A:.*]] = memref.alloc
// CHECK: %[[AV:.*]] = memref.cast %[[A]]
// CHECK: %[[B:.*]] = memref.alloc
// CHECK: %[[BV:.*]] = memref.cast %[[B]]
// The indices of next (b: 1) and cur (a: 0), carried by the loop.
// CHECK: scf.for {{.*}} iter_args(%[[NEXT:.*]] = %c1, %[[CUR:.*]] = %c0) -> (index, index)
// CHECK: %[[ISB:.*]] = arith.cmpi eq, %[[CUR]], %c1
// CHECK: arith.select %[[ISB]]
// CHECK: %[[NEXTISB:.*]] = arith.cmpi eq, %[[NEXT]], %c1
// CHECK: %[[WRITTEN:.*]] = arith.select %[[NEXTISB]], %[[BV]], %[[AV]]
// CHECK: memref.store {{.*}}, %[[WRITTEN]]
// The swap: cur takes next's index and next cur's.
// CHECK-NEXT: scf.yield %[[CUR]], %[[NEXT]] : index, index
// CHECK-NOT: ct.load_address
// CHECK: return
[[ct::differentiable]] double swapped(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n);
  std::vector<double> *cur = &a, *next = &b;
  for (int step = 0; step < 3; ++step) {
    (*next)[0] = (*cur)[0] * 2;
    std::swap(cur, next);
  }
  return (*cur)[0];
}
