// `#pragma ct checkpoint [snapshots(N)]` before a loop becomes a
// ct.checkpoint_loop marker opening the loop's body (0: the default count);
// the count may come from a macro. Loops without the pragma get none.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null

#define KEPT 5

// CHECK-LABEL: func.func @_Z5stepsdi
// CHECK: scf.for
// CHECK-NEXT: ct.checkpoint_loop snapshots 5 depth 1
// CHECK: scf.for
// CHECK-NEXT: ct.checkpoint_loop snapshots 0 depth 1
// CHECK: scf.for
// CHECK-NOT: ct.checkpoint_loop
// CHECK: return
[[ct::differentiable]] double steps(double x, int n) {
#pragma ct checkpoint snapshots(KEPT)
  for (int i = 0; i < n; ++i)
    x = x * x + 0.25;
  int i = 0;
#pragma ct checkpoint
  while (i < n) {
    x = x * 0.5;
    ++i;
  }
  for (int j = 0; j < n; ++j)
    x += 1;
  return x;
}

// A pragma wrapped in conditional compilation (directive lines between it
// and its loop) and one written `_Pragma` in a macro still mark the loop.
#define USE_CHECKPOINTS 1
#define CHECKPOINTED _Pragma("ct checkpoint snapshots(3)")

// CHECK-LABEL: func.func @_Z11conditionaldi
// CHECK: scf.for
// CHECK-NEXT: ct.checkpoint_loop snapshots 2 depth 1
// CHECK: scf.for
// CHECK-NEXT: ct.checkpoint_loop snapshots 3 depth 1
// CHECK: return
[[ct::differentiable]] double conditional(double x, int n) {
#if USE_CHECKPOINTS
#pragma ct checkpoint snapshots(2)
#endif
  for (int i = 0; i < n; ++i)
    x = x * x + 0.25;
  CHECKPOINTED
  for (int i = 0; i < n; ++i)
    x = x * 0.5;
  return x;
}
