//===- VirtualCalls.cpp - Classes with virtual functions ------------------===//
//
// An object of a class with virtual functions holds, as C++ lays it out,
// the address of a point in its class's virtual table (one per dynamic
// subobject that does not share its base's). To the memory model that
// pointer is an integer part of the object (ModuleLowering's layout): a
// constructor stores its class's address points after its bases are
// constructed, as C++ does, and a virtual call reads the one of the
// object's static class and compares it with the address points of every
// class of the translation unit that derives from it, calling that class's
// final overrider. The tables are the C++ compiler's (ct.vtable_address),
// so objects made by code compiled as written (a caller's, passed by
// reference) and objects made by differentiated code dispatch alike. The
// dispatch is a function of its own per virtual function: a chain of
// comparisons and direct calls, which the engine differentiates like any
// branch; an object of a class the unit does not define ends the program
// with a message rather than calling the wrong function.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "clang/AST/CXXInheritance.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/VTableBuilder.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;

namespace cotangent::frontend {

namespace {
/// The classes of the unit whose objects can exist: complete definitions
/// (template instantiations included) with virtual functions, not
/// abstract, outside system headers.
struct ConcreteDynamicClasses : clang::DynamicRecursiveASTVisitor {
  ConcreteDynamicClasses() { ShouldVisitTemplateInstantiations = true; }
  // (A library's classes are kept as compiled, never lowered: not among
  // them.)
  bool TraverseDecl(clang::Decl *decl) override {
    if (decl && !isa<clang::TranslationUnitDecl>(decl) &&
        decl->getASTContext().getSourceManager().isInSystemHeader(
            decl->getLocation()))
      return true;
    return clang::DynamicRecursiveASTVisitor::TraverseDecl(decl);
  }
  bool VisitCXXRecordDecl(clang::CXXRecordDecl *record) override {
    if (record->isThisDeclarationADefinition() && !record->isDependentType() &&
        record->isPolymorphic() && !record->isAbstract() &&
        !record->getNumVBases() &&
        !isa<clang::ClassTemplatePartialSpecializationDecl>(record))
      found.push_back(record);
    return true;
  }
  SmallVector<const clang::CXXRecordDecl *> found;
};
} // namespace

std::optional<int64_t>
ModuleLowering::getBaseByteOffset(const clang::CXXRecordDecl *derived,
                                  const clang::CXXRecordDecl *base) {
  if (derived->getCanonicalDecl() == base->getCanonicalDecl())
    return 0;
  clang::CXXBasePaths paths(/*FindAmbiguities=*/true, /*RecordPaths=*/true,
                            /*DetectVirtual=*/false);
  if (!derived->isDerivedFrom(base, paths) ||
      paths.isAmbiguous(ast.getCanonicalTagType(base)))
    return std::nullopt;
  int64_t offset = 0;
  for (const clang::CXXBasePathElement &step : paths.front()) {
    if (step.Base->isVirtual())
      return std::nullopt;
    offset +=
        ast.getASTRecordLayout(step.Class)
            .getBaseClassOffset(step.Base->getType()->getAsCXXRecordDecl())
            .getQuantity();
  }
  return offset;
}

Value ModuleLowering::buildVTableAddress(OpBuilder &builder, Location l,
                                         const clang::CXXRecordDecl *record,
                                         const clang::CXXRecordDecl *base,
                                         int64_t baseOffset) {
  auto &tables = cast<clang::ItaniumVTableContext>(*ast.getVTableContext());
  const clang::VTableLayout &layout = tables.getVTableLayout(record);
  clang::BaseSubobject subobject(base,
                                 clang::CharUnits::fromQuantity(baseOffset));
  if (!layout.getAddressPoints().count(subobject))
    return nullptr;
  clang::VTableLayout::AddressPointLocation point =
      layout.getAddressPoint(subobject);
  int64_t pointerBytes = ast.getTargetInfo().getPointerWidth({}) / 8;
  int64_t bytes =
      (layout.getVTableOffset(point.VTableIndex) + point.AddressPointIndex) *
      pointerBytes;
  std::string symbol;
  llvm::raw_string_ostream stream(symbol);
  cast<clang::ItaniumMangleContext>(*mangler).mangleCXXVTable(record, stream);
  auto address = ct::VTableAddressOp::create(builder, l, symbol, bytes);
  // (Only code in the same object file can reach the table of a class in
  // an unnamed namespace.)
  if (!record->isExternallyVisible()) {
    address->setAttr(ct::kInternalLinkageAttr, builder.getUnitAttr());
    address->setAttr("ct.source_name",
                     builder.getStringAttr(record->getQualifiedNameAsString()));
  }
  return address;
}

ArrayRef<const clang::CXXRecordDecl *>
ModuleLowering::getConcreteDynamicClasses() {
  if (!concreteDynamicClasses) {
    ConcreteDynamicClasses visitor;
    visitor.TraverseDecl(ast.getTranslationUnitDecl());
    concreteDynamicClasses = std::move(visitor.found);
  }
  return *concreteDynamicClasses;
}

/// One class a virtual call may find: where its table's address point for
/// the call's subobject is, and what to call with which `this`.
struct DispatchTarget {
  const clang::CXXRecordDecl *record;
  int64_t staticOffset;    // bytes from the object's start to the subobject
  int64_t overriderOffset; // ... to the overrider's class
  const clang::CXXMethodDecl *overrider;
  func::FuncOp function;
};

namespace {
/// Loads the 8 bytes at the start of `object` as an integer.
Value loadTablePointer(OpBuilder &b, Location l, Value object) {
  Type scalar = cast<MemRefType>(object.getType()).getElementType();
  Value zero = arith::ConstantIndexOp::create(b, l, 0);
  Type i64 = b.getI64Type();
  if (scalar.getIntOrFloatBitWidth() == 64) {
    Value slot = memref::LoadOp::create(b, l, object, zero);
    return scalar == i64 ? slot : arith::BitcastOp::create(b, l, i64, slot);
  }
  Value view =
      ct::RetypeViewOp::create(b, l, getPointerType(i64), object, zero);
  return memref::LoadOp::create(b, l, view, zero);
}

/// `object` (a view of the static class's subobject) as a view of the
/// overrider's class, `bytes` further on; null where the model cannot say
/// it (not on a slot boundary). The overrider's class may begin before the
/// subobject (a second base's call reaching the derived class's function):
/// the view then starts before the object's, in the same object.
Value adjustObject(OpBuilder &b, Location l, Value object, int64_t bytes,
                   Type scalar) {
  auto source = cast<MemRefType>(object.getType());
  int64_t slotBytes = source.getElementTypeBitWidth() / 8;
  if (bytes % slotBytes != 0)
    return nullptr;
  Value index = arith::ConstantIndexOp::create(b, l, bytes / slotBytes);
  // (A view from before the object's start is one of its bytes: memref
  // views cannot start before their source.)
  if (source.getElementType() != scalar || bytes < 0)
    return ct::RetypeViewOp::create(b, l, getPointerType(scalar), object,
                                    index);
  if (bytes == 0)
    return object;
  Value size = arith::SubIOp::create(
      b, l, memref::DimOp::create(b, l, object, 0).getResult(), index);
  Value view = memref::SubViewOp::create(
      b, l, object, ArrayRef<OpFoldResult>{index}, ArrayRef<OpFoldResult>{size},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  return memref::CastOp::create(b, l, getPointerType(scalar), view);
}
} // namespace

scf::IfOp buildChoice(OpBuilder &b, Location l, TypeRange results,
                      Value condition) {
  auto choice = scf::IfOp::create(b, l, results, condition,
                                  /*withElseRegion=*/true);
  // (Without results, the branches come with their yields.)
  for (Region &branch : choice->getRegions())
    if (!branch.front().empty())
      branch.front().back().erase();
  return choice;
}

SmallVector<Value> buildAbort(OpBuilder &b, Location l, StringRef message,
                              TypeRange results) {
  ct::AbortOp::create(b, l, message);
  SmallVector<Value> poison;
  for (Type type : results)
    poison.push_back(ub::PoisonOp::create(b, l, type));
  return poison;
}

/// The classes a virtual call of `method` may find, with their overriders'
/// functions declared; an error (and false) where one cannot be called.
static bool collectTargets(ModuleLowering &module,
                           const clang::CXXMethodDecl *method,
                           clang::SourceRange where,
                           SmallVectorImpl<DispatchTarget> &targets,
                           bool declare = true) {
  const clang::CXXRecordDecl *base = method->getParent();
  for (const clang::CXXRecordDecl *record :
       module.getConcreteDynamicClasses()) {
    if (record != base && !record->isDerivedFrom(base))
      continue;
    std::optional<int64_t> offset = module.getBaseByteOffset(record, base);
    const clang::CXXMethodDecl *overrider =
        method->getCorrespondingMethodInClass(record, /*MayBeBase=*/true);
    if (!offset || !overrider || overrider->isPureVirtual())
      continue;
    std::optional<int64_t> overriderOffset =
        module.getBaseByteOffset(record, overrider->getParent());
    if (!overriderOffset) {
      module.error(where, "this virtual call may reach '" +
                              overrider->getQualifiedNameAsString() +
                              "', whose class is an ambiguous base of '" +
                              record->getQualifiedNameAsString() +
                              "', which differentiable code does not "
                              "dispatch; call the concrete class's function");
      return false;
    }
    func::FuncOp function;
    if (declare) {
      module.enter(overrider, where.getBegin());
      function = module.getFunction(overrider);
      module.leave();
      if (!function)
        return false;
    }
    targets.push_back({record, *offset, *overriderOffset, overrider, function});
  }
  if (targets.empty())
    module.error(where, "no class of this file that derives from '" +
                            base->getQualifiedNameAsString() +
                            "' defines this virtual call's target, so it "
                            "cannot be differentiated; define the class "
                            "of the object in this file");
  return !targets.empty();
}

func::FuncOp
ModuleLowering::getVirtualDispatch(const clang::CXXMethodDecl *method,
                                   clang::SourceRange where) {
  method = method->getCanonicalDecl();
  if (auto known = virtualDispatches.lookup(method))
    return known;
  SmallVector<DispatchTarget> targets;
  if (!collectTargets(*this, method, where, targets))
    return nullptr;
  const clang::CXXRecordDecl *base = method->getParent();
  std::optional<Layout> baseLayout =
      getLayout(ast.getCanonicalTagType(base), where, "the object");
  if (!baseLayout)
    return nullptr;
  // The overriders' signatures but for `this`: the same parameters, since
  // they override one function (a covariant result, or more memory for
  // the fields of a derived object, would differ).
  FunctionType type = targets.front().function.getFunctionType();
  SmallVector<Type> inputs(type.getInputs());
  inputs.front() = getPointerType(baseLayout->scalar);
  for (DispatchTarget target : targets) {
    FunctionType other = target.function.getFunctionType();
    if (other.getResults() != type.getResults() ||
        other.getNumInputs() != inputs.size() ||
        other.getInputs().drop_front() != ArrayRef(inputs).drop_front()) {
      error(where, "the overriders of '" + method->getQualifiedNameAsString() +
                       "' differ in what they take or return (a covariant "
                       "result, or a class whose pointer fields are known "
                       "beside it), so differentiable code cannot dispatch "
                       "this virtual call yet; call the concrete class's "
                       "function");
      return nullptr;
    }
  }
  Location l = getLoc(method->getLocation());
  OpBuilder b(getContext());
  b.setInsertionPointToEnd(module.getBody());
  auto dispatch =
      func::FuncOp::create(b, l, mangle(method) + ".virtual",
                           b.getFunctionType(inputs, type.getResults()));
  dispatch.setPrivate();
  dispatch->setAttr("ct.source_name",
                    b.getStringAttr(method->getQualifiedNameAsString()));
  if (ArrayAttr names =
          targets.front().function->getAttrOfType<ArrayAttr>("ct.param_names"))
    dispatch->setAttr("ct.param_names", names);
  func::FuncOp first = targets.front().function;
  for (unsigned i = 1; i < inputs.size(); ++i)
    if (DictionaryAttr attrs = first.getArgAttrDict(i))
      dispatch.setArgAttrs(i, attrs);
  virtualDispatches[method] = dispatch;
  b.setInsertionPointToStart(dispatch.addEntryBlock());
  buildDispatch(b, l, dispatch, method, targets);
  return dispatch;
}

void ModuleLowering::buildDispatch(OpBuilder &b, Location l,
                                   func::FuncOp dispatch,
                                   const clang::CXXMethodDecl *method,
                                   ArrayRef<DispatchTarget> targets) {
  Value object = dispatch.getArgument(0);
  ValueRange rest = dispatch.getArguments().drop_front();
  TypeRange results = dispatch.getFunctionType().getResults();
  Value tablePointer = loadTablePointer(b, l, object);
  // if (table == D0's) D0::f(...) else if (table == D1's) ... else abort.
  std::function<SmallVector<Value>(ArrayRef<DispatchTarget>)> choose =
      [&](ArrayRef<DispatchTarget> left) -> SmallVector<Value> {
    if (left.empty())
      return buildAbort(b, l,
                        "a virtual call of '" +
                            method->getQualifiedNameAsString() +
                            "' in differentiated code found an object of a "
                            "class that its translation unit does not "
                            "define; define the class there",
                        results);
    DispatchTarget target = left.front();
    Value point = buildVTableAddress(b, l, target.record, method->getParent(),
                                     target.staticOffset);
    Value self = adjustObject(
        b, l, object, target.overriderOffset - target.staticOffset,
        cast<MemRefType>(target.function.getFunctionType().getInput(0))
            .getElementType());
    if (!point || !self) {
      error(method->getSourceRange(),
            "differentiable code cannot dispatch virtual calls of '" +
                method->getQualifiedNameAsString() + "' to '" +
                target.record->getQualifiedNameAsString() +
                "': its layout puts the function's class where the memory "
                "model has no place for it; call the concrete class's "
                "function");
      return {};
    }
    Value matches = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                          tablePointer, point);
    scf::IfOp choice = buildChoice(b, l, results, matches);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&choice.getThenRegion().front());
    SmallVector<Value> operands{self};
    llvm::append_range(operands, rest);
    auto call = func::CallOp::create(b, l, target.function, operands);
    scf::YieldOp::create(b, l, call.getResults());
    b.setInsertionPointToStart(&choice.getElseRegion().front());
    SmallVector<Value> otherwise = choose(left.drop_front());
    if (otherwise.size() != results.size())
      return {};
    scf::YieldOp::create(b, l, otherwise);
    return choice.getResults();
  };
  SmallVector<Value> values = choose(targets);
  func::ReturnOp::create(b, l, values);
}

