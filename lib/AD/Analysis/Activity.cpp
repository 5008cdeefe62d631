//===- Activity.cpp - Which values and memory carry derivatives -----------===//

#include "cotangent/AD/Analysis/Activity.h"
#include "Utils/ControlFlow.h"
#include "Utils/IRBuilders.h"
#include "Utils/TapedAddresses.h"
#include "cotangent/AD/Interfaces/DerivativeOpInterfaces.h"
#include "cotangent/Dialect/CT/IR/OutsideVariables.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::ad;

Value ad::getMemoryRoot(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// The values that may become `value` where a region op passes it on: for
/// a result, what its regions (or the op itself, skipping them) pass to it;
/// for an argument of a region's entry block, what enters the region. None
/// for other values (and for an induction variable, which the op makes).
static SmallVector<Value> getIncomingValues(Value value) {
  SmallVector<Value> incoming;
  if (auto result = dyn_cast<OpResult>(value)) {
    if (auto op = dyn_cast<RegionBranchOpInterface>(result.getOwner()))
      op.getPredecessorValues(RegionSuccessor(op, op->getResults()),
                              result.getResultNumber(), incoming);
    return incoming;
  }
  auto arg = cast<BlockArgument>(value);
  Region *region = arg.getOwner()->getParent();
  auto op = dyn_cast_or_null<RegionBranchOpInterface>(region->getParentOp());
  if (!op || !arg.getOwner()->isEntryBlock())
    return incoming;
  // The region's inputs, as a successor of the op or of one of its regions.
  SmallVector<RegionSuccessor> successors;
  op.getSuccessorRegions(RegionBranchPoint::parent(), successors);
  for (Region &other : op->getRegions())
    for (Block &block : other)
      if (auto terminator = dyn_cast_or_null<RegionBranchTerminatorOpInterface>(
              block.empty() ? nullptr : &block.back()))
        op.getSuccessorRegions(RegionBranchPoint(terminator), successors);
  for (RegionSuccessor &successor : successors) {
    if (successor.getSuccessor() != region)
      continue;
    ValueRange inputs = successor.getSuccessorInputs();
    auto position = llvm::find(inputs, value);
    if (position != inputs.end())
      op.getPredecessorValues(successor, position - inputs.begin(), incoming);
    break;
  }
  return incoming;
}

SmallVector<Value, 2> ad::getMemoryRoots(Value value) {
  SmallVector<Value, 2> roots;
  SmallVector<Value> worklist{value};
  DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value root = getMemoryRoot(worklist.pop_back_val());
    if (!visited.insert(root).second)
      continue;
    if (auto select = root.getDefiningOp<arith::SelectOp>()) {
      worklist.push_back(select.getTrueValue());
      worklist.push_back(select.getFalseValue());
      continue;
    }
    // Memory a branch chooses, or a loop carries, is each place that may
    // become it (poison where a path made none).
    SmallVector<Value> incoming = getIncomingValues(root);
    if (incoming.empty()) {
      roots.push_back(root);
      continue;
    }
    for (Value place : incoming)
      if (!place.getDefiningOp<ub::PoisonOp>())
        worklist.push_back(place);
  }
  return roots;
}

Value ad::getWholeMemoryPassedOn(Value value) {
  Value whole;
  SmallVector<Value> worklist{value};
  DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value place = worklist.pop_back_val();
    while (auto cast = place.getDefiningOp<memref::CastOp>())
      place = cast.getSource();
    if (!visited.insert(place).second || place.getDefiningOp<ub::PoisonOp>())
      continue;
    SmallVector<Value> incoming = getIncomingValues(place);
    if (!incoming.empty()) {
      llvm::append_range(worklist, incoming);
      continue;
    }
    if (whole && whole != place)
      return nullptr;
    whole = place;
  }
  // Memory made inside the ops that pass it on is new on each run of them.
  if (!whole || whole == value ||
      !whole.getParentRegion()->isAncestor(value.getParentRegion()))
    return nullptr;
  return whole;
}

bool ad::isShadowedType(Type type) {
  return ct::isDifferentiableMemRef(type) || isa<ct::TapeType>(type);
}

bool ad::neverWritesMemory(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return effects && !effects.hasEffect<MemoryEffects::Write>() &&
         !effects.hasEffect<MemoryEffects::Free>();
}

