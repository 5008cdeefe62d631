// Within a block, a load of the element just stored (or loaded) takes that
// value, unless something in between may write memory that aliases it.
// RUN: %cotangent-opt %s --ct-forward-stores | FileCheck %s

// The stored value is read back; a store to another local buffer in between
// cannot alias it.
// CHECK-LABEL: func.func @stored_then_loaded
// CHECK-SAME: (%[[X:.*]]: f64, %[[I:.*]]: index)
// CHECK: memref.store %[[X]], %[[C:.*]][%[[I]]]
// CHECK: memref.store %[[X]], %{{.*}}[%[[I]]]
// CHECK-NOT: memref.load
// CHECK: %[[P:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: return %[[P]]
func.func @stored_then_loaded(%x: f64, %i: index) -> f64 {
  %c = memref.alloca() : memref<8xf64>
  %t = memref.alloca() : memref<8xf64>
  memref.store %x, %c[%i] : memref<8xf64>
  memref.store %x, %t[%i] : memref<8xf64>
  %v = memref.load %c[%i] : memref<8xf64>
  %p = arith.mulf %v, %v : f64
  return %p : f64
}

// A second load of a[i] reads what the first read: the store in between
// goes to a local buffer, which no argument aliases.
// CHECK-LABEL: func.func @loaded_twice
// CHECK-COUNT-1: memref.load
// CHECK-NOT: memref.load
// CHECK: return
func.func @loaded_twice(%a: memref<?xf64>, %i: index) -> f64 {
  %t = memref.alloca() : memref<8xf64>
  %v = memref.load %a[%i] : memref<?xf64>
  memref.store %v, %t[%i] : memref<8xf64>
  %w = memref.load %a[%i] : memref<?xf64>
  %s = arith.addf %v, %w : f64
  return %s : f64
}

// Arguments may alias each other: a store to b may change a[i]. A store to
// another element of the same buffer may too (j may equal i).
// CHECK-LABEL: func.func @may_alias
// CHECK: memref.store %{{.*}}, %arg0[%arg2]
// CHECK: memref.store %{{.*}}, %arg1[%arg2]
// CHECK: memref.load %arg0[%arg2]
// CHECK: memref.store %{{.*}}, %[[T:.*]][%arg2]
// CHECK: memref.store %{{.*}}, %[[T]][%arg3]
// CHECK: memref.load %[[T]][%arg2]
func.func @may_alias(%a: memref<?xf64>, %b: memref<?xf64>, %i: index, %j: index, %x: f64) -> f64 {
  memref.store %x, %a[%i] : memref<?xf64>
  memref.store %x, %b[%i] : memref<?xf64>
  %v = memref.load %a[%i] : memref<?xf64>
  %t = memref.alloca() : memref<8xf64>
  memref.store %v, %t[%i] : memref<8xf64>
  memref.store %x, %t[%j] : memref<8xf64>
  %w = memref.load %t[%i] : memref<8xf64>
  %s = arith.addf %v, %w : f64
  return %s : f64
}

// A store to another constant index of the same buffer (a struct's other
// field: a custom JVP rule's value beside its tangent) leaves the element
// known; one to the same constant index replaces it.
// CHECK-LABEL: func.func @other_field
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64)
// CHECK-NOT: memref.load
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[Y]]
// CHECK: return %[[S]]
func.func @other_field(%x: f64, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pair = memref.alloca() : memref<2xf64>
  memref.store %x, %pair[%c0] : memref<2xf64>
  memref.store %x, %pair[%c1] : memref<2xf64>
  memref.store %y, %pair[%c1] : memref<2xf64>
  %v = memref.load %pair[%c0] : memref<2xf64>
  %w = memref.load %pair[%c1] : memref<2xf64>
  %s = arith.addf %v, %w : f64
  return %s : f64
}

