//===- EigenKernels.cpp - Eigen's products and solves as matrix kernels ---===//
//
// Eigen computes every product above a few elements and every triangular
// solve of a dynamic size with four kernels on raw pointers and strides
// (general_matrix_matrix_product, general_matrix_matrix_triangular_product,
// triangular_solve_matrix, triangular_solve_vector), and its factorizations
// (LLT, LDLT, PartialPivLU, the blocked Householder QR) spend their O(n^3)
// work in them. A call of one becomes a call of the matching kernel of
// DenseKernels.cpp, whose rules are at the level of matrices; the rest of
// Eigen's code (its coefficient loops, the panels of a blocked
// factorization) is lowered from its source as before.
//
// Eigen's conventions read here (Eigen/src/Core/util/Constants.h): storage
// orders ColMajor = 0 and RowMajor = 1; sides OnTheLeft = 1 and
// OnTheRight = 2; modes Lower = 1, Upper = 2, UnitDiag = 4, ZeroDiag = 8.
// Each kernel's row-major variant only calls the column-major one with
// transposed operands, so only column-major results are taken here; the
// others are lowered from their source and reach them.
//
//===----------------------------------------------------------------------===//

#include "DenseKernels.h"
#include "FunctionLowering.h"

#include "clang/AST/DeclTemplate.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {
constexpr int64_t kRowMajor = 1, kOnTheLeft = 1, kLower = 1, kUpper = 2,
                  kUnitDiag = 4, kZeroDiag = 8;

enum class EigenKernel {
  Product,
  TriangularProduct,
  TriangularOperandProduct,
  SelfAdjointProduct,
  Solve,
  VectorSolve
};

/// Which of Eigen's kernels `callee` is (a static `run` of one of their
/// column-major specializations), with its template arguments.
std::optional<std::pair<EigenKernel, const clang::TemplateArgumentList *>>
recognizeEigenKernel(const clang::FunctionDecl *callee) {
  const auto *method = dyn_cast<clang::CXXMethodDecl>(callee);
  if (!method || !method->isStatic() || !method->getIdentifier() ||
      method->getName() != "run")
    return std::nullopt;
  const auto *spec =
      dyn_cast<clang::ClassTemplateSpecializationDecl>(method->getParent());
  if (!spec)
    return std::nullopt;
  std::string name = spec->getSpecializedTemplate()->getQualifiedNameAsString();
  const clang::TemplateArgumentList &args = spec->getTemplateArgs();
  auto integer = [&](unsigned k) -> std::optional<int64_t> {
    if (k >= args.size() ||
        args[k].getKind() != clang::TemplateArgument::Integral)
      return std::nullopt;
    return args[k].getAsIntegral().getExtValue();
  };
  auto columnMajor = [&](unsigned k) { return integer(k) == 0; };
  std::optional<EigenKernel> kind;
  if (name == "Eigen::internal::general_matrix_matrix_product" &&
      columnMajor(7))
    kind = EigenKernel::Product;
  else if (name ==
               "Eigen::internal::general_matrix_matrix_triangular_product" &&
           columnMajor(7) && (integer(9) == kLower || integer(9) == kUpper))
    kind = EigenKernel::TriangularProduct;
  else if (name == "Eigen::internal::product_triangular_matrix_matrix" &&
           columnMajor(8))
    kind = EigenKernel::TriangularOperandProduct;
  else if (name == "Eigen::internal::product_selfadjoint_matrix" &&
           columnMajor(8))
    kind = EigenKernel::SelfAdjointProduct;
  else if (name == "Eigen::internal::triangular_solve_matrix" && columnMajor(6))
    kind = EigenKernel::Solve;
  else if (name == "Eigen::internal::triangular_solve_vector" &&
           integer(3) == kOnTheLeft)
    kind = EigenKernel::VectorSolve;
  if (!kind)
    return std::nullopt;
  return std::make_pair(*kind, &args);
}

