//===- DenseKernels.cpp - Matrix kernels with matrix-level rules ----------===//
//
// Each kernel is three functions: the kernel (loops the engine differentiates
// in forward mode), its rule's forward half (the kernel's loops, then copies
// of what the backward half reads: the operands may be overwritten before the
// reverse sweep runs, as a blocked factorization overwrites its panels) and
// its backward half (the adjoint, from the same loop builders, freeing the
// copies). The copies are laid out so that the backward half's inner loops
// run along contiguous memory.
//
//===----------------------------------------------------------------------===//

#include "DenseKernels.h"
#include "ModuleLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace cotangent::frontend {

Value DenseMatrix::position(OpBuilder &b, Location l, Value i, Value j) const {
  Value row = arith::MulIOp::create(b, l, i, rowStride);
  Value col = arith::MulIOp::create(b, l, j, colStride);
  return arith::AddIOp::create(b, l, offset,
                               arith::AddIOp::create(b, l, row, col));
}

Value DenseMatrix::load(OpBuilder &b, Location l, Value i, Value j) const {
  return memref::LoadOp::create(b, l, data, position(b, l, i, j));
}

void DenseMatrix::store(OpBuilder &b, Location l, Value value, Value i,
                        Value j) const {
  memref::StoreOp::create(b, l, value, data, position(b, l, i, j));
}