// A loop in between that writes the buffer ends what is known of it; the
// loop's body starts with nothing known.
// CHECK-LABEL: func.func @written_by_loop
// CHECK: scf.for
// CHECK: memref.load %[[T:.*]][%{{.*}}]
// CHECK: memref.store
// CHECK: }
// CHECK: memref.load %[[T]][%arg1]
func.func @written_by_loop(%x: f64, %i: index, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloca() : memref<8xf64>
  memref.store %x, %t[%i] : memref<8xf64>
  scf.for %k = %c0 to %n step %c1 {
    %old = memref.load %t[%k] : memref<8xf64>
    %new = arith.mulf %old, %x : f64
    memref.store %new, %t[%k] : memref<8xf64>
  }
  %v = memref.load %t[%i] : memref<8xf64>
  return %v : f64
}

// A branch starts with what is known before it; a loop body with what is
// known of the memory the loop does not write.
// CHECK-LABEL: func.func @into_regions
// CHECK-SAME: (%[[X:.*]]: f64, %[[I:.*]]: index, %[[N:.*]]: index, %[[C:.*]]: i1)
// CHECK: %[[T:.*]] = memref.alloca()
// CHECK: %[[U:.*]] = memref.alloca()
// CHECK: scf.if %[[C]]
// CHECK-NEXT: arith.mulf %[[X]], %[[X]]
// CHECK: scf.for
// CHECK-NOT: memref.load %[[T]]
// CHECK: %[[OLD:.*]] = memref.load %[[U]][%[[I]]]
// CHECK-NEXT: arith.mulf %[[OLD]], %[[X]]
func.func @into_regions(%x: f64, %i: index, %n: index, %c: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloca() : memref<8xf64>
  %u = memref.alloca() : memref<8xf64>
  memref.store %x, %t[%i] : memref<8xf64>
  memref.store %x, %u[%i] : memref<8xf64>
  %r = scf.if %c -> f64 {
    %v = memref.load %t[%i] : memref<8xf64>
    %p = arith.mulf %v, %v : f64
    scf.yield %p : f64
  } else {
    scf.yield %x : f64
  }
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %t[%i] : memref<8xf64>
    %old = memref.load %u[%i] : memref<8xf64>
    %new = arith.mulf %old, %v : f64
    memref.store %new, %u[%i] : memref<8xf64>
  }
  return %r : f64
}

// A loop fills c[i] = a[i] - m[i] over [0, n); a later loop over the same
// range reads c[j], inside a branch too: each load computes a[j] - m[j]
// again (a and m are restrict arguments nothing writes).
// CHECK-LABEL: func.func @filled_then_read
// CHECK-SAME: (%[[A:.*]]: memref<?xf64> {ct.noalias}, %[[M:.*]]: memref<?xf64> {ct.noalias}, %[[N:.*]]: index, %{{.*}}: i1)
// CHECK: scf.for
// CHECK:   memref.store
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[N]]
// CHECK:   %[[X:.*]] = memref.load %[[A]][%[[J]]]
// CHECK:   %[[Y:.*]] = memref.load %[[M]][%[[J]]]
// CHECK:   %[[D:.*]] = arith.subf %[[X]], %[[Y]]
// CHECK:   arith.mulf %[[D]], %[[D]]
// CHECK:   scf.if
// CHECK:     %[[X2:.*]] = memref.load %[[A]][%[[J]]]
// CHECK:     %[[Y2:.*]] = memref.load %[[M]][%[[J]]]
// CHECK:     arith.subf %[[X2]], %[[Y2]]
// CHECK-NOT: memref.load %{{.*}} : memref<8xf64>
// CHECK: return
func.func @filled_then_read(%a: memref<?xf64> {ct.noalias},
                            %m: memref<?xf64> {ct.noalias}, %n: index,
                            %flag: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %c = memref.alloca() : memref<8xf64>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf64>
    %y = memref.load %m[%i] : memref<?xf64>
    %d = arith.subf %x, %y : f64
    memref.store %d, %c[%i] : memref<8xf64>
  }
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %c[%j] : memref<8xf64>
    %p = arith.mulf %v, %v : f64
    %w = scf.if %flag -> f64 {
      %u = memref.load %c[%j] : memref<8xf64>
      scf.yield %u : f64
    } else {
      scf.yield %zero : f64
    }
    %s = arith.addf %acc, %p : f64
    %t = arith.addf %s, %w : f64
    scf.yield %t : f64
  }
  return %r : f64
}

