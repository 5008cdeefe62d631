//===- EntryPoints.cpp - ct::gradient<f> and friends as MLIR functions ----===//
//
// <cotangent/cotangent.h> turns every use of an entry point into a call of
// `ct::detail::entry<Kind, Fn, &f, Wrt, Sig>::call` (`method_entry` for a
// member function), declared with a C ABI of
// scalars and pointers only. For each such specialization the translation
// unit uses, this file builds the function of that mangled name: it views
// the pointers as memrefs (ct.pointer_view), issues the ct request on f's
// lowered function, and writes adjoints and tangents back through the
// pointers. The AD passes then replace the request with f's derivative.
//
//===----------------------------------------------------------------------===//

#include "GrownVectorFields.h"
#include "ModuleLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"
#include "cotangent/Frontend/DifferentiableAttr.h"
#include "cotangent/Frontend/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

using namespace mlir;

namespace cotangent::frontend {

/// The function g of the header's `ct::detail::result_into<&g, R,
/// ...>::call`, if `function` is one; null otherwise.
static const clang::FunctionDecl *
resultWriterOf(const clang::FunctionDecl *function) {
  const auto *method = dyn_cast<clang::CXXMethodDecl>(function);
  const auto *spec = method ? dyn_cast<clang::ClassTemplateSpecializationDecl>(
                                  method->getParent())
                            : nullptr;
  if (!spec || spec->getName() != "result_into" || !isInCotangentDetail(spec) ||
      spec->getTemplateArgs().size() == 0 ||
      spec->getTemplateArgs()[0].getKind() !=
          clang::TemplateArgument::Declaration)
    return nullptr;
  return dyn_cast<clang::FunctionDecl>(spec->getTemplateArgs()[0].getAsDecl());
}

/// `function`'s name in messages: g's for the header's result_into<&g>.
static std::string displayName(const clang::FunctionDecl *function) {
  if (const clang::FunctionDecl *writer = resultWriterOf(function))
    return writer->getQualifiedNameAsString();
  return function->getQualifiedNameAsString();
}

namespace {

enum class EntryKind { Gradient, Pullback, Jvp, Hvp };

/// What differentiation makes of a parameter of f; mirrors `role_of` in
/// cotangent.h.
enum class Role { Constant, Scalar, Memory, Value };

Role getRole(clang::QualType type) {
  type = type.getCanonicalType();
  if (type->isReferenceType() || type->isPointerType()) {
    clang::QualType pointee = type->getPointeeType().getCanonicalType();
    while (const clang::ArrayType *array = pointee->getAsArrayTypeUnsafe())
      pointee = array->getElementType().getCanonicalType();
    if (clang::QualType element = ModuleLowering::getVectorElementType(pointee);
        !element.isNull())
      return getRole(element) == Role::Constant ? Role::Constant : Role::Memory;
    // Memory of pointers to data (an array of parameter blocks): its
    // derivative holds pointers to the derivatives.
    if (type->isPointerType() && pointee->isPointerType())
      return getRole(pointee) == Role::Constant ? Role::Constant : Role::Memory;
    return pointee->isRealFloatingType() || pointee->isRecordType()
               ? Role::Memory
               : Role::Constant;
  }
  if (type->isRealFloatingType())
    return Role::Scalar;
  if (clang::QualType element = ModuleLowering::getVectorElementType(type);
      !element.isNull())
    return getRole(element) == Role::Constant ? Role::Constant : Role::Value;
  if (type->isRecordType())
    return Role::Value;
  return Role::Constant;
}

/// One specialization of ct::detail::entry the translation unit calls.
struct EntryRequest {
  EntryKind kind;
  const clang::CXXMethodDecl *call;
  const clang::FunctionDecl *function;
  /// Which parameters ct::wrt selects (all without it).
  llvm::SmallVector<bool> selected;
  /// The lanes of vector mode (ct::lanes<K>); 0 without.
  int64_t lanes = 0;
};

/// Builds one entry point's function.
class EntryBuilder {
public:
  /// With `nested`, fills that declared function: the entry point as
  /// differentiable code calls it, with lowered memory for pointers.
  EntryBuilder(ModuleLowering &module, const EntryRequest &request,
               clang::SourceLocation use, func::FuncOp nested = nullptr)
      : module(module), request(request), use(use), loc(module.getLoc(use)),
        b(module.getContext()), nested(nested) {}

  void build();

private:
  /// The body of the entry point `function`, whose entry block is the
  /// builder's insertion point.
  void buildBody(func::FuncOp function);
  /// buildBody's gradient and pullback: f's arguments `args` from the
  /// entry's `abi`, the derivative pointers (after a pullback's seed) in
  /// `extras`.
  void buildReverse(StringRef name, ValueRange abi, ValueRange args,
                    ValueRange extras, ArrayRef<Type> resultTypes);

  //===--- build()'s steps ------------------------------------------------===//
  /// The types and names of f's parameters (its object first).
  void collectParameters(const clang::FunctionDecl *f);
  /// The memory the parameters' pointer, reference and vector fields
  /// designate, and whether each has a derivative (when its parameter has
  /// one and it holds floating-point values).
  void collectFieldArguments();
  /// Roles and activities of f's parameters; false after an error.
  bool assignRoles();
  /// Refuses what the request's mode cannot take yet; false after an error.
  bool checkModeSupport(const clang::FunctionDecl *f);
  /// checkModeSupport's part for vector mode.
  bool checkLaneSupport(const clang::FunctionDecl *f);
  /// The entry point's own function, with the header's C ABI, and its body.
  void buildEntryFunction(const clang::FunctionDecl *f);

  /// A memref of `type` (f's lowered parameter type) over a C pointer.
  Value view(Value pointer, Type type) {
    // A function pointer: the address it holds (FunctionPointers.cpp).
    if (isa<IntegerType>(type) && isa<LLVM::LLVMPointerType>(pointer.getType()))
      return LLVM::PtrToIntOp::create(b, loc, type, pointer);
    if (!isa<MemRefType>(pointer.getType()))
      return ct::PointerViewOp::create(b, loc, type, pointer);
    // Lowered code's pointer (a nested entry point): the same memory. Both
    // are 1-D with a dynamic offset, so the cast keeps the offset.
    if (pointer.getType() == type)
      return pointer;
    return memref::CastOp::create(b, loc, type, pointer);
  }
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  /// `*pointer += value`; for K lanes, `pointer[k] += value[k]`.
  void accumulate(Value pointer, Value value) {
    if (auto lanes = dyn_cast<VectorType>(value.getType())) {
      Value old = loadLanes(pointer, lanes.getElementType());
      storeLanes(pointer, arith::AddFOp::create(b, loc, old, value));
      return;
    }
    Value slot = view(pointer, getPointerType(value.getType()));
    Value zero = index(0);
    Value old = memref::LoadOp::create(b, loc, slot, zero);
    Value sum = arith::AddFOp::create(b, loc, old, value);
    memref::StoreOp::create(b, loc, sum, slot, zero);
  }