namespace {

using Matrix = DenseMatrix;

Value constantIndex(OpBuilder &b, Location l, int64_t value) {
  return arith::ConstantIndexOp::create(b, l, value);
}

/// The matrix given as four arguments of `entry` from `first` on.
Matrix matrixArgument(Block *entry, unsigned first) {
  return {entry->getArgument(first), entry->getArgument(first + 1),
          entry->getArgument(first + 2), entry->getArgument(first + 3)};
}

/// A loop over [lower, upper) whose body `body` builds.
void forRange(OpBuilder &b, Location l, Value lower, Value upper,
              function_ref<void(OpBuilder &, Value)> body) {
  scf::ForOp::create(b, l, lower, upper, constantIndex(b, l, 1), ValueRange{},
                     [&](OpBuilder &nested, Location, Value i, ValueRange) {
                       body(nested, i);
                       scf::YieldOp::create(nested, l);
                     });
}

/// The rows [first, end) of column `j` that lie in `region` of a matrix of
/// `rows` rows; of all of it, those from `firstRow` on if it is given.
std::pair<Value, Value> rowsOf(OpBuilder &b, Location l, Triangle region,
                               Value j, Value rows, Value firstRow = nullptr) {
  assert((!firstRow || region == Triangle::All) && "rows of a whole matrix");
  Value zero = constantIndex(b, l, 0), one = constantIndex(b, l, 1);
  switch (region) {
  case Triangle::All:
    return {firstRow ? firstRow : zero, rows};
  case Triangle::Lower:
    return {j, rows};
  case Triangle::StrictLower:
    return {arith::AddIOp::create(b, l, j, one), rows};
  case Triangle::Upper:
    return {zero, arith::MinSIOp::create(
                      b, l, arith::AddIOp::create(b, l, j, one), rows)};
  case Triangle::StrictUpper:
    return {zero, arith::MinSIOp::create(b, l, j, rows)};
  }
  llvm_unreachable("every region is handled");
}

/// A new rows x cols matrix, stored by columns or by rows, of zeros if
/// `zeroed`.
Matrix buildMatrix(OpBuilder &b, Location l, Type element, Value rows,
                   Value cols, bool byRows, bool zeroed = true) {
  Value size = arith::MulIOp::create(b, l, rows, cols);
  Value buffer = memref::AllocOp::create(
      b, l, MemRefType::get({ShapedType::kDynamic}, element), size);
  if (zeroed) {
    Value zero =
        arith::ConstantOp::create(b, l, element, b.getFloatAttr(element, 0.0));
    forRange(b, l, constantIndex(b, l, 0), size, [&](OpBuilder &b, Value k) {
      memref::StoreOp::create(b, l, zero, buffer, k);
    });
  }
  Value data = memref::CastOp::create(b, l, getPointerType(element), buffer);
  Value zeroIndex = constantIndex(b, l, 0), oneIndex = constantIndex(b, l, 1);
  return byRows ? Matrix{data, zeroIndex, cols, oneIndex}
                : Matrix{data, zeroIndex, oneIndex, rows};
}

/// Stores `region` of the rows x cols matrix `from` into `to`.
void buildCopyInto(OpBuilder &b, Location l, Matrix from, Matrix to, Value rows,
                   Value cols, Triangle region) {
  forRange(b, l, constantIndex(b, l, 0), cols, [&](OpBuilder &b, Value j) {
    auto [first, end] = rowsOf(b, l, region, j, rows);
    forRange(b, l, first, end, [&](OpBuilder &b, Value i) {
      to.store(b, l, from.load(b, l, i, j), i, j);
    });
  });
}

/// A copy of `region` of the rows x cols matrix `from` in a new buffer
/// (zeros elsewhere), stored by columns or by rows.
Matrix buildCopy(OpBuilder &b, Location l, Matrix from, Value rows, Value cols,
                 bool byRows, Triangle region) {
  Type element = cast<MemRefType>(from.data.getType()).getElementType();
  Matrix copy = buildMatrix(b, l, element, rows, cols, byRows,
                            /*zeroed=*/region != Triangle::All);
  buildCopyInto(b, l, from, copy, rows, cols, region);
  return copy;
}

/// The same entries of the transposed matrix.
Triangle transposed(Triangle region) {
  switch (region) {
  case Triangle::All:
    return Triangle::All;
  case Triangle::Lower:
    return Triangle::Upper;
  case Triangle::Upper:
    return Triangle::Lower;
  case Triangle::StrictLower:
    return Triangle::StrictUpper;
  case Triangle::StrictUpper:
    return Triangle::StrictLower;
  }
  llvm_unreachable("every region is handled");
}

/// C(i, j) += alpha * sum_p A(i, p) * B(p, j) for p in [pFirst, pEnd) and i
/// in [iFirst, iEnd): one column of C, its innermost loop down a column of A
/// and C.
void buildColumnUpdate(OpBuilder &b, Location l, Matrix lhs, Matrix rhs,
                       Matrix result, Value j, Value pFirst, Value pEnd,
                       Value iFirst, Value iEnd, Value alpha) {
  forRange(b, l, pFirst, pEnd, [&](OpBuilder &b, Value p) {
    Value scaled = arith::MulFOp::create(b, l, alpha, rhs.load(b, l, p, j));
    forRange(b, l, iFirst, iEnd, [&](OpBuilder &b, Value i) {
      Value term = arith::MulFOp::create(b, l, lhs.load(b, l, i, p), scaled);
      result.store(b, l,
                   arith::AddFOp::create(b, l, result.load(b, l, i, j), term),
                   i, j);
    });
  });
}

/// How many columns of C, and steps of the depth, one pass down the rows
/// of a blocked product updates and reads.
constexpr int64_t kProductBlock = 4;

/// How many whole blocks `value` holds.
Value wholeBlocks(OpBuilder &b, Location l, Value value) {
  return arith::DivSIOp::create(b, l, value,
                                constantIndex(b, l, kProductBlock));
}

/// The first of the block `k`. (Loops count blocks, not elements by steps
/// of kProductBlock: the bounds of the elements a kernel touches, which the
/// engine computes from its loops' bounds, then stay exact.)
Value blockStart(OpBuilder &b, Location l, Value k) {
  return arith::MulIOp::create(b, l, k, constantIndex(b, l, kProductBlock));
}

/// A loop over the blocks [0, count), its body given the first of each.
void forBlocks(OpBuilder &b, Location l, Value count,
               function_ref<void(OpBuilder &, Value)> body) {
  forRange(b, l, constantIndex(b, l, 0), count,
           [&](OpBuilder &b, Value k) { body(b, blockStart(b, l, k)); });
}

/// The product over the kProductBlock columns of C from `first`, by passes
/// down the rows that each read kProductBlock columns of A and update the
/// block's columns (kProductBlock^2 multiply-adds per load and store of C:
/// one column at a time, a load and a store of C bound each multiply-add).
/// The passes cover the rows every column of the block has in `region`;
/// each column's other rows, and the depth past its last whole block, are
/// updated one column at a time.
void buildColumnBlock(OpBuilder &b, Location l, Matrix lhs, Matrix rhs,
                      Matrix result, Value first, Value rows, Value depth,
                      Value alpha, Triangle region, Value firstRow) {
  SmallVector<Value> columns, firsts, ends;
  for (int64_t r = 0; r < kProductBlock; ++r) {
    columns.push_back(
        arith::AddIOp::create(b, l, first, constantIndex(b, l, r)));
    auto [from, to] = rowsOf(b, l, region, columns.back(), rows, firstRow);
    firsts.push_back(from);
    ends.push_back(to);
  }
  // The rows all of them have: [shared, sharedEnd).
  Value shared = firsts[0], sharedEnd = ends[0];
  for (int64_t r = 1; r < kProductBlock; ++r) {
    shared = arith::MaxSIOp::create(b, l, shared, firsts[r]);
    sharedEnd = arith::MinSIOp::create(b, l, sharedEnd, ends[r]);
  }
  sharedEnd = arith::MaxSIOp::create(b, l, sharedEnd, shared);
  Value depthBlocks = wholeBlocks(b, l, depth);
  forBlocks(b, l, depthBlocks, [&](OpBuilder &b, Value p) {
    SmallVector<Value> steps;
    for (int64_t q = 0; q < kProductBlock; ++q)
      steps.push_back(arith::AddIOp::create(b, l, p, constantIndex(b, l, q)));
    // scaled[q * kProductBlock + r] = alpha * B(p + q, first + r).
    SmallVector<Value> scaled;
    for (Value step : steps)
      for (Value j : columns)
        scaled.push_back(
            arith::MulFOp::create(b, l, alpha, rhs.load(b, l, step, j)));
    forRange(b, l, shared, sharedEnd, [&](OpBuilder &b, Value i) {
      SmallVector<Value> left;
      for (Value step : steps)
        left.push_back(lhs.load(b, l, i, step));
      for (int64_t r = 0; r < kProductBlock; ++r) {
        Value sum = result.load(b, l, i, columns[r]);
        for (int64_t q = 0; q < kProductBlock; ++q)
          sum = arith::AddFOp::create(
              b, l, sum,
              arith::MulFOp::create(b, l, left[q],
                                    scaled[q * kProductBlock + r]));
        result.store(b, l, sum, i, columns[r]);
      }
    });
  });
  Value blockedDepth = blockStart(b, l, depthBlocks);
  Value zero = constantIndex(b, l, 0);
  for (int64_t r = 0; r < kProductBlock; ++r) {
    buildColumnUpdate(b, l, lhs, rhs, result, columns[r], blockedDepth, depth,
                      shared, sharedEnd, alpha);
    buildColumnUpdate(b, l, lhs, rhs, result, columns[r], zero, depth,
                      firsts[r], arith::MinSIOp::create(b, l, shared, ends[r]),
                      alpha);
    buildColumnUpdate(b, l, lhs, rhs, result, columns[r], zero, depth,
                      arith::MaxSIOp::create(b, l, sharedEnd, firsts[r]),
                      ends[r], alpha);
  }
}

/// C(i, j) += alpha * sum_p A(i, p) * B(p, j) over `region` of C (its rows
/// from `firstRow` on, if given, of all of it): blocks of kProductBlock
/// columns, then the columns past the last whole block one at a time; the
/// innermost loops run down columns of A and C.
void buildProductByColumns(OpBuilder &b, Location l, Matrix lhs, Matrix rhs,
                           Matrix result, Value rows, Value cols, Value depth,
                           Value alpha, Triangle region,
                           Value firstRow = nullptr) {
  Value colBlocks = wholeBlocks(b, l, cols);
  forBlocks(b, l, colBlocks, [&](OpBuilder &b, Value j) {
    buildColumnBlock(b, l, lhs, rhs, result, j, rows, depth, alpha, region,
                     firstRow);
  });
  forRange(b, l, blockStart(b, l, colBlocks), cols, [&](OpBuilder &b, Value j) {
    auto [first, end] = rowsOf(b, l, region, j, rows, firstRow);
    buildColumnUpdate(b, l, lhs, rhs, result, j, constantIndex(b, l, 0), depth,
                      first, end, alpha);
  });
}

/// Whether `m`'s rows, not its columns, are contiguous: then the loops that
/// run down its columns should run along its rows.
Value storedByRows(OpBuilder &b, Location l, const Matrix &m) {
  Value one = constantIndex(b, l, 1);
  return arith::AndIOp::create(
      b, l,
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, m.colStride, one),
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, m.rowStride, one));
}