/// Whether some op uses `root`, or a view of it, as `isUse` says.
static bool
isUsedThroughViews(Value root,
                   function_ref<bool(Operation *user, Value memory)> isUse) {
  SmallVector<Value> worklist{root};
  while (!worklist.empty()) {
    Value memory = worklist.pop_back_val();
    for (OpOperand &use : memory.getUses()) {
      Operation *user = use.getOwner();
      if (isUse(user, memory))
        return true;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == memory)
        llvm::append_range(worklist, user->getResults());
      // Memory a branch chooses (a pointer returned early by a function
      // lowered in place) is used where the branch's result is.
      if (isa<scf::YieldOp>(user) &&
          isa<scf::IfOp, scf::IndexSwitchOp>(user->getParentOp()))
        worklist.push_back(
            user->getParentOp()->getResult(use.getOperandNumber()));
    }
  }
  return false;
}

bool ad::isAddressStored(Value root) {
  // (Or kept on a tape, by a derivative differentiated again.)
  return isUsedThroughViews(root, [](Operation *user, Value memory) {
    auto store = dyn_cast<ct::StoreAddressOp>(user);
    return (store && store.getView() == memory) ||
           (isa<memref::ExtractAlignedPointerAsIndexOp>(user) &&
            user->hasAttr(kTapedAddress));
  });
}

/// Calls `visit` on each use of `root`'s memory, following views, choices
/// (`arith.select`) and the branches that pass it on to their results; stops
/// at the first use `visit` answers true for.
static bool anyUseOfPlaces(Value root, function_ref<bool(OpOperand &)> visit) {
  SmallVector<Value> worklist{root};
  DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value memory = worklist.pop_back_val();
    if (!visited.insert(memory).second)
      continue;
    for (OpOperand &use : memory.getUses()) {
      if (visit(use))
        return true;
      Operation *user = use.getOwner();
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() == memory)
          worklist.push_back(user->getResult(0));
      } else if (isa<arith::SelectOp>(user)) {
        worklist.push_back(user->getResult(0));
      } else if (isa<scf::YieldOp>(user) && isBranch(user->getParentOp())) {
        worklist.push_back(
            user->getParentOp()->getResult(use.getOperandNumber()));
      }
    }
  }
  return false;
}

bool ad::isCarriedOutOfLoop(Value root) {
  // A loop's terminator passes it on to a later iteration or out.
  return anyUseOfPlaces(root, [](OpOperand &use) {
    Operation *user = use.getOwner();
    return isa<scf::YieldOp, scf::ConditionOp>(user) &&
           isa<LoopLikeOpInterface>(user->getParentOp());
  });
}

bool ad::isChosenBesideLoopCarried(Value root) {
  return anyUseOfPlaces(root, [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (!isa<scf::YieldOp>(user) || !isBranch(user->getParentOp()))
      return false;
    Value chosen = user->getParentOp()->getResult(use.getOperandNumber());
    return llvm::any_of(getMemoryRoots(chosen), [&](Value other) {
      return other != root && isLoopCarriedBuffer(other);
    });
  });
}

bool ad::isLoopCarriedBuffer(Value root) {
  return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
             root.getDefiningOp()) &&
         isCarriedOutOfLoop(root);
}

bool ad::holdsAddresses(Value root) {
  return isUsedThroughViews(root, [](Operation *user, Value memory) {
    auto store = dyn_cast<ct::StoreAddressOp>(user);
    return (store && store.getHolder() == memory) ||
           isa<ct::LoadAddressOp>(user);
  });
}

bool ad::isLocalAllocation(Value root) {
  return (root.getDefiningOp<memref::AllocaOp>() ||
          root.getDefiningOp<memref::AllocOp>()) &&
         !isAddressStored(root);
}

bool ad::isNoAliasArgument(Value root) {
  auto arg = dyn_cast<BlockArgument>(root);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return false;
  auto function = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
  return function && function.getArgAttr(arg.getArgNumber(), ct::kNoAliasAttr);
}

bool ad::isDistinctMemory(Value root) {
  return isLocalAllocation(root) ||
         (isNoAliasArgument(root) && !isAddressStored(root));
}

static bool isFloat(Value value) {
  return ct::isDifferentiableScalar(value.getType());
}

bool ad::isBytesMemory(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.getElementType().isInteger(8);
}