/// The kernel's floating-point type for the scalars of the template
/// argument `k`, if both `k` and `other` are that type.
FloatType scalarOf(const clang::TemplateArgumentList &args, unsigned k,
                   unsigned other, MLIRContext *context) {
  if (args[k].getKind() != clang::TemplateArgument::Type ||
      args[other].getKind() != clang::TemplateArgument::Type)
    return nullptr;
  clang::QualType type = args[k].getAsType().getCanonicalType();
  if (type != args[other].getAsType().getCanonicalType())
    return nullptr;
  if (type->isSpecificBuiltinType(clang::BuiltinType::Double))
    return Float64Type::get(context);
  if (type->isSpecificBuiltinType(clang::BuiltinType::Float))
    return Float32Type::get(context);
  return nullptr;
}
} // namespace

std::optional<DenseMatrix>
FunctionLowering::lowerKernelMatrix(const clang::CallExpr *call,
                                    unsigned pointer, Value rowStride,
                                    Value colStride, FloatType element) {
  const clang::Expr *arg = call->getArg(pointer);
  std::optional<Address> address = lowerPointer(arg);
  if (!address)
    return std::nullopt;
  auto type = dyn_cast<MemRefType>(address->memref.getType());
  if (address->packedType || !type || type.getElementType() != element ||
      type.getRank() != 1)
    return unsupported<std::optional<DenseMatrix>>(
        arg, "this matrix's memory does not hold its scalars as an array "
             "of them; the matrix product or solve cannot be "
             "differentiated");
  Value data = address->memref;
  if (type != getPointerType(element))
    data = memref::CastOp::create(b, loc(arg), getPointerType(element), data);
  return DenseMatrix{data, address->offset, rowStride, colStride};
}

Value FunctionLowering::lowerIndexArgument(const clang::CallExpr *call,
                                           unsigned k) {
  const clang::Expr *arg = call->getArg(k);
  Value value = lowerRValue(arg);
  return value ? index(value, arg->getType(), loc(arg)) : nullptr;
}

/// The strides of a matrix of `order` (ColMajor or RowMajor) whose outer
/// stride is `stride`: rows, then columns.
static std::pair<Value, Value> stridesFor(OpBuilder &b, Location l,
                                          int64_t order, Value stride) {
  Value one = arith::ConstantIndexOp::create(b, l, 1);
  if (order == kRowMajor)
    return {stride, one};
  return {one, stride};
}

static int64_t integerArgument(const clang::TemplateArgumentList &targs,
                               unsigned k) {
  return targs[k].getAsIntegral().getExtValue();
}