/// Builds `byColumns` where `m` is stored by columns, else `byRows`.
void alongStorage(OpBuilder &b, Location l, const Matrix &m,
                  function_ref<void(OpBuilder &)> byColumns,
                  function_ref<void(OpBuilder &)> byRows) {
  scf::IfOp::create(
      b, l, storedByRows(b, l, m),
      [&](OpBuilder &b, Location) {
        byRows(b);
        scf::YieldOp::create(b, l);
      },
      [&](OpBuilder &b, Location) {
        byColumns(b);
        scf::YieldOp::create(b, l);
      });
}

/// C(i, j) += alpha * sum_p A(i, p) * B(p, j) over `region` of C, its
/// innermost loop along C's contiguous dimension (C^T += alpha B^T A^T
/// where C is stored by rows) and along a contiguous copy of the matrix
/// multiplying it where that is not contiguous already.
void buildProduct(OpBuilder &b, Location l, Matrix lhs, Matrix rhs,
                  Matrix result, Value rows, Value cols, Value depth,
                  Value alpha, Triangle region) {
  // The copy's memory is allocated outside the branches (for reverse mode,
  // which differentiates the kernels' tangents again in a Hessian), empty
  // where no copy is made.
  Value one = constantIndex(b, l, 1);
  auto strided = [&](OpBuilder &b, const Matrix &m) -> Value {
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, m.rowStride,
                                 one);
  };
  Type element = cast<MemRefType>(result.data.getType()).getElementType();
  Value copySize = arith::SelectOp::create(
      b, l,
      arith::OrIOp::create(b, l, strided(b, lhs), strided(b, rhs.transposed())),
      arith::MulIOp::create(b, l, depth,
                            arith::MaxSIOp::create(b, l, rows, cols)),
      constantIndex(b, l, 0));
  Value buffer = memref::AllocOp::create(
      b, l, MemRefType::get({ShapedType::kDynamic}, element), copySize);
  Matrix copy{memref::CastOp::create(b, l, getPointerType(element), buffer),
              constantIndex(b, l, 0), one, nullptr};
  auto emit = [&](OpBuilder &b, Matrix lhs, Matrix rhs, Matrix result,
                  Value rows, Value cols, Triangle region) {
    scf::IfOp::create(
        b, l, strided(b, lhs),
        [&](OpBuilder &b, Location) {
          Matrix packed = copy;
          packed.colStride = rows;
          forRange(b, l, constantIndex(b, l, 0), depth,
                   [&](OpBuilder &b, Value p) {
                     forRange(b, l, constantIndex(b, l, 0), rows,
                              [&](OpBuilder &b, Value i) {
                                packed.store(b, l, lhs.load(b, l, i, p), i, p);
                              });
                   });
          buildProductByColumns(b, l, packed, rhs, result, rows, cols, depth,
                                alpha, region);
          scf::YieldOp::create(b, l);
        },
        [&](OpBuilder &b, Location) {
          buildProductByColumns(b, l, lhs, rhs, result, rows, cols, depth,
                                alpha, region);
          scf::YieldOp::create(b, l);
        });
  };
  alongStorage(
      b, l, result,
      [&](OpBuilder &b) { emit(b, lhs, rhs, result, rows, cols, region); },
      [&](OpBuilder &b) {
        emit(b, rhs.transposed(), lhs.transposed(), result.transposed(), cols,
             rows, transposed(region));
      });
  memref::DeallocOp::create(b, l, buffer);
}

/// The pivots [first, end) of X = T^-1 X (from the last for an upper T),
/// solved in place among those rows alone, column by column of X (its
/// innermost loop down a column of X and T). The solves' loops run over
/// the rows they touch, not over counts from a start: the bounds of what a
/// kernel touches, which the engine computes from its loops, stay exact.
void buildSolveByColumns(OpBuilder &b, Location l, Matrix tri, Matrix other,
                         Value first, Value end, Value cols, bool lower,
                         bool unitDiagonal) {
  Value zero = constantIndex(b, l, 0), one = constantIndex(b, l, 1);
  Value last = arith::SubIOp::create(b, l, end, one);
  forRange(b, l, zero, cols, [&](OpBuilder &b, Value c) {
    forRange(
        b, l, lower ? first : zero,
        lower ? end : arith::SubIOp::create(b, l, end, first),
        [&](OpBuilder &b, Value k) {
          Value j = lower ? k : arith::SubIOp::create(b, l, last, k);
          Value known = other.load(b, l, j, c);
          if (!unitDiagonal) {
            known = arith::DivFOp::create(b, l, known, tri.load(b, l, j, j));
            other.store(b, l, known, j, c);
          }
          Value from = lower ? arith::AddIOp::create(b, l, j, one) : first;
          Value to = lower ? end : j;
          forRange(b, l, from, to, [&](OpBuilder &b, Value i) {
            Value term =
                arith::MulFOp::create(b, l, tri.load(b, l, i, j), known);
            other.store(
                b, l, arith::SubFOp::create(b, l, other.load(b, l, i, c), term),
                i, c);
          });
        });
  });
}

