// A split rule whose residual is memory (the dense kernels' copies of their
// operands): @square_all squares a buffer in place; its forward half copies
// the old values into a new buffer it returns, its backward half reads the
// copy, scales the shadow and frees the copy. Called three times in a loop
// over the same buffer, the loop is reversed, so each call's residual goes
// on the tape as its address and comes back as a view of it (the rule owns
// the memory until its backward half). d/dx sum_i b_i^8 with b = [x, x + 1]
// is 8 x^7 + 8 (x + 1)^7.
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup %lower-to-llvm \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s --implicit-check-not=FAIL
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func private @powers.pullback
// IR: scf.for
// IR:   %[[R:.*]] = func.call @square_all_fwd(
// IR:   %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[R]]
// IR:   ct.tape_push %{{.*}}, %[[P]] : index
// IR: scf.for
// IR:   %[[Q:.*]] = ct.tape_pop %{{.*}} : index
// IR:   %[[V:.*]] = ct.pointer_view
// IR:   func.call @square_all_bwd(%[[V]],
// CHECK: check 1: ok
// CHECK: check 2: ok

!buf = memref<?xf64, strided<[1], offset: ?>>

func.func private @ctExpectNear(f64, f64, f64, i64)

func.func @square_all(%b: !buf, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %b[%i] : !buf
    %s = arith.mulf %v, %v : f64
    memref.store %s, %b[%i] : !buf
  }
  return
}

func.func @square_all_fwd(%b: !buf, %n: index) -> !buf {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %copy = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %b[%i] : !buf
    memref.store %v, %copy[%i] : memref<?xf64>
    %s = arith.mulf %v, %v : f64
    memref.store %s, %b[%i] : !buf
  }
  %r = memref.cast %copy : memref<?xf64> to !buf
  return %r : !buf
}

// The square overwrote b: its shadow becomes 2 b_old times the seed.
func.func @square_all_bwd(%old: !buf, %b: !buf, %n: index, %db: !buf) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %old[%i] : !buf
    %d = memref.load %db[%i] : !buf
    %t = arith.mulf %two, %v : f64
    %a = arith.mulf %t, %d : f64
    memref.store %a, %db[%i] : !buf
  }
  memref.dealloc %old : !buf
  return
}

ct.custom_vjp @square_all forward @square_all_fwd backward @square_all_bwd

func.func @powers(%x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %mem = memref.alloc(%c2) : memref<?xf64>
  %b = memref.cast %mem : memref<?xf64> to !buf
  %x1 = arith.addf %x, %one : f64
  memref.store %x, %b[%c0] : !buf
  memref.store %x1, %b[%c1] : !buf
  scf.for %k = %c0 to %c3 step %c1 {
    func.call @square_all(%b, %c2) : (!buf, index) -> ()
  }
  %p = memref.load %b[%c0] : !buf
  %q = memref.load %b[%c1] : !buf
  %s = arith.addf %p, %q : f64
  memref.dealloc %mem : memref<?xf64>
  return %s : f64
}

func.func @main() {
  %tol = arith.constant 1.0e-12 : f64
  %x = arith.constant 0.75 : f64
  %one = arith.constant 1.0 : f64
  %eight = arith.constant 8.0 : f64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %v, %d = ct.gradient @powers(%x) activity [active] : (f64) -> (f64, f64)
  %x1 = arith.addf %x, %one : f64
  %a2 = arith.mulf %x, %x : f64
  %a4 = arith.mulf %a2, %a2 : f64
  %a8 = arith.mulf %a4, %a4 : f64
  %b2 = arith.mulf %x1, %x1 : f64
  %b4 = arith.mulf %b2, %b2 : f64
  %b8 = arith.mulf %b4, %b4 : f64
  %sum = arith.addf %a8, %b8 : f64
  func.call @ctExpectNear(%v, %sum, %tol, %c1) : (f64, f64, f64, i64) -> ()
  // 8 x^7 + 8 (x + 1)^7 = 8 (x^8 / x + (x + 1)^8 / (x + 1)).
  %p = arith.divf %a8, %x : f64
  %q = arith.divf %b8, %x1 : f64
  %pq = arith.addf %p, %q : f64
  %e = arith.mulf %eight, %pq : f64
  func.call @ctExpectNear(%d, %e, %tol, %c2) : (f64, f64, f64, i64) -> ()
  return
}