bool FunctionLowering::enterDispatchInPlace(
    const clang::Expr *expr, const clang::CXXMethodDecl *method) {
  if (methodsDispatchedInPlace.insert(method->getCanonicalDecl()).second)
    return true;
  return unsupported<bool>(
      expr, "this virtual call reaches '" + method->getQualifiedNameAsString() +
                "' again from inside one of its overriders, and its function "
                "returns a pointer or reference or takes objects whose "
                "pointer fields designate memory known only beside them, so "
                "differentiable code lowers it in place, which would not "
                "end; call the concrete class's function");
}

void FunctionLowering::abortUnlessDispatched(
    Value table, ArrayRef<Value> points, const clang::Expr *expr,
    const clang::CXXMethodDecl *method) {
  Location l = loc(expr);
  Value found = arith::ConstantIntOp::create(b, l, 0, 1);
  for (Value point : points)
    found = arith::OrIOp::create(
        b, l, found,
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, table, point));
  Value missing = arith::XOrIOp::create(
      b, l, found, arith::ConstantIntOp::create(b, l, 1, 1));
  abortIf(missing, expr,
          "a virtual call of '" + method->getQualifiedNameAsString() +
              "' in differentiated code found an object of a class that its "
              "translation unit does not define; define the class there");
}

/// Each target's address point and its view of `view`; which slots of the
/// object every target has (`places`, where the call returns a place).
bool FunctionLowering::prepareDispatch(
    const clang::Expr *expr, const clang::CXXMethodDecl *method, Value view,
    ArrayRef<DispatchTarget> targets, std::optional<PlaceMerge> &places,
    SmallVectorImpl<Value> &points, SmallVectorImpl<Value> &selves) {
  Location l = loc(expr);
  if (places) {
    places->object = view;
    places->readableSlots = std::numeric_limits<int64_t>::max();
  }
  Type scalar = cast<MemRefType>(view.getType()).getElementType();
  for (const DispatchTarget &target : targets) {
    std::optional<Layout> own =
        layoutOf(ast.getCanonicalTagType(target.overrider->getParent()), expr);
    std::optional<Layout> whole =
        layoutOf(ast.getCanonicalTagType(target.record), expr);
    if (!own || !whole)
      return false;
    // (Slots every object the call may find has: readable before knowing
    // which it is.)
    if (places)
      places->readableSlots =
          whole->scalar == scalar && target.staticOffset == 0
              ? std::min(places->readableSlots, whole->size)
              : 0;
    points.push_back(module.buildVTableAddress(
        b, l, target.record, method->getParent(), target.staticOffset));
    selves.push_back(adjustObject(
        b, l, view, target.overriderOffset - target.staticOffset, own->scalar));
    if (!points.back() || !selves.back())
      return unsupported<bool>(
          expr, "differentiable code cannot dispatch this virtual call to '" +
                    target.record->getQualifiedNameAsString() +
                    "': its layout puts the function's class where the "
                    "memory model has no place for it; call the concrete "
                    "class's function");
  }
  return true;
}

