// Each verifier error of the ct dialect, with its exact message.
// RUN: %cotangent-opt %s -split-input-file -verify-diagnostics

func.func @f(%x: f64, %y: f64) -> f64 {
  return %x : f64
}
func.func @g(%x: f64) {
  // expected-error @below {{'ct.gradient' op expects one activity per input, but has 1 activities for 2 inputs}}
  %0:2 = ct.gradient @f(%x, %x) activity [active] : (f64, f64) -> (f64, f64)
  return
}

// -----

func.func @f(%p: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %0 = memref.load %p[%c0] : memref<?xf64>
  return %0 : f64
}
func.func @g(%p: memref<?xf64>) {
  // expected-error @below {{'ct.gradient' op activity 'active' of input #0 requires a floating-point scalar, but the input has type 'memref<?xf64>'}}
  %0:2 = ct.gradient @f(%p) activity [active] : (memref<?xf64>) -> (f64, memref<?xf64>)
  return
}

// -----

func.func @g(%x: f64) {
  // expected-error @below {{'ct.gradient' op activity 'dup' of input #0 requires a memref of floating-point elements, but the input has type 'f64'}}
  %0 = ct.gradient @f(%x) shadows(%x) activity [dup] : (f64, f64) -> f64
  return
}

// -----

func.func @g(%p: memref<?xi32>) {
  // expected-error @below {{'ct.pullback' op activity 'dup' of input #0 requires a memref of floating-point elements, but the input has type 'memref<?xi32>'}}
  ct.pullback @f(%p) shadows(%p) activity [dup] : (memref<?xi32>, memref<?xi32>) -> ()
  return
}

// -----

func.func @g(%p: memref<?xf64>) {
  // expected-error @below {{'ct.gradient' op expects 1 shadow(s) (one per 'dup' input), but has 0}}
  %0 = ct.gradient @f(%p) activity [dup] : (memref<?xf64>) -> f64
  return
}

// -----

func.func @g(%p: memref<?xf64>, %q: memref<4xf64>) {
  // expected-error @below {{'ct.pullback' op shadow #0 has type 'memref<4xf64>', but dup input #0 has type 'memref<?xf64>'}}
  ct.pullback @f(%p) shadows(%q) activity [dup] : (memref<?xf64>, memref<4xf64>) -> ()
  return
}

// -----

func.func @g(%x: f64) {
  // expected-error @below {{'ct.gradient' op callee @missing does not exist}}
  %0:2 = ct.gradient @missing(%x) activity [active] : (f64) -> (f64, f64)
  return
}

// -----

// expected-note @below {{@table is defined here}}
memref.global "private" @table : memref<4xf64>
func.func @g(%x: f64) {
  // expected-error @below {{'ct.jvp' op callee @table is not a function with a builtin function type}}
  %0 = ct.jvp @table(%x) tangents(%x) activity [active] : (f64, f64) -> f64
  return
}

// -----

func.func @f(%x: f64, %y: f64) -> f64 {
  return %x : f64
}
func.func @g(%x: f64) {
  // expected-error @below {{'ct.gradient' op expects 2 input(s) (one per argument of @f), but has 1}}
  %0:2 = ct.gradient @f(%x) activity [active] : (f64) -> (f64, f64)
  return
}

// -----

func.func @f(%x: f64, %y: f64) -> f64 {
  return %x : f64
}
func.func @g(%x: f64, %y: f32) {
  // expected-error @below {{'ct.gradient' op input #1 has type 'f32', but argument #1 of @f has type 'f64'}}
  %0:3 = ct.gradient @f(%x, %y) activity [active, active] : (f64, f32) -> (f64, f64, f32)
  return
}

// -----

func.func @f(%x: f64) -> (f64, f64) {
  return %x, %x : f64, f64
}
func.func @g(%x: f64) {
  // expected-error @below {{'ct.gradient' op needs a callee with exactly one floating-point result, but @f has type '(f64) -> (f64, f64)'; use ct.pullback to seed several results}}
  %0:3 = ct.gradient @f(%x) activity [active] : (f64) -> (f64, f64, f64)
  return
}