// Not when the reading loop covers another range ([0, k)), when what the
// value was computed from may change in between, or when the filled memory
// is written again.
// CHECK-LABEL: func.func @not_filled
// CHECK-COUNT-3: memref.load %{{.*}}[%{{.*}}] : memref<8xf64>
func.func @not_filled(%a: memref<?xf64>, %b: memref<?xf64>, %n: index,
                      %k: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %c = memref.alloca() : memref<8xf64>
  %e = memref.alloca() : memref<8xf64>
  %f = memref.alloca() : memref<8xf64>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf64>
    memref.store %x, %c[%i] : memref<8xf64>
    memref.store %x, %e[%i] : memref<8xf64>
    memref.store %x, %f[%i] : memref<8xf64>
  }
  // a may alias b: the values e[i] were computed from may change.
  memref.store %zero, %b[%c0] : memref<?xf64>
  // f is written again.
  memref.store %zero, %f[%c1] : memref<8xf64>
  %r = scf.for %j = %c0 to %k step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %c[%j] : memref<8xf64>
    %s = arith.addf %acc, %v : f64
    scf.yield %s : f64
  }
  %r2 = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %r) -> f64 {
    %v = memref.load %e[%j] : memref<8xf64>
    %w = memref.load %f[%j] : memref<8xf64>
    %s = arith.addf %acc, %v : f64
    %t = arith.addf %s, %w : f64
    scf.yield %t : f64
  }
  return %r2 : f64
}

// A loop storing a value from before it (a zero fill): the load takes
// that value.
// CHECK-LABEL: func.func @zero_filled
// CHECK-SAME: (%[[N:.*]]: index, %[[Z:.*]]: f64)
// CHECK: scf.for
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-NOT: memref.load
// CHECK:   arith.addf %[[ACC]], %[[Z]]
func.func @zero_filled(%n: index, %z: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %c = memref.alloca() : memref<8xf64>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %z, %c[%i] : memref<8xf64>
  }
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %c[%j] : memref<8xf64>
    %s = arith.addf %acc, %v : f64
    scf.yield %s : f64
  }
  return %r : f64
}

// Which ops write is asked of MemoryEffectOpInterface: choosing between two
// buffers (a select of memrefs) and copying *from* one write nothing, so
// the stored value is still known after them.
// CHECK-LABEL: func.func @past_ops_that_only_read
// CHECK-SAME: (%[[X:.*]]: f64, %[[C:.*]]: i1, %[[O:.*]]: memref<8xf64>)
// CHECK: arith.select
// CHECK: memref.copy
// CHECK-NOT: memref.load
// CHECK: return %[[X]]
func.func @past_ops_that_only_read(%x: f64, %c: i1, %out: memref<8xf64>)
    -> f64 {
  %i = arith.constant 0 : index
  %a = memref.alloca() : memref<8xf64>
  %b = memref.alloca() : memref<8xf64>
  memref.store %x, %a[%i] : memref<8xf64>
  %s = arith.select %c, %a, %b : memref<8xf64>
  memref.copy %a, %out : memref<8xf64> to memref<8xf64>
  %v = memref.load %a[%i] : memref<8xf64>
  return %v : f64
}

// A copy *into* the buffer writes it: the load stays.
// CHECK-LABEL: func.func @not_past_a_copy_into_it
// CHECK: memref.copy
// CHECK: %[[V:.*]] = memref.load
// CHECK: return %[[V]]
func.func @not_past_a_copy_into_it(%x: f64, %in: memref<8xf64>) -> f64 {
  %i = arith.constant 0 : index
  %a = memref.alloca() : memref<8xf64>
  memref.store %x, %a[%i] : memref<8xf64>
  memref.copy %in, %a : memref<8xf64> to memref<8xf64>
  %v = memref.load %a[%i] : memref<8xf64>
  return %v : f64
}

