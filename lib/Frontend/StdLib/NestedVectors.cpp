//===- NestedVectors.cpp - std::vector<std::vector<T>> --------------------===//
//
// A vector of vectors is a ragged array: its rows' elements end to end in
// one memref, and a memref of n + 1 indices saying where each row starts
// (the last one, where the last row ends). Row i is the view of its
// elements, an ordinary vector for everything that follows (`m[i][j]`,
// `m[i].size()`, passing `m[i]` on). A parameter arrives as the two
// memrefs: the entry points copy the caller's rows into one buffer and the
// results back (EntryPoints.cpp). The rows keep their sizes: resizing a
// row, or the outer vector, is refused.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace cotangent::frontend {

Address FunctionLowering::rowOf(Address nested, Value i, Location l) {
  Value start = memref::LoadOp::create(b, l, nested.rows, i);
  Value next = arith::AddIOp::create(b, l, i, constantIndex(1, l));
  Value end = memref::LoadOp::create(b, l, nested.rows, next);
  Value length = arith::SubIOp::create(b, l, end, start);
  Value view = memref::SubViewOp::create(
      b, l, nested.memref, ArrayRef<OpFoldResult>{start},
      ArrayRef<OpFoldResult>{length},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  return Address{view, constantIndex(0, l)};
}

Value FunctionLowering::rowCount(Address nested, Location l) {
  return arith::SubIOp::create(
      b, l, memref::DimOp::create(b, l, nested.rows, 0), constantIndex(1, l));
}

/// Creates one vector of vectors: its packed elements and row starts in
/// fresh memory, freed with the scope. A friend of FunctionLowering.
class NestedVectorCreation {
public:
  using Result = std::optional<Address>;

  NestedVectorCreation(FunctionLowering &fl, clang::QualType type,
                       clang::SourceRange range, MemRefType flatType)
      : fl(fl), b(fl.b), module(fl.module), type(type), range(range),
        l(module.getLoc(range.getBegin())),
        rowType(ModuleLowering::getVectorElementType(type)),
        flatType(flatType) {}

  Result create(const clang::Expr *init);

private:
  using Value = mlir::Value;

  Result refuse(clang::SourceRange where) {
    module.error(where, "a vector of vectors can be created with n copies "
                        "of a row (std::vector<std::vector<T>> m(n, "
                        "std::vector<T>(k))), from a list of rows or as a "
                        "copy; its rows keep their sizes");
    return std::nullopt;
  }
  /// Fresh memory for `total` scalars and `count` + 1 row starts, freed
  /// with the scope.
  Address allocate(Value count, Value total);
  Result copyOf(Address source);
  /// {{a, b}, {c}}: each row built, then packed.
  Result fromRows(const clang::CXXConstructExpr *construct,
                  const clang::CXXStdInitializerListExpr *list);
  /// (n, row): n copies of the row.
  Result fromCopies(const clang::CXXConstructExpr *construct,
                    ArrayRef<const clang::Expr *> args);

  FunctionLowering &fl;
  OpBuilder &b;
  ModuleLowering &module;
  clang::QualType type;
  clang::SourceRange range;
  Location l;
  clang::QualType rowType;
  MemRefType flatType;
};

Address NestedVectorCreation::allocate(Value count, Value total) {
  Value flat = memref::AllocOp::create(
      b, l, MemRefType::get({ShapedType::kDynamic}, flatType.getElementType()),
      ValueRange{total});
  Value rows = memref::AllocOp::create(
      b, l, MemRefType::get({ShapedType::kDynamic}, b.getIndexType()),
      ValueRange{arith::AddIOp::create(b, l, count, fl.constantIndex(1, l))
                     .getResult()});
  Value view = memref::CastOp::create(b, l, flatType, flat);
  fl.cleanups.push_back(view);
  fl.cleanups.push_back(rows);
  return Address{view, fl.constantIndex(0, l), {}, 0, 0, rows};
}

NestedVectorCreation::Result NestedVectorCreation::copyOf(Address source) {
  Value count = fl.rowCount(source, l);
  Value total = memref::DimOp::create(b, l, source.memref, 0);
  Address fresh = allocate(count, total);
  fl.copy(fresh, source, total, l);
  Value countPlusOne =
      arith::AddIOp::create(b, l, count, fl.constantIndex(1, l));
  fl.copy(Address{fresh.rows, fl.constantIndex(0, l)},
          Address{source.rows, fl.constantIndex(0, l)}, countPlusOne, l);
  return fresh;
}

NestedVectorCreation::Result
NestedVectorCreation::fromRows(const clang::CXXConstructExpr *construct,
                               const clang::CXXStdInitializerListExpr *list) {
  const auto *rowsList =
      dyn_cast<clang::InitListExpr>(stripTemporaries(list->getSubExpr()));
  if (!rowsList)
    return refuse(construct->getSourceRange());
  SmallVector<Address> built;
  for (const clang::Expr *row : rowsList->inits()) {
    std::optional<Address> vector =
        fl.createVector(row, rowType, row->getSourceRange());
    if (!vector)
      return std::nullopt;
    built.push_back(*vector);
  }
  Value total = fl.constantIndex(0, l);
  SmallVector<Value> starts;
  for (Address row : built) {
    starts.push_back(total);
    total = arith::AddIOp::create(b, l, total,
                                  memref::DimOp::create(b, l, row.memref, 0));
  }
  Address fresh = allocate(fl.constantIndex(built.size(), l), total);
  for (auto [k, row] : llvm::enumerate(built)) {
    memref::StoreOp::create(b, l, starts[k], fresh.rows,
                            ValueRange{fl.constantIndex(k, l)});
    fl.copy(fl.offsetBy(fresh, starts[k], l), row,
            memref::DimOp::create(b, l, row.memref, 0).getResult(), l);
  }
  memref::StoreOp::create(b, l, total, fresh.rows,
                          ValueRange{fl.constantIndex(built.size(), l)});
  return fresh;
}

NestedVectorCreation::Result
NestedVectorCreation::fromCopies(const clang::CXXConstructExpr *construct,
                                 ArrayRef<const clang::Expr *> args) {
  Value n = fl.lowerRValue(args[0]);
  std::optional<Address> row =
      args[1]->isGLValue()
          ? fl.lowerLValue(args[1])
          : fl.createVector(args[1], rowType, args[1]->getSourceRange());
  if (!n || !row)
    return std::nullopt;
  Value count = fl.index(n, args[0]->getType(), l);
  Value length = fl.scalarsFrom(*row, l);
  Address fresh = allocate(count, arith::MulIOp::create(b, l, count, length));
  auto loop = scf::ForOp::create(
      b, l, fl.constantIndex(0, l),
      arith::AddIOp::create(b, l, count, fl.constantIndex(1, l)),
      fl.constantIndex(1, l));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value i = loop.getInductionVar();
    Value start = arith::MulIOp::create(b, l, i, length);
    memref::StoreOp::create(b, l, start, fresh.rows, i);
  }
  auto fill = scf::ForOp::create(b, l, fl.constantIndex(0, l), count,
                                 fl.constantIndex(1, l));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(fill.getBody()->getTerminator());
    Value start = arith::MulIOp::create(b, l, fill.getInductionVar(), length);
    fl.copy(fl.offsetBy(fresh, start, l), *row, length, l);
  }
  return fresh;
}