// -----

func.func @f(%x: f64) -> i32 {
  %0 = arith.fptosi %x : f64 to i32
  return %0 : i32
}
func.func @g(%x: f64) {
  // expected-error @below {{'ct.gradient' op needs a callee with exactly one floating-point result, but @f has type '(f64) -> i32'}}
  %0:2 = ct.gradient @f(%x) activity [active] : (f64) -> (i32, f64)
  return
}

// -----

func.func @f(%x: f64, %y: f64) -> f64 {
  return %x : f64
}
func.func @g(%x: f64) {
  // expected-error @below {{'ct.gradient' op expects 3 result(s) (the results of @f, then one adjoint per 'active' input), but has 2}}
  %0:2 = ct.gradient @f(%x, %x) activity [active, active] : (f64, f64) -> (f64, f64)
  return
}

// -----

func.func @f(%x: f64, %y: f32) -> f64 {
  return %x : f64
}
func.func @g(%x: f64, %y: f32) {
  // expected-error @below {{'ct.gradient' op result #2 has type 'f64', but the adjoint of active input #1 has type 'f32'}}
  %0:3 = ct.gradient @f(%x, %y) activity [active, active] : (f64, f32) -> (f64, f64, f64)
  return
}

// -----

func.func @f(%x: f64, %n: i32) -> (f64, i32, f32) {
  %0 = arith.truncf %x : f64 to f32
  return %x, %n, %0 : f64, i32, f32
}
func.func @g(%x: f64, %n: i32) {
  // expected-error @below {{'ct.pullback' op expects 2 seed(s) (one per floating-point result of @f), but has 1}}
  %0:4 = ct.pullback @f(%x, %n) seeds(%x) activity [active, const] : (f64, i32, f64) -> (f64, i32, f32, f64)
  return
}

// -----

func.func @f(%x: f64, %n: i32) -> (f64, i32, f32) {
  %0 = arith.truncf %x : f64 to f32
  return %x, %n, %0 : f64, i32, f32
}
func.func @g(%x: f64, %n: i32) {
  // expected-error @below {{'ct.pullback' op seed #1 has type 'f64', but result #2 of @f has type 'f32'}}
  %0:4 = ct.pullback @f(%x, %n) seeds(%x, %x) activity [active, const] : (f64, i32, f64, f64) -> (f64, i32, f32, f64)
  return
}

// -----

func.func @g(%x: f64, %p: memref<?xf64>) {
  // expected-error @below {{'ct.jvp' op expects 2 tangent(s) (one per non-'const' input), but has 1}}
  %0:2 = ct.jvp @f(%x, %p) tangents(%x) activity [active, dup] : (f64, memref<?xf64>, f64) -> (f64, f64)
  return
}

// -----

func.func @g(%x: f64, %y: f32) {
  // expected-error @below {{'ct.jvp' op tangent #0 has type 'f32', but input #0 has type 'f64'}}
  %0:2 = ct.jvp @f(%x) tangents(%y) activity [active] : (f64, f32) -> (f64, f64)
  return
}

// -----

func.func @f(%x: f64) -> (f64, i32) {
  %0 = arith.fptosi %x : f64 to i32
  return %x, %0 : f64, i32
}
func.func @g(%x: f64) {
  // expected-error @below {{'ct.jvp' op result #2 has type 'i32', but the tangent of result #0 of @f has type 'f64'}}
  %0:3 = ct.jvp @f(%x) tangents(%x) activity [active] : (f64, f64) -> (f64, i32, i32)
  return
}

// -----

func.func @g(%x: f64) {
  // expected-error @below {{expected activity 'const', 'active' or 'dup', but got 'passive'}}
  %0:2 = ct.gradient @f(%x) activity [passive] : (f64) -> (f64, f64)
  return
}

