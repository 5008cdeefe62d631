// Every ct op parses, verifies and prints back in the same form, and the
// printed form parses again (round trip through the generic form too).
// RUN: %cotangent-opt %s | FileCheck %s
// RUN: %cotangent-opt %s | %cotangent-opt | FileCheck %s
// RUN: %cotangent-opt %s --mlir-print-op-generic | %cotangent-opt | FileCheck %s

func.func @f(%x: f64, %y: f64) -> f64 {
  %0 = arith.mulf %x, %y : f64
  return %0 : f64
}

func.func @mixed(%x: f32, %n: i32, %p: memref<?xf32>, %q: memref<4xf64>) -> (f32, i32, f64) {
  %c0 = arith.constant 0 : index
  %0 = memref.load %p[%c0] : memref<?xf32>
  %1 = memref.load %q[%c0] : memref<4xf64>
  return %0, %n, %1 : f32, i32, f64
}

// CHECK-LABEL: func @requests
func.func @requests(%x: f64, %y: f64, %s: f32, %t: f64, %n: i32,
                    %p: memref<?xf32>, %dp: memref<?xf32>,
                    %q: memref<4xf64>, %dq: memref<4xf64>) {
  // CHECK: ct.gradient @f(%{{.*}}, %{{.*}}) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %v, %dx, %dy = ct.gradient @f(%x, %y) activity [active, active]
      : (f64, f64) -> (f64, f64, f64)
  // CHECK: ct.gradient @f(%{{.*}}, %{{.*}}) activity [const, active] : (f64, f64) -> (f64, f64)
  %v1, %dy1 = ct.gradient @f(%x, %y) activity [const, active]
      : (f64, f64) -> (f64, f64)
  %x32 = arith.truncf %x : f64 to f32
  %n4 = arith.index_cast %n : i32 to index
  // CHECK: ct.pullback @mixed(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) seeds(%{{.*}}, %{{.*}}) shadows(%{{.*}}, %{{.*}}) activity [active, const, dup, dup] : (f32, i32, memref<?xf32>, memref<4xf64>, f32, f64, memref<?xf32>, memref<4xf64>) -> (f32, i32, f64, f32)
  %r:4 = ct.pullback @mixed(%x32, %n, %p, %q) seeds(%s, %t) shadows(%dp, %dq)
      activity [active, const, dup, dup]
      : (f32, i32, memref<?xf32>, memref<4xf64>, f32, f64, memref<?xf32>, memref<4xf64>)
        -> (f32, i32, f64, f32)
  // CHECK: ct.jvp @mixed(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) tangents(%{{.*}}, %{{.*}}) activity [const, const, dup, dup] : (f32, i32, memref<?xf32>, memref<4xf64>, memref<?xf32>, memref<4xf64>) -> (f32, i32, f64, f32, f64)
  %j:5 = ct.jvp @mixed(%x32, %n, %p, %q) tangents(%dp, %dq)
      activity [const, const, dup, dup]
      : (f32, i32, memref<?xf32>, memref<4xf64>, memref<?xf32>, memref<4xf64>)
        -> (f32, i32, f64, f32, f64)
  // Vector mode: every seed, shadow, tangent and adjoint carries 4 lanes
  // (a vector; memory gains a trailing lane dimension).
  %ls = vector.broadcast %s : f32 to vector<4xf32>
  %lt = vector.broadcast %t : f64 to vector<4xf64>
  %ldp = memref.alloc(%n4) : memref<?x4xf32>
  %ldq = memref.alloc() : memref<4x4xf64>
  // CHECK: ct.pullback @mixed(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) seeds(%{{.*}}, %{{.*}}) shadows(%{{.*}}, %{{.*}}) lanes 4 activity [active, const, dup, dup] : (f32, i32, memref<?xf32>, memref<4xf64>, vector<4xf32>, vector<4xf64>, memref<?x4xf32>, memref<4x4xf64>) -> (f32, i32, f64, vector<4xf32>)
  %lr:4 = ct.pullback @mixed(%x32, %n, %p, %q) seeds(%ls, %lt)
      shadows(%ldp, %ldq) lanes 4 activity [active, const, dup, dup]
      : (f32, i32, memref<?xf32>, memref<4xf64>, vector<4xf32>, vector<4xf64>,
         memref<?x4xf32>, memref<4x4xf64>) -> (f32, i32, f64, vector<4xf32>)
  // CHECK: ct.jvp @mixed(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) tangents(%{{.*}}, %{{.*}}) lanes 4 activity [const, const, dup, dup] : (f32, i32, memref<?xf32>, memref<4xf64>, memref<?x4xf32>, memref<4x4xf64>) -> (f32, i32, f64, vector<4xf32>, vector<4xf64>)
  %lj:5 = ct.jvp @mixed(%x32, %n, %p, %q) tangents(%ldp, %ldq) lanes 4
      activity [const, const, dup, dup]
      : (f32, i32, memref<?xf32>, memref<4xf64>, memref<?x4xf32>, memref<4x4xf64>)
        -> (f32, i32, f64, vector<4xf32>, vector<4xf64>)
  // A request with nothing active is still a well-formed call of @f.
  // CHECK: ct.jvp @f(%{{.*}}, %{{.*}}) activity [const, const] : (f64, f64) -> (f64, f64)
  %k:2 = ct.jvp @f(%x, %y) activity [const, const] : (f64, f64) -> (f64, f64)
  return
}