/// The library objects behind `root`, if it is a reference a library
/// object's function (called as compiled) returned: writing it writes them.
static SmallVector<Value> getLibraryObjectsBehind(Value root) {
  auto call = root.getDefiningOp<func::CallOp>();
  if (!call)
    return {};
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee || !callee->hasAttr(ct::kLibraryObjectAttr))
    return {};
  SmallVector<Value> objects;
  for (Value operand : call.getOperands())
    if (isBytesMemory(operand.getType()))
      objects.push_back(operand);
  return objects;
}

/// Whether the flow from `from` to `to` is a view of a library object's
/// bytes among numbers (ct.retype_view of a struct's slots): the numbers
/// beside it do not enter it.
static bool entersBytes(Value from, Value to) {
  return isBytesMemory(to.getType()) && isa<MemRefType>(from.getType()) &&
         !isBytesMemory(from.getType());
}

bool ad::liesInBytes(Value value) {
  while (!isBytesMemory(value.getType())) {
    auto view = value.getDefiningOp<ViewLikeOpInterface>();
    if (!view)
      return false;
    value = view.getViewSource();
  }
  return true;
}

/// What an op reads: its operands and, for ops with regions the analysis
/// does not model, every value its regions use from outside.
static SmallVector<Value> getInputs(Operation *op) {
  SmallVector<Value> inputs(op->getOperands());
  if (op->getNumRegions() != 0) {
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    llvm::append_range(inputs, captured);
  }
  return inputs;
}

/// The constant indices of a load or store, linearised in `type`, if all
/// are constants within bounds.
static std::optional<int64_t> getConstantLinearIndex(MemRefType type,
                                                     ValueRange indices) {
  int64_t linear = 0;
  for (auto [index, extent] : llvm::zip_equal(indices, type.getShape())) {
    APInt value;
    if (!matchPattern(index, m_ConstantInt(&value)) ||
        value.getSExtValue() < 0 || value.getSExtValue() >= extent)
      return std::nullopt;
    linear = linear * extent + value.getSExtValue();
  }
  return linear;
}

/// Whether the elements of `root` can be tracked apart: a local allocation
/// of static shape with an identity layout, only loaded, stored (as the
/// memory) and freed, always at constant indices.
static bool hasOnlyConstantAccesses(Value root) {
  auto type = dyn_cast<MemRefType>(root.getType());
  if (!isLocalAllocation(root) || !type || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() || !isShadowedType(type))
    return false;
  return llvm::all_of(root.getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (isa<memref::DeallocOp>(user))
      return true;
    if (auto load = dyn_cast<memref::LoadOp>(user))
      return getConstantLinearIndex(type, load.getIndices()).has_value();
    if (auto store = dyn_cast<memref::StoreOp>(user))
      return store.getValueToStore() != root &&
             getConstantLinearIndex(type, store.getIndices()).has_value();
    return false;
  });
}

/// Whether no derivative lives in `global`: a constant, or a std::vector
/// outside the function that is read, or that its writers change through a
/// copy of their own per call (the frontend's OutsideVectorCopies: only
/// the copy's wrapper touches the variable's memory, without derivative).
static bool isConstantVariable(memref::GlobalOp global) {
  return global.getConstant() || (global->hasAttr(ct::kVectorSlotsAttr) &&
                                  !global->hasAttr(ct::kKeptInPlaceAttr));
}

/// The argument of `function` whose memory `view` is part of, if any.
static std::optional<unsigned> argumentViewed(func::FuncOp function,
                                              Value view) {
  for (Value root : getMemoryRoots(view))
    if (auto arg = dyn_cast<BlockArgument>(root);
        arg && arg.getOwner()->isEntryBlock() &&
        arg.getOwner()->getParentOp() == function)
      return arg.getArgNumber();
  return std::nullopt;
}