  //===--- Vector mode (ct::lanes<K>) -------------------------------------===//
  bool inLanes() const { return request.lanes > 0; }
  /// The derivative type of a value of `type` in this request's mode.
  Type derivativeType(Type type) {
    return inLanes() ? ct::getLaneType(type, request.lanes) : type;
  }
  /// A 1-D view of the scalars of type `scalar` at `pointer`.
  Value flatView(Value pointer, Type scalar) {
    return view(pointer, getPointerType(scalar));
  }
  /// The K scalars at `pointer` as one vector (one lane: a scalar).
  Value loadLanes(Value pointer, Type scalar) {
    Value flat = flatView(pointer, scalar);
    if (request.lanes == 1)
      return memref::LoadOp::create(b, loc, flat, ValueRange{index(0)});
    return vector::LoadOp::create(b, loc,
                                  VectorType::get({request.lanes}, scalar),
                                  flat, ValueRange{index(0)});
  }
  void storeLanes(Value pointer, Value lanes) {
    Type scalar = getElementTypeOrSelf(lanes.getType());
    Value flat = flatView(pointer, scalar);
    if (isa<VectorType>(lanes.getType()))
      vector::StoreOp::create(b, loc, lanes, flat, ValueRange{index(0)});
    else
      memref::StoreOp::create(b, loc, lanes, flat, ValueRange{index(0)});
  }
  /// `flat`, K interleaved lanes per element of memory of f's parameter
  /// type `type`, viewed with its lane type (a trailing lane dimension).
  Value laneShape(Value flat, MemRefType type) {
    auto lane = cast<MemRefType>(ct::getLaneType(type, request.lanes));
    int64_t offset = lane.getStridesAndOffset().second;
    auto fold = [&](int64_t known, Value dynamic) -> OpFoldResult {
      if (ShapedType::isDynamic(known))
        return dynamic;
      return b.getIndexAttr(known);
    };
    // Only the leading extent can be unknown: the scalars over the rest.
    int64_t inner = request.lanes;
    for (int64_t dim : type.getShape().drop_front())
      inner *= dim;
    SmallVector<OpFoldResult> sizes, strideValues;
    for (auto [d, extent] : llvm::enumerate(lane.getShape())) {
      Value dynamic;
      if (d == 0 && ShapedType::isDynamic(extent))
        dynamic = arith::DivUIOp::create(
            b, loc, memref::DimOp::create(b, loc, flat, 0), index(inner));
      sizes.push_back(fold(extent, dynamic));
    }
    // Row-major: the lanes innermost, the leading extent never multiplied.
    int64_t stride = 1;
    for (int64_t d = lane.getRank() - 1; d >= 0; --d) {
      strideValues.insert(strideValues.begin(), b.getIndexAttr(stride));
      if (d > 0)
        stride *= lane.getShape()[d];
    }
    // Where `flat` starts: 0 for a C pointer's view, anywhere in a nested
    // entry point's memory.
    Value start =
        memref::ExtractStridedMetadataOp::create(b, loc, flat).getOffset();
    return memref::ReinterpretCastOp::create(
        b, loc, lane, flat, fold(offset, start), sizes, strideValues);
  }
  /// The K-lane derivative argument of memory parameter `i` at `pointer`,
  /// for f's argument `arg`: a std::vector must hold K times the
  /// parameter's elements.
  Value laneDerivative(unsigned i, Value pointer, Value arg) {
    auto type = cast<MemRefType>(primal.getArgumentTypes()[i]);
    Type scalar = type.getElementType();
    clang::QualType object = parameterObject(i);
    if (!isMemrefVectorParameter(i))
      return laneShape(flatView(pointer, scalar), type);
    std::optional<std::pair<int64_t, int64_t>> offsets =
        module.getVectorPointerOffsets(object, use);
    if (!offsets)
      return laneShape(flatView(pointer, scalar), type); // reported
    Value flat =
        isa<MemRefType>(pointer.getType())
            ? flatView(pointer, scalar)
            : ct::VectorViewOp::create(
                  b, loc, MemRefType::get({ShapedType::kDynamic}, scalar),
                  pointer, offsets->first, offsets->second)
                  .getResult();
    abortUnlessLanesOf(flat, arg, "the derivative argument of " + paramNames[i],
                       "the parameter's size");
    return laneShape(flat, type);
  }
  /// Aborts with a message unless the vector memory `derivative` (`what`)
  /// holds K times the elements of `primal` (`whose`).
  void abortUnlessLanesOf(Value derivative, Value primal, const Twine &what,
                          const Twine &whose) {
    abortIf(arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::ne,
                memref::DimOp::create(b, loc, derivative, 0),
                arith::MulIOp::create(b, loc,
                                      memref::DimOp::create(b, loc, primal, 0),
                                      index(request.lanes))),
            "cotangent: " + what + " must be a std::vector of " +
                Twine(request.lanes) + " times " + whose + " (ct::lanes<" +
                Twine(request.lanes) + ">)");
  }
  /// A fresh K-lane shadow or tangent of a by-value aggregate of `size`
  /// scalars of `like`'s type: zero, or a copy of the K-lane buffer at
  /// `source`. Its flat buffer is remembered in `laneBuffers`.
  Value laneScratch(MemRefType like, Value size, Value source) {
    Type scalar = like.getElementType();
    Value total = arith::MulIOp::create(b, loc, size, index(request.lanes));
    Value from = source ? flatView(source, scalar) : Value();
    Value flat =
        scratch(MemRefType::get({ShapedType::kDynamic}, scalar), total, from);
    Value shaped = laneShape(flat, like);
    laneBuffers[shaped] = flat;
    return shaped;
  }
  llvm::DenseMap<Value, Value> laneBuffers;
  /// The function to fill for differentiable code's calls, or null.
  func::FuncOp nested;
  /// A view of the memory of f's parameter `i`, or of its shadow or
  /// tangent, over a C pointer: a std::vector's elements, or the pointee.
  Value viewParameter(unsigned i, Value pointer, bool derivative = false) {
    Type type = primal.getArgumentTypes()[i];
    clang::QualType object = parameterObject(i);
    // (A nested entry point's vector is already its elements' memory.)
    if (!isMemrefVectorParameter(i) || isa<MemRefType>(pointer.getType()))
      return view(pointer, type);
    std::optional<std::pair<int64_t, int64_t>> offsets =
        module.getVectorPointerOffsets(object, use);
    if (!offsets)
      return view(pointer, type);
    return ct::VectorViewOp::create(b, loc, type, pointer, offsets->first,
                                    offsets->second);
  }
  /// viewParameter for a derivative argument of parameter `i`, whose
  /// primal value is `arg`: a std::vector of another size than the
  /// parameter's ends the program with a message (it would be read and
  /// written out of bounds).
  Value viewDerivative(unsigned i, Value pointer, Value arg) {
    Value view = viewParameter(i, pointer, /*derivative=*/true);
    clang::QualType object = parameterObject(i);
    if (isVectorObjectParameter(i)) {
      checkSameShape(object, pointerOf(arg), pointer,
                     "cotangent: the derivative argument of " + paramNames[i] +
                         " is a std::vector of another shape than the "
                         "parameter's");
      return view;
    }
    if (!isMemrefVectorParameter(i))
      return view;
    abortIf(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                  memref::DimOp::create(b, loc, view, 0),
                                  memref::DimOp::create(b, loc, arg, 0)),
            "cotangent: the derivative argument of " + paramNames[i] +
                " is a std::vector of another size than the parameter's");
    return view;
  }
  /// The address a memref view of an object starts at.
  Value pointerOf(Value view) {
    Value address =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, view);
    return LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()),
        arith::IndexCastOp::create(b, loc, b.getI64Type(), address)
            .getResult());
  }
  /// The size of the std::vector of `type` at `object`, and the address of
  /// its first element; none after an error (reported).
  std::optional<std::pair<Value, Value>> vectorExtent(clang::QualType type,
                                                      Value object) {
    std::optional<std::pair<int64_t, int64_t>> offsets =
        module.getVectorPointerOffsets(type, use);
    if (!offsets)
      return std::nullopt;
    Value first = loadPointerAt(object, offsets->first);
    auto bits = [&](Value pointer) -> Value {
      return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), pointer);
    };
    Value bytes = arith::SubIOp::create(
        b, loc, bits(loadPointerAt(object, offsets->second)), bits(first));
    int64_t elementBytes = module.getAST().getTypeSize(
                               ModuleLowering::getVectorElementType(type)) /
                           8;
    Value count = arith::DivUIOp::create(
        b, loc, bytes,
        arith::ConstantIntOp::create(b, loc, b.getI64Type(), elementBytes));
    return std::make_pair(
        arith::IndexCastOp::create(b, loc, b.getIndexType(), count).getResult(),
        first);
  }
  /// Aborts with `message` unless the vectors of `type` at `primal` and
  /// `derivative` have the same size, and so have their rows, to any
  /// depth.
  void checkSameShape(clang::QualType type, Value primal, Value derivative,
                      const std::string &message) {
    std::optional<std::pair<Value, Value>> own = vectorExtent(type, primal);
    std::optional<std::pair<Value, Value>> other =
        vectorExtent(type, derivative);
    if (!own || !other)
      return;
    abortIf(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, own->first,
                                  other->first),
            message);
    clang::QualType row = ModuleLowering::getVectorElementType(type);
    if (ModuleLowering::getVectorElementType(row).isNull())
      return;
    int64_t rowBytes = module.getAST().getTypeSize(row) / 8;
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    forEach(own->first, [&](Value r) {
      Value offset = arith::MulIOp::create(
          b, loc, arith::IndexCastOp::create(b, loc, b.getI64Type(), r),
          arith::ConstantIntOp::create(b, loc, b.getI64Type(), rowBytes));
      auto rowAt = [&](Value first) -> Value {
        return LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(), first,
                                   ArrayRef<LLVM::GEPArg>{offset});
      };
      checkSameShape(row.getCanonicalType(), rowAt(own->second),
                     rowAt(other->second), message);
    });
  }
  /// Where `condition` holds, the program prints `message` and aborts.
  void abortIf(Value condition, const Twine &message) {
    auto check = scf::IfOp::create(b, loc, condition);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(check.thenBlock()->getTerminator());
    ct::AbortOp::create(b, loc, message.str());
  }
  /// A fresh buffer of `size` elements of `like`'s element type, zero or a
  /// copy of `source`, typed like `like`; freed by freeScratch.
  Value scratch(MemRefType like, Value size, Value source) {
    Value buffer;
    if (std::optional<int64_t> known = getConstantIntValue(size)) {
      buffer = memref::AllocaOp::create(
          b, loc, MemRefType::get({*known}, like.getElementType()));
    } else {
      // A by-value std::vector: on the heap, whatever its size.
      buffer = memref::AllocOp::create(
          b, loc,
          MemRefType::get({ShapedType::kDynamic}, like.getElementType()),
          ValueRange{size});
      scratchBuffers.push_back(buffer);
    }
    Value zero =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(like.getElementType()));
    forEach(size, [&](Value i) {
      Value value = source ? memref::LoadOp::create(b, loc, source, i) : zero;
      memref::StoreOp::create(b, loc, value, buffer, i);
    });
    return memref::CastOp::create(b, loc, like, buffer);
  }
  void freeScratch() {
    for (Value buffer : scratchBuffers)
      memref::DeallocOp::create(b, loc, buffer);
    scratchBuffers.clear();
  }
  /// `target[i] += source[i]` for i < size; only for the slots of
  /// `dataSlots` when given (the others hold pointers).
  void addInto(Value target, Value source, Value size,
               ArrayRef<bool> dataSlots = {}) {
    auto add = [&](Value i) {
      Value a = memref::LoadOp::create(b, loc, target, i);
      Value d = memref::LoadOp::create(b, loc, source, i);
      Value sum = arith::AddFOp::create(b, loc, a, d);
      memref::StoreOp::create(b, loc, sum, target, i);
    };
    if (dataSlots.empty())
      return forEach(size, add);
    for (auto [i, isData] : llvm::enumerate(dataSlots))
      if (isData)
        add(index(i));
  }
  /// Which slots of by-value parameter `i`'s object hold data, when some
  /// do not (its indirect fields); empty otherwise.
  /// Copies the slots of the by-value object `i`'s fields that keep
  /// addresses from `from` into `into`.
  void copyAddressSlots(unsigned i, Value into, Value from) {
    if (ModuleLowering::isMemrefVector(paramTypes[i]))
      return;
    std::optional<Layout> layout = module.tryGetLayout(paramTypes[i]);
    if (!layout)
      return;
    for (const Layout::IndirectField &field : layout->indirect)
      if (field.inMemory || ModuleLowering::keepsAddress(field.decl))
        for (int64_t slot = field.slot; slot < field.slot + field.slots; ++slot)
          memref::StoreOp::create(
              b, loc, memref::LoadOp::create(b, loc, from, index(slot)), into,
              index(slot));
  }
  SmallVector<bool> dataSlots(unsigned i) {
    if (ModuleLowering::isMemrefVector(paramTypes[i]))
      return {};
    std::optional<Layout> layout = module.tryGetLayout(paramTypes[i]);
    if (!layout || layout->indirect.empty())
      return {};
    return layout->dataSlots();
  }
  void forEach(Value size, llvm::function_ref<void(Value)> body) {
    scf::ForOp::create(b, loc, index(0), size, index(1), ValueRange{},
                       [&](OpBuilder &nested, Location, Value i, ValueRange) {
                         OpBuilder::InsertionGuard guard(b);
                         b.setInsertionPoint(nested.getInsertionBlock(),
                                             nested.getInsertionPoint());
                         body(i);
                         scf::YieldOp::create(b, loc);
                       });
  }
  /// The number of scalars in a by-value aggregate parameter, whose value
  /// f receives as `arg`.
  Value sizeOf(unsigned param, Value arg) {
    clang::QualType type = paramTypes[param];
    if (ModuleLowering::isMemrefVector(type))
      return memref::DimOp::create(b, loc, arg, 0);
    std::optional<Layout> layout =
        module.getLayout(type, use, paramNames[param]);
    return index(layout ? layout->size : 1);
  }
  ArrayAttr activityAttr(ArrayRef<ct::Activity> activities) {
    return ct::getActivityArrayAttr(b.getContext(), activities);
  }
  IntegerAttr laneAttr() {
    return inLanes() ? b.getI64IntegerAttr(request.lanes) : IntegerAttr();
  }
  /// f's arguments: scalars as they come, memory viewed.
  SmallVector<Value> primalArguments(ValueRange abi);
  /// Reverse mode of a std::vector parameter f resizes: the derivative
  /// vector holds the seeds of its final contents when called and the
  /// cotangents of its initial contents on return. The seeds are taken out
  /// (their memory, freed after the call), the derivative vector given
  /// zeros of the parameter's initial size, and f differentiated with the
  /// seeds as the weights of a sum of its final contents (seededPrimal).
  /// (Also for a std::vector field f grows of a parameter's object:
  /// GrownVectorFields.h.)
  struct FinalSeeds {
    unsigned param;
    Value seeds; // the derivative vector's memory when called
    /// The vector: its bytes from the parameter's object, its type and
    /// its name for messages.
    int64_t offset = 0;
    clang::QualType vector;
    std::string name;
  };
  SmallVector<FinalSeeds> takeFinalSeeds(ValueRange pointers, ValueRange abi);
  /// Takes out the seeds of the vector `offset` bytes into the derivative
  /// object `derivative`, whose object is `object`; false after an error.
  bool takeSeedsOf(FinalSeeds &seed, Value derivative, Value object);
  /// The vector fields of the active parameters' objects f grows.
  SmallVector<GrownVectorField> grownVectorFields();
  /// f, then `cell[0] = sum over each resized vector of seeds[j] *
  /// contents[j]` (its seeds empty, or as many as its final scalars): its
  /// arguments are f's, the seeds, then the cell.
  func::FuncOp buildSeededPrimal(ArrayRef<FinalSeeds> seeds, StringRef name);
  /// The reverse-mode shadows of f's active memory, from the adjoint
  /// pointers `pointers` (one per active parameter), for f's arguments
  /// `args`.
  SmallVector<Value> shadows(ValueRange pointers, ValueRange args);
  /// After the request: scalar adjoints `adjoints` into their pointers and
  /// by-value scratch shadows into the user's.
  void writeBack(ValueRange pointers, ValueRange adjoints,
                 ValueRange shadowValues, ValueRange args);
  /// The tangent operand of each active parameter.
  /// With `fieldTangents`, the views of the duplicated extra arguments'
  /// tangents, given (as memrefs) rather than read from the tangent objects.
  SmallVector<Value> tangents(ValueRange abi, ValueRange args,
                              std::optional<ValueRange> fieldTangents = {});
  /// The function `f.direction(args..., tangents...) -> df.v` an HVP
  /// differentiates.
  func::FuncOp buildDirectionalDerivative(StringRef name);
  /// `args` with f's aggregates by value viewed at their objects' sizes,
  /// so that the scratch tangents their copies take are buffers of that
  /// size (not a pointer's reserved address space, chosen at run time).
  SmallVector<Value> sizeOwnCopies(ValueRange args);

  ModuleLowering &module;
  const EntryRequest &request;
  clang::SourceLocation use;
  Location loc;
  OpBuilder b;
  func::FuncOp primal;
  SmallVector<Role> roles;
  SmallVector<ct::Activity> activities;
  SmallVector<unsigned> active; // the active parameters, in order
  /// f's parameters as differentiation sees them: a member function's
  /// object (as a pointer) first, then its declared parameters.
  SmallVector<clang::QualType> paramTypes;
  SmallVector<std::string> paramNames;
  /// Per parameter: a std::vector f resizes, passed as the vector object
  /// itself (ModuleLowering::keepsVectorParameterInMemory).
  SmallVector<bool> resizedVectors;
  /// The object parameter `i` designates, and whether it is a std::vector
  /// of the memref model (its elements) or one f takes as an object.
  clang::QualType parameterObject(unsigned i) {
    clang::QualType object = paramTypes[i].getNonReferenceType();
    if (object->isPointerType())
      object = object->getPointeeType();
    return object.getCanonicalType();
  }
  bool isMemrefVectorParameter(unsigned i) {
    return !resizedVectors[i] &&
           ModuleLowering::isMemrefVector(parameterObject(i));
  }
  bool isVectorObjectParameter(unsigned i) {
    return resizedVectors[i] ||
           ModuleLowering::isVectorObject(parameterObject(i));
  }
  SmallVector<Value> scratchBuffers;
  /// Whether memory of `object`s keeps addresses in its slots: pointers
  /// (the rows of `T const* const*`), or objects whose pointer fields keep
  /// their addresses (the others are extra arguments of their own).
  bool holdsKeptAddresses(clang::QualType object) {
    object = object.getCanonicalType();
    while (const clang::ArrayType *array = object->getAsArrayTypeUnsafe())
      object = array->getElementType().getCanonicalType();
    if (object->isPointerType() || object->isReferenceType() ||
        ModuleLowering::isVectorObject(object))
      return true;
    clang::QualType element = ModuleLowering::getVectorElementType(object);
    if (!element.isNull())
      return holdsKeptAddresses(element);
    std::optional<Layout> layout = module.tryGetLayout(object);
    return layout &&
           module.getArgumentFields(*layout).size() < layout->indirect.size();
  }
  /// Whether `object` holds floating-point numbers of its own (not in
  /// memory its pointer, reference or vector fields designate).
  static bool holdsOwnNumbers(clang::QualType object) {
    object = object.getCanonicalType();
    while (const clang::ArrayType *array = object->getAsArrayTypeUnsafe())
      object = array->getElementType().getCanonicalType();
    if (object->isRealFloatingType() || object->isAnyComplexType())
      return true;
    if (!ModuleLowering::getVectorElementType(object).isNull())
      return false;
    const auto *record = object->getAsCXXRecordDecl();
    if (!record || !record->hasDefinition())
      return false;
    for (const clang::CXXBaseSpecifier &base : record->bases())
      if (holdsOwnNumbers(base.getType()))
        return true;
    return llvm::any_of(record->fields(), [](const clang::FieldDecl *field) {
      return holdsOwnNumbers(field->getType());
    });
  }
  /// Whether a field of parameter `i`'s object designates memory with
  /// derivatives (an extra argument of its own).
  bool designatesActiveMemory(unsigned i) const {
    return llvm::any_of(fieldArgs, [&](const Extra &extra) {
      return extra.owner == i && extra.activity == ct::Activity::Duplicated;
    });
  }
  /// The number of slots of the object parameter `i` designates or holds.
  Value objectSlots(unsigned i) {
    std::optional<Layout> layout =
        module.getLayout(parameterObject(i), use, paramNames[i]);
    return index(layout ? layout->size : 1);
  }
  /// f's extra arguments: the memory the indirect fields of its parameters'
  /// objects designate (IndirectFields.cpp), each with its parameter.
  struct Extra {
    unsigned owner;
    Layout::IndirectField field;
    ct::Activity activity;
  };
  SmallVector<Extra> fieldArgs;

  /// The pointer stored `offset` bytes into the object at `base`.
  Value loadPointerAt(Value base, int64_t offset) {
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    Value at = LLVM::GEPOp::create(
        b, loc, ptr, b.getI8Type(), base,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
    return LLVM::LoadOp::create(b, loc, ptr, at);
  }
  /// The view of an extra argument, from the pointer to its owner's object
  /// (or the derivative object, whose fields designate the shadows).
  Value viewExtra(const Extra &extra, Value object);
  /// Appends the views of the extra arguments: of all of them over the
  /// primal objects `objects` (one per parameter), or, with `derivatives`,
  /// of the duplicated ones over the derivative objects (one per
  /// parameter of `active`); in vector mode `args`, f's arguments, give
  /// the primal extents their lanes must match.
  void appendExtras(SmallVectorImpl<Value> &views, ValueRange objects,
                    bool derivatives, ValueRange args = {});
  /// The K-lane view of extra argument `extra`'s derivative memory, which
  /// the derivative object `object` designates, for its primal `arg`.
  Value laneExtra(const Extra &extra, Value object, Value arg);
};