bool FunctionLowering::lowerEigenKernelCall(const clang::CallExpr *call,
                                            const clang::FunctionDecl *callee,
                                            std::optional<CallResult> &result) {
  auto recognized = recognizeEigenKernel(callee);
  if (!recognized)
    return false;
  auto [kind, targs] = *recognized;
  MLIRContext *context = b.getContext();
  std::optional<EigenProduct> form;
  FloatType element;
  switch (kind) {
  case EigenKernel::Product:
  case EigenKernel::TriangularProduct:
    form = kind == EigenKernel::Product ? EigenProduct::General
                                        : EigenProduct::TriangleOfResult;
    element = scalarOf(*targs, 1, 4, context);
    break;
  case EigenKernel::TriangularOperandProduct:
  case EigenKernel::SelfAdjointProduct:
    form = kind == EigenKernel::SelfAdjointProduct ? EigenProduct::SelfAdjoint
                                                   : EigenProduct::Triangular;
    element = scalarOf(*targs, 0, 0, context);
    break;
  case EigenKernel::Solve:
    element = scalarOf(*targs, 0, 0, context);
    break;
  case EigenKernel::VectorSolve:
    element = scalarOf(*targs, 0, 1, context);
    break;
  }
  if (!element ||
      (!form && (integerArgument(*targs, kind == EigenKernel::Solve ? 3 : 4) &
                 kZeroDiag)))
    return false;
  result = form ? lowerEigenProduct(call, *targs, element, *form)
                : lowerEigenSolve(call, *targs, element,
                                  kind == EigenKernel::VectorSolve);
  return true;
}

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerEigenSolve(const clang::CallExpr *call,
                                  const clang::TemplateArgumentList &targs,
                                  FloatType element, bool vector) {
  // triangular_solve_matrix::run(size, otherSize, tri, triStride, other,
  // otherIncr, otherStride, ...); triangular_solve_vector::run(size, lhs,
  // lhsStride, rhs) on the left.
  Location l = loc(call);
  int64_t mode = integerArgument(targs, vector ? 4 : 3);
  bool onTheLeft = vector || integerArgument(targs, 2) == kOnTheLeft;
  Value one = arith::ConstantIndexOp::create(b, l, 1);
  Value size = lowerIndexArgument(call, 0);
  Value cols = vector ? one : lowerIndexArgument(call, 1);
  Value triStride = lowerIndexArgument(call, vector ? 2 : 3);
  if (!size || !cols || !triStride)
    return std::nullopt;
  auto [triRows, triCols] =
      stridesFor(b, l, integerArgument(targs, vector ? 6 : 5), triStride);
  std::optional<DenseMatrix> tri =
      lowerKernelMatrix(call, vector ? 1 : 2, triRows, triCols, element);
  Value otherIncr = vector ? one : lowerIndexArgument(call, 5);
  Value otherStride = vector ? size : lowerIndexArgument(call, 6);
  if (!tri || !otherIncr || !otherStride)
    return std::nullopt;
  std::optional<DenseMatrix> other =
      lowerKernelMatrix(call, vector ? 3 : 4, otherIncr, otherStride, element);
  if (!other)
    return std::nullopt;
  bool lower = mode & kLower;
  // X T = B on the right is T^T X^T = B^T on the left.
  if (!onTheLeft) {
    tri = tri->transposed();
    other = other->transposed();
    lower = !lower;
  }
  func::FuncOp kernel = getDenseTriangularSolve(module.getModule(), element,
                                                lower, mode & kUnitDiag, l);
  func::CallOp::create(b, l, kernel,
                       ValueRange{tri->data, tri->offset, tri->rowStride,
                                  tri->colStride, other->data, other->offset,
                                  other->rowStride, other->colStride, size,
                                  cols});
  return CallResult{};
}

namespace {
/// Where the arguments of a product kernel's `run` lie: how many sizes lead
/// them, and which template arguments give the operands' storage orders and
/// the scalar type.
struct ProductArguments {
  unsigned sizes, lhsOrder, rhsOrder, scalar;
};

ProductArguments productArguments(EigenProduct form) {
  using Form = EigenProduct;
  switch (form) {
  case Form::General: // run(rows, cols, depth, ...)
    return {3, 2, 5, 1};
  case Form::TriangleOfResult: // run(size, depth, ...)
    return {2, 2, 5, 1};
  case Form::Triangular: // run(rows, cols, depth, ...)
    return {3, 4, 6, 0};
  case Form::SelfAdjoint: // run(rows, cols, ...)
    return {2, 2, 5, 0};
  }
  llvm_unreachable("every product is handled");
}

/// The entries of a triangular view of `mode` that are read.
Triangle readTriangle(int64_t mode) {
  bool strict = mode & (kUnitDiag | kZeroDiag);
  if (mode & kLower)
    return strict ? Triangle::StrictLower : Triangle::Lower;
  return strict ? Triangle::StrictUpper : Triangle::Upper;
}
} // namespace