/// Whether `call`'s callee, or a function it calls, stores the address of
/// memory the call's operand `index` gives (a node keeping a pointer into
/// it) in memory.
static bool storesAddressOfOperand(func::CallOp call, unsigned index) {
  SmallVector<std::pair<func::FuncOp, unsigned>> work;
  DenseSet<std::pair<Operation *, unsigned>> seen;
  auto visit = [&](func::CallOp at, unsigned operand) {
    if (auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            at, at.getCalleeAttr());
        callee && !callee.isExternal() && seen.insert({callee, operand}).second)
      work.push_back({callee, operand});
  };
  visit(call, index);
  while (!work.empty()) {
    auto [function, arg] = work.pop_back_val();
    bool stores =
        function
            .walk([&](Operation *op) {
              if (auto store = dyn_cast<ct::StoreAddressOp>(op))
                return argumentViewed(function, store.getView()) == arg
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              if (auto inner = dyn_cast<func::CallOp>(op))
                for (auto [i, operand] : llvm::enumerate(inner.getOperands()))
                  if (argumentViewed(function, operand) == arg)
                    visit(inner, i);
              return WalkResult::advance();
            })
            .wasInterrupted();
    if (stores)
      return true;
  }
  return false;
}

ActivityAnalysis::ActivityAnalysis(func::FuncOp function,
                                   ArrayRef<ct::Activity> activities)
    : function(function), activities(activities) {
  function.walk([&](Operation *op) {
    if (isa<memref::AllocaOp, memref::AllocOp>(op) &&
        hasOnlyConstantAccesses(op->getResult(0)))
      elementwiseRoots.insert(op->getResult(0));
    if (auto global = dyn_cast<memref::GetGlobalOp>(op))
      if (auto definition =
              SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
                  global, global.getNameAttr());
          definition && isConstantVariable(definition))
        constantGlobals.insert(global.getResult());
    // Memory whose address is kept in memory, and memory reached through
    // an address loaded from memory, may be the same (docs/Memory.md).
    if (auto store = dyn_cast<ct::StoreAddressOp>(op))
      for (Value root : getMemoryRoots(store.getView()))
        addressedMemory.insert(root);
    if (auto load = dyn_cast<ct::LoadAddressOp>(op))
      addressedMemory.insert(load.getView());
    // So do an address kept on the tape and the view the tape gives back
    // (a derivative differentiated again).
    if (auto address = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(op);
        address && address->hasAttr(kTapedAddress))
      for (Value root : getMemoryRoots(address.getSource()))
        addressedMemory.insert(root);
    if (isa<ct::PointerViewOp>(op) && isTapedAddressView(op->getResult(0)))
      addressedMemory.insert(op->getResult(0));
    // A library call given several library objects may make one point into
    // another (`find` gives an iterator into its map).
    if (auto call = dyn_cast<func::CallOp>(op)) {
      Value first;
      for (Value operand : call.getOperands()) {
        if (!isBytesMemory(operand.getType()))
          continue;
        Value root = getMemoryRoot(operand);
        libraryObjects.insert(root);
        if (first)
          libraryObjects.unionSets(first, root);
        first = root;
      }
    }
  });
  propagateVaried();
  propagateUseful();
  // Constant memory's address stored where a shadow address is kept, or
  // read where none is: either way its own shadow.
  function.walk([&](Operation *op) {
    if (auto store = dyn_cast<ct::StoreAddressOp>(op)) {
      Value view = store.getView();
      constantInShadows |=
          ct::isDifferentiableMemRef(view.getType()) &&
          !isNullPointerView(view) && hasShadow(store.getHolder()) &&
          (!hasShadow(view) || choosesPlaceWithoutShadow(view));
    } else if (auto load = dyn_cast<ct::LoadAddressOp>(op)) {
      constantInShadows |=
          ct::isDifferentiableMemRef(load.getView().getType()) &&
          hasShadow(load.getView()) && !hasShadow(load.getHolder());
    }
  });
  // So does constant memory given to a function that keeps addresses in
  // memory (a node a recursive function builds keeps a pointer into it):
  // the shadows this function then reads back may be primal memory too.
  if (!constantInShadows)
    function.walk([&](func::CallOp call) {
      for (auto [i, arg] : llvm::enumerate(call.getOperands()))
        if (!constantInShadows)
          constantInShadows = ct::isDifferentiableMemRef(arg.getType()) &&
                              !isNullPointerView(arg) && !hasShadow(arg) &&
                              storesAddressOfOperand(call, i);
      if (!constantInShadows)
        return WalkResult::advance();
      constantGivenToAddressKeeper = call;
      return WalkResult::interrupt();
    });
  if (!constantInShadows)
    return;
  function.walk([&](CallOpInterface call) {
    for (Value operand : call->getOperands())
      if (isa<MemRefType>(operand.getType()) && hasShadow(operand) &&
          mayBeOwnShadow(operand)) {
        callGivenOwnShadow = call;
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
}

bool ActivityAnalysis::choosesPlaceWithoutShadow(Value view) const {
  // (Through the views made of the choice: `c ? x + i : buffer`.)
  while (auto like = view.getDefiningOp<ViewLikeOpInterface>())
    view = like.getViewSource();
  auto select = view.getDefiningOp<arith::SelectOp>();
  if (!select || !isa<MemRefType>(select.getType()))
    return false;
  return llvm::any_of(ValueRange{select.getTrueValue(), select.getFalseValue()},
                      [&](Value place) {
                        return !isNullPointerView(place) &&
                               (!hasShadow(place) ||
                                choosesPlaceWithoutShadow(place));
                      });
}

LogicalResult ActivityAnalysis::refuseCallGivenOwnShadow(Operation *at) const {
  auto call = cast_or_null<CallOpInterface>(callGivenOwnShadow);
  if (!call)
    return success();
  auto callee = dyn_cast_or_null<SymbolRefAttr>(call.getCallableForCallee());
  Operation *target =
      callee ? SymbolTable::lookupNearestSymbolFrom(call, callee) : nullptr;
  auto name = target ? target->getAttrOfType<StringAttr>("ct.source_name")
                     : StringAttr();
  InFlightDiagnostic diag = at->emitError(
      "cannot differentiate: the address of memory without a derivative "
      "(a parameter left out of ct::wrt, or a constant one) is kept where "
      "addresses of memory with derivatives are kept, and memory read "
      "through such addresses is given to ");
  if (name)
    diag << "'" << name.getValue() << "'";
  else
    diag << "a function";
  diag << ", which is not inlined; copy what it needs into a local array "
          "first";
  diag.attachNote(call->getLoc()) << "the call is here";
  return failure();
}

bool ActivityAnalysis::mayBeOwnShadow(Value memory) const {
  if (!constantInShadows)
    return false;
  return llvm::any_of(getMemoryRoots(memory), [&](Value root) {
    return !getArgumentIndex(root) &&
           !isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
               root.getDefiningOp());
  });
}

std::optional<ActivityAnalysis::Element>
ActivityAnalysis::getElementAccess(Operation *op) const {
  Value memory;
  ValueRange indices;
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    memory = load.getMemRef();
    indices = load.getIndices();
  } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
    memory = store.getMemRef();
    indices = store.getIndices();
  } else {
    return std::nullopt;
  }
  if (!elementwiseRoots.contains(memory))
    return std::nullopt;
  std::optional<int64_t> linear =
      getConstantLinearIndex(cast<MemRefType>(memory.getType()), indices);
  if (!linear)
    return std::nullopt;
  return Element{memory, *linear};
}