Value EntryBuilder::viewExtra(const Extra &extra, Value object) {
  Type type =
      primal
          .getArgumentTypes()[paramTypes.size() + (&extra - fieldArgs.data())];
  clang::QualType fieldType = extra.field.type.getCanonicalType();
  if (!ModuleLowering::getVectorElementType(fieldType).isNull()) {
    std::optional<std::pair<int64_t, int64_t>> offsets =
        module.getVectorPointerOffsets(fieldType, use);
    if (!offsets)
      return view(object, type); // reported
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    Value field = LLVM::GEPOp::create(
        b, loc, ptr, b.getI8Type(), object,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(extra.field.byteOffset)});
    return ct::VectorViewOp::create(b, loc, type, field, offsets->first,
                                    offsets->second);
  }
  // A pointer or reference field: the address it holds.
  return view(loadPointerAt(object, extra.field.byteOffset), type);
}

void EntryBuilder::appendExtras(SmallVectorImpl<Value> &views,
                                ValueRange objects, bool derivatives,
                                ValueRange args) {
  for (const Extra &extra : fieldArgs) {
    if (!derivatives) {
      views.push_back(viewExtra(extra, objects[extra.owner]));
      continue;
    }
    if (extra.activity != ct::Activity::Duplicated)
      continue;
    unsigned k = llvm::find(active, extra.owner) - active.begin();
    unsigned e = &extra - fieldArgs.data();
    views.push_back(inLanes()
                        ? laneExtra(extra, objects[k], args[roles.size() + e])
                        : viewExtra(extra, objects[k]));
  }
}

