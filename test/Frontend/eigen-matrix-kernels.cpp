// Eigen's product and triangular-solve kernels become calls of the dense
// kernels, each bound to its matrix-level rule: a matrix operand is its
// memory, offset and row and column strides (a transposed operand swaps
// them); the rule's forward half copies what its backward half reads, and
// the backward half frees the copies. The reverse sweep calls the two
// halves instead of differentiating Eigen's blocked loops. Products with
// triangular and self-adjoint views call the general kernel on a copy.
// REQUIRES: plugin, eigen
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx-ct -O0 -c %eigen -DEIGEN_DONT_VECTORIZE %s -o %t/k.o \
// RUN:   -fplugin-arg-cotangent-dump-dir=%t/dump
// RUN: FileCheck %s < %t/dump/eigen-matrix-kernels.cpp.mlir
// RUN: FileCheck %s --check-prefix=AD < %t/dump/eigen-matrix-kernels.cpp.ad.mlir

#include <Eigen/Dense>
#include <cotangent/cotangent.h>

using Eigen::MatrixXd;

// a * a^T: the left operand by columns (row stride 1), the right one its
// transpose (column stride 1), the result by columns.
// CHECK-LABEL: func.func @_Z7productPKdi(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?xf64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: func.call @ct.dense.product.f64.all(%[[X]], %[[ZERO]], %[[ONE]], %{{.*}}, %[[X]], %[[ZERO]], %{{.*}}, %[[ONE]], %{{.*}}, %[[ZERO]], %[[ONE]],
[[ct::differentiable]] double product(const double *x, int n) {
  Eigen::Map<const MatrixXd> a(x, n, n);
  MatrixXd c = a * a.transpose();
  return c.sum();
}

// CHECK-LABEL: func.func @_Z5solvePKdi(
// CHECK: func.call @ct.dense.solve.f64.lower(
[[ct::differentiable]] double solve(const double *x, int n) {
  Eigen::Map<const MatrixXd> a(x, n, n);
  Eigen::VectorXd b = Eigen::VectorXd::Ones(n);
  return a.triangularView<Eigen::Lower>().solve(b).sum();
}

// A product with a triangular view (Eigen's triangular kernel): the general
// kernel, given a copy of the triangle the view reads (here below the
// diagonal), zeros elsewhere and ones on the diagonal of a unit view; the
// copy is differentiated element by element, freed after the product.
// CHECK-LABEL: func.func @_Z10structuredPKdi(
// CHECK-SAME: %[[SX:[a-z0-9]+]]: memref<?xf64
// CHECK-DAG: %[[UNIT:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: %[[TRI:[a-z0-9_]+]] = memref.alloc(%{{[a-z0-9_]+}}) : memref<?xf64>
// CHECK: %[[TRIVIEW:.*]] = memref.cast %[[TRI]]
// CHECK: %[[BELOW:.*]] = arith.addi %{{.*}}, %c1 : index
// CHECK-NEXT: scf.for %{{.*}} = %[[BELOW]] to
// CHECK: %[[ENTRY:.*]] = memref.load %[[SX]]
// CHECK: memref.store %[[ENTRY]], %[[TRI]]
// CHECK: memref.store %[[UNIT]], %[[TRI]]
// CHECK: call @ct.dense.product.f64.all(%[[TRIVIEW]],
// CHECK-NEXT: memref.dealloc %[[TRI]]
// A self-adjoint view (Eigen's self-adjoint kernel): a copy of the
// symmetric matrix, each entry of the lower triangle stored on both sides.
// CHECK: %[[SYM:[a-z0-9_]+]] = memref.alloc(%{{[a-z0-9_]+}}) : memref<?xf64>
// CHECK: %[[SYMVIEW:.*]] = memref.cast %[[SYM]]
// CHECK: %[[LOW:.*]] = memref.load %[[SX]]
// CHECK-NEXT: memref.store %[[LOW]], %[[SYM]]
// CHECK: memref.store %[[LOW]], %[[SYM]]
// CHECK: call @ct.dense.product.f64.all(%[[SYMVIEW]],
// CHECK-NEXT: memref.dealloc %[[SYM]]
[[ct::differentiable]] double structured(const double *x, int n) {
  Eigen::Map<const MatrixXd> a(x, n, n);
  MatrixXd t = a.triangularView<Eigen::UnitLower>() * a;
  MatrixXd s = a.selfadjointView<Eigen::Lower>() * a;
  return t.sum() + s.sum();
}