bool ActivityAnalysis::propagateVariedElement(Operation *op, Element element) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return variedElements.contains(element) && markVaried(load.getResult());
  auto store = cast<memref::StoreOp>(op);
  if (!varied.contains(store.getValueToStore()))
    return false;
  // (The root is varied as a whole too: it needs a shadow.)
  bool changed = variedElements.insert(element).second;
  return markVaried(store.getMemRef()) || changed;
}

bool ActivityAnalysis::propagateUsefulElement(Operation *op, Element element) {
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    if (!useful.contains(load.getResult()))
      return false;
    readMemory.insert(element.first);
    bool changed = usefulElements.insert(element).second;
    return markUseful(load.getMemRef()) || changed;
  }
  auto store = cast<memref::StoreOp>(op);
  return usefulElements.contains(element) &&
         markUseful(store.getValueToStore());
}

/// Whether two memories whose addresses are kept in memory may be the
/// same: only if they hold scalars of one type (C++ reads an object only
/// through its own type), so memory of integers never joins memory of
/// floating-point values.
static bool mayAlias(Value root, Value other) {
  auto rootType = dyn_cast<MemRefType>(root.getType());
  auto otherType = dyn_cast<MemRefType>(other.getType());
  return !rootType || !otherType ||
         rootType.getElementType() == otherType.getElementType();
}