/// X's row `i` minus the sum over `pivots` of T(i, pivot) times the
/// pivot's row, along the row.
void buildRowUpdate(OpBuilder &b, Location l, Matrix tri, Matrix other, Value i,
                    ArrayRef<Value> pivots, Value cols) {
  SmallVector<Value> factors;
  for (Value pivot : pivots)
    factors.push_back(tri.load(b, l, i, pivot));
  forRange(b, l, constantIndex(b, l, 0), cols, [&](OpBuilder &b, Value c) {
    Value value = other.load(b, l, i, c);
    for (auto [pivot, factor] : llvm::zip_equal(pivots, factors))
      value = arith::SubFOp::create(
          b, l, value,
          arith::MulFOp::create(b, l, factor, other.load(b, l, pivot, c)));
    other.store(b, l, value, i, c);
  });
}

/// X's row `j` divided by T(j, j), along the row.
void buildRowDivision(OpBuilder &b, Location l, Matrix tri, Matrix other,
                      Value j, Value cols) {
  Value pivot = tri.load(b, l, j, j);
  forRange(b, l, constantIndex(b, l, 0), cols, [&](OpBuilder &b, Value c) {
    other.store(
        b, l, arith::DivFOp::create(b, l, other.load(b, l, j, c), pivot), j, c);
  });
}

/// The same, row by row of X: each solved row, scaled by a column of T, is
/// subtracted from the rows after it (its innermost loop along a row of X).
void buildSolveByRows(OpBuilder &b, Location l, Matrix tri, Matrix other,
                      Value first, Value end, Value cols, bool lower,
                      bool unitDiagonal) {
  Value zero = constantIndex(b, l, 0), one = constantIndex(b, l, 1);
  Value last = arith::SubIOp::create(b, l, end, one);
  forRange(b, l, lower ? first : zero,
           lower ? end : arith::SubIOp::create(b, l, end, first),
           [&](OpBuilder &b, Value k) {
             Value j = lower ? k : arith::SubIOp::create(b, l, last, k);
             if (!unitDiagonal)
               buildRowDivision(b, l, tri, other, j, cols);
             forRange(b, l, lower ? arith::AddIOp::create(b, l, j, one) : first,
                      lower ? end : j, [&](OpBuilder &b, Value i) {
                        buildRowUpdate(b, l, tri, other, i, j, cols);
                      });
           });
}

/// `m` from its column `j` on.
Matrix fromColumn(OpBuilder &b, Location l, const Matrix &m, Value j) {
  return {m.data, m.position(b, l, constantIndex(b, l, 0), j), m.rowStride,
          m.colStride};
}

/// The block of kProductBlock pivots from `first` (ascending for a lower
/// T, descending for an upper one) solved among its own rows: each pivot's
/// row divided, then subtracted from the block's rows after it.
void buildBlockSolve(OpBuilder &b, Location l, Matrix tri, Matrix other,
                     ArrayRef<Value> pivots, Value cols, bool unitDiagonal) {
  for (auto [k, j] : llvm::enumerate(pivots)) {
    if (!unitDiagonal)
      buildRowDivision(b, l, tri, other, j, cols);
    for (Value i : pivots.drop_front(k + 1))
      buildRowUpdate(b, l, tri, other, i, j, cols);
  }
}

/// X = T^-1 X in place by blocks of kProductBlock pivots (from the first
/// for a lower T, from the last for an upper one): each block's rows are
/// solved among themselves, then subtracted, times T's columns of the
/// block, from the rows still to solve (a product down X's columns, or each
/// row updated by the whole block along X's rows: kProductBlock^2 or
/// kProductBlock multiply-adds per load and store of X, where one pivot at
/// a time does one); the pivots past the last whole block are solved one at
/// a time. `byRows` says which of X's dimensions is contiguous.
void buildBlockedSolve(OpBuilder &b, Location l, Matrix tri, Matrix other,
                       Value size, Value cols, bool lower, bool unitDiagonal,
                       bool byRows) {
  Value zero = constantIndex(b, l, 0);
  Value blocks = wholeBlocks(b, l, size);
  Type element = cast<MemRefType>(other.data.getType()).getElementType();
  Value minusOne =
      arith::ConstantOp::create(b, l, element, b.getFloatAttr(element, -1.0));
  Value width = constantIndex(b, l, kProductBlock);
  forBlocks(b, l, blocks, [&](OpBuilder &b, Value start) {
    // The block's pivots, in the order they are solved, its first row, and
    // the rows still to solve after it: [restFirst, restEnd).
    SmallVector<Value> pivots;
    Value top = lower ? start : arith::SubIOp::create(b, l, size, start);
    for (int64_t q = 0; q < kProductBlock; ++q)
      pivots.push_back(
          lower
              ? Value(arith::AddIOp::create(b, l, top, constantIndex(b, l, q)))
              : Value(arith::SubIOp::create(b, l, top,
                                            constantIndex(b, l, q + 1))));
    Value blockFirst = lower ? start : pivots.back();
    Value restFirst = lower ? arith::AddIOp::create(b, l, start, width) : zero;
    Value restEnd = lower ? size : blockFirst;
    buildBlockSolve(b, l, tri, other, pivots, cols, unitDiagonal);
    if (!byRows) {
      Matrix solved = other.transposed();
      solved = fromColumn(b, l, solved, blockFirst).transposed();
      buildProductByColumns(b, l, fromColumn(b, l, tri, blockFirst), solved,
                            other, restEnd, cols, width, minusOne,
                            Triangle::All, restFirst);
      return;
    }
    forRange(b, l, restFirst, restEnd, [&](OpBuilder &b, Value i) {
      buildRowUpdate(b, l, tri, other, i, pivots, cols);
    });
  });
  Value solvedByBlocks = blockStart(b, l, blocks);
  Value first = lower ? solvedByBlocks : zero;
  Value end = lower ? size : arith::SubIOp::create(b, l, size, solvedByBlocks);
  if (byRows)
    buildSolveByRows(b, l, tri, other, first, end, cols, lower, unitDiagonal);
  else
    buildSolveByColumns(b, l, tri, other, first, end, cols, lower,
                        unitDiagonal);
}