std::optional<FunctionLowering::CallResult> FunctionLowering::dispatchInPlace(
    const clang::Expr *expr, const clang::CXXMethodDecl *method, Address object,
    ArrayRef<const clang::Expr *> args, std::optional<Address> dest) {
  using Result = std::optional<CallResult>;
  Location l = loc(expr);
  SmallVector<DispatchTarget> targets;
  if (!collectTargets(module, method, expr->getSourceRange(), targets,
                      /*declare=*/false) ||
      !enterDispatchInPlace(expr, method))
    return std::nullopt;
  auto leave = llvm::make_scope_exit(
      [&] { methodsDispatchedInPlace.erase(method->getCanonicalDecl()); });
  clang::QualType returnType = method->getReturnType().getCanonicalType();
  bool returnsPlace = returnType->isReferenceType() ||
                      isObjectPointer(returnType) || isIterator(returnType);
  // What each branch passes to the block after them: a place (see
  // PlaceMerge), a scalar, or nothing (a struct result goes to `dest`).
  std::optional<PlaceMerge> places;
  SmallVector<Type, 3> mergeTypes;
  if (returnsPlace) {
    std::optional<Layout> pointee = layoutOf(
        returnType->isReferenceType() ? returnType.getNonReferenceType()
                                      : returnType->getPointeeType(),
        expr);
    if (!pointee)
      return std::nullopt;
    places = beginPlaceMerge(pointee->scalar);
    places->keepsMadeAddresses = true;
    mergeTypes = places->types(b);
  } else if (isAggregate(returnType)) {
    dest = resultPlaceFor(expr, returnType, dest);
    if (!dest)
      return std::nullopt;
  } else if (!returnType->isVoidType()) {
    Type type = typeOf(expr);
    if (!type)
      return std::nullopt;
    mergeTypes.push_back(type);
  }
  Value view = materialize(object, l);
  Value table = loadTablePointer(b, l, view);
  SmallVector<Value> points, selves;
  if (!prepareDispatch(expr, method, view, targets, places, points, selves))
    return std::nullopt;
  abortUnlessDispatched(table, points, expr, method);
  Block *current = b.getInsertionBlock();
  Block *joined = newBlock();
  for (Type type : mergeTypes)
    joined->addArgument(type, l);
  enter(current);
  for (auto [k, target] : llvm::enumerate(targets)) {
    // if (table == D0's) D0::f in place else if ... else the last one's.
    bool last = k + 1 == targets.size();
    if (!last) {
      Block *from = b.getInsertionBlock();
      if (places && k == 0)
        places->origin = from;
      Block *matched = newBlock(), *next = newBlock();
      enter(from);
      Value matches = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            table, points[k]);
      cf::CondBranchOp::create(b, l, matches, matched, next);
      enter(matched);
      size_t depth = cleanups.size();
      if (!dispatchTo(expr, target.overrider, selves[k], args, dest, places,
                      joined, depth))
        return std::nullopt;
      enter(next);
      continue;
    }
    if (!dispatchTo(expr, target.overrider, selves[k], args, dest, places,
                    joined, cleanups.size()))
      return std::nullopt;
  }
  enter(joined);
  if (places)
    return CallResult{nullptr, endPlaceMerge(*places, joined, l)};
  if (dest)
    return CallResult{nullptr, dest};
  return CallResult{mergeTypes.empty() ? nullptr : joined->getArgument(0), {}};
}

