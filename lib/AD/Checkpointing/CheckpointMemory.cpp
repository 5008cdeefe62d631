//===- CheckpointMemory.cpp - Copies of the memory a checkpoint keeps -----===//

#include "Checkpointing/CheckpointMemory.h"
#include "cotangent/AD/Analysis/Activity.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

std::string ad::describeMemory(Value memory) {
  // (Through views: a parameter's memory is often passed as a cast.)
  Value root = getMemoryRoot(memory);
  if (auto arg = dyn_cast<BlockArgument>(root)) {
    auto function = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (function && arg.getOwner()->isEntryBlock())
      if (auto names = function->getAttrOfType<ArrayAttr>("ct.param_names"))
        if (arg.getArgNumber() < names.size())
          if (auto name = dyn_cast<StringAttr>(names[arg.getArgNumber()]))
            return ("'" + name.getValue() + "'").str();
  }
  return "a buffer";
}

std::string ad::describeFunction(func::FuncOp function) {
  if (auto name = function->getAttrOfType<StringAttr>("ct.source_name"))
    return name.getValue().str();
  return function.getSymName().str();
}

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

FailureOr<KeptElements> ad::buildKeptElements(
    OpBuilder &b, Location loc, func::FuncOp function, unsigned argument,
    Value root, Value rootNow, const IRMapping &known,
    ArrayRef<std::pair<Value, Interval>> ranges, Operation *at,
    StringRef problem, StringRef undo, StringRef verb) {
  auto type = cast<MemRefType>(root.getType());
  Value zero = indexConstant(b, loc, 0);
  if (type.hasStaticShape()) {
    if (!flatten(b, loc, rootNow)) {
      at->emitError(problem) << ": " << describeMemory(root)
                             << " has a layout whose elements it cannot copy";
      return failure();
    }
    return KeptElements{zero, indexConstant(b, loc, type.getNumElements())};
  }
  if (type.getRank() != 1 || !(type.getLayout().isIdentity() ||
                               isa<StridedLayoutAttr>(type.getLayout()))) {
    at->emitError(problem) << ": " << describeMemory(root)
                           << " has a shape whose elements it cannot copy";
    return failure();
  }
  // The size the view carries, unless it is a C pointer's (unknown): then
  // the elements the code touches. Identity layouts have no offset to shift
  // a copy by (and are never a C pointer's): whole buffers.
  Value dim = memref::DimOp::create(b, loc, rootNow, 0);
  if (type.getLayout().isIdentity())
    return KeptElements{zero, dim};
  // (A function without a body, bound to a rule, tells nothing.)
  std::optional<Interval> range =
      function.isExternal()
          ? std::nullopt
          : buildAccessRange(b, loc, function, argument, known, ranges);
  // Only a parameter's memory (or a view of it) may be a C pointer's.
  Value viewed = root;
  while (Operation *def = viewed.getDefiningOp()) {
    if (!isa<memref::SubViewOp, memref::CastOp, memref::ReinterpretCastOp>(def))
      break;
    viewed = def->getOperand(0);
  }
  bool mayBeUnbounded =
      isa<BlockArgument>(viewed) || viewed.getDefiningOp<ct::PointerViewOp>();
  if (!range) {
    if (!mayBeUnbounded)
      return KeptElements{zero, dim};
    InFlightDiagnostic error = at->emitError(problem);
    error << ": cannot tell which elements of " << describeMemory(root)
          << " it " << verb;
    if (function.isExternal()) {
      error << " (its body is compiled elsewhere); " << undo;
      return failure();
    }
    error << " (an index is not computed from loop counters, sizes and "
             "constants); "
          << undo << ", or index the memory with counters and sizes";
    return failure();
  }
  // A view of a C pointer's memory is a little shorter than the unknown
  // extent: anything beyond half of it is one.
  Value unknown = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::sge, dim,
      indexConstant(b, loc, ct::PointerViewOp::kUnknownExtent / 2));
  Value span = arith::MaxSIOp::create(
      b, loc, zero,
      arith::AddIOp::create(b, loc,
                            arith::SubIOp::create(b, loc, range->hi, range->lo),
                            indexConstant(b, loc, 1)));
  // A range from 0 (the common case) starts at 0 for any extent.
  Value first = getConstantIntValue(range->lo) == 0
                    ? zero
                    : arith::SelectOp::create(b, loc, unknown, range->lo, zero)
                          .getResult();
  return KeptElements{first,
                      arith::SelectOp::create(b, loc, unknown, span, dim)};
}

WorkingCopy ad::buildWorkingCopy(OpBuilder &b, Location loc, Value rootNow,
                                 KeptElements kept) {
  auto type = cast<MemRefType>(rootNow.getType());
  Type element = type.getElementType();
  if (type.hasStaticShape()) {
    auto plain = MemRefType::get(type.getShape(), element);
    Value copy = memref::AllocOp::create(b, loc, plain);
    Value view = plain == type
                     ? copy
                     : memref::CastOp::create(b, loc, type, copy).getResult();
    return {flatten(b, loc, copy), view};
  }
  Value flat = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, element),
      ValueRange{kept.count});
  if (type.getLayout().isIdentity())
    return {flat, flat};
  // Element i of the view is element i - first of the copy; its size is
  // the original's (a C pointer's view keeps its unknown extent).
  Value offset =
      arith::SubIOp::create(b, loc, indexConstant(b, loc, 0), kept.first);
  Value dim = memref::DimOp::create(b, loc, rootNow, 0);
  Value view = memref::ReinterpretCastOp::create(
      b, loc, type, flat, OpFoldResult(offset), ArrayRef<OpFoldResult>{dim},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  return {flat, view};
}

Value ad::flatten(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() == 1)
    return memref;
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return nullptr;
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < type.getRank(); ++d)
    all[0].push_back(d);
  return memref::CollapseShapeOp::create(b, loc, memref, all);
}

void ad::copyElements(OpBuilder &b, Location loc, Value from, Value fromStart,
                      Value to, Value toStart, Value count) {
  auto loop = scf::ForOp::create(b, loc, indexConstant(b, loc, 0), count,
                                 indexConstant(b, loc, 1));
  OpBuilder inner = OpBuilder::atBlockBegin(loop.getBody());
  Value i = loop.getInductionVar();
  Value v = memref::LoadOp::create(
      inner, loc, from,
      ValueRange{arith::AddIOp::create(inner, loc, fromStart, i)});
  memref::StoreOp::create(
      inner, loc, v, to,
      ValueRange{arith::AddIOp::create(inner, loc, toStart, i)});
}