/// X = T^-1 X in place, its innermost loop along X's contiguous dimension.
void buildTriangularSolve(OpBuilder &b, Location l, Matrix tri, Matrix other,
                          Value size, Value cols, bool lower,
                          bool unitDiagonal) {
  alongStorage(
      b, l, other,
      [&](OpBuilder &b) {
        buildBlockedSolve(b, l, tri, other, size, cols, lower, unitDiagonal,
                          /*byRows=*/false);
      },
      [&](OpBuilder &b) {
        buildBlockedSolve(b, l, tri, other, size, cols, lower, unitDiagonal,
                          /*byRows=*/true);
      });
}

/// The function `name` of `module` if it exists; else a new private one of
/// `type` at `where`, its entry block made, and `created` set.
func::FuncOp getOrCreate(ModuleOp module, StringRef name, FunctionType type,
                         StringRef sourceName, Location where, bool &created) {
  if (auto known = module.lookupSymbol<func::FuncOp>(name))
    return known;
  created = true;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto function = func::FuncOp::create(b, where, name, type);
  function.setPrivate();
  function->setAttr("ct.source_name", b.getStringAttr(sourceName));
  function.addEntryBlock();
  return function;
}

/// The residuals of every kernel's rule: two copied operands, then whether
/// the operands are a Gram product's (a product's; 0 for a solve).
constexpr unsigned kResiduals = 3;

/// The arguments of a rule's backward half: the residuals, the kernel's
/// arguments, then one derivative memory per matrix operand.
struct BackwardArguments {
  Block *entry;
  unsigned kernelArguments;

  Value residual(unsigned k) const { return entry->getArgument(k); }
  Value argument(unsigned i) const {
    return entry->getArgument(kResiduals + i);
  }
  /// The matrix operand given as four arguments from `first` on, viewed in
  /// the derivative memory that follows the kernel's arguments as the
  /// `shadow`th.
  Matrix shadowMatrix(unsigned first, unsigned shadow) const {
    return {entry->getArgument(kResiduals + kernelArguments + shadow),
            argument(first + 1), argument(first + 2), argument(first + 3)};
  }
};

/// A kernel with a matrix-level rule, as getKernelWithRule makes it.
struct KernelParts {
  std::string name;
  /// What diagnostics about the kernel call it.
  StringRef sourceName;
  SmallVector<Type> inputs;
  /// The backward half's derivative memories (one per matrix operand) and
  /// its results (the adjoints of the kernel's scalar arguments).
  unsigned shadows;
  SmallVector<Type> adjoints;
  /// The kernel's loops.
  std::function<void(OpBuilder &, Block *)> body;
  /// The forward half's: the kernel's loops and the copies of what the
  /// backward half reads, returned as the residuals.
  std::function<SmallVector<Value>(OpBuilder &, Block *)> forward;
  /// The backward half's, given its arguments.
  std::function<void(OpBuilder &, const BackwardArguments &)> backward;
};

/// The kernel `parts.name` of `module`; made on first use, at `where`, with
/// its halves bound to it as its reverse-mode rule (forward mode
/// differentiates the kernel's loops).
func::FuncOp getKernelWithRule(ModuleOp module, Location where,
                               const KernelParts &parts) {
  OpBuilder b(module.getContext());
  bool created = false;
  func::FuncOp kernel =
      getOrCreate(module, parts.name, b.getFunctionType(parts.inputs, {}),
                  parts.sourceName, where, created);
  if (!created)
    return kernel;
  Location l = kernel.getLoc();
  b.setInsertionPointToStart(&kernel.front());
  parts.body(b, &kernel.front());
  func::ReturnOp::create(b, l);

  Type buffer = parts.inputs.front();
  SmallVector<Type> residuals(kResiduals - 1, buffer);
  residuals.push_back(b.getIndexType());
  func::FuncOp forward = getOrCreate(module, parts.name + ".forward",
                                     b.getFunctionType(parts.inputs, residuals),
                                     parts.sourceName, where, created);
  b.setInsertionPointToStart(&forward.front());
  SmallVector<Value> copies = parts.forward(b, &forward.front());
  func::ReturnOp::create(b, l, copies);

  SmallVector<Type> backwardInputs(residuals);
  llvm::append_range(backwardInputs, parts.inputs);
  backwardInputs.append(parts.shadows, buffer);
  func::FuncOp backward =
      getOrCreate(module, parts.name + ".backward",
                  b.getFunctionType(backwardInputs, parts.adjoints),
                  parts.sourceName, where, created);
  b.setInsertionPointToStart(&backward.front());
  parts.backward(b,
                 BackwardArguments{&backward.front(),
                                   static_cast<unsigned>(parts.inputs.size())});

  b.setInsertionPointToEnd(module.getBody());
  ct::CustomVjpOp::create(b, kernel.getLoc(), kernel.getSymName(),
                          forward.getSymName(), backward.getSymName());
  kernel->setAttr(ct::kForwardFromBodyAttr, b.getUnitAttr());
  kernel->setAttr(ct::kRuleReadsOwnCopiesAttr, b.getUnitAttr());
  return kernel;
}