// CHECK-LABEL: func @markers
func.func @markers(%x: f64, %v: vector<4xf32>, %w: vector<4xf32>) -> (f64, vector<4xf32>) {
  // CHECK: ct.stop_gradient %{{.*}} : f64
  %0 = ct.stop_gradient %x : f64
  // CHECK: ct.pass_through %{{.*}}, %{{.*}} : vector<4xf32>
  %1 = ct.pass_through %v, %w : vector<4xf32>
  return %0, %1 : f64, vector<4xf32>
}

// CHECK-LABEL: func @bits
func.func @bits(%x: f64, %i: i32) -> (i64, f32) {
  // CHECK: ct.bit_cast %{{.*}} : f64 to i64
  %0 = ct.bit_cast %x : f64 to i64
  // CHECK: ct.bit_cast %{{.*}} : i32 to f32
  %1 = ct.bit_cast %i : i32 to f32
  return %0, %1 : i64, f32
}

func.func private @log1pexp(f32) -> f32
func.func private @log1pexp_pullback(f32, f32) -> f32
func.func private @log1pexp_jvp(f32, f32) -> (f32, f32)
// CHECK: ct.custom_gradient @log1pexp pullback @log1pexp_pullback
ct.custom_gradient @log1pexp pullback @log1pexp_pullback
// CHECK: ct.custom_jvp @log1pexp jvp @log1pexp_jvp
ct.custom_jvp @log1pexp jvp @log1pexp_jvp

// A rule for a function with memory: the backward half takes the residuals,
// the function's arguments, the seed of the one float result and the shadow
// of the dup argument, and returns the adjoint of the one active argument.
func.func private @solve(f64, i32, memref<?xf64>) -> f64
func.func private @solve_fwd(f64, i32, memref<?xf64>) -> (f64, memref<?xf64>, f64)
func.func private @solve_bwd(memref<?xf64>, f64, f64, i32, memref<?xf64>, f64, memref<?xf64>) -> f64
// CHECK: ct.custom_vjp @solve forward @solve_fwd backward @solve_bwd
ct.custom_vjp @solve forward @solve_fwd backward @solve_bwd

// CHECK-LABEL: func @tapes
func.func @tapes(%x: f64, %i: index, %b: i1) -> (f64, index, i1) {
  // CHECK: %[[T:.*]] = ct.tape_init : !ct.tape
  %t = ct.tape_init : !ct.tape
  // CHECK: ct.tape_reserve %[[T]], %{{.*}}
  ct.tape_reserve %t, %i
  // CHECK: ct.tape_push %[[T]], %{{.*}} : f64
  ct.tape_push %t, %x : f64
  // CHECK: ct.tape_push %[[T]], %{{.*}} : index
  ct.tape_push %t, %i : index
  // CHECK: ct.tape_push %[[T]], %{{.*}} : i1
  ct.tape_push %t, %b : i1
  // CHECK: ct.tape_pop %[[T]] : i1
  %0 = ct.tape_pop %t : i1
  // CHECK: ct.tape_pop %[[T]] : index
  %1 = ct.tape_pop %t : index
  // CHECK: ct.tape_pop %[[T]] : f64
  %2 = ct.tape_pop %t : f64
  // CHECK: ct.tape_free %[[T]]
  ct.tape_free %t
  return %2, %1, %0 : f64, index, i1
}

// CHECK-LABEL: func.func @checkpoint_marker
func.func @checkpoint_marker(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // CHECK: ct.checkpoint_loop snapshots 8 depth 1
    ct.checkpoint_loop snapshots 8 depth 1
  }
  return
}