NestedVectorCreation::Result
NestedVectorCreation::create(const clang::Expr *init) {
  if (!init)
    return refuse(range);
  init = stripTemporaries(init);
  if (init->isGLValue()) {
    std::optional<Address> source = fl.lowerLValue(init);
    return source ? copyOf(*source) : std::nullopt;
  }
  const auto *construct = dyn_cast<clang::CXXConstructExpr>(init);
  if (!construct)
    return refuse(init->getSourceRange());
  SmallVector<const clang::Expr *> args;
  for (const clang::Expr *arg : construct->arguments())
    if (!isa<clang::CXXDefaultArgExpr>(arg))
      args.push_back(arg);
  if (construct->getConstructor()->isCopyOrMoveConstructor()) {
    std::optional<Address> source = fl.lowerLValue(args[0]);
    return source ? copyOf(*source) : std::nullopt;
  }
  if (args.size() == 1)
    if (const auto *list =
            dyn_cast<clang::CXXStdInitializerListExpr>(strip(args[0])))
      return fromRows(construct, list);
  if (args.size() != 2 || !args[0]->getType()->isIntegerType())
    return refuse(construct->getSourceRange());
  return fromCopies(construct, args);
}

std::optional<Address> FunctionLowering::createNestedVector(
    const clang::Expr *init, clang::QualType type, clang::SourceRange range) {
  MemRefType flatType = module.getVectorType(type, range, "this vector");
  if (!flatType)
    return std::nullopt;
  return NestedVectorCreation(*this, type, range, flatType).create(init);
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerNestedVectorCall(const clang::CallExpr *expr,
                                        const clang::CXXMethodDecl *method,
                                        Address nested,
                                        ArrayRef<const clang::Expr *> args) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  StringRef name = method->getIdentifier() ? method->getName() : "";
  Value count = rowCount(nested, l);
  if (method->getOverloadedOperator() == clang::OO_Subscript || name == "at") {
    Value i = lowerElementIndex(expr, args[0], name == "at" ? count : nullptr);
    if (!i)
      return std::nullopt;
    return CallResult{nullptr, rowOf(nested, i, l)};
  }
  if (name == "size") {
    Type resultType = typeOf(expr);
    if (!resultType)
      return std::nullopt;
    return CallResult{arith::IndexCastUIOp::create(b, l, resultType, count),
                      {}};
  }
  if (name == "empty")
    return CallResult{arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            count, constantIndex(0, l)),
                      {}};
  if (name == "front")
    return CallResult{nullptr, rowOf(nested, constantIndex(0, l), l)};
  if (name == "back")
    return CallResult{
        nullptr,
        rowOf(nested, arith::SubIOp::create(b, l, count, constantIndex(1, l)),
              l)};
  return unsupported<Result>(
      expr, "std::vector's '" + method->getNameAsString() +
                "' is not supported on a vector of vectors, whose rows "
                "differentiable code keeps end to end in one buffer; use "
                "[], at, size, front, back and range-for");
}

} // namespace cotangent::frontend