StringRef regionName(Triangle region) {
  switch (region) {
  case Triangle::All:
    return "all";
  case Triangle::Lower:
    return "lower";
  case Triangle::Upper:
    return "upper";
  case Triangle::StrictLower:
    return "strict_lower";
  case Triangle::StrictUpper:
    return "strict_upper";
  }
  llvm_unreachable("every region is named");
}

std::string elementName(FloatType element) {
  return "f" + std::to_string(element.getWidth());
}

} // namespace

DenseMatrix buildTriangleCopy(OpBuilder &b, Location l, DenseMatrix from,
                              Value rows, Value cols, Triangle region,
                              bool unitDiagonal) {
  Matrix copy = buildCopy(b, l, from, rows, cols, /*byRows=*/false, region);
  if (unitDiagonal) {
    Type element = cast<MemRefType>(copy.data.getType()).getElementType();
    Value unit =
        arith::ConstantOp::create(b, l, element, b.getFloatAttr(element, 1.0));
    forRange(b, l, constantIndex(b, l, 0),
             arith::MinSIOp::create(b, l, rows, cols),
             [&](OpBuilder &b, Value i) { copy.store(b, l, unit, i, i); });
  }
  return copy;
}

DenseMatrix buildSymmetricCopy(OpBuilder &b, Location l, DenseMatrix lower,
                               Value size) {
  Type element = cast<MemRefType>(lower.data.getType()).getElementType();
  Matrix copy = buildMatrix(b, l, element, size, size, /*byRows=*/false,
                            /*zeroed=*/false);
  forRange(b, l, constantIndex(b, l, 0), size, [&](OpBuilder &b, Value j) {
    forRange(b, l, j, size, [&](OpBuilder &b, Value i) {
      Value value = lower.load(b, l, i, j);
      copy.store(b, l, value, i, j);
      copy.store(b, l, value, j, i);
    });
  });
  return copy;
}

//===----------------------------------------------------------------------===//
// Products
//===----------------------------------------------------------------------===//

namespace {
// Arguments: A at 0, B at 4, C at 8, then rows, cols, depth, alpha.
constexpr unsigned kRows = 12, kCols = 13, kDepth = 14, kAlpha = 15;

Value buildTrue(OpBuilder &b, Location l) {
  return arith::ConstantIntOp::create(b, l, b.getI1Type(), 1);
}

/// The address of `m`'s element (0, 0): its memory's aligned address and
/// the element's offset from it.
std::pair<Value, Value> startOf(OpBuilder &b, Location l, const Matrix &m) {
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, l, m.data);
  auto metadata = memref::ExtractStridedMetadataOp::create(b, l, m.data);
  return {address, arith::AddIOp::create(b, l, metadata.getOffset(), m.offset)};
}

/// Whether the product's operands A (rows x depth) and B (depth x cols) are
/// one matrix and its transpose in the same memory (a Gram matrix A A^T:
/// Eigen's `a * a.transpose()`, a self-adjoint rank update).
Value buildIsGram(OpBuilder &b, Location l, const Matrix &lhs,
                  const Matrix &rhs, Value rows, Value cols) {
  auto equal = [&](Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x, y);
  };
  auto [lhsAddress, lhsOffset] = startOf(b, l, lhs);
  auto [rhsAddress, rhsOffset] = startOf(b, l, rhs);
  Value same = equal(rows, cols);
  for (Value test : {equal(lhsAddress, rhsAddress), equal(lhsOffset, rhsOffset),
                     equal(lhs.rowStride, rhs.colStride),
                     equal(lhs.colStride, rhs.rowStride)})
    same = arith::AndIOp::create(b, l, same, test);
  return same;
}

/// A new size x size matrix, stored by columns: m + m^T.
Matrix buildSymmetrized(OpBuilder &b, Location l, const Matrix &m, Value size) {
  Type element = cast<MemRefType>(m.data.getType()).getElementType();
  Matrix sum = buildMatrix(b, l, element, size, size, /*byRows=*/false,
                           /*zeroed=*/false);
  forRange(b, l, constantIndex(b, l, 0), size, [&](OpBuilder &b, Value j) {
    forRange(b, l, constantIndex(b, l, 0), size, [&](OpBuilder &b, Value i) {
      sum.store(
          b, l,
          arith::AddFOp::create(b, l, m.load(b, l, i, j), m.load(b, l, j, i)),
          i, j);
    });
  });
  return sum;
}