bool FunctionLowering::dispatchTo(
    const clang::Expr *expr, const clang::CXXMethodDecl *overrider, Value self,
    ArrayRef<const clang::Expr *> args, std::optional<Address> dest,
    std::optional<PlaceMerge> &places, Block *joined, size_t depth) {
  Location l = loc(expr);
  std::optional<CallResult> result =
      inlineBody(expr, overrider, args, nullptr, {},
                 Address{self, constantIndex(0, l)}, dest);
  if (!result)
    return false;
  SmallVector<Value> passed;
  if (places) {
    std::optional<Address> place = unpacked(result->address, expr);
    if (!place)
      return false;
    passPlace(*places, *place, passed, l);
  } else if (!dest && joined->getNumArguments() == 1) {
    if (!result->scalar)
      return unsupported<bool>(
          expr, "'" + overrider->getQualifiedNameAsString() +
                    "' gives this virtual call no value differentiable code "
                    "can pass on; call the concrete class's function");
    passed.push_back(result->scalar);
  }
  // Temporaries of a branch live in the branch.
  emitCleanups(depth, l);
  cleanups.truncate(depth);
  branchTo(l, joined, passed);
  return true;
}

void FunctionLowering::storeVTablePointers(const clang::CXXRecordDecl *record,
                                           Address self, Location l) {
  // Every dynamic subobject that holds a table pointer of its own, at its
  // offset, gets the address point of `record`'s table for it.
  std::function<void(const clang::CXXRecordDecl *, int64_t)> visit =
      [&](const clang::CXXRecordDecl *part, int64_t offset) {
        const clang::ASTRecordLayout &layout = ast.getASTRecordLayout(part);
        if (layout.hasOwnVFPtr()) {
          Value point = module.buildVTableAddress(b, l, record, part, offset);
          if (!point)
            return;
          storeTablePointer(point, self, offset, record, l);
        }
        for (const clang::CXXBaseSpecifier &base : part->bases()) {
          const clang::CXXRecordDecl *decl =
              base.getType()->getAsCXXRecordDecl();
          if (decl->isDynamicClass())
            visit(decl, offset + layout.getBaseClassOffset(decl).getQuantity());
        }
      };
  visit(record, 0);
}