bool ActivityAnalysis::markVaried(Value value) {
  if (isFloat(value))
    return varied.insert(value).second;
  if (isBytesMemory(value.getType())) {
    Value root = getMemoryRoot(value);
    if (isConstantArgument(root))
      return false;
    bool changed = variedMemory.insert(root).second;
    changed |= variedBytes.insert(root).second;
    if (libraryObjects.contains(root))
      for (Value other : libraryObjects.members(root))
        if (!isConstantArgument(other)) {
          changed |= variedMemory.insert(other).second;
          changed |= variedBytes.insert(other).second;
        }
    return changed;
  }
  if (!isShadowedType(value.getType()))
    return false;
  // Memory the caller declares constant stays constant: it has no shadow
  // (hasShadow), so what is loaded from it carries no derivative either.
  Value root = getMemoryRoot(value);
  if (isConstantArgument(root))
    return false;
  bool changed = false;
  for (Value object : getLibraryObjectsBehind(root))
    changed |= markVaried(object);
  // (Numbers inside a library object vary its bytes.)
  if (liesInBytes(value))
    changed |= variedBytes.insert(root).second;
  if (!addressedMemory.contains(root))
    return variedMemory.insert(root).second || changed;
  for (Value other : addressedMemory)
    if (mayAlias(root, other) && !isConstantArgument(other)) {
      changed |= variedMemory.insert(other).second;
      if (isBytesMemory(other.getType()))
        changed |= variedBytes.insert(other).second;
    }
  return changed;
}

bool ActivityAnalysis::markUseful(Value value) {
  if (isFloat(value))
    return useful.insert(value).second;
  if (!isShadowedType(value.getType()))
    return false;
  Value root = getMemoryRoot(value);
  if (!addressedMemory.contains(root))
    return usefulMemory.insert(root).second;
  bool changed = false;
  for (Value other : addressedMemory)
    if (mayAlias(root, other))
      changed |= usefulMemory.insert(other).second;
  return changed;
}

/// The memory root at the start of the chain of holders `root` was loaded
/// from (`root` itself if it was not loaded from a holder).
static Value rootBehindAddresses(Value root) {
  while (auto load = root.getDefiningOp<ct::LoadAddressOp>())
    root = getMemoryRoot(load.getHolder());
  return root;
}

bool ActivityAnalysis::isConstantArgument(Value root) const {
  // What a constant object's addresses point to is constant too (a
  // constant parameter holding vectors or pointers: the caller declares
  // everything it reaches constant).
  Value behind = rootBehindAddresses(root);
  if (constantGlobals.contains(root) || constantGlobals.contains(behind))
    return true;
  if (Operation *made = behind.getDefiningOp();
      made && made->hasAttr(ct::kOutsideMemoryAttr))
    return true;
  std::optional<unsigned> index = getArgumentIndex(behind);
  return index && activities[*index] == ct::Activity::Constant;
}

/// Whether `value` is varied, for scalars and memory alike.
static bool isVariedIn(const DenseSet<Value> &scalars,
                       const DenseSet<Value> &memory, Value value) {
  if (isShadowedType(value.getType()) || isBytesMemory(value.getType()))
    return memory.contains(getMemoryRoot(value));
  return scalars.contains(value);
}

/// The derivative flow of an op with an ActivityOpInterface model, else
/// false: the analysis then assumes that everything it reads flows to its
/// results and to the memory it may write. Terminators have no flow of
/// their own: the op they end describes where their operands go.
static bool getModeledFlow(Operation *op,
                           SmallVectorImpl<DerivativeFlow> &flow) {
  if (auto model = dyn_cast<ActivityOpInterface>(op)) {
    model.getDerivativeFlow(flow);
    return true;
  }
  return op->hasTrait<OpTrait::IsTerminator>();
}

namespace {
/// How one propagation treats each kind of op; each step returns whether
/// it marked something new.
struct PropagationSteps {
  using Element = std::pair<Value, int64_t>;
  /// The tracked element `op` loads or stores, if any: `element` runs.
  function_ref<std::optional<Element>(Operation *)> elementAccess;
  function_ref<bool(Operation *, Element)> element;
  /// An op whose model gives its derivative flow.
  function_ref<bool(ArrayRef<DerivativeFlow>)> modeled;
  /// Any other op: its results and the memory it may write depend on
  /// everything it reads.
  function_ref<bool(Operation *)> other;
};
} // namespace

