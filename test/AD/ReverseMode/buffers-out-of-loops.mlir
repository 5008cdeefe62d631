// A buffer an iteration of a while loop makes and the code after the loop
// reads (a std::vector an early `return` reads): the forward sweep makes
// its shadow beside it, zeroed, on the heap, and the branch and the loop
// pass that shadow out beside the buffer; the code after the loop adds to
// it, and the reverse of the iteration that made it reads it from the tape
// of addresses and frees it. (Before, this was an error: "a reference or
// pointer chosen inside this loop ... is used after the loop".)
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup | FileCheck %s

// CHECK-LABEL: func.func private @early.pullback.dc
// The forward loop: the buffer, its shadow beside it, both passed out.
// CHECK: %[[LOOP:.*]]:6 = scf.while
// CHECK: %[[MADE:.*]]:5 = scf.if
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<2xf64>
// CHECK: %[[SHADOW:.*]] = memref.alloc() : memref<2xf64>
// CHECK: memref.store %{{.*}}, %[[SHADOW]]
// CHECK: %[[ADDRESS:.*]] = memref.extract_aligned_pointer_as_index %[[SHADOW]]
// CHECK: ct.tape_push %{{.*}}, %[[ADDRESS]] : index
// CHECK: scf.yield {{.*}}, %[[BUF]], %[[SHADOW]] : {{.*}}, memref<2xf64>, memref<2xf64>
// CHECK: scf.condition(%{{.*}}) %[[MADE]]#0, %[[MADE]]#1, %[[MADE]]#3, %[[MADE]]#2, %[[MADE]]#4,
// The code after the loop adds to the shadow passed out.
// CHECK: scf.index_switch
// CHECK: scf.index_switch
// CHECK: memref.store %{{.*}}, %[[LOOP]]#4[%{{.*}}] : memref<2xf64>
// CHECK: memref.store %{{.*}}, %[[LOOP]]#4[%{{.*}}] : memref<2xf64>
// The reverse of the iteration that made it reads it back by its address
// and frees it.
// CHECK: scf.for
// CHECK: %[[POPPED:.*]] = ct.tape_pop %{{.*}} : index
// CHECK: %[[POINTER:.*]] = llvm.inttoptr
// CHECK: %[[BACK:.*]] = ct.pointer_view %[[POINTER]]
// CHECK: memref.dealloc %[[BACK]]
// CHECK: return
func.func @early(%x: memref<?xf64, strided<[1], offset: ?>>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %bound = arith.constant 2.5 : f64
  %true = arith.constant true
  %none = ub.poison : memref<2xf64>
  %nothing = ub.poison : f64
  %noIndex = ub.poison : index
  %r:4 = scf.while (%i = %c0, %acc = %zero) : (index, f64) -> (index, f64, memref<2xf64>, index) {
    %more = arith.cmpi slt, %i, %n : index
    %step:4 = scf.if %more -> (index, f64, index, memref<2xf64>) {
      %a = memref.load %x[%i] : memref<?xf64, strided<[1], offset: ?>>
      %next = arith.addi %i, %c1 : index
      %j = arith.remsi %next, %n : index
      %b = memref.load %x[%j] : memref<?xf64, strided<[1], offset: ?>>
      %pair = memref.alloc() : memref<2xf64>
      memref.store %a, %pair[%c0] : memref<2xf64>
      memref.store %b, %pair[%c1] : memref<2xf64>
      %first = memref.load %pair[%c0] : memref<2xf64>
      %exit = arith.cmpf ogt, %first, %bound : f64
      %exitIndex = arith.index_cast %exit : i1 to index
      %sum = scf.if %exit -> (f64) {
        scf.yield %nothing : f64
      } else {
        %p0 = memref.load %pair[%c0] : memref<2xf64>
        %p1 = memref.load %pair[%c1] : memref<2xf64>
        %t = arith.mulf %p0, %p1 : f64
        %s = arith.addf %acc, %t : f64
        memref.dealloc %pair : memref<2xf64>
        scf.yield %s : f64
      }
      scf.yield %next, %sum, %exitIndex, %pair : index, f64, index, memref<2xf64>
    } else {
      scf.yield %noIndex, %acc, %c0, %none : index, f64, index, memref<2xf64>
    }
    %stay = arith.cmpi eq, %step#2, %c0 : index
    %go = arith.andi %stay, %more : i1
    scf.condition(%go) %step#0, %step#1, %step#3, %step#2 : index, f64, memref<2xf64>, index
  } do {
  ^bb0(%i: index, %acc: f64, %pair: memref<2xf64>, %exited: index):
    scf.yield %i, %acc : index, f64
  }
  %result = scf.index_switch %r#3 -> f64
  case 1 {
    %p0 = memref.load %r#2[%c0] : memref<2xf64>
    %sin = math.sin %p0 : f64
    %p1 = memref.load %r#2[%c1] : memref<2xf64>
    %m = arith.mulf %sin, %p1 : f64
    %v = arith.addf %m, %r#1 : f64
    memref.dealloc %r#2 : memref<2xf64>
    scf.yield %v : f64
  }
  default {
    scf.yield %r#1 : f64
  }
  return %result : f64
}

func.func @main(%x: memref<?xf64, strided<[1], offset: ?>>, %dx: memref<?xf64, strided<[1], offset: ?>>, %n: index) -> f64 {
  %s = arith.constant 1.0 : f64
  %r = ct.pullback @early(%x, %n) seeds(%s) shadows(%dx) activity [dup, const] : (memref<?xf64, strided<[1], offset: ?>>, index, f64, memref<?xf64, strided<[1], offset: ?>>) -> f64
  return %r : f64
}