void FunctionLowering::storeTablePointer(Value point, Address self,
                                         int64_t byteOffset,
                                         const clang::CXXRecordDecl *record,
                                         Location l) {
  // A class of nothing but the pointer, as a base among wider slots: the
  // packed integer is the pointer.
  if (self.packedType) {
    storePacked(self.packedType == point.getType()
                    ? point
                    : arith::TruncIOp::create(b, l, self.packedType, point),
                self, l);
    return;
  }
  Type scalar = cast<MemRefType>(self.memref.getType()).getElementType();
  int64_t slotBytes = scalar.getIntOrFloatBitWidth() / 8;
  Address place = offsetBy(self, byteOffset / slotBytes, l);
  if (slotBytes == 8) {
    place.packedType = b.getI64Type();
    place.packedBits = 64;
    storePacked(point, place, l);
    return;
  }
  Value view = ct::RetypeViewOp::create(b, l, getPointerType(b.getI64Type()),
                                        place.memref, place.offset);
  memref::StoreOp::create(b, l, point, view, constantIndex(0, l));
}

bool FunctionLowering::isVirtualCall(const clang::CXXMethodDecl *method,
                                     const clang::Expr *object) {
  // (Where C++ knows the object's class, as for a local variable of the
  // class, or the function or the class is final, the call is direct.)
  return method->isVirtual() && method->getDevirtualizedMethod(
                                    object, /*IsAppleKext=*/false) != method;
}

