// Every reverse-mode strategy can be switched off (ct-differentiate options,
// or all at once with ct-autodiff{optimize=false}), and -debug-only=ct-reverse
// says which strategy each loop took. The sum's loop is undone in place
// (eager) by default. The first loop's iterations write disjoint elements of
// a local buffer: its reverse runs in the primal's order (no index
// arithmetic) unless commuting iterations are off. Nothing is taped unless
// every strategy is off.
// (ct-differentiate alone: the pre-AD passes of ct-autodiff would forward
// the buffer's elements to the sum and drop the first loop.)
// RUN: %cotangent-opt %s --ct-differentiate --canonicalize | FileCheck %s --check-prefix=DEFAULT
// RUN: %cotangent-opt %s --ct-autodiff="optimize=false" | FileCheck %s --check-prefix=PLAIN
// RUN: %cotangent-opt %s --ct-differentiate="commuting-iterations=false" --canonicalize | FileCheck %s --check-prefix=NO-COMMUTE
// RUN: %if asserts %{ %cotangent-opt %s --ct-differentiate -debug-only=ct-reverse -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG %}
// RUN: %if asserts %{ %cotangent-opt %s --ct-differentiate="eager-loops=false" -debug-only=ct-reverse -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-EAGER %}

// DEFAULT-LABEL: func.func private @f.pullback.dc
// DEFAULT-NOT: ct.tape_init
// DEFAULT-NOT: arith.subi
// DEFAULT: return
// PLAIN-LABEL: func.func private @f.pullback.dc
// PLAIN: ct.tape_init
// PLAIN: return
// NO-COMMUTE-LABEL: func.func private @f.pullback.dc
// NO-COMMUTE-NOT: ct.tape_init
// NO-COMMUTE: arith.subi
// NO-COMMUTE: return

// DEBUG: [ct-reverse] loop at {{.*}}strategies.mlir{{.}}:[[#@LINE+14]]{{.*}}: eager
// DEBUG: [ct-reverse] loop at {{.*}}strategies.mlir{{.}}:[[#@LINE+8]]{{.*}}: reversed from the tape, in the primal's order (iterations commute)
// NO-EAGER-NOT: eager (
// NO-EAGER: [ct-reverse] loop at {{.*}}strategies.mlir{{.}}:[[#@LINE+11]]{{.*}}: reversed from the tape
func.func @f(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %t = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %e = memref.load %x[%i] : memref<?xf64>
    %sine = math.sin %e : f64
    memref.store %sine, %t[%i] : memref<?xf64>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %e = memref.load %t[%i] : memref<?xf64>
    %sq = arith.mulf %e, %e : f64
    %next = arith.addf %acc, %sq : f64
    scf.yield %next : f64
  }
  memref.dealloc %t : memref<?xf64>
  return %s : f64
}

func.func @grad_f(%x: memref<?xf64>, %dx: memref<?xf64>, %n: index) -> f64 {
  %v = ct.gradient @f(%x, %n) shadows(%dx) activity [dup, const] : (memref<?xf64>, index, memref<?xf64>) -> f64
  return %v : f64
}