// What a region learns stays in it: the else branch does not see the then
// branch's store to t[0] or its load of a[i]; after the branch, t[0] is read
// again (the then branch may have written it), while u[0], which the branch
// leaves alone, is still the value stored before it.
// CHECK-LABEL: func.func @regions_roll_back
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %{{.*}}: i1, %[[A:.*]]: memref<?xf64> {ct.noalias}, %[[I:.*]]: index)
// CHECK: %[[T:.*]] = memref.alloca
// CHECK: scf.if
// CHECK: %[[L1:.*]] = memref.load %[[A]][%[[I]]]
// CHECK-NEXT: arith.addf %[[L1]], %[[Y]]
// CHECK: else
// CHECK-NEXT: %[[L2:.*]] = memref.load %[[A]][%[[I]]]
// CHECK-NEXT: arith.mulf %[[L2]], %[[X]]
// CHECK: %[[AFTER:.*]] = memref.load %[[T]]
// CHECK-NEXT: arith.addf %[[AFTER]], %[[Y]]
func.func @regions_roll_back(%x: f64, %y: f64, %c: i1,
                             %a: memref<?xf64> {ct.noalias}, %i: index) -> f64 {
  %t = memref.alloca() : memref<4xf64>
  %u = memref.alloca() : memref<4xf64>
  %c0 = arith.constant 0 : index
  memref.store %x, %t[%c0] : memref<4xf64>
  memref.store %y, %u[%c0] : memref<4xf64>
  %r = scf.if %c -> f64 {
    memref.store %y, %t[%c0] : memref<4xf64>
    %l = memref.load %a[%i] : memref<?xf64>
    %v = memref.load %t[%c0] : memref<4xf64>
    %s = arith.addf %l, %v : f64
    scf.yield %s : f64
  } else {
    %l = memref.load %a[%i] : memref<?xf64>
    %v = memref.load %t[%c0] : memref<4xf64>
    %s = arith.mulf %l, %v : f64
    scf.yield %s : f64
  }
  %after = memref.load %t[%c0] : memref<4xf64>
  %w = memref.load %u[%c0] : memref<4xf64>
  %sum = arith.addf %after, %w : f64
  %result = arith.addf %r, %sum : f64
  return %result : f64
}

// A store to another constant index keeps a struct's other field known,
// inside a branch too, and each branch starts from what was known before
// the branch: the else branch's store to t[0] keeps t[1] = y (the then
// branch's store to t[1] is not seen there).
// CHECK-LABEL: func.func @other_field_per_branch
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[Z:.*]]: f64, %{{.*}}: i1)
// CHECK: scf.if
// CHECK-NEXT: memref.store %[[Z]]
// CHECK-NEXT: %[[T:.*]] = arith.mulf %[[X]], %[[Z]]
// CHECK-NEXT: scf.yield %[[T]]
// CHECK: else
// CHECK-NEXT: memref.store %[[Z]]
// CHECK-NEXT: %[[E:.*]] = arith.mulf %[[Z]], %[[Y]]
// CHECK-NEXT: scf.yield %[[E]]
func.func @other_field_per_branch(%x: f64, %y: f64, %z: f64, %c: i1) -> f64 {
  %t = memref.alloca() : memref<2xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %x, %t[%c0] : memref<2xf64>
  memref.store %y, %t[%c1] : memref<2xf64>
  %r = scf.if %c -> f64 {
    memref.store %z, %t[%c1] : memref<2xf64>
    %a = memref.load %t[%c0] : memref<2xf64>
    %b = memref.load %t[%c1] : memref<2xf64>
    %p = arith.mulf %a, %b : f64
    scf.yield %p : f64
  } else {
    memref.store %z, %t[%c0] : memref<2xf64>
    %a = memref.load %t[%c0] : memref<2xf64>
    %b = memref.load %t[%c1] : memref<2xf64>
    %p = arith.mulf %a, %b : f64
    scf.yield %p : f64
  }
  return %r : f64
}