/// The rule's forward half: copies of A (by rows) and B (by columns), the
/// latter empty where B is A^T in the same memory (the backward half reads
/// A's copy for both, told so by the third residual), then the kernel.
SmallVector<Value> buildProductForward(OpBuilder &b, Location l, Block *entry,
                                       function_ref<void(OpBuilder &)> body) {
  Value rows = entry->getArgument(kRows), cols = entry->getArgument(kCols),
        depth = entry->getArgument(kDepth);
  Matrix lhs = matrixArgument(entry, 0), rhs = matrixArgument(entry, 4);
  Matrix a = buildCopy(b, l, lhs, rows, depth, /*byRows=*/true, Triangle::All);
  Value gram = buildIsGram(b, l, lhs, rhs, rows, cols);
  Type element = cast<MemRefType>(a.data.getType()).getElementType();
  Value zero = constantIndex(b, l, 0), one = constantIndex(b, l, 1);
  Value copied = arith::SelectOp::create(
      b, l, gram, zero, arith::MulIOp::create(b, l, depth, cols));
  Value buffer = memref::AllocOp::create(
      b, l, MemRefType::get({ShapedType::kDynamic}, element), copied);
  Matrix bm{memref::CastOp::create(b, l, getPointerType(element), buffer), zero,
            one, depth};
  Value notGram = arith::XOrIOp::create(b, l, gram, buildTrue(b, l));
  scf::IfOp::create(b, l, notGram, [&](OpBuilder &b, Location) {
    buildCopyInto(b, l, rhs, bm, depth, cols, Triangle::All);
    scf::YieldOp::create(b, l);
  });
  body(b);
  return {a.data, bm.data,
          arith::IndexCastOp::create(b, l, b.getIndexType(), gram)};
}

/// T such that A's adjoint is alpha * T and alpha's is `scale` times
/// sum(T .* A), into `t`: Cbar B^T, with B's adjoint alpha A^T Cbar added;
/// or, where A and B are a Gram product's operands, (Cbar + Cbar^T) A,
/// which holds both (`scale` 1/2).
Value buildProductAdjoints(OpBuilder &b, Location l,
                           const BackwardArguments &args, Matrix seed, Matrix a,
                           Matrix bm, Value foundGram, Matrix t) {
  Value rows = args.argument(kRows), cols = args.argument(kCols),
        depth = args.argument(kDepth), alpha = args.argument(kAlpha);
  Type element = alpha.getType();
  Value unit =
      arith::ConstantOp::create(b, l, element, b.getFloatAttr(element, 1.0));
  Value half =
      arith::ConstantOp::create(b, l, element, b.getFloatAttr(element, 0.5));
  // A Gram product where the forward half found one (a square result) and
  // the operands' derivative memories are one memory (its place in it is
  // the same as the operands': vector mode widens it, so its layout is not
  // read here).
  Matrix shadowB = args.shadowMatrix(4, 1);
  Value gram = arith::AndIOp::create(
      b, l, foundGram,
      arith::CmpIOp::create(
          b, l, arith::CmpIPredicate::eq,
          memref::ExtractAlignedPointerAsIndexOp::create(
              b, l, args.shadowMatrix(0, 0).data),
          memref::ExtractAlignedPointerAsIndexOp::create(b, l, shadowB.data)));
  scf::IfOp::create(
      b, l, gram,
      [&](OpBuilder &b, Location) {
        Matrix both = buildSymmetrized(b, l, seed, rows);
        buildProduct(b, l, both, a, t, rows, depth, rows, unit, Triangle::All);
        memref::DeallocOp::create(b, l, both.data);
        scf::YieldOp::create(b, l);
      },
      [&](OpBuilder &b, Location) {
        buildProduct(b, l, seed, bm.transposed(), t, rows, depth, cols, unit,
                     Triangle::All);
        buildProduct(b, l, a.transposed(), seed, shadowB, depth, cols, rows,
                     alpha, Triangle::All);
        scf::YieldOp::create(b, l);
      });
  return arith::SelectOp::create(b, l, gram, half, unit);
}

/// The rule's backward half: with Cbar the seed of C over its region,
/// T = Cbar * B^T gives A's adjoint (alpha * T) and alpha's (sum of T .* A),
/// and B's is alpha * A^T * Cbar.
void buildProductBackward(OpBuilder &b, const BackwardArguments &args,
                          Triangle region) {
  Location l = args.entry->getParentOp()->getLoc();
  // Residuals: A stored by rows, B by columns (or nothing, where B is A^T,
  // whose copy by columns is A's by rows: the third residual says).
  Value copyA = args.residual(0), copyB = args.residual(1);
  Value rows = args.argument(kRows), cols = args.argument(kCols),
        depth = args.argument(kDepth), alpha = args.argument(kAlpha);
  Value zero = constantIndex(b, l, 0), one = constantIndex(b, l, 1);
  Value foundGram = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne,
                                          args.residual(2), zero);
  Matrix a{copyA, zero, depth, one},
      bm{arith::SelectOp::create(b, l, foundGram, copyA, copyB), zero, one,
         depth};
  Matrix seed = args.shadowMatrix(8, 2);
  Type element = alpha.getType();
  if (region != Triangle::All)
    seed = buildCopy(b, l, seed, rows, cols, /*byRows=*/false, region);
  Matrix t = buildMatrix(b, l, element, rows, depth, /*byRows=*/false);
  Value scale = buildProductAdjoints(b, l, args, seed, a, bm, foundGram, t);
  // A's adjoint and alpha's, element by element of T.
  Matrix shadowA = args.shadowMatrix(0, 0);
  Value zeroScalar =
      arith::ConstantOp::create(b, l, element, b.getFloatAttr(element, 0.0));
  auto outer = scf::ForOp::create(b, l, zero, depth, one, zeroScalar);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(outer.getBody());
    Value p = outer.getInductionVar();
    auto inner =
        scf::ForOp::create(b, l, zero, rows, one, outer.getRegionIterArgs());
    b.setInsertionPointToStart(inner.getBody());
    Value i = inner.getInductionVar();
    Value ti = t.load(b, l, i, p);
    shadowA.store(b, l,
                  arith::AddFOp::create(b, l, shadowA.load(b, l, i, p),
                                        arith::MulFOp::create(b, l, alpha, ti)),
                  i, p);
    Value sum = arith::AddFOp::create(
        b, l, inner.getRegionIterArgs()[0],
        arith::MulFOp::create(b, l, ti, a.load(b, l, i, p)));
    scf::YieldOp::create(b, l, sum);
    b.setInsertionPointAfter(inner);
    scf::YieldOp::create(b, l, inner.getResults());
  }
  for (Value buffer : {copyA, copyB, t.data})
    memref::DeallocOp::create(b, l, buffer);
  if (region != Triangle::All)
    memref::DeallocOp::create(b, l, seed.data);
  func::ReturnOp::create(
      b, l, arith::MulFOp::create(b, l, scale, outer.getResult(0)).getResult());
}
} // namespace