// -----

func.func @g(%x: i32) -> i32 {
  // expected-error @below {{'ct.stop_gradient' op operand #0 must be floating-point-like}}
  %0 = ct.stop_gradient %x : i32
  return %0 : i32
}

// -----

func.func @g(%x: f32, %y: f64) -> f64 {
  // expected-error @below {{'ct.pass_through' op failed to verify that all of {value, input, result} have same type}}
  %0 = "ct.pass_through"(%x, %y) : (f32, f64) -> f64
  return %0 : f64
}

// -----

func.func private @pb(f32, f32) -> f32
// expected-error @below {{'ct.custom_gradient' op function @missing does not exist}}
ct.custom_gradient @missing pullback @pb

// -----

func.func private @h(f32, i32, memref<?xf32>) -> f32
func.func private @h_pullback(f32, i32, memref<?xf32>, f32) -> f32
// expected-error @below {{'ct.custom_gradient' op pullback @h_pullback has type '(f32, i32, memref<?xf32>, f32) -> f32', but the pullback of @h must have type '(f32, i32, memref<?xf32>, f32, memref<?xf32>) -> f32'}}
ct.custom_gradient @h pullback @h_pullback

// -----

func.func private @h(f32) -> f32
func.func private @h_jvp(f32, f32) -> f32
// expected-error @below {{'ct.custom_jvp' op jvp @h_jvp has type '(f32, f32) -> f32', but the jvp of @h must have type '(f32, f32) -> (f32, f32)'}}
ct.custom_jvp @h jvp @h_jvp

// -----

func.func private @h(f64, i32) -> f64
func.func private @h_fwd(f64) -> (f64, f64)
func.func private @h_bwd(f64, f64) -> f64
// expected-error @below {{'ct.custom_vjp' op forward @h_fwd has type '(f64) -> (f64, f64)', but it must take the arguments of @h and return its results followed by any residuals: '(f64, i32) -> f64'}}
ct.custom_vjp @h forward @h_fwd backward @h_bwd

// -----

func.func private @h(f64, i32) -> f64
func.func private @h_fwd(f64, i32) -> (f64, i64)
func.func private @h_bwd(f64, f64) -> f64
// expected-error @below {{'ct.custom_vjp' op backward @h_bwd has type '(f64, f64) -> f64', but the backward of @h must have type '(i64, f64, i32, f64) -> f64'}}
ct.custom_vjp @h forward @h_fwd backward @h_bwd

// -----

func.func private @h(f32) -> f32
func.func private @h_pullback(f32, f32) -> f32
func.func private @h_fwd(f32) -> f32
func.func private @h_bwd(f32) -> f32
// expected-note @below {{the first one is bound here}}
ct.custom_gradient @h pullback @h_pullback
// expected-error @below {{'ct.custom_vjp' op binds a second reverse-mode rule to @h}}
ct.custom_vjp @h forward @h_fwd backward @h_bwd

// -----

func.func private @h(f32) -> f32
func.func private @h_jvp(f32, f32) -> (f32, f32)
func.func private @h_pullback(f32, f32) -> f32
// A forward and a reverse rule for one function are fine together.
// expected-note @below {{the first one is bound here}}
ct.custom_jvp @h jvp @h_jvp
ct.custom_gradient @h pullback @h_pullback
// expected-error @below {{'ct.custom_jvp' op binds a second forward-mode rule to @h}}
ct.custom_jvp @h jvp @h_jvp

// -----

func.func private @h(f32) -> f32
func.func private @h_pullback(f32, f32) -> f32
func.func @g() {
  // expected-error @below {{'ct.custom_gradient' op expects parent op 'builtin.module'}}
  ct.custom_gradient @h pullback @h_pullback
  return
}

// -----