Value EntryBuilder::laneExtra(const Extra &extra, Value object, Value arg) {
  Value flat = viewExtra(extra, object);
  auto type = cast<MemRefType>(arg.getType());
  if (!ModuleLowering::getVectorElementType(extra.field.type).isNull()) {
    std::string field =
        extra.field.decl
            ? "field '" + extra.field.decl->getName().str() + "' of "
            : "a field of ";
    abortUnlessLanesOf(flat, arg,
                       "the derivative of " + field + paramNames[extra.owner],
                       "its size");
  }
  return laneShape(flat, type);
}

SmallVector<Value> EntryBuilder::primalArguments(ValueRange abi) {
  SmallVector<Value> args;
  for (auto [i, role] : llvm::enumerate(roles)) {
    Type type = primal.getArgumentTypes()[i];
    bool cPointer = isa<LLVM::LLVMPointerType>(abi[i].getType());
    // (A function pointer is the address it holds: view makes it one.)
    if (isa<IntegerType>(type) && cPointer)
      args.push_back(view(abi[i], type));
    else
      args.push_back(isa<MemRefType>(type) && !isa<MemRefType>(abi[i].getType())
                         ? viewParameter(i, abi[i])
                         : abi[i]);
  }
  appendExtras(args, abi, /*derivatives=*/false);
  return args;
}

SmallVector<EntryBuilder::FinalSeeds>
EntryBuilder::takeFinalSeeds(ValueRange pointers, ValueRange abi) {
  SmallVector<FinalSeeds> taken;
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto at = [&](Value base, int64_t offset) -> Value {
    if (offset == 0)
      return base;
    return LLVM::GEPOp::create(
        b, loc, ptr, b.getI8Type(), base,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
  };
  for (auto [k, i] : llvm::enumerate(active)) {
    if (!resizedVectors[i] || activities[i] != ct::Activity::Duplicated)
      continue;
    FinalSeeds seed{
        static_cast<unsigned>(i), {}, 0, parameterObject(i), paramNames[i]};
    if (!takeSeedsOf(seed, pointers[k], abi[i]))
      return {};
    taken.push_back(seed);
  }
  for (const GrownVectorField &field : grownVectorFields()) {
    unsigned k = llvm::find(active, field.param) - active.begin();
    FinalSeeds seed{
        field.param, {}, field.offset, field.vector, "'" + field.name + "'"};
    if (!takeSeedsOf(seed, at(pointers[k], field.offset),
                     at(abi[field.param], field.offset)))
      return {};
    taken.push_back(seed);
  }
  return taken;
}

SmallVector<GrownVectorField> EntryBuilder::grownVectorFields() {
  // (Objects designated by reference or pointer: a by-value copy is the
  // function's own.)
  SmallVector<clang::QualType> objects;
  SmallVector<std::string> names;
  bool anyRecord = false;
  for (auto [i, type] : llvm::enumerate(paramTypes)) {
    bool designated = type->isReferenceType() || type->isPointerType();
    bool duplicated = llvm::is_contained(active, unsigned(i)) &&
                      activities[i] == ct::Activity::Duplicated;
    objects.push_back(designated && duplicated && !resizedVectors[i]
                          ? parameterObject(i)
                          : clang::QualType());
    anyRecord |= !objects.back().isNull() && objects.back()->isRecordType();
    // (The parameter's own name, which messages quote.)
    const clang::FunctionDecl *f = request.function;
    unsigned first = paramTypes.size() - f->getNumParams();
    names.push_back(i >= first ? f->getParamDecl(i - first)->getNameAsString()
                               : std::string("(*this)"));
  }
  if (!anyRecord)
    return {};
  // What f grows is in its body, lowered after the entry points unless
  // lowered now.
  if (primal.isExternal())
    module.lowerPending();
  return findGrownVectorFields(primal, objects, names, module.getAST());
}

bool EntryBuilder::takeSeedsOf(FinalSeeds &seed, Value derivative,
                               Value object) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  std::optional<std::pair<int64_t, int64_t>> offsets =
      module.getVectorPointerOffsets(seed.vector, use);
  MemRefType type = module.getVectorType(seed.vector, use, seed.name);
  if (!offsets || !type)
    return false;
  auto vectorView = [&](Value pointer) -> Value {
    return ct::VectorViewOp::create(b, loc, type, pointer, offsets->first,
                                    offsets->second);
  };
  seed.seeds = vectorView(derivative);
  Value initial = memref::DimOp::create(b, loc, vectorView(object), 0);
  Value zeros = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, type.getElementType()),
      ValueRange{initial});
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  forEach(initial,
          [&](Value j) { memref::StoreOp::create(b, loc, zero, zeros, j); });
  // The derivative vector's three pointers: first, end and end of
  // capacity of the zeros (C++'s operator new made them, its destructor
  // frees them).
  Value first = pointerOf(zeros);
  Value bytes = arith::MulIOp::create(
      b, loc, arith::IndexCastOp::create(b, loc, b.getI64Type(), initial),
      arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                   type.getElementTypeBitWidth() / 8));
  Value end = LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(), first,
                                  ArrayRef<LLVM::GEPArg>{bytes});
  int64_t capacity = 24 - offsets->first - offsets->second;
  for (auto [offset, address] : {std::pair{offsets->first, first},
                                 {offsets->second, end},
                                 {capacity, end}}) {
    Value at = LLVM::GEPOp::create(
        b, loc, ptr, b.getI8Type(), derivative,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
    LLVM::StoreOp::create(b, loc, address, at);
  }
  return true;
}