// A buffer a branch chooses beside one a loop passes out (a helper
// returning a std::vector from inside its loop, or another made after
// it): its shadow is made beside it in the forward sweep too, and the
// switch passes out the chosen buffer's shadow, the loop's on the path
// that returned from inside it.
// CHECK-LABEL: func.func private @returned.pullback.dc
// CHECK: %[[LOOP:.*]]:5 = scf.while
// CHECK: %[[CHOSEN:.*]]:3 = scf.index_switch
// CHECK: case 1 {
// CHECK: scf.yield %[[LOOP]]#1, %[[LOOP]]#3,
// CHECK: default {
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<2xf64>
// CHECK: %[[SHADOW:.*]] = memref.alloc() : memref<2xf64>
// CHECK: %[[BUFVIEW:.*]] = memref.cast %[[BUF]]
// CHECK: %[[SHADOWVIEW:.*]] = memref.cast %[[SHADOW]]
// CHECK: scf.yield %[[BUFVIEW]], %[[SHADOWVIEW]], %[[SHADOW]]
// CHECK: memref.store %{{.*}}, %[[CHOSEN]]#1[
  func.func @returned(%arg0: memref<?xf64, strided<[1], offset: ?>>, %arg1: i32) -> f64 {
    %true = arith.constant true
    %c2_i32 = arith.constant 2 : i32
    %0 = ub.poison : i32
    %1 = ub.poison : memref<?xf64, strided<[1], offset: ?>>
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 2.000000e+00 : f64
    %dim = memref.dim %arg0, %c0 : memref<?xf64, strided<[1], offset: ?>>
    %subview = memref.subview %arg0[0] [%dim] [1] : memref<?xf64, strided<[1], offset: ?>> to memref<?xf64, strided<[1], offset: ?>>
    %2:3 = scf.while (%arg2 = %c0_i32) : (i32) -> (i32, memref<?xf64, strided<[1], offset: ?>>, i32) {
      %9 = arith.cmpi slt, %arg2, %arg1 : i32
      %10:4 = scf.if %9 -> (i32, memref<?xf64, strided<[1], offset: ?>>, i32, i32) {
        %12 = arith.index_cast %arg2 : i32 to index
        %13 = memref.load %subview[%12] : memref<?xf64, strided<[1], offset: ?>>
        %14 = arith.mulf %13, %13 : f64
        %15 = math.sin %13 : f64
        %alloc = memref.alloc() : memref<2xf64>
        %cast = memref.cast %alloc : memref<2xf64> to memref<?xf64, strided<[1], offset: ?>>
        memref.store %14, %alloc[%c0] : memref<2xf64>
        memref.store %15, %alloc[%c1] : memref<2xf64>
        %16 = memref.load %alloc[%c0] : memref<2xf64>
        %17 = arith.cmpf ogt, %16, %cst : f64
        %18 = arith.extui %17 : i1 to i32
        %19 = arith.xori %17, %true : i1
        %20 = arith.extui %19 : i1 to i32
        %21 = scf.if %17 -> (i32) {
          scf.yield %0 : i32
        } else {
          memref.dealloc %alloc : memref<2xf64>
          %22 = arith.addi %arg2, %c1_i32 overflow<nsw> : i32
          scf.yield %22 : i32
        }
        scf.yield %21, %cast, %18, %20 : i32, memref<?xf64, strided<[1], offset: ?>>, i32, i32
      } else {
        scf.yield %0, %1, %c2_i32, %c0_i32 : i32, memref<?xf64, strided<[1], offset: ?>>, i32, i32
      }
      %11 = arith.trunci %10#3 : i32 to i1
      scf.condition(%11) %10#0, %10#1, %10#2 : i32, memref<?xf64, strided<[1], offset: ?>>, i32
    } do {
    ^bb0(%arg2: i32, %arg3: memref<?xf64, strided<[1], offset: ?>>, %arg4: i32):
      scf.yield %arg2 : i32
    }
    %3 = arith.index_castui %2#2 : i32 to index
    %4 = scf.index_switch %3 -> memref<?xf64, strided<[1], offset: ?>> 
    case 1 {
      scf.yield %2#1 : memref<?xf64, strided<[1], offset: ?>>
    }
    default {
      %9 = memref.load %subview[%c0] : memref<?xf64, strided<[1], offset: ?>>
      %10 = memref.load %subview[%c1] : memref<?xf64, strided<[1], offset: ?>>
      %alloc = memref.alloc() : memref<2xf64>
      %cast = memref.cast %alloc : memref<2xf64> to memref<?xf64, strided<[1], offset: ?>>
      memref.store %9, %alloc[%c0] : memref<2xf64>
      memref.store %10, %alloc[%c1] : memref<2xf64>
      scf.yield %cast : memref<?xf64, strided<[1], offset: ?>>
    }
    %5 = memref.load %4[%c0] : memref<?xf64, strided<[1], offset: ?>>
    %6 = memref.load %4[%c1] : memref<?xf64, strided<[1], offset: ?>>
    %7 = arith.mulf %5, %6 : f64
    %8 = arith.addf %7, %6 : f64
    memref.dealloc %4 : memref<?xf64, strided<[1], offset: ?>>
    return %8 : f64
  }

func.func @main2(%x: memref<?xf64, strided<[1], offset: ?>>, %dx: memref<?xf64, strided<[1], offset: ?>>, %n: i32) -> f64 {
  %s = arith.constant 1.0 : f64
  %r = ct.pullback @returned(%x, %n) seeds(%s) shadows(%dx) activity [dup, const] : (memref<?xf64, strided<[1], offset: ?>>, i32, f64, memref<?xf64, strided<[1], offset: ?>>) -> f64
  return %r : f64
}