func.func @g(%t: !ct.tape, %p: memref<4xf64>) {
  // expected-error @below {{'ct.tape_push' op operand #1 must be scalar of at most 64 bits}}
  ct.tape_push %t, %p : memref<4xf64>
  return
}

// -----

func.func @g(%t: !ct.tape) -> i128 {
  // expected-error @below {{'ct.tape_pop' op result #0 must be scalar of at most 64 bits}}
  %0 = ct.tape_pop %t : i128
  return %0 : i128
}

// -----

func.func @negative_snapshots() {
  // expected-error @below {{'ct.checkpoint_loop' op needs a snapshot count of at least 1, or 0 for the default}}
  ct.checkpoint_loop snapshots -2 depth 1
  return
}

// -----

func.func @no_depth() {
  // expected-error @below {{'ct.checkpoint_loop' op needs a loop depth of at least 1 (the marked loop)}}
  ct.checkpoint_loop snapshots 2 depth 0
  return
}

// -----

func.func @f(%x: f64, %p: memref<?xf64>) -> f64 {
  return %x : f64
}
func.func @g(%x: f64, %p: memref<?xf64>, %s: vector<4xf64>, %dp: memref<?xf64>) {
  // expected-error @below {{'ct.pullback' op shadow #0 has type 'memref<?xf64>', but the 4 lanes of dup input #1 has type 'memref<?x4xf64>'}}
  %0:2 = ct.pullback @f(%x, %p) seeds(%s) shadows(%dp) lanes 4 activity [active, dup] : (f64, memref<?xf64>, vector<4xf64>, memref<?xf64>) -> (f64, vector<4xf64>)
  return
}

// -----

func.func @f(%x: f64) -> f64 {
  return %x : f64
}
func.func @g(%x: f64, %t: vector<65xf64>) {
  // expected-error @below {{'ct.jvp' op attribute 'lanes' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1 whose maximum value is 64}}
  %0:2 = ct.jvp @f(%x) tangents(%t) lanes 65 activity [active] : (f64, vector<65xf64>) -> (f64, vector<65xf64>)
  return
}

// -----

func.func @f(%holder: memref<4xi1>, %i: index) {
  // expected-error @below {{'ct.load_address' op needs a holder of 8-, 16-, 32- or 64-bit scalars, not 'i1'}}
  %0 = ct.load_address %holder[%i] : memref<4xi1> -> memref<?xf64, strided<[1], offset: ?>>
  return
}

// -----

func.func @f(%holder: memref<4xf64>, %view: memref<?xvector<2xf64>>, %i: index) {
  // expected-error @below {{'ct.store_address' op needs a view of scalars, not 'memref<?xvector<2xf64>>'}}
  ct.store_address %view, %holder[%i] : memref<?xvector<2xf64>>, memref<4xf64>
  return
}

// -----

func.func @f(%holder: memref<4xf64>, %i: index) {
  // expected-error @below {{'ct.load_address' op needs the lanes of a 2-D view to be static, not 'memref<?x?xf64>'}}
  %0 = ct.load_address %holder[%i] : memref<4xf64> -> memref<?x?xf64>
  return
}

// -----

func.func @f(%object: memref<4xf64>, %i: index) {
  // expected-error @below {{'ct.retype_view' op views scalars of whole bytes (or bools) as scalars of whole bytes}}
  %0 = ct.retype_view %object[%i] : memref<4xf64> -> memref<?xi4, strided<[1], offset: ?>>
  return
}

// -----

func.func @f(%object: memref<4xf64>, %i: index) {
  // expected-error @below {{'ct.retype_view' op makes a view of stride 1}}
  %0 = ct.retype_view %object[%i] : memref<4xf64> -> memref<?xi32, strided<[2], offset: ?>>
  return
}

// -----

func.func @f(%x: f64) -> i32 {
  // expected-error @below {{'ct.bit_cast' op reads the bits of 'f64' as 'i32', a number of another width}}
  %0 = ct.bit_cast %x : f64 to i32
  return %0 : i32
}