func::FuncOp EntryBuilder::buildSeededPrimal(ArrayRef<FinalSeeds> seeds,
                                             StringRef name) {
  SmallVector<Type> inputs(primal.getArgumentTypes());
  for (const FinalSeeds &seed : seeds)
    inputs.push_back(seed.seeds.getType());
  auto cellType = MemRefType::get({1}, b.getF64Type());
  inputs.push_back(cellType);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getModule().getBody());
  auto function = func::FuncOp::create(
      b, loc, name, b.getFunctionType(inputs, primal.getResultTypes()));
  function.setPrivate();
  // (A resized vector parameter may designate other memory; a parameter
  // whose vector fields grow, only there: the copy's stores say which.)
  for (const FinalSeeds &seed : seeds)
    if (resizedVectors[seed.param])
      function.setArgAttr(seed.param, ct::kFinalSeedsTakenAttr,
                          b.getUnitAttr());
  for (StringRef attr : {"ct.source_name", "ct.param_names"})
    if (Attribute value = primal->getAttr(attr))
      function->setAttr(attr, value);
  b.setInsertionPointToStart(function.addEntryBlock());
  ValueRange args = function.getArguments();
  unsigned n = primal.getNumArguments();
  // Where fields of the parameters' objects grow, a copy of f in which
  // their growth is allowed (GrownVectorFields.h).
  SmallVector<GrownVectorField> fields;
  for (const FinalSeeds &seed : seeds)
    if (!resizedVectors[seed.param])
      fields.push_back({seed.param, seed.offset, seed.vector, seed.name});
  func::FuncOp callee =
      fields.empty()
          ? primal
          : copyWithSeedsTaken(primal, fields, (name + ".body").str());
  auto call = func::CallOp::create(b, loc, callee, args.take_front(n));
  Value sum = arith::ConstantOp::create(b, loc, b.getF64FloatAttr(0));
  auto sumType = b.getF64Type();
  for (unsigned k = 0; k < seeds.size(); ++k) {
    Value weights = args[n + k];
    Value holder = args[seeds[k].param];
    auto type = cast<MemRefType>(weights.getType());
    // The final contents, through the address the vector object holds.
    auto bytesType = MemRefType::get(
        {ShapedType::kDynamic}, b.getI8Type(),
        StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1}));
    std::pair<int64_t, int64_t> offsets =
        *module.getVectorPointerOffsets(seeds[k].vector, use);
    // (The holder's elements are its object's scalars.)
    int64_t scalarBytes =
        cast<MemRefType>(holder.getType()).getElementTypeBitWidth() / 8;
    auto address = [&](int64_t offset, Type viewType) -> Value {
      return ct::LoadAddressOp::create(
          b, loc, viewType, holder,
          index((seeds[k].offset + offset) / scalarBytes));
    };
    auto bits = [&](Value view) -> Value {
      return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, view);
    };
    Value scalars = arith::DivUIOp::create(
        b, loc,
        arith::SubIOp::create(b, loc, bits(address(offsets.second, bytesType)),
                              bits(address(offsets.first, bytesType))),
        index(type.getElementTypeBitWidth() / 8));
    Value contents = address(offsets.first, type);
    Value given = memref::DimOp::create(b, loc, weights, 0);
    abortIf(arith::AndIOp::create(
                b, loc,
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, given,
                                      index(0)),
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, given,
                                      scalars)),
            "cotangent: " + seeds[k].name +
                " is a std::vector whose size the call decides: its "
                "derivative argument holds the seeds of its final contents, "
                "and must be empty or have the size it has after the call");
    auto loop =
        scf::ForOp::create(b, loc, index(0), given, index(1), ValueRange{sum});
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(loop.getBody());
      Value j = loop.getInductionVar();
      Value product = arith::MulFOp::create(
          b, loc, memref::LoadOp::create(b, loc, weights, j),
          memref::LoadOp::create(b, loc, contents, j));
      if (product.getType() != sumType)
        product = arith::ExtFOp::create(b, loc, sumType, product);
      scf::YieldOp::create(b, loc,
                           ValueRange{arith::AddFOp::create(
                               b, loc, loop.getRegionIterArgs()[0], product)});
    }
    sum = loop.getResult(0);
  }
  memref::StoreOp::create(b, loc, sum, args.back(), ValueRange{index(0)});
  func::ReturnOp::create(b, loc, call.getResults());
  return function;
}

SmallVector<Value> EntryBuilder::shadows(ValueRange pointers, ValueRange args) {
  SmallVector<Value> result;
  for (auto [k, i] : llvm::enumerate(active)) {
    Type type = primal.getArgumentTypes()[i];
    if (activities[i] != ct::Activity::Duplicated)
      continue;
    if (inLanes() && designatesActiveMemory(i))
      // (Its own slots hold no numbers with derivatives: holdsOwnNumbers.)
      result.push_back(
          laneScratch(cast<MemRefType>(type), objectSlots(i), nullptr));
    else if (roles[i] == Role::Memory && inLanes())
      result.push_back(laneDerivative(i, pointers[k], args[i]));
    else if (roles[i] == Role::Memory)
      result.push_back(viewDerivative(i, pointers[k], args[i]));
    else if (roles[i] == Role::Value && inLanes())
      result.push_back(
          laneScratch(cast<MemRefType>(type), sizeOf(i, args[i]), nullptr));
    else if (roles[i] == Role::Value) {
      // A by-value copy is f's own: its shadow starts at zero and is added
      // to the caller's adjoint afterwards; the fields that keep addresses
      // hold the caller's derivative object's (where their shadows are).
      Value own = scratch(cast<MemRefType>(type), sizeOf(i, args[i]), nullptr);
      copyAddressSlots(i, own, viewDerivative(i, pointers[k], args[i]));
      result.push_back(own);
    }
  }
  appendExtras(result, pointers.take_front(active.size()), true, args);
  return result;
}

void EntryBuilder::writeBack(ValueRange pointers, ValueRange adjoints,
                             ValueRange shadowValues, ValueRange args) {
  unsigned nextAdjoint = 0, nextShadow = 0;
  for (auto [k, i] : llvm::enumerate(active)) {
    if (roles[i] == Role::Scalar) {
      accumulate(pointers[k], adjoints[nextAdjoint++]);
      continue;
    }
    if (activities[i] != ct::Activity::Duplicated)
      continue;
    Value shadow = shadowValues[nextShadow++];
    if (inLanes() && designatesActiveMemory(i))
      continue;
    if (roles[i] == Role::Value && inLanes()) {
      Type scalar = cast<MemRefType>(shadow.getType()).getElementType();
      addInto(flatView(pointers[k], scalar), laneBuffers.lookup(shadow),
              arith::MulIOp::create(b, loc, sizeOf(i, args[i]),
                                    index(request.lanes)));
    } else if (roles[i] == Role::Value) {
      addInto(viewDerivative(i, pointers[k], args[i]), shadow,
              sizeOf(i, args[i]), dataSlots(i));
    }
  }
}

SmallVector<Value>
EntryBuilder::tangents(ValueRange abi, ValueRange args,
                       std::optional<ValueRange> fieldTangents) {
  SmallVector<Value> result;
  for (auto [k, i] : llvm::enumerate(active)) {
    Type type = primal.getArgumentTypes()[i];
    Value tangent = abi[k];
    if (roles[i] != Role::Scalar && activities[i] != ct::Activity::Duplicated)
      continue;
    if (inLanes()) {
      if (roles[i] == Role::Scalar)
        tangent = loadLanes(tangent, type);
      else if (designatesActiveMemory(i))
        tangent = laneScratch(cast<MemRefType>(type), objectSlots(i), nullptr);
      else if (roles[i] == Role::Memory)
        tangent = laneDerivative(i, tangent, args[i]);
      else
        tangent =
            laneScratch(cast<MemRefType>(type), sizeOf(i, args[i]), tangent);
    } else if (roles[i] == Role::Memory)
      tangent = isa<MemRefType>(tangent.getType())
                    ? tangent
                    : viewDerivative(i, tangent, args[i]);
    else if (roles[i] == Role::Value)
      // Forward mode may write the tangent of f's copy; the user's is const.
      tangent = scratch(cast<MemRefType>(type), sizeOf(i, args[i]),
                        isa<MemRefType>(tangent.getType())
                            ? tangent
                            : viewDerivative(i, tangent, args[i]));
    result.push_back(tangent);
  }
  if (fieldTangents)
    llvm::append_range(result, *fieldTangents);
  else
    appendExtras(result, abi.take_front(active.size()), true, args);
  return result;
}

SmallVector<Value> EntryBuilder::sizeOwnCopies(ValueRange args) {
  SmallVector<Value> sized(args);
  for (auto [i, arg] : llvm::enumerate(args)) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    std::optional<Layout> layout =
        type && primal.getArgAttr(i, ct::kByValueAttr) && i < paramTypes.size()
            ? module.tryGetLayout(paramTypes[i])
            : std::nullopt;
    if (!layout || type.getRank() != 1)
      continue;
    Value start =
        memref::ExtractStridedMetadataOp::create(b, loc, arg).getOffset();
    Value view = memref::ReinterpretCastOp::create(
        b, loc,
        MemRefType::get(
            {layout->size}, type.getElementType(),
            StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1})),
        arg, OpFoldResult(start),
        ArrayRef<OpFoldResult>{b.getIndexAttr(layout->size)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
    sized[i] = memref::CastOp::create(b, loc, type, view);
  }
  return sized;
}

func::FuncOp EntryBuilder::buildDirectionalDerivative(StringRef name) {
  SmallVector<Type> inputs(primal.getArgumentTypes());
  for (unsigned i : active)
    inputs.push_back(primal.getArgumentTypes()[i]);
  // The tangents of the memory the parameters' fields designate.
  for (auto [e, extra] : llvm::enumerate(fieldArgs))
    if (extra.activity == ct::Activity::Duplicated)
      inputs.push_back(primal.getArgumentTypes()[paramTypes.size() + e]);
  Type result = primal.getResultTypes()[0];
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getModule().getBody());
  auto function =
      func::FuncOp::create(b, loc, name, b.getFunctionType(inputs, {result}));
  function.setPrivate();
  // f's aggregates by value stay own copies here: the entry passes this
  // function the header's copies, which f may write.
  for (unsigned i = 0; i < primal.getNumArguments(); ++i)
    if (primal.getArgAttr(i, ct::kByValueAttr))
      function.setArgAttr(i, ct::kByValueAttr, b.getUnitAttr());
  b.setInsertionPointToStart(function.addEntryBlock());
  ValueRange args = function.getArguments();
  unsigned n = primal.getNumArguments(), m = active.size();
  SmallVector<Value> ts =
      tangents(args.slice(n, m), args.take_front(n), args.drop_front(n + m));
  auto jvp = ct::JvpOp::create(b, loc, TypeRange{result, result},
                               primal.getSymName(), activityAttr(activities),
                               sizeOwnCopies(args.take_front(n)), ts,
                               /*lanes=*/IntegerAttr());
  freeScratch();
  func::ReturnOp::create(b, loc, jvp.getResult(1));
  return function;
}

