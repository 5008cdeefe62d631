//===- GrownVectorFields.cpp - Vector fields a function grows -------------===//

#include "GrownVectorFields.h"
#include "FunctionLowering.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "clang/AST/RecordLayout.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {

/// Where a store of an address of grown memory writes: the argument its
/// holder is (through casts and constant subviews) and the byte there.
struct StoredAt {
  unsigned param;
  int64_t byte;
};

/// `value`'s constant, also where the body is not folded yet (offsets of
/// fields of fields are sums).
std::optional<int64_t> constantOf(Value value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return constant;
  Operation *op = value.getDefiningOp();
  if (!op || op->getNumOperands() != 2 ||
      !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op))
    return std::nullopt;
  std::optional<int64_t> x = constantOf(op->getOperand(0));
  std::optional<int64_t> y = x ? constantOf(op->getOperand(1)) : std::nullopt;
  if (!y)
    return std::nullopt;
  if (isa<arith::AddIOp>(op))
    return *x + *y;
  return isa<arith::SubIOp>(op) ? *x - *y : *x * *y;
}

std::optional<StoredAt> storedAt(ct::StoreAddressOp store,
                                 func::FuncOp function) {
  auto holderType = cast<MemRefType>(store.getHolder().getType());
  Type element = holderType.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  std::optional<int64_t> index = constantOf(store.getIndex());
  if (!index)
    return std::nullopt;
  int64_t elements = *index;
  Value holder = store.getHolder();
  while (!isa<BlockArgument>(holder)) {
    if (auto cast = holder.getDefiningOp<memref::CastOp>()) {
      holder = cast.getSource();
    } else if (auto view = holder.getDefiningOp<memref::SubViewOp>();
               view && view.getStaticOffsets().size() == 1 &&
               !ShapedType::isDynamic(view.getStaticOffsets()[0]) &&
               view.getSourceType().getElementType() == element) {
      elements += view.getStaticOffsets()[0];
      holder = view.getSource();
    } else {
      return std::nullopt;
    }
  }
  auto argument = cast<BlockArgument>(holder);
  if (argument.getOwner() != &function.getBody().front())
    return std::nullopt;
  return StoredAt{argument.getArgNumber(),
                  elements * element.getIntOrFloatBitWidth() / 8};
}

/// The memory an address stored is a view of, if an allocation.
memref::AllocOp allocationOf(Value address) {
  return memoryRoot(address).getDefiningOp<memref::AllocOp>();
}

/// Each store into the caller's object of an address of memory `function`
/// allocates to grow the caller's vectors.
void forEachGrowingStore(func::FuncOp function,
                         function_ref<void(ct::StoreAddressOp, StoredAt)> fn) {
  function.walk([&](ct::StoreAddressOp store) {
    memref::AllocOp made = allocationOf(store.getView());
    if (!made || !made->hasAttr(ct::kGrowsCallerMemoryAttr))
      return;
    if (std::optional<StoredAt> at = storedAt(store, function))
      fn(store, *at);
  });
}

/// The std::vector field of `object` whose three addresses include the
/// byte `byte` (fields of struct fields too), with its offset and name.
std::optional<GrownVectorField> vectorFieldAt(clang::QualType object,
                                              int64_t byte,
                                              const std::string &name,
                                              const clang::ASTContext &ast) {
  const auto *record = object->getAsRecordDecl();
  if (!record || !record->getDefinition() || object->isUnionType())
    return std::nullopt;
  const clang::ASTRecordLayout &layout = ast.getASTRecordLayout(record);
  for (const clang::FieldDecl *field : record->fields()) {
    int64_t start = layout.getFieldOffset(field->getFieldIndex()) / 8;
    int64_t size = ast.getTypeSizeInChars(field->getType()).getQuantity();
    if (byte < start || byte >= start + size)
      continue;
    clang::QualType type = field->getType().getCanonicalType();
    std::string named = name + "." + field->getNameAsString();
    // (A vector of vectors, or of objects owning memory, keeps its growth
    // refused: the seeds of its final contents would be vectors too.)
    if (!ModuleLowering::getVectorElementType(type).isNull())
      return ModuleLowering::isVectorObject(type)
                 ? std::nullopt
                 : std::optional(GrownVectorField{0, start, type, named});
    std::optional<GrownVectorField> inner =
        vectorFieldAt(type, byte - start, named, ast);
    if (inner)
      inner->offset += start;
    return inner;
  }
  return std::nullopt;
}

/// Whether the store at `at` writes one of the three addresses of one of
/// `fields` (a std::vector is those 24 bytes in libstdc++ and libc++ alike,
/// as getVectorPointerOffsets assumes).
bool isTaken(ArrayRef<GrownVectorField> fields, StoredAt at) {
  return llvm::any_of(fields, [&](const GrownVectorField &field) {
    return field.param == at.param && at.byte >= field.offset &&
           at.byte < field.offset + 24;
  });
}

} // namespace

SmallVector<GrownVectorField>
findGrownVectorFields(func::FuncOp function, ArrayRef<clang::QualType> objects,
                      ArrayRef<std::string> parameterNames,
                      const clang::ASTContext &ast) {
  SmallVector<GrownVectorField> fields;
  forEachGrowingStore(function, [&](ct::StoreAddressOp, StoredAt at) {
    if (at.param >= objects.size() || objects[at.param].isNull() ||
        isTaken(fields, at))
      return;
    std::optional<GrownVectorField> field = vectorFieldAt(
        objects[at.param], at.byte, parameterNames[at.param], ast);
    if (!field)
      return;
    field->param = at.param;
    fields.push_back(*field);
  });
  return fields;
}

func::FuncOp copyWithSeedsTaken(func::FuncOp function,
                                ArrayRef<GrownVectorField> fields,
                                StringRef name) {
  OpBuilder b(function.getContext());
  b.setInsertionPointAfter(function);
  auto copy = cast<func::FuncOp>(b.clone(*function));
  copy.setSymName(name);
  copy.setPrivate();
  copy->removeAttr(ct::kExportAttr);
  // (Collected first: an allocation's three addresses are three stores.)
  SmallVector<ct::StoreAddressOp> taken;
  forEachGrowingStore(copy, [&](ct::StoreAddressOp store, StoredAt at) {
    if (isTaken(fields, at))
      taken.push_back(store);
  });
  for (ct::StoreAddressOp store : taken) {
    store->setAttr(ct::kFinalSeedsTakenAttr, b.getUnitAttr());
    allocationOf(store.getView())->removeAttr(ct::kGrowsCallerMemoryAttr);
  }
  return copy;
}

} // namespace cotangent::frontend