func::FuncOp getDenseProduct(ModuleOp module, FloatType element,
                             Triangle region, Location where) {
  Builder b(module.getContext());
  Type buffer = getPointerType(element), index = b.getIndexType();
  KernelParts parts;
  parts.name =
      ("ct.dense.product." + elementName(element) + "." + regionName(region))
          .str();
  parts.sourceName = "a matrix product";
  for (int k = 0; k < 3; ++k)
    llvm::append_range(parts.inputs,
                       ArrayRef<Type>{buffer, index, index, index});
  llvm::append_range(parts.inputs,
                     ArrayRef<Type>{index, index, index, element});
  parts.shadows = 3;
  parts.adjoints = {element};
  Location l = where;
  auto body = [=](OpBuilder &b, Block *entry) {
    buildProduct(b, l, matrixArgument(entry, 0), matrixArgument(entry, 4),
                 matrixArgument(entry, 8), entry->getArgument(kRows),
                 entry->getArgument(kCols), entry->getArgument(kDepth),
                 entry->getArgument(kAlpha), region);
  };
  parts.body = body;
  parts.forward = [=](OpBuilder &b, Block *entry) -> SmallVector<Value> {
    return buildProductForward(b, l, entry,
                               [&](OpBuilder &b) { body(b, entry); });
  };
  parts.backward = [=](OpBuilder &b, const BackwardArguments &args) {
    buildProductBackward(b, args, region);
  };
  return getKernelWithRule(module, where, parts);
}

//===----------------------------------------------------------------------===//
// Triangular solves
//===----------------------------------------------------------------------===//

namespace {
// Arguments: T at 0, X at 4, then size, cols.
constexpr unsigned kSize = 8, kSolveCols = 9;

/// The rule's backward half: with X the solution and Xbar its seed, the
/// right-hand side's adjoint is T^-T Xbar (replacing Xbar, since the solve
/// overwrote the right-hand side), and T's is -(T^-T Xbar) X^T over the
/// entries the solve read.
void buildSolveBackward(OpBuilder &b, const BackwardArguments &args, bool lower,
                        bool unitDiagonal) {
  Location l = args.entry->getParentOp()->getLoc();
  // Residuals: T stored by rows (so T^T is by columns), X by columns.
  Value copyT = args.residual(0), copyX = args.residual(1);
  Value size = args.argument(kSize), cols = args.argument(kSolveCols);
  Value zero = constantIndex(b, l, 0), one = constantIndex(b, l, 1);
  Matrix tri{copyT, zero, size, one}, solution{copyX, zero, one, size};
  Matrix shadowT = args.shadowMatrix(0, 0), shadowX = args.shadowMatrix(4, 1);
  buildTriangularSolve(b, l, tri.transposed(), shadowX, size, cols, !lower,
                       unitDiagonal);
  Triangle read =
      lower ? (unitDiagonal ? Triangle::StrictLower : Triangle::Lower)
            : (unitDiagonal ? Triangle::StrictUpper : Triangle::Upper);
  Type element = cast<MemRefType>(copyT.getType()).getElementType();
  Value minusOne =
      arith::ConstantOp::create(b, l, element, b.getFloatAttr(element, -1.0));
  buildProduct(b, l, shadowX, solution.transposed(), shadowT, size, size, cols,
               minusOne, read);
  memref::DeallocOp::create(b, l, copyT);
  memref::DeallocOp::create(b, l, copyX);
  func::ReturnOp::create(b, l);
}
} // namespace

func::FuncOp getDenseTriangularSolve(ModuleOp module, FloatType element,
                                     bool lower, bool unitDiagonal,
                                     Location where) {
  Builder b(module.getContext());
  Type buffer = getPointerType(element), index = b.getIndexType();
  KernelParts parts;
  parts.name = "ct.dense.solve." + elementName(element) +
               (lower ? ".lower" : ".upper") + (unitDiagonal ? ".unit" : "");
  parts.sourceName = "a triangular solve";
  for (int k = 0; k < 2; ++k)
    llvm::append_range(parts.inputs,
                       ArrayRef<Type>{buffer, index, index, index});
  parts.inputs.append({index, index});
  parts.shadows = 2;
  Location l = where;
  auto body = [=](OpBuilder &b, Block *entry) {
    buildTriangularSolve(b, l, matrixArgument(entry, 0),
                         matrixArgument(entry, 4), entry->getArgument(kSize),
                         entry->getArgument(kSolveCols), lower, unitDiagonal);
  };
  parts.body = body;
  parts.forward = [=](OpBuilder &b, Block *entry) -> SmallVector<Value> {
    Value size = entry->getArgument(kSize);
    body(b, entry);
    Matrix tri =
        buildCopy(b, l, matrixArgument(entry, 0), size, size,
                  /*byRows=*/true, lower ? Triangle::Lower : Triangle::Upper);
    Matrix solution = buildCopy(b, l, matrixArgument(entry, 4), size,
                                entry->getArgument(kSolveCols),
                                /*byRows=*/false, Triangle::All);
    return {tri.data, solution.data, constantIndex(b, l, 0)};
  };
  parts.backward = [=](OpBuilder &b, const BackwardArguments &args) {
    buildSolveBackward(b, args, lower, unitDiagonal);
  };
  return getKernelWithRule(module, where, parts);
}

} // namespace cotangent::frontend