void EntryBuilder::collectParameters(const clang::FunctionDecl *f) {
  if (const auto *method = dyn_cast<clang::CXXMethodDecl>(f);
      method && method->isInstance()) {
    paramTypes.push_back(method->getThisType());
    resizedVectors.push_back(false);
    paramNames.push_back("the object of '" + f->getQualifiedNameAsString() +
                         "'");
  }
  // The header's result_into<&g, R, ...>::call(R &out, P... p), which
  // writes g's result (an aggregate, a std::vector) to `out`, is named in
  // g's terms in messages.
  const clang::FunctionDecl *named = resultWriterOf(f);
  for (auto [i, param] : llvm::enumerate(f->parameters())) {
    paramTypes.push_back(param->getType());
    resizedVectors.push_back(
        ModuleLowering::keepsVectorParameterInMemory(param));
    if (named && i == 0)
      paramNames.push_back("the result of '" +
                           named->getQualifiedNameAsString() + "'");
    else if (named && i - 1 < named->getNumParams())
      paramNames.push_back("parameter '" +
                           named->getParamDecl(i - 1)->getName().str() +
                           "' of '" + named->getQualifiedNameAsString() + "'");
    else
      paramNames.push_back("parameter '" + param->getName().str() + "' of '" +
                           f->getQualifiedNameAsString() + "'");
  }
}

void EntryBuilder::collectFieldArguments() {
  unsigned extraArgument = paramTypes.size();
  for (auto [i, paramType] : llvm::enumerate(paramTypes)) {
    clang::QualType object = ModuleLowering::getParameterObject(paramType);
    if (object.isNull() ||
        !ModuleLowering::getVectorElementType(object).isNull() ||
        !module.getIteratorElementType(object).isNull())
      continue;
    std::optional<Layout> layout = module.tryGetLayout(object);
    if (!layout)
      continue;
    for (const Layout::IndirectField &field :
         module.getArgumentFields(*layout)) {
      if (extraArgument >= primal.getNumArguments())
        break;
      Type type = primal.getArgumentTypes()[extraArgument++];
      bool isActive = getRole(paramType) != Role::Constant &&
                      request.selected[i] &&
                      ct::getDefaultActivity(type) != ct::Activity::Constant;
      fieldArgs.push_back(
          {static_cast<unsigned>(i), field,
           isActive ? ct::Activity::Duplicated : ct::Activity::Constant});
    }
  }
}

bool EntryBuilder::assignRoles() {
  for (auto [i, paramType] : llvm::enumerate(paramTypes)) {
    Role role = getRole(paramType);
    // A vector kept in memory by value (a vector of vectors): f's copy
    // holds addresses, so its shadow is the caller's derivative object,
    // of the same shape, as a reference parameter's is.
    if (role == Role::Value &&
        ModuleLowering::isVectorObject(paramType.getCanonicalType()))
      role = Role::Memory;
    Type type = primal.getArgumentTypes()[i];
    // Its own data, and the data its fields designate.
    bool hasFloatingData =
        ct::getDefaultActivity(type) != ct::Activity::Constant;
    unsigned owner = i;
    bool designatesFloatingData = llvm::any_of(fieldArgs, [&](const Extra &e) {
      return e.owner == owner && e.activity == ct::Activity::Duplicated;
    });
    if (role != Role::Constant && request.selected[i] && !hasFloatingData &&
        !designatesFloatingData) {
      const clang::CXXRecordDecl *record = paramType.getCanonicalType()
                                               .getNonReferenceType()
                                               ->getPointeeOrArrayElementType()
                                               ->getAsCXXRecordDecl();
      if (!record)
        record = paramType.getCanonicalType()
                     .getNonReferenceType()
                     ->getAsCXXRecordDecl();
      module.error(use, paramNames[i] +
                            (record && ModuleLowering::isKeptAsCompiled(record)
                                 ? " is a library object that differentiable "
                                   "code keeps as the library compiled it, "
                                 : " points at data without floating-point "
                                   "values, ") +
                            "so it has no derivative; exclude it with "
                            "ct::wrt<...>");
      return false;
    }
    // A parameter ct::wrt leaves out keeps its role (memory is still
    // viewed) but is constant.
    roles.push_back(role);
    bool isActive = role != Role::Constant && request.selected[i];
    activities.push_back(!isActive || (role != Role::Scalar && !hasFloatingData)
                             ? ct::Activity::Constant
                         : role == Role::Scalar ? ct::Activity::Active
                                                : ct::Activity::Duplicated);
    // (Active: the caller passes a derivative argument for it.)
    if (isActive)
      active.push_back(i);
  }
  for (const Extra &extra : fieldArgs)
    activities.push_back(extra.activity);
  return true;
}

/// Where the user's code instantiates a driver of <cotangent/dense.h>
/// (ct::jacobian, ct::hessian, ct::batch_jacobian) of `function`; invalid
/// if it does not.
static clang::SourceLocation findDriverUse(ModuleLowering &module,
                                           const clang::Decl *function) {
  clang::ASTContext &ast = module.getAST();
  for (StringRef driver : {"jacobian", "hessian", "batch_jacobian"})
    for (clang::NamedDecl *decl :
         ast.getTranslationUnitDecl()->lookup(&ast.Idents.get("ct")))
      if (auto *ns = dyn_cast<clang::NamespaceDecl>(decl))
        for (clang::NamedDecl *member : ns->lookup(&ast.Idents.get(driver)))
          if (auto *tmpl = dyn_cast<clang::VarTemplateDecl>(member))
            for (clang::VarTemplateSpecializationDecl *spec :
                 tmpl->specializations()) {
              const clang::TemplateArgumentList &args = spec->getTemplateArgs();
              if (args.size() != 0 &&
                  args[0].getKind() == clang::TemplateArgument::Declaration &&
                  args[0].getAsDecl()->getCanonicalDecl() ==
                      function->getCanonicalDecl() &&
                  !module.isLibrary(spec->getPointOfInstantiation()))
                return spec->getPointOfInstantiation();
            }
  return {};
}

bool EntryBuilder::checkLaneSupport(const clang::FunctionDecl *f) {
  // A request of the dense drivers is said at the user's call of the
  // driver, which gives each parameter flat lanes of numbers: an object
  // whose fields designate its numbers has none.
  clang::SourceLocation driver = module.isLibrary(use)
                                     ? findDriverUse(module, f)
                                     : clang::SourceLocation();
  clang::SourceLocation at = driver.isValid() ? driver : use;
  for (unsigned i : active) {
    if (driver.isValid() && designatesActiveMemory(i)) {
      module.error(at, "ct::jacobian, ct::hessian and ct::batch_jacobian "
                       "take numbers, arrays and aggregates of numbers, and "
                       "std::vectors of numbers: " +
                           paramNames[i] +
                           " is an object whose pointer, reference or vector "
                           "fields designate its numbers; leave it out with "
                           "ct::wrt<...>, or take its derivatives by "
                           "ct::pullback or ct::jvp with ct::lanes");
      return false;
    }
    // The fields' derivative memory holds K lanes, as a memory parameter's
    // does; the object itself cannot hold K lanes of its own numbers.
    if (designatesActiveMemory(i) && holdsOwnNumbers(parameterObject(i))) {
      module.error(at, "ct::lanes: " + paramNames[i] +
                           " holds floating-point numbers beside pointer, "
                           "reference or vector fields, and its derivative "
                           "object cannot hold K lanes of them; vector mode "
                           "does not support it yet: pass those numbers as "
                           "parameters of their own, leave the object out "
                           "with ct::wrt<...>, or use one lane");
      return false;
    }
    // Memory holding pointers would need one derivative address per lane;
    // its derivative holds one per slot (docs/Memory.md, item 7).
    if (activities[i] == ct::Activity::Duplicated &&
        holdsKeptAddresses(parameterObject(i))) {
      module.error(at, "ct::lanes: " + paramNames[i] +
                           " is memory that holds pointers, whose derivative "
                           "would need an address per lane; vector mode does "
                           "not support it yet: use one lane (ct::pullback "
                           "or ct::jvp per seed), or pass the memory its "
                           "pointers designate as parameters of their own");
      return false;
    }
    // (The derivative vector of a vector f resizes has one lane, and its
    // final seeds are taken out of it by takeFinalSeeds.)
    if (resizedVectors[i] && activities[i] == ct::Activity::Duplicated) {
      module.error(at, "ct::lanes: '" + displayName(f) +
                           "' resizes its std::vector " + paramNames[i] +
                           ", which vector mode does not support yet; use "
                           "one lane (ct::jvp, ct::pullback), or exclude it "
                           "with ct::wrt<...>");
      return false;
    }
  }
  return true;
}

bool EntryBuilder::checkModeSupport(const clang::FunctionDecl *f) {
  // (Memory of constant parameters carries no derivative, in any mode.)
  if (inLanes() && !checkLaneSupport(f))
    return false;
  // (A nested entry point's std::vector of numbers is its elements'
  // memory, as any memory; objects keep their fields' memory beside them.)
  if (nested &&
      (!fieldArgs.empty() ||
       llvm::any_of(llvm::seq<unsigned>(paramTypes.size()),
                    [&](unsigned i) { return isVectorObjectParameter(i); }))) {
    module.error(use, "'" + displayName(f) +
                          "' takes an object that holds pointers, references "
                          "or vectors, or a std::vector of vectors or one it "
                          "resizes; its derivatives cannot be taken inside a "
                          "differentiable function yet: pass the memory as "
                          "pointers of its own");
    return false;
  }
  return true;
}