std::optional<FunctionLowering::CallResult>
FunctionLowering::lowerEigenProduct(const clang::CallExpr *call,
                                    const clang::TemplateArgumentList &targs,
                                    FloatType element, EigenProduct form) {
  // run(sizes..., lhs, lhsStride, rhs, rhsStride, res, resIncr, resStride,
  //     alpha, ...); the product into a triangle has its triangle as
  // template argument 9.
  Location l = loc(call);
  ProductArguments where = productArguments(form);
  SmallVector<Value> sizes;
  for (unsigned k = 0; k < where.sizes; ++k)
    if (!sizes.emplace_back(lowerIndexArgument(call, k)))
      return std::nullopt;
  // A structured operand is on the left if template argument 3 says so.
  bool structuredOnLeft =
      (form == EigenProduct::Triangular || form == EigenProduct::SelfAdjoint) &&
      integerArgument(targs, 3) != 0;
  Value rows = sizes[0], cols = sizes[1], depth = sizes.back();
  if (form == EigenProduct::TriangleOfResult)
    cols = rows;
  if (form == EigenProduct::SelfAdjoint)
    depth = structuredOnLeft ? rows : cols;
  // The matrix whose pointer is argument `pointer`, followed by its outer
  // stride (and, for the result, inner stride first).
  auto matrixAt =
      [&](unsigned pointer,
          std::optional<unsigned> order) -> std::optional<DenseMatrix> {
    Value rowStride, colStride;
    if (order) {
      Value stride = lowerIndexArgument(call, pointer + 1);
      if (!stride)
        return std::nullopt;
      std::tie(rowStride, colStride) =
          stridesFor(b, l, integerArgument(targs, *order), stride);
    } else {
      rowStride = lowerIndexArgument(call, pointer + 1);
      colStride = lowerIndexArgument(call, pointer + 2);
      if (!rowStride || !colStride)
        return std::nullopt;
    }
    return lowerKernelMatrix(call, pointer, rowStride, colStride, element);
  };
  unsigned lhsAt = where.sizes;
  std::optional<DenseMatrix> lhs = matrixAt(lhsAt, where.lhsOrder);
  std::optional<DenseMatrix> rhs =
      lhs ? matrixAt(lhsAt + 2, where.rhsOrder) : std::nullopt;
  std::optional<DenseMatrix> result =
      rhs ? matrixAt(lhsAt + 4, std::nullopt) : std::nullopt;
  Value alpha = result ? lowerRValue(call->getArg(lhsAt + 7)) : nullptr;
  if (!alpha)
    return std::nullopt;
  if (alpha.getType() != element)
    alpha = convert(alpha, call->getArg(lhsAt + 7)->getType(),
                    targs[where.scalar].getAsType(), l);
  // A triangular or self-adjoint operand: the general product of a dense
  // copy of the matrix it stands for (the copy is differentiated element by
  // element, the product by its rule).
  Value copy;
  if (form == EigenProduct::Triangular) {
    int64_t mode = integerArgument(targs, 2);
    DenseMatrix &m = structuredOnLeft ? *lhs : *rhs;
    m = buildTriangleCopy(b, l, m, structuredOnLeft ? rows : depth,
                          structuredOnLeft ? depth : cols, readTriangle(mode),
                          mode & kUnitDiag);
    copy = m.data;
  } else if (form == EigenProduct::SelfAdjoint) {
    DenseMatrix &m = structuredOnLeft ? *lhs : *rhs;
    m = buildSymmetricCopy(b, l, m, depth);
    copy = m.data;
  }
  SmallVector<Value> operands;
  for (const DenseMatrix &m : {*lhs, *rhs, *result})
    operands.append({m.data, m.offset, m.rowStride, m.colStride});
  operands.append({rows, cols, depth, alpha});
  Triangle region = Triangle::All;
  if (form == EigenProduct::TriangleOfResult)
    region =
        integerArgument(targs, 9) == kLower ? Triangle::Lower : Triangle::Upper;
  func::CallOp::create(
      b, l, getDenseProduct(module.getModule(), element, region, l), operands);
  if (copy)
    memref::DeallocOp::create(b, l, copy);
  return CallResult{};
}

} // namespace cotangent::frontend