// The operands and the result changed after the product: the rule's
// backward half reads its own copies, so the reverse sweep keeps none of
// their elements on the tape.
[[ct::differentiable]] double overwritten(const double *x, int n) {
  MatrixXd a = Eigen::Map<const MatrixXd>(x, n, n);
  MatrixXd c = a * a.transpose();
  a.setZero();
  c *= 2.0;
  return c.sum() + a.sum();
}

double both(double *x, double *dx, int n) {
  return ct::gradient<product>(x, n, dx) + ct::gradient<solve>(x, n, dx) +
         ct::gradient<structured>(x, n, dx) +
         ct::gradient<overwritten>(x, n, dx);
}

double tangent(double *x, double *t, int n) {
  return ct::jvp<solve>(x, n, t).tangent;
}

// The product kernel: C += alpha A B down C's columns (or, where C is
// stored by rows, along them, as C^T += alpha B^T A^T), by blocks of four
// columns of C and four steps of the depth: a pass down the rows reads four
// columns of A (here its copy, packed by columns) and adds sixteen products
// into four columns of C, each loaded and stored once. The loops count
// blocks; the depth and the columns past the last whole block follow, one
// at a time. Forward mode differentiates its loops.
// CHECK-LABEL: func.func private @ct.dense.product.f64.all(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?xf64, strided<[1], offset: ?>>, %{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: index,
// CHECK-SAME: %{{[a-z0-9]+}}: memref<?xf64, strided<[1], offset: ?>>, %{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: index,
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<?xf64, strided<[1], offset: ?>>, %{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: index, %[[ROWS:[a-z0-9]+]]: index, %[[COLS:[a-z0-9]+]]: index, %[[DEPTH:[a-z0-9]+]]: index, %[[ALPHA:[a-z0-9]+]]: f64)
// CHECK-SAME: attributes {ct.forward_from_body
// CHECK: %[[PACKED:.*]] = memref.alloc
// CHECK: scf.if
// CHECK: scf.if
// CHECK: %[[COLBLOCKS:.*]] = arith.divsi %[[COLS]], %[[FOUR:.*]] : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[COLBLOCKS]] step
// CHECK: %[[DEPTHBLOCKS:.*]] = arith.divsi %[[DEPTH]], %[[FOUR]] : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[DEPTHBLOCKS]] step
// CHECK-COUNT-16: arith.mulf %[[ALPHA]],
// CHECK: scf.for
// CHECK-COUNT-4: memref.load %[[PACKED]]
// CHECK-NOT: scf.for
// CHECK: %[[C0:.*]] = memref.load %[[C]]
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.addf %[[C0]],
// CHECK-COUNT-3: arith.addf
// CHECK-NEXT: memref.store %{{.*}}, %[[C]]
// CHECK-COUNT-3: memref.store %{{.*}}, %[[C]]
// CHECK-NEXT: }
// The depth past the last whole block, then each column's own rows.
// CHECK: %[[REST:.*]] = arith.muli %[[DEPTHBLOCKS]], %[[FOUR]]
// CHECK: scf.for %{{.*}} = %[[REST]] to %[[DEPTH]]
// The columns past the last whole block.
// CHECK: %[[LAST:.*]] = arith.muli %[[COLBLOCKS]], %[[FOUR]]
// CHECK: scf.for %{{.*}} = %[[LAST]] to %[[COLS]]
// Its forward half: A copied by rows; whether B is A^T in the same memory
// (a Gram product: the same address and offset, the strides swapped, a
// square result); B copied by columns unless it is (its copy empty); the
// product; the copies returned, and whether it is a Gram product.
// CHECK-LABEL: func.func private @ct.dense.product.f64.all.forward(
// CHECK-SAME: %[[FA:[a-z0-9]+]]: memref<?xf64, strided<[1], offset: ?>>, %[[FAO:[a-z0-9]+]]: index, %[[FARS:[a-z0-9]+]]: index, %[[FACS:[a-z0-9]+]]: index, %[[FB:[a-z0-9]+]]: memref<?xf64, strided<[1], offset: ?>>, %[[FBO:[a-z0-9]+]]: index, %[[FBRS:[a-z0-9]+]]: index, %[[FBCS:[a-z0-9]+]]: index,
// CHECK: %[[CA:.*]] = memref.alloc
// CHECK: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %[[FA]]
// CHECK: %{{[a-z0-9_]+}}, %[[MA:[a-z0-9_]+]], %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = memref.extract_strided_metadata %[[FA]]
// CHECK: %[[OA:.*]] = arith.addi %[[MA]], %[[FAO]]
// CHECK: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[FB]]
// CHECK: %{{[a-z0-9_]+}}, %[[MB:[a-z0-9_]+]], %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = memref.extract_strided_metadata %[[FB]]
// CHECK: %[[OB:.*]] = arith.addi %[[MB]], %[[FBO]]
// CHECK-DAG: arith.cmpi eq, %[[PA]], %[[PB]]
// CHECK-DAG: arith.cmpi eq, %[[OA]], %[[OB]]
// CHECK-DAG: arith.cmpi eq, %[[FARS]], %[[FBCS]]
// CHECK-DAG: arith.cmpi eq, %[[FACS]], %[[FBRS]]
// CHECK: %[[BSIZE:.*]] = arith.select %[[GRAM:[a-z0-9_]+]], %c0, %{{.*}} : index
// CHECK: %[[CB:.*]] = memref.alloc(%[[BSIZE]])
// CHECK: %[[COPYB:.*]] = arith.xori %[[GRAM]], %true
// CHECK: scf.if %[[COPYB]]
// CHECK: memref.store %{{.*}}, %[[CB]]
// CHECK: %[[FLAG:.*]] = arith.index_cast %[[GRAM]] : i1 to index
// CHECK: return %{{.*}}, %{{.*}}, %[[FLAG]] :
// Its backward half: where the forward half found a Gram product and both
// operands' derivative memories are one memory, (Cbar + Cbar^T) A is A's
// adjoint and B's together (one product; alpha's adjoint halved); else
// T = Cbar B^T (B's copy, or A's where only A was copied) and
// Bbar += alpha A^T Cbar. Then Abar += alpha T and alpha's adjoint
// sum(T .* A), the copies freed.
// CHECK-LABEL: func.func private @ct.dense.product.f64.all.backward(
// CHECK-SAME: %[[RA:[a-z0-9]+]]: memref<?xf64, strided<[1], offset: ?>>, %[[RB:[a-z0-9]+]]: memref<?xf64, strided<[1], offset: ?>>, %[[RG:[a-z0-9]+]]: index,
// CHECK-SAME: %[[SA:[a-z0-9]+]]: memref<?xf64, strided<[1], offset: ?>>, %[[SB:[a-z0-9]+]]: memref<?xf64, strided<[1], offset: ?>>, %{{[a-z0-9]+}}: memref<?xf64, strided<[1], offset: ?>>) -> f64
// CHECK: %[[FOUND:.*]] = arith.cmpi ne, %[[RG]], %c0
// CHECK: arith.select %[[FOUND]], %[[RA]], %[[RB]]
// CHECK: %[[PSA:.*]] = memref.extract_aligned_pointer_as_index %[[SA]]
// CHECK: %[[PSB:.*]] = memref.extract_aligned_pointer_as_index %[[SB]]
// CHECK: %[[SHARED:.*]] = arith.cmpi eq, %[[PSA]], %[[PSB]]
// CHECK: %[[BGRAM:.*]] = arith.andi %[[FOUND]], %[[SHARED]]
// CHECK: scf.if %[[BGRAM]] {
// CHECK: %[[BOTH:.*]] = memref.alloc
// CHECK: %[[ENTRY:.*]] = memref.load
// CHECK: %[[MIRROR:.*]] = memref.load
// CHECK-NEXT: %[[BOTHSUM:.*]] = arith.addf %[[ENTRY]], %[[MIRROR]]
// CHECK: memref.store %[[BOTHSUM]], %[[BOTH]]
// CHECK: memref.dealloc %[[BOTH]]
// CHECK: } else {
// CHECK: %[[SCALE:.*]] = arith.select %[[BGRAM]], %{{.*}}, %{{.*}} : f64
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args
// CHECK: memref.dealloc %[[RA]]
// CHECK: memref.dealloc %[[RB]]
// CHECK: %[[ADJOINT:.*]] = arith.mulf %[[SCALE]], %[[SUM]]
// CHECK: return %[[ADJOINT]] : f64
// CHECK: ct.custom_vjp @ct.dense.product.f64.all forward @ct.dense.product.f64.all.forward backward @ct.dense.product.f64.all.backward