void EntryBuilder::buildEntryFunction(const clang::FunctionDecl *f) {
  SmallVector<Type> inputs, results;
  auto abiType = [&](clang::QualType type) -> Type {
    if (type->isPointerType())
      return LLVM::LLVMPointerType::get(b.getContext());
    // (The C++ ABI passes one as two words; lowered code keeps the first.)
    if (type->isMemberFunctionPointerType()) {
      module.error(use, "a pointer to a member function cannot be passed to "
                        "an entry point; choose the member function inside "
                        "the differentiated function");
      return nullptr;
    }
    return module.lowerType(type, use, "an argument of this entry point");
  };
  for (const clang::ParmVarDecl *param : request.call->parameters())
    if (Type type = abiType(param->getType()))
      inputs.push_back(type);
    else
      return;
  if (!request.call->getReturnType()->isVoidType()) {
    Type type = abiType(request.call->getReturnType());
    if (!type)
      return;
    results.push_back(type);
  }
  std::string name = module.mangle(request.call);
  b.setInsertionPointToEnd(module.getModule().getBody());
  auto function =
      func::FuncOp::create(b, loc, name, b.getFunctionType(inputs, results));
  function->setAttr(kEntryPointAttr, b.getUnitAttr());
  function->setAttr("ct.source_name",
                    b.getStringAttr(f->getQualifiedNameAsString()));
  b.setInsertionPointToStart(function.addEntryBlock());
  buildBody(function);
}

void EntryBuilder::build() {
  const clang::FunctionDecl *f = request.function;
  // (A virtual member function named by `&C::f` is called as C++ calls
  // one through a pointer to member: by the object's class.)
  const auto *method = dyn_cast<clang::CXXMethodDecl>(f);
  bool dispatched = method && method->isVirtual() &&
                    !method->hasAttr<clang::FinalAttr>() &&
                    !method->getParent()->hasAttr<clang::FinalAttr>();
  if (!dispatched && !f->hasBody() && !isDifferentiable(f) &&
      !module.hasCustomRule(f)) {
    module.error(use, "'" + displayName(f) +
                          "' has no visible body, so it cannot be "
                          "differentiated; define it in this file, mark its "
                          "declaration [[ct::differentiable]] if another "
                          "file defines it, or give it a custom rule "
                          "(CT_CUSTOM_GRADIENT, CT_CUSTOM_JVP)");
    return;
  }
  // A complex number by value travels in registers in the C++ ABI; the
  // entry points take objects by address.
  auto isComplexValue = [](clang::QualType type) {
    return type.getCanonicalType()->isAnyComplexType();
  };
  if (isComplexValue(f->getReturnType()) ||
      llvm::any_of(f->parameters(), [&](const clang::ParmVarDecl *param) {
        return isComplexValue(param->getType());
      })) {
    module.error(use, "'" + displayName(f) +
                          "' takes or returns a '_Complex' value, which "
                          "derivative entry points do not pass yet; use "
                          "std::complex, or pass it by pointer or reference");
    return;
  }
  primal = dispatched ? module.getVirtualDispatch(method, use)
                      : module.getFunction(f);
  if (!primal)
    return;
  collectParameters(f);
  collectFieldArguments();
  if (primal.getNumArguments() != paramTypes.size() + fieldArgs.size() ||
      (request.kind != EntryKind::Pullback && request.kind != EntryKind::Jvp &&
       primal.getNumResults() != 1)) {
    module.error(use, "'" + displayName(f) +
                          "' cannot be differentiated from C++: only "
                          "functions returning a floating-point value (or "
                          "void) have entry points");
    return;
  }
  if (!assignRoles() || !checkModeSupport(f))
    return;
  if (!nested) {
    buildEntryFunction(f);
    return;
  }
  if (nested.getNumArguments() != request.call->getNumParams()) {
    module.error(use, "this derivative of '" + displayName(f) +
                          "' cannot be taken inside a differentiable "
                          "function yet");
    return;
  }
  b.setInsertionPointToStart(nested.addEntryBlock());
  buildBody(nested);
}

void EntryBuilder::buildReverse(StringRef name, ValueRange abi, ValueRange args,
                                ValueRange extras, ArrayRef<Type> resultTypes) {
  bool hasValue = primal.getNumResults() == 1;
  // A result that is not floating-point has no seed.
  SmallVector<Value> seedValues;
  if (request.kind == EntryKind::Pullback && hasValue &&
      isa<FloatType>(primal.getResultTypes()[0])) {
    seedValues.push_back(inLanes()
                             ? loadLanes(extras[0], primal.getResultTypes()[0])
                             : extras[0]);
    extras = extras.drop_front(1);
  }
  SmallVector<FinalSeeds> finalSeeds = takeFinalSeeds(extras, abi);
  SmallVector<Value> shadowValues = shadows(extras, args);
  // With final seeds: the seeded f, whose sum cell has the seed 1.
  StringRef target = primal.getSymName();
  SmallVector<Value> targetArgs(args), targetShadows(shadowValues);
  SmallVector<ct::Activity> targetActivities(activities);
  if (!finalSeeds.empty()) {
    target =
        buildSeededPrimal(finalSeeds, (name + ".seeded").str()).getSymName();
    auto cellType = MemRefType::get({1}, b.getF64Type());
    Value cell = memref::AllocaOp::create(b, loc, cellType);
    Value cellSeed = memref::AllocaOp::create(b, loc, cellType);
    memref::StoreOp::create(
        b, loc, arith::ConstantOp::create(b, loc, b.getF64FloatAttr(1)),
        cellSeed, ValueRange{index(0)});
    for (const FinalSeeds &seed : finalSeeds) {
      targetArgs.push_back(seed.seeds);
      targetActivities.push_back(ct::Activity::Constant);
    }
    targetArgs.push_back(cell);
    targetActivities.push_back(ct::Activity::Duplicated);
    targetShadows.push_back(cellSeed);
  }
  Operation *op;
  if (request.kind == EntryKind::Gradient)
    op = ct::GradientOp::create(b, loc, resultTypes, target,
                                activityAttr(targetActivities), targetArgs,
                                targetShadows);
  else
    op = ct::PullbackOp::create(b, loc, resultTypes, target,
                                activityAttr(targetActivities), targetArgs,
                                seedValues, targetShadows, laneAttr());
  writeBack(extras, op->getResults().drop_front(hasValue), shadowValues, args);
  for (const FinalSeeds &seed : finalSeeds)
    memref::DeallocOp::create(b, loc, seed.seeds);
  freeScratch();
  func::ReturnOp::create(b, loc, op->getResults().take_front(hasValue));
}

void EntryBuilder::buildBody(func::FuncOp function) {
  std::string name = function.getSymName().str();
  ValueRange abi = function.getArguments();
  unsigned n = paramTypes.size(), m = active.size();
  SmallVector<Value> args = primalArguments(abi.take_front(n));
  ValueRange extras = abi.drop_front(n);
  bool hasValue = primal.getNumResults() == 1;
  SmallVector<Type> resultTypes(primal.getResultTypes());
  for (unsigned i : active)
    if (roles[i] == Role::Scalar)
      resultTypes.push_back(derivativeType(primal.getArgumentTypes()[i]));

  switch (request.kind) {
  case EntryKind::Gradient:
  case EntryKind::Pullback:
    buildReverse(name, abi.take_front(n), args, extras, resultTypes);
    break;
  case EntryKind::Jvp: {
    // The results, then the tangent of a floating-point one (a `bool`
    // result, a Ceres functor's, has none).
    SmallVector<Type> types(primal.getResultTypes());
    bool hasTangent = hasValue && isa<FloatType>(types[0]);
    if (hasTangent)
      types.push_back(derivativeType(types[0]));
    auto op = ct::JvpOp::create(
        b, loc, types, primal.getSymName(), activityAttr(activities), args,
        tangents(extras.take_front(m), args), laneAttr());
    if (hasTangent && inLanes()) {
      storeLanes(extras[m], op.getResult(1));
    } else if (hasTangent) {
      Value out = view(extras[m], getPointerType(op.getResult(1).getType()));
      memref::StoreOp::create(b, loc, op.getResult(1), out, index(0));
    }
    freeScratch();
    func::ReturnOp::create(b, loc, op.getResults().take_front(hasValue));
    break;
  }
  case EntryKind::Hvp: {
    // Reverse over forward: the gradient of x -> f'(x)·v. Forward-mode code
    // has no tapes, so reverse mode takes it like any other function.
    func::FuncOp direction = buildDirectionalDerivative(name + ".direction");
    SmallVector<Value> directionArgs(args);
    for (auto [k, i] : llvm::enumerate(active))
      directionArgs.push_back(roles[i] == Role::Scalar
                                  ? extras[k]
                                  : viewDerivative(i, extras[k], args[i]));
    appendExtras(directionArgs, extras.take_front(m), /*derivatives=*/true);
    SmallVector<ct::Activity> directionActivities(activities);
    directionActivities.append(directionArgs.size() - activities.size(),
                               ct::Activity::Constant);
    ValueRange hv = extras.drop_front(m);
    SmallVector<Value> shadowValues = shadows(hv, args);
    auto op = ct::GradientOp::create(
        b, loc, resultTypes, direction.getSymName(),
        activityAttr(directionActivities), directionArgs, shadowValues);
    writeBack(hv, op->getResults().drop_front(1), shadowValues, args);
    freeScratch();
    func::ReturnOp::create(b, loc);
    break;
  }
  }
}

/// The namespace ct::detail, if the translation unit has one.
const clang::NamespaceDecl *findDetailNamespace(clang::ASTContext &ast) {
  auto lookup = [&](const clang::DeclContext *context,
                    StringRef name) -> const clang::NamespaceDecl * {
    for (clang::NamedDecl *decl : context->lookup(&ast.Idents.get(name)))
      if (auto *ns = dyn_cast<clang::NamespaceDecl>(decl))
        return ns;
    return nullptr;
  };
  const clang::NamespaceDecl *ct = lookup(ast.getTranslationUnitDecl(), "ct");
  return ct ? lookup(ct, "detail") : nullptr;
}

} // namespace