/// Walks `function` until a walk marks nothing new: forward for what flows
/// from operands to results (each op after what it uses), backward for what
/// flows from results to operands (each op after its users, a region's ops
/// before the op holding them: its results' users come first). In that
/// order a walk carries a mark along a whole chain of ops, so straight-line
/// code takes one walk and the number of walks grows with the nesting of
/// loops, not with the length of the function.
template <typename Iterator>
static void propagateToFixedPoint(func::FuncOp function,
                                  const PropagationSteps &steps) {
  bool changed = true;
  SmallVector<DerivativeFlow> flow;
  while (changed) {
    changed = false;
    function->walk<WalkOrder::PostOrder, Iterator>([&](Operation *op) {
      if (std::optional<PropagationSteps::Element> element =
              steps.elementAccess(op)) {
        changed |= steps.element(op, *element);
        return;
      }
      flow.clear();
      if (getModeledFlow(op, flow)) {
        changed |= steps.modeled(flow);
        return;
      }
      changed |= steps.other(op);
    });
  }
}

void ActivityAnalysis::propagateVaried() {
  for (auto [arg, activity] :
       llvm::zip_equal(function.getArguments(), activities))
    if (activity != ct::Activity::Constant)
      markVaried(arg);

  auto isVaried = [this](Value value) { return this->isVaried(value); };
  propagateToFixedPoint<ForwardIterator>(
      function,
      {[&](Operation *op) { return getElementAccess(op); },
       [&](Operation *op, Element element) {
         return propagateVariedElement(op, element);
       },
       [&](ArrayRef<DerivativeFlow> flow) {
         bool changed = false;
         for (auto [from, to] : flow)
           changed |=
               isVaried(from) && !entersBytes(from, to) && markVaried(to);
         return changed;
       },
       [&](Operation *op) {
         // Its float results and any memory it may write
         // depend on everything it reads.
         if (auto view = dyn_cast<ViewLikeOpInterface>(op);
             view && entersBytes(view.getViewSource(), view.getViewDest()))
           return false;
         SmallVector<Value> inputs = getInputs(op);
         if (!llvm::any_of(inputs, isVaried))
           return false;
         bool changed = false;
         for (Value result : op->getResults())
           changed |= markVaried(result);
         for (Value input : inputs)
           if ((isShadowedType(input.getType()) ||
                isBytesMemory(input.getType())) &&
               mayWrite(op, input))
             changed |= markVaried(input);
         return changed;
       }});
}

void ActivityAnalysis::propagateUseful() {
  for (auto [arg, activity] :
       llvm::zip_equal(function.getArguments(), activities))
    if (activity == ct::Activity::Duplicated)
      markUseful(arg);
  // Memory reached through addresses the caller's objects hold (the rows
  // of a vector of vectors) is the caller's too: its final contents are
  // results like the argument's own.
  function.walk([&](ct::LoadAddressOp load) {
    std::optional<unsigned> index =
        getArgumentIndex(rootBehindAddresses(load.getResult()));
    if (index && activities[*index] == ct::Activity::Duplicated)
      markUseful(load.getResult());
  });
  function.walk([&](func::ReturnOp ret) {
    for (Value operand : ret.getOperands())
      markUseful(operand);
  });

  auto isUseful = [&](Value value) {
    return isVariedIn(useful, usefulMemory, value);
  };
  // Memory whose contents flow into something useful is read.
  auto markRead = [&](Value input) {
    if (isShadowedType(input.getType()))
      readMemory.insert(getMemoryRoot(input));
  };
  propagateToFixedPoint<ReverseIterator>(
      function,
      {[&](Operation *op) { return getElementAccess(op); },
       [&](Operation *op, Element element) {
         return propagateUsefulElement(op, element);
       },
       [&](ArrayRef<DerivativeFlow> flow) {
         bool changed = false;
         for (auto [from, to] : flow) {
           if (!isUseful(to))
             continue;
           markRead(from);
           changed |= markUseful(from);
         }
         return changed;
       },
       [&](Operation *op) {
         // If a float result or memory it may write is useful, so is
         // everything it reads.
         SmallVector<Value> inputs = getInputs(op);
         bool writesUsefulMemory = llvm::any_of(inputs, [&](Value input) {
           return isShadowedType(input.getType()) && isUseful(input) &&
                  mayWrite(op, input);
         });
         if (!writesUsefulMemory && !llvm::any_of(op->getResults(), isUseful))
           return false;
         bool changed = false;
         for (Value input : inputs) {
           changed |= markUseful(input);
           markRead(input);
         }
         return changed;
       }});
}

