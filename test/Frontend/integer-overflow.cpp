// Signed integer arithmetic carries `nsw`, as Clang's own code does: C++
// leaves signed overflow undefined, and LLVM needs the flag to widen
// induction variables and fold the sign extensions of indices. Unsigned
// arithmetic wraps, types narrower than int are computed in int and
// converted back (an increment of a short wraps), and -fwrapv defines
// overflow: none of those get the flag.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -fwrapv | FileCheck %s --check-prefix=WRAPV

// CHECK-LABEL: func.func @_Z10withSignedPKdii(
// CHECK: arith.muli %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK: arith.addi %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK: arith.subi %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK: arith.subi %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK: arith.addi %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK: arith.muli %{{.*}}, %{{.*}} overflow<nsw> : i64
// WRAPV-LABEL: func.func @_Z10withSignedPKdii(
// WRAPV-NOT: overflow<nsw>
// WRAPV-LABEL: func.func @_Z12withUnsignedPKdjs(
[[ct::differentiable]] double withSigned(const double *x, int i, int d) {
  int row = i * d + 1; // mul, add
  int back = -row - d; // neg (0 - row), sub
  back += 2;           // compound assignment in int
  long wide = long(back) * 3;
  return x[row] + x[wide];
}

// CHECK-LABEL: func.func @_Z12withUnsignedPKdjs(
// CHECK-NOT: overflow<nsw>
// CHECK: arith.addi %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : i16{{$}}
// CHECK-NOT: overflow<nsw>
// CHECK: return
[[ct::differentiable]] double withUnsigned(const double *x, unsigned i, short s) {
  unsigned j = i * 2u + 1u;
  ++s; // computed in int in C++, wraps back to short
  return x[j] + x[s];
}