const clang::ClassTemplateDecl *findCotangentTemplate(clang::ASTContext &ast,
                                                      StringRef name) {
  const clang::NamespaceDecl *detail = findDetailNamespace(ast);
  if (!detail)
    return nullptr;
  for (clang::NamedDecl *decl : detail->lookup(&ast.Idents.get(name)))
    if (auto *tmpl = dyn_cast<clang::ClassTemplateDecl>(decl))
      return tmpl;
  return nullptr;
}

/// Where the program names `ct::gradient<f, W>` (or another entry point)
/// for the first time: where a diagnostic about it belongs.
/// ct::detail::all, or all_but_object (what `all` becomes for a member
/// function).
static bool isDefaultSelection(clang::QualType wrt) {
  const auto *record = wrt->getAsCXXRecordDecl();
  return record &&
         (record->getName() == "all" || record->getName() == "all_but_object");
}

/// The selection and lanes a use of an entry point names: its options
/// `ct::wrt<I...>` and `ct::lanes<K>`, in either order.
static std::pair<clang::QualType, int64_t>
getOptions(const clang::TemplateArgumentList &args) {
  clang::QualType selection;
  int64_t lanes = 0;
  for (unsigned i = 1; i < args.size(); ++i) {
    if (args[i].getKind() != clang::TemplateArgument::Type)
      continue;
    const clang::CXXRecordDecl *record =
        args[i].getAsType()->getAsCXXRecordDecl();
    const auto *spec =
        dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(record);
    if (spec && spec->getName() == "lanes")
      lanes = spec->getTemplateArgs()[0].getAsIntegral().getExtValue();
    else if (!(record && record->getName() == "no_option"))
      selection = args[i].getAsType();
  }
  return {selection, lanes};
}

static clang::SourceLocation findUse(clang::ASTContext &ast, EntryKind kind,
                                     const clang::Decl *function,
                                     clang::QualType wrt, int64_t lanes) {
  static constexpr StringRef names[] = {"gradient", "pullback", "jvp", "hvp"};
  for (clang::NamedDecl *decl :
       ast.getTranslationUnitDecl()->lookup(&ast.Idents.get("ct")))
    if (auto *ns = dyn_cast<clang::NamespaceDecl>(decl))
      for (clang::NamedDecl *member :
           ns->lookup(&ast.Idents.get(names[static_cast<int>(kind)])))
        if (auto *tmpl = dyn_cast<clang::VarTemplateDecl>(member))
          for (clang::VarTemplateSpecializationDecl *spec :
               tmpl->specializations()) {
            const clang::TemplateArgumentList &args = spec->getTemplateArgs();
            if (args.size() < 2 ||
                args[0].getKind() != clang::TemplateArgument::Declaration ||
                args[0].getAsDecl()->getCanonicalDecl() !=
                    function->getCanonicalDecl())
              continue;
            auto [selection, specLanes] = getOptions(args);
            bool sameSelection = selection.isNull()
                                     ? isDefaultSelection(wrt)
                                     : ast.hasSameType(selection, wrt) ||
                                           (isDefaultSelection(selection) &&
                                            isDefaultSelection(wrt));
            if (!sameSelection || specLanes != lanes)
              continue;
            return spec->getPointOfInstantiation();
          }
  return function->getLocation();
}

/// The request a specialization of ct::detail::entry (or method_entry)
/// makes through its `call`, and where the program names it.
static std::optional<std::pair<EntryRequest, clang::SourceLocation>>
parseRequest(clang::ASTContext &ast,
             const clang::ClassTemplateSpecializationDecl *spec,
             const clang::CXXMethodDecl *call) {
  const clang::TemplateArgumentList &args = spec->getTemplateArgs();
  if (args.size() != 5)
    return std::nullopt;
  const clang::CXXRecordDecl *tag = args[0].getAsType()->getAsCXXRecordDecl();
  // `in_lanes<Tag, K>`: vector mode with K lanes.
  int64_t lanes = 0;
  if (const auto *inLanes =
          dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(tag);
      inLanes && inLanes->getName() == "in_lanes") {
    const clang::TemplateArgumentList &laneArgs = inLanes->getTemplateArgs();
    tag = laneArgs[0].getAsType()->getAsCXXRecordDecl();
    lanes = laneArgs[1].getAsIntegral().getExtValue();
  }
  const auto *function =
      args[2].getKind() == clang::TemplateArgument::Declaration
          ? dyn_cast<clang::FunctionDecl>(args[2].getAsDecl())
          : nullptr;
  if (!tag || !function)
    return std::nullopt;
  std::optional<EntryKind> kind =
      llvm::StringSwitch<std::optional<EntryKind>>(tag->getName())
          .Case("gradient_of", EntryKind::Gradient)
          .Case("pullback_of", EntryKind::Pullback)
          .Case("jvp_of", EntryKind::Jvp)
          .Case("hvp_of", EntryKind::Hvp)
          .Default(std::nullopt);
  if (!kind)
    return std::nullopt;
  EntryRequest request{*kind, call, function, {}, lanes};
  // ct::wrt<I...> lists the active parameters (a member function's
  // object is 0); ct::detail::all is all, all_but_object all of a member
  // function's but its object.
  const auto *method = dyn_cast<clang::CXXMethodDecl>(function);
  bool hasObject = method && method->isInstance();
  request.selected.assign(function->getNumParams() + hasObject, true);
  clang::QualType wrt = args[3].getAsType();
  const auto *selection = wrt->getAsCXXRecordDecl();
  if (selection && selection->getName() == "all_but_object")
    request.selected[0] = false;
  if (const auto *list =
          dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
              wrt->getAsCXXRecordDecl());
      list && list->getName() == "wrt") {
    request.selected.assign(function->getNumParams() + hasObject, false);
    for (const clang::TemplateArgument &pack :
         list->getTemplateArgs()[0].pack_elements()) {
      int64_t i = pack.getAsIntegral().getExtValue();
      if (i >= 0 && i < static_cast<int64_t>(request.selected.size()))
        request.selected[i] = true;
    }
  }
  return std::make_pair(request, findUse(ast, *kind, function, wrt, lanes));
}

void lowerEntryPoints(ModuleLowering &module) {
  clang::ASTContext &ast = module.getAST();
  SmallVector<clang::ClassTemplateSpecializationDecl *> specs;
  for (StringRef name : {"entry", "method_entry"})
    if (const clang::ClassTemplateDecl *entry =
            findCotangentTemplate(ast, name))
      specs.append(entry->specializations().begin(),
                   entry->specializations().end());
  llvm::DenseSet<const clang::Decl *> done;
  for (clang::ClassTemplateSpecializationDecl *spec : specs) {
    if (!spec->hasDefinition())
      continue;
    const clang::CXXMethodDecl *call = nullptr;
    for (const clang::CXXMethodDecl *method : spec->methods())
      if (method->getName() == "call" && method->isUsed())
        call = method;
    // A specialization may be listed once per redeclaration.
    if (!call || !done.insert(call->getCanonicalDecl()).second)
      continue;
    if (auto parsed = parseRequest(ast, spec, call))
      EntryBuilder(module, parsed->first, parsed->second).build();
  }
}

bool lowerNestedEntryPoints(ModuleLowering &module) {
  bool built = false;
  // (Building one may lower functions that call others: the list grows.)
  for (size_t i = 0; i < module.nestedEntries.size(); ++i) {
    auto [call, function] = module.nestedEntries[i];
    if (!function.isExternal())
      continue;
    built = true;
    const auto *spec =
        cast<clang::ClassTemplateSpecializationDecl>(call->getParent());
    auto parsed = parseRequest(module.getAST(), spec, call);
    // (Lowered on its own: its errors, in Cotangent's header, end with
    // notes at the calls that led there, up to the user's line.)
    module.enter(call);
    if (parsed)
      EntryBuilder(module, parsed->first, parsed->second, function).build();
    module.leave();
    if (!parsed)
      module.error(call->getLocation(),
                   "this derivative cannot be taken inside a "
                   "differentiable function");
    if (function.isExternal()) {
      // Reported: give it a body that does nothing so the module verifies.
      OpBuilder b(function.getContext());
      b.setInsertionPointToStart(function.addEntryBlock());
      SmallVector<Value> zeros;
      for (Type type : function.getResultTypes())
        zeros.push_back(arith::ConstantOp::create(b, function.getLoc(), type,
                                                  b.getZeroAttr(type)));
      func::ReturnOp::create(b, function.getLoc(), zeros);
    }
  }
  return built;
}

bool isEntryCall(const clang::FunctionDecl *function) {
  const auto *method = dyn_cast<clang::CXXMethodDecl>(function);
  if (!method || !method->getIdentifier() || method->getName() != "call")
    return false;
  const auto *spec =
      dyn_cast<clang::ClassTemplateSpecializationDecl>(method->getParent());
  if (!spec ||
      (spec->getName() != "entry" && spec->getName() != "method_entry"))
    return false;
  return isInCotangentDetail(spec);
}

bool isInCotangentDetail(const clang::Decl *decl) {
  const auto *detail = dyn_cast<clang::NamespaceDecl>(decl->getDeclContext());
  const auto *ct =
      detail ? dyn_cast<clang::NamespaceDecl>(detail->getDeclContext())
             : nullptr;
  return ct && detail->getName() == "detail" && ct->getName() == "ct" &&
         ct->getDeclContext()->isTranslationUnit();
}

} // namespace cotangent::frontend