bool ActivityAnalysis::mayWrite(Operation *op, Value input) {
  if (neverWritesMemory(op))
    return false;
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return true;
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee)
    return true;
  if (callee.isExternal()) {
    // Code compiled elsewhere (also another unit's exported derivatives)
    // may write what it is given, except through pointers to const.
    return llvm::any_of(call->getOpOperands(), [&](OpOperand &operand) {
      return getMemoryRoot(operand.get()) == getMemoryRoot(input) &&
             !callee.getArgAttr(operand.getOperandNumber(), ct::kReadOnlyAttr);
    });
  }
  for (OpOperand &operand : call->getOpOperands())
    if (getMemoryRoot(operand.get()) == getMemoryRoot(input) &&
        mayWriteArgument(callee.getArgument(operand.getOperandNumber())))
      return true;
  return false;
}

bool ActivityAnalysis::mayWriteArgument(BlockArgument argument) {
  // A function writes an argument only if some store reaches it, directly
  // or through calls: the least fixpoint. An argument whose answer is being
  // computed (recursion) counts as not written for now; an answer that
  // relied on that for an argument still being computed further out is
  // not kept, since that one may yet turn out written.
  if (auto known = writtenArguments.find(argument);
      known != writtenArguments.end())
    return known->second;
  if (argumentsInProgress.contains(argument)) {
    assumedUnwritten.insert(argument);
    return false;
  }
  argumentsInProgress.insert(argument);
  llvm::SmallPtrSet<Value, 4> outerAssumptions;
  std::swap(outerAssumptions, assumedUnwritten);
  bool written = false;
  argument.getOwner()->getParentOp()->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      // (A store's only memory operand is the memory it writes.)
      if (llvm::is_contained(getMemoryRoots(operand), argument) &&
          mayWrite(op, operand)) {
        written = true;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  argumentsInProgress.erase(argument);
  assumedUnwritten.erase(argument);
  if (written || assumedUnwritten.empty())
    writtenArguments[argument] = written;
  assumedUnwritten.insert(outerAssumptions.begin(), outerAssumptions.end());
  return written;
}

bool ActivityAnalysis::isActive(Value value) const {
  return isFloat(value) && varied.contains(value) && useful.contains(value);
}

bool ActivityAnalysis::isUseful(Value value) const {
  return isFloat(value) && useful.contains(value);
}

bool ActivityAnalysis::isVaried(Value value) const {
  // (Library objects' bytes by variedBytes: see its declaration.)
  if (isBytesMemory(value.getType()))
    return variedBytes.contains(getMemoryRoot(value));
  return isVariedIn(varied, variedMemory, value);
}

std::optional<unsigned> ActivityAnalysis::getArgumentIndex(Value value) const {
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (arg.getOwner()->isEntryBlock() &&
        arg.getOwner()->getParentOp() == function.getOperation())
      return arg.getArgNumber();
  return std::nullopt;
}

bool ActivityAnalysis::hasShadow(Value value) const {
  Value root = getMemoryRoot(value);
  if (std::optional<unsigned> index = getArgumentIndex(root))
    return activities[*index] == ct::Activity::Duplicated;
  return variedMemory.contains(root) && usefulMemory.contains(root);
}

bool ActivityAnalysis::storesDerivative(Operation *store) const {
  // Integers stored among floating-point numbers (through a view of their
  // own type, ct.retype_view) have no derivative to overwrite.
  Value memory = cast<memref::StoreOp>(store).getMemRef();
  if (!isShadowedType(memory.getType()) || !hasShadow(memory))
    return false;
  std::optional<Element> element = getElementAccess(store);
  return !element || usefulElements.contains(*element);
}

bool ActivityAnalysis::isUsefulMemory(Value value) const {
  return usefulMemory.contains(getMemoryRoot(value));
}

bool ActivityAnalysis::isArgumentConnected(unsigned index) const {
  Value arg = function.getArgument(index);
  if (isShadowedType(arg.getType()))
    return readMemory.contains(arg);
  return isActive(arg);
}