// The solve: forward substitution by blocks of four pivots, each block's
// rows solved among themselves (four divisions), then the rows after the
// block updated by the whole block; the pivots past the last whole block
// one at a time. Its rule reads its own copies, so the reverse sweep keeps
// nothing of its arguments' memory. Its backward half solves with T^T in
// place on the seed, then subtracts the product of that and X^T from T's
// lower triangle.
// CHECK-LABEL: func.func private @ct.dense.solve.f64.lower(
// CHECK-SAME: %{{[a-z0-9]+}}: index, %[[SIZE:[a-z0-9]+]]: index, %{{[a-z0-9]+}}: index)
// CHECK-SAME: ct.rule_reads_own_copies
// CHECK: %[[SOLVEBLOCKS:.*]] = arith.divsi %[[SIZE]], %[[SFOUR:.*]] : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[SOLVEBLOCKS]] step
// CHECK-COUNT-4: arith.divf
// CHECK: arith.subf
// CHECK: %[[BLOCKED:.*]] = arith.muli %[[SOLVEBLOCKS]], %[[SFOUR]]
// CHECK: scf.for %{{.*}} = %[[BLOCKED]] to %[[SIZE]]
// CHECK: arith.divf
// CHECK-LABEL: func.func private @ct.dense.solve.f64.lower.backward(
// CHECK-SAME: %[[RT:[a-z0-9]+]]: memref<?xf64, strided<[1], offset: ?>>, %[[RX:[a-z0-9]+]]: memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[MINUS:.*]] = arith.constant -1.000000e+00 : f64
// CHECK: arith.divf
// CHECK: arith.mulf %{{.*}}, %[[MINUS]] : f64
// CHECK: memref.dealloc %[[RT]]
// CHECK: memref.dealloc %[[RX]]
// CHECK: ct.custom_vjp @ct.dense.solve.f64.lower forward @ct.dense.solve.f64.lower.forward backward @ct.dense.solve.f64.lower.backward

// AD-LABEL: func.func private @_Z7productPKdi.pullback
// AD: %[[R:.*]]:3 = func.call @ct.dense.product.f64.all.forward(
// AD: func.call @ct.dense.product.f64.all.backward(
// AD-LABEL: func.func private @_Z5solvePKdi.pullback
// AD: func.call @ct.dense.solve.f64.lower.forward(
// AD: func.call @ct.dense.solve.f64.lower.backward(
// AD-LABEL: func.func private @_Z11overwrittenPKdi.pullback
// AD: func.call @ct.dense.product.f64.all.forward(
// AD-NOT: ct.tape_{{claim|write}}
// AD: func.call @ct.dense.product.f64.all.backward(
// Forward mode: the solve's own loops, differentiated.
// AD-LABEL: func.func private @ct.dense.solve.f64.lower.jvp
// AD: scf.for
// AD: arith.divf