bool ModuleLowering::mayNeedDestruction(clang::QualType type) {
  // (A std::vector on the heap lives in memory: its elements are freed
  // with it.)
  if (needsDestruction(type) ||
      !getVectorElementType(type.getCanonicalType()).isNull())
    return true;
  const clang::CXXRecordDecl *record = type->getAsCXXRecordDecl();
  const clang::CXXDestructorDecl *destructor =
      record ? record->getDestructor() : nullptr;
  if (!destructor || !destructor->isVirtual())
    return false;
  return llvm::any_of(
      getConcreteDynamicClasses(), [&](const clang::CXXRecordDecl *derived) {
        return derived->isDerivedFrom(record) &&
               needsDestruction(ast.getCanonicalTagType(derived));
      });
}

void FunctionLowering::destroyDynamicObject(clang::QualType type,
                                            Address object,
                                            const clang::Expr *where,
                                            const clang::Expr *pointer) {
  const clang::CXXRecordDecl *record = type->getAsCXXRecordDecl();
  const clang::CXXDestructorDecl *destructor =
      record ? record->getDestructor() : nullptr;
  if (!destructor || !destructor->isVirtual() ||
      (pointer && !isVirtualCall(destructor, pointer))) {
    if (ModuleLowering::needsDestruction(type) ||
        isVector(type.getCanonicalType()))
      destroyObject(type, object, where);
    return;
  }
  // A virtual destructor: the object's class's, found as a virtual call
  // finds its function, for each class whose destruction does something.
  Location l = loc(where);
  object = *unpacked(object, where);
  Value table = loadTablePointer(b, l, materialize(object, l));
  Type scalar = cast<MemRefType>(object.memref.getType()).getElementType();
  int64_t slotBytes = scalar.getIntOrFloatBitWidth() / 8;
  for (const clang::CXXRecordDecl *derived :
       module.getConcreteDynamicClasses()) {
    clang::QualType derivedType = ast.getCanonicalTagType(derived);
    if ((derived != record && !derived->isDerivedFrom(record)) ||
        !ModuleLowering::needsDestruction(derivedType))
      continue;
    std::optional<int64_t> offset = module.getBaseByteOffset(derived, record);
    std::optional<Layout> layout = module.tryGetLayout(derivedType);
    if (!offset || !layout)
      continue;
    if (layout->scalar != scalar || *offset % slotBytes != 0) {
      unsupported(where, "this object's destructor is virtual, and the "
                         "destructor of '" +
                             derived->getQualifiedNameAsString() +
                             "' does work, but its objects lie in memory "
                             "of another type than a '" +
                             record->getQualifiedNameAsString() +
                             "''s; destroy it through its own class");
      return;
    }
    Value point = module.buildVTableAddress(b, l, derived, record, *offset);
    if (!point)
      continue;
    Value isDerived =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, table, point);
    emitIf(l, isDerived, [&] {
      destroyObject(derivedType, offsetBy(object, -*offset / slotBytes, l),
                    where);
    });
  }
}

} // namespace cotangent::frontend
