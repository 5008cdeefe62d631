//===- OffloadLoops.cpp - GPU kernels of parallel loops -------------------===//
//
// A parallel loop the user asked to run on a GPU (`ct.device`) becomes
//
//   %gpu = ct_gpu_begin(every dynamic extent is known, the loop's name)
//   scf.if %gpu {
//     device copies of the memory the loop uses (gpu.alloc + ct_gpu_copy),
//     tape blocks included; per reduction, 1024 device cells holding its
//     identity (or one holding its initial value);
//     the loop on those, tiled 256 iterations to a block and mapped to
//     blocks and threads; iteration i combines its contribution into cell
//     i mod 1024 atomically;
//     what the loop writes, and the cells, copied back; gpu.dealloc
//   }
//   %results = scf.if ct_gpu_end(%gpu) { the initial values combined with
//                                         the cells }
//              else { the loop's CPU twin, or the loop }
//
// convert-parallel-loops-to-gpu and gpu-kernel-outlining then make the
// kernel. The host's memory is written only after the kernel ran without
// error, so a driver error leaves the CPU loop to compute everything. A
// loop whose body a GPU cannot run (calls, tapes other than blocks, math
// without a device implementation, memory other than arrays of numbers)
// stays on the CPU.
//
//===----------------------------------------------------------------------===//

#include "cotangent/CodeGen/Conversion/AllocaScopes.h"
#include "cotangent/CodeGen/Passes.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringSet.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Path.h"

#define DEBUG_TYPE "ct-offload-loops"

using namespace mlir;

namespace cotangent::codegen {

#define GEN_PASS_DEF_OFFLOADLOOPS
#include "cotangent/CodeGen/Passes.h.inc"
namespace {

/// Iterations per GPU block.
constexpr int64_t kBlockSize = 256;
/// Device cells a reduction with a known identity is spread over (the
/// iteration's index modulo this): atomics on one cell from every thread
/// serialize (17.6 ms for 10⁷ additions on an H200).
constexpr int64_t kReductionStripes = 1024;

/// The identity of the reduction `combiner` combines with (lhs, rhs):
/// sums, products, and max/min as arith ops or as `lhs < rhs ? rhs : lhs`
/// (ct-parallelize-loops' form); none for others.
std::optional<TypedAttr> getReductionIdentity(Block &combiner) {
  Operation *result = combiner.getTerminator()->getOperand(0).getDefiningOp();
  Type type = combiner.getArgument(0).getType();
  Value lhs = combiner.getArgument(0), rhs = combiner.getArgument(1);
  if (!result || result->getBlock() != &combiner)
    return std::nullopt;
  auto both = [&](Operation *op) {
    return (op->getOperand(0) == lhs && op->getOperand(1) == rhs) ||
           (op->getOperand(0) == rhs && op->getOperand(1) == lhs);
  };
  auto floatAttr = [&](double v) -> TypedAttr {
    return FloatAttr::get(type, v);
  };
  auto intAttr = [&](const APInt &v) -> TypedAttr {
    return IntegerAttr::get(type, v);
  };
  unsigned width = isa<IndexType>(type) ? IndexType::kInternalStorageBitWidth
                                        : type.getIntOrFloatBitWidth();
  if (isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MaxNumFOp,
          arith::MinimumFOp, arith::MinNumFOp>(result) &&
      both(result)) {
    if (isa<arith::AddFOp>(result))
      return floatAttr(-0.0);
    if (isa<arith::MulFOp>(result))
      return floatAttr(1.0);
    return floatAttr(isa<arith::MaximumFOp, arith::MaxNumFOp>(result)
                         ? -INFINITY
                         : INFINITY);
  }
  if (isa<arith::AddIOp, arith::MulIOp, arith::MaxSIOp, arith::MinSIOp>(
          result) &&
      both(result)) {
    if (isa<arith::AddIOp>(result))
      return intAttr(APInt(width, 0));
    if (isa<arith::MulIOp>(result))
      return intAttr(APInt(width, 1));
    return intAttr(isa<arith::MaxSIOp>(result)
                       ? APInt::getSignedMinValue(width)
                       : APInt::getSignedMaxValue(width));
  }
  // select(cmp(lhs, rhs), rhs, lhs): rhs wins when lhs < rhs (a max) or
  // lhs > rhs (a min).
  auto select = dyn_cast<arith::SelectOp>(result);
  auto compare =
      select ? select.getCondition().getDefiningOp<arith::CmpFOp>() : nullptr;
  if (!compare || compare->getBlock() != &combiner || compare.getLhs() != lhs ||
      compare.getRhs() != rhs || select.getTrueValue() != rhs ||
      select.getFalseValue() != lhs)
    return std::nullopt;
  switch (compare.getPredicate()) {
  case arith::CmpFPredicate::OLT:
  case arith::CmpFPredicate::ULT:
    return floatAttr(-INFINITY);
  case arith::CmpFPredicate::OGT:
  case arith::CmpFPredicate::UGT:
    return floatAttr(INFINITY);
  default:
    return std::nullopt;
  }
}

/// The claim or release that made `block`, if one did.
Operation *getTapeBlock(Value block);

/// Whether the reduction `combiner` is a sum (one atomic add on a GPU).
bool isSum(Block &combiner) {
  Operation &first = combiner.front();
  return isa<arith::AddFOp, arith::AddIOp>(first) &&
         &first == combiner.getTerminator()->getPrevNode() &&
         combiner.getTerminator()->getOperand(0) == first.getResult(0);
}

/// The type of a reduction's device cells: its own for sums (atomic adds)
/// and integers; an integer of its width for other floating combiners,
/// which run in a compare-and-swap loop (LLVM's cmpxchg takes integers).
Type getCellType(Block &combiner) {
  Type type = combiner.getArgument(0).getType();
  if (isSum(combiner) || !isa<FloatType>(type))
    return type;
  return IntegerType::get(type.getContext(), type.getIntOrFloatBitWidth());
}

/// Whether a kernel can compute `op`: arithmetic, structured control flow,
/// loads and stores, fixed-size local arrays, and the math functions that
/// have a device implementation (native, or ct-expand-device-math's).
bool isKernelOp(Operation *op) {
  if (isa<arith::ArithDialect>(op->getDialect()))
    return true;
  if (isa<scf::ForOp, scf::IfOp, scf::YieldOp, scf::WhileOp, scf::ConditionOp,
          scf::IndexSwitchOp, ub::PoisonOp>(op))
    return true;
  if (isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp,
          memref::AllocaScopeOp, memref::AllocaScopeReturnOp, memref::CastOp,
          memref::SubViewOp, memref::ReinterpretCastOp,
          memref::ExtractStridedMetadataOp, memref::DimOp>(op))
    return true;
  if (auto alloca = dyn_cast<memref::AllocaOp>(op))
    return alloca.getType().hasStaticShape();
  // Slots of a tape block claimed or released before the loop (the block
  // is copied like an array).
  if (isa<ct::TapeWriteOp, ct::TapeReadOp>(op))
    return getTapeBlock(op->getOperand(0)) != nullptr;
  if (isa<math::SqrtOp, math::AbsFOp, math::FmaOp, math::FloorOp, math::CeilOp,
          math::CopySignOp, math::TruncOp, math::ExpOp, math::LogOp>(op))
    return isa<Float32Type, Float64Type>(op->getResult(0).getType());
  return false;
}

/// The claim or release that made `block`, if one did.
Operation *getTapeBlock(Value block) {
  Operation *def = block.getDefiningOp();
  return isa_and_nonnull<ct::TapeClaimOp, ct::TapeReleaseOp>(def) ? def
                                                                  : nullptr;
}

bool isNumber(Type type) {
  return isa<IntegerType, IndexType, Float32Type, Float64Type>(type);
}

/// Whether `type` is memory a copy of contiguous bytes moves: numbers, in
/// row-major order from its offset.
bool isContiguousArray(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !isNumber(memref.getElementType()))
    return false;
  if (memref.getLayout().isIdentity())
    return true;
  auto strided = dyn_cast<StridedLayoutAttr>(memref.getLayout());
  return strided && memref.getRank() == 1 && strided.getStrides()[0] == 1;
}

/// The memref `value` is a view of, through view operations.
Value viewedMemory(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    value = view.getViewSource();
  }
  return value;
}

/// What `op`, which a kernel cannot compute, is in the user's C++ terms:
/// the function it calls, for math and calls.
std::string describeForUser(Operation *op) {
  StringRef name = op->getName().stripDialect();
  if (isa<math::MathDialect>(op->getDialect())) {
    std::string function = llvm::StringSwitch<std::string>(name)
                               .Case("absf", "fabs")
                               .Cases({"powf", "fpowi", "ipowi"}, "pow")
                               .Case("roundeven", "rint")
                               .Default(name.str());
    return "it calls '" + function + "', which has no device version yet";
  }
  if (isa<ct::CTDialect>(op->getDialect()) &&
      llvm::is_contained({"hypot", "lgamma", "tgamma", "polygamma"}, name))
    return "it calls '" + name.str() + "', which has no device version yet";
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    auto source =
        callee ? callee->getAttrOfType<StringAttr>("ct.source_name") : nullptr;
    return "it calls '" +
           (source ? source.getValue() : call.getCallee()).str() +
           "', and a kernel cannot call functions yet";
  }
  if (auto call = dyn_cast<LLVM::CallOp>(op))
    return "it calls '" +
           (call.getCallee() ? call.getCallee()->str() : std::string("?")) +
           "', and a kernel cannot call functions yet";
  if (isa<memref::AllocOp, memref::DeallocOp, memref::AllocaOp>(op))
    return "it allocates memory whose size is known only when it runs";
  if (isa<ct::TapeInitOp, ct::TapePushOp, ct::TapePopOp, ct::TapeReserveOp,
          ct::TapeClaimOp, ct::TapeReleaseOp, ct::TapeWriteOp, ct::TapeReadOp,
          ct::TapeFreeOp>(op))
    return "its derivative keeps a tape per iteration, which kernels cannot "
           "hold yet";
  if (isa<ct::VTableAddressOp>(op))
    return "it calls a virtual function (or makes an object of a class with "
           "them), which kernels cannot do yet";
  if (isa<ct::FunctionAddressOp>(op))
    return "it takes a function's address (a function pointer), which "
           "kernels cannot do yet";
  if (isa<ct::AbortOp>(op))
    return "it checks a condition that ends the program (an assert), which "
           "kernels cannot do yet";
  return "it does something kernels cannot do yet";
}

/// Why `loop` cannot run on a GPU, in the user's terms, or empty if it
/// can.
std::string whyNotOffloadable(scf::ParallelOp loop) {
  if (loop.getNumLoops() != 1)
    return "it is a multi-dimensional loop (collapse)";
  std::string why;
  Operation *reduce = loop.getBody()->getTerminator();
  loop.getBody()->walk([&](Operation *op) {
    if (reduce->isAncestor(op) || isKernelOp(op))
      return WalkResult::advance();
    why = describeForUser(op);
    return WalkResult::interrupt();
  });
  if (!why.empty())
    return why;
  for (Region &reduction : loop.getBody()->getTerminator()->getRegions())
    for (Operation &op : reduction.front())
      if (!isa<arith::ArithDialect>(op.getDialect()) &&
          !isa<scf::ReduceReturnOp>(op))
        return "its reduction is not arithmetic";
  for (Value init : loop.getInitVals())
    if (!isNumber(init.getType()))
      return "it reduces something other than a number";
  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(loop.getRegion(), used);
  llvm::DenseMap<Value, Value> rootOf;
  for (Value value : used) {
    if (isNumber(value.getType()) || getTapeBlock(value))
      continue;
    if (!isContiguousArray(value.getType()))
      return "it uses memory that is not a contiguous array of numbers";
    rootOf[value] = viewedMemory(value);
  }
  // Two blocks of one tape may overlap (a claim reuses what a release
  // gave back): each would get a device copy of its own.
  llvm::SmallPtrSet<Value, 4> tapes;
  for (Value value : used)
    if (Operation *block = getTapeBlock(value))
      if (!tapes.insert(block->getOperand(0)).second)
        return "its derivative uses two blocks of one tape";
  // Two views of one array would get two device copies.
  for (auto [a, rootA] : rootOf)
    for (auto [b, rootB] : rootOf)
      if (a != b && rootA == rootB)
        return "it uses two views of one array";
  return "";
}

/// Whether the loop only reads `buffer` (then it is not copied back).
bool isOnlyRead(Value buffer, scf::ParallelOp loop) {
  return llvm::all_of(buffer.getUses(), [&](OpOperand &use) {
    return !loop->isAncestor(use.getOwner()) ||
           isa<memref::LoadOp, memref::DimOp>(use.getOwner());
  });
}

/// Declares (once) the runtime function `name`.
func::FuncOp runtimeFunction(ModuleOp module, StringRef name,
                             FunctionType type) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto function = func::FuncOp::create(b, module.getLoc(), name, type);
  function.setPrivate();
  return function;
}

/// Inlines the alloca scopes in `region`: a kernel's iteration is a thread
/// of its own, whose stack goes when it ends.
void inlineAllocaScopes(Region &region) {
  SmallVector<memref::AllocaScopeOp> scopes;
  region.walk([&](memref::AllocaScopeOp scope) { scopes.push_back(scope); });
  for (memref::AllocaScopeOp scope : scopes)
    spliceAllocaScope(scope);
}

class Offloader {
public:
  Offloader(scf::ParallelOp loop, Operation *twin, ModuleOp module)
      : loop(loop), twin(twin), module(module), b(loop), loc(loop.getLoc()),
        layout(DataLayout::closest(loop)) {}

  void run();

private:
  /// A device copy of host memory the loop uses.
  struct DeviceCopy {
    Value host, device, hostPointer, devicePointer, bytes;
  };

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  /// The address of `buffer`'s first element, as an index.
  Value firstElement(Value buffer) {
    auto type = cast<MemRefType>(buffer.getType());
    Value aligned =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
    if (type.getLayout().isIdentity())
      return aligned;
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
    Value offsetBytes = arith::MulIOp::create(b, loc, metadata.getOffset(),
                                              index(elementBytes(type)));
    return arith::AddIOp::create(b, loc, aligned, offsetBytes);
  }
  int64_t elementBytes(MemRefType type) {
    return (layout.getTypeSizeInBits(type.getElementType()) + 7) / 8;
  }
  void copy(const DeviceCopy &c, bool toDevice) {
    Value direction = arith::ConstantIntOp::create(b, loc, toDevice, 32);
    func::CallOp::create(
        b, loc, copyFunction,
        ValueRange{c.devicePointer, c.hostPointer, c.bytes, direction});
  }
  /// A C string naming the loop for the runtime's messages: its function
  /// and source line.
  Value describeLoop();
  /// gpu.alloc and gpu.dealloc, which gpu-to-llvm lowers in their async
  /// form only: each on a stream of its own, waited for.
  Value deviceAlloc(Type type, ValueRange sizes) {
    Type token = gpu::AsyncTokenType::get(b.getContext());
    Value stream =
        gpu::WaitOp::create(b, loc, token, ValueRange{}).getAsyncToken();
    auto alloc = gpu::AllocOp::create(b, loc, type, token, ValueRange{stream},
                                      sizes, ValueRange{});
    gpu::WaitOp::create(b, loc, Type(), ValueRange{alloc.getAsyncToken()});
    return alloc.getMemref();
  }
  void deviceFree(Value memref) {
    Type token = gpu::AsyncTokenType::get(b.getContext());
    Value stream =
        gpu::WaitOp::create(b, loc, token, ValueRange{}).getAsyncToken();
    auto free =
        gpu::DeallocOp::create(b, loc, token, ValueRange{stream}, memref);
    gpu::WaitOp::create(b, loc, Type(), ValueRange{free.getAsyncToken()});
  }
  /// A device allocation like `host` (of `element`s if given) and the
  /// addresses and size of the copy between them.
  DeviceCopy makeDeviceCopy(Value host, Value bytes,
                            ArrayRef<Value> dynamicSizes,
                            Type element = nullptr);
  /// The kernel's loop: the body on device memory, contributions combined
  /// into the cells.
  void buildKernelLoop(IRMapping &mapping, ArrayRef<Value> cells);
  /// Tape slots in the kernel: loads and stores of the device copies of
  /// their blocks (8-byte slots, a narrower value in the low bytes, as the
  /// host's tape stores it).
  void rewriteTapeAccesses(Operation *kernel);

  /// The memory the loop uses from outside: buffers, and tape blocks.
  void collectUsedMemory();
  /// Each buffer's dynamic sizes and bytes; whether every extent is known.
  Value measureBuffers();
  /// Host cells (allocas in the function's entry) that receive the
  /// reductions' results.
  void createHostCells();
  /// Device copies in, the kernel, copies back: the GPU path.
  void buildGpuPath();
  /// Device copies of the tape blocks, each with whether the loop writes
  /// it (a claimed block) rather than reads it (a released one).
  SmallVector<std::pair<DeviceCopy, bool>> copyTapeBlocksIn();
  /// The reductions' device cells, started from their identity or initial
  /// value.
  SmallVector<DeviceCopy> startDeviceCells();
  /// The loop's results: the cells combined if the GPU ran it, else the CPU
  /// loop (its twin, or itself).
  void buildResultChoice(Value ranOnGpu);
  /// `init` combined with the stripes of `cell` in order, by `combiner`.
  Value combineStripes(Value init, Value cell, Block &combiner, Value zero);

  /// Device copies (memref<?xi64>) of the tape blocks the loop uses.
  llvm::DenseMap<Value, Value> deviceBlocks;
  SmallVector<Value> buffers, blocks;
  SmallVector<SmallVector<Value>> dynamicSizes;
  SmallVector<Value> bytes;
  SmallVector<Value> hostCells;
  SmallVector<std::optional<TypedAttr>> identities;

  scf::ParallelOp loop;
  /// The loop's twin for CPU threads (right after it), or null.
  Operation *twin;
  ModuleOp module;
  OpBuilder b;
  Location loc;
  DataLayout layout;
  func::FuncOp copyFunction;
};

Value Offloader::describeLoop() {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "the loop";
  if (auto at = loc->findInstanceOf<FileLineColLoc>())
    os << " at " << llvm::sys::path::filename(at.getFilename().getValue())
       << ":" << at.getLine();
  auto function = loop->getParentOfType<FunctionOpInterface>();
  if (auto name = function->getAttrOfType<StringAttr>("ct.source_name"))
    os << " in " << name.getValue();
  os << '\0';
  OpBuilder detached(b.getContext());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size());
  auto global = LLVM::GlobalOp::create(detached, loc, type, /*isConstant=*/true,
                                       LLVM::Linkage::Private, "__ct_gpu_loop",
                                       b.getStringAttr(text));
  // The symbol table makes the name unique.
  SymbolTable(module).insert(global);
  return LLVM::AddressOfOp::create(b, loc, global);
}

Offloader::DeviceCopy Offloader::makeDeviceCopy(Value host, Value bytes,
                                                ArrayRef<Value> dynamicSizes,
                                                Type element) {
  auto type = cast<MemRefType>(host.getType());
  auto deviceType = MemRefType::get(type.getShape(),
                                    element ? element : type.getElementType());
  Value device = deviceAlloc(deviceType, dynamicSizes);
  DeviceCopy c{host, device, firstElement(host),
               memref::ExtractAlignedPointerAsIndexOp::create(b, loc, device),
               bytes};
  return c;
}

void Offloader::rewriteTapeAccesses(Operation *kernel) {
  SmallVector<Operation *> accesses;
  kernel->walk([&](Operation *op) {
    if (isa<ct::TapeWriteOp, ct::TapeReadOp>(op))
      accesses.push_back(op);
  });
  Type i64 = IntegerType::get(kernel->getContext(), 64);
  for (Operation *op : accesses) {
    OpBuilder at(op);
    Location l = op->getLoc();
    Value slots = deviceBlocks.lookup(op->getOperand(0));
    Value slot = op->getOperand(1);
    if (auto write = dyn_cast<ct::TapeWriteOp>(op)) {
      Value value = write.getValue();
      Type type = value.getType();
      if (type.isIndex())
        value = arith::IndexCastOp::create(at, l, i64, value);
      else if (auto f = dyn_cast<FloatType>(type))
        value = arith::BitcastOp::create(
            at, l, IntegerType::get(at.getContext(), f.getWidth()), value);
      if (value.getType().getIntOrFloatBitWidth() < 64)
        value = arith::ExtUIOp::create(at, l, i64, value);
      memref::StoreOp::create(at, l, value, slots, ValueRange{slot});
      op->erase();
      continue;
    }
    Type type = op->getResult(0).getType();
    Value value = memref::LoadOp::create(at, l, slots, ValueRange{slot});
    if (type.isIndex()) {
      value = arith::IndexCastOp::create(at, l, type, value);
    } else {
      unsigned width = type.getIntOrFloatBitWidth();
      if (width < 64)
        value = arith::TruncIOp::create(
            at, l, IntegerType::get(at.getContext(), width), value);
      if (isa<FloatType>(type))
        value = arith::BitcastOp::create(at, l, type, value);
    }
    op->getResult(0).replaceAllUsesWith(value);
    op->erase();
  }
}

void Offloader::buildKernelLoop(IRMapping &mapping, ArrayRef<Value> cells) {
  auto kernel = scf::ParallelOp::create(b, loc, loop.getLowerBound(),
                                        loop.getUpperBound(), loop.getStep());
  Block *body = kernel.getBody();
  mapping.map(loop.getInductionVars(), kernel.getInductionVars());
  OpBuilder inside = OpBuilder::atBlockBegin(body);
  for (Operation &op : loop.getBody()->without_terminator())
    inside.clone(op, mapping);
  auto reduce = cast<scf::ReduceOp>(loop.getBody()->getTerminator());
  Value zero = arith::ConstantIndexOp::create(inside, loc, 0);
  // The iteration's stripe: its position in the loop, modulo the cells.
  Value position = arith::SubIOp::create(
      inside, loc, kernel.getInductionVars()[0], kernel.getLowerBound()[0]);
  for (auto [operand, region, cell] :
       llvm::zip_equal(reduce.getOperands(), reduce.getReductions(), cells)) {
    Value contribution = mapping.lookupOrDefault(operand);
    Block &combiner = region.front();
    int64_t stripes = cast<MemRefType>(cell.getType()).getDimSize(0);
    Value at = stripes == 1
                   ? zero
                   : Value(arith::RemUIOp::create(
                         inside, loc, position,
                         arith::ConstantIndexOp::create(inside, loc, stripes)));
    // A sum is one atomic add; other combiners run in a compare-and-swap
    // loop on the cell (of floats, through their bits).
    if (isSum(combiner)) {
      memref::AtomicRMWOp::create(inside, loc,
                                  isa<arith::AddFOp>(combiner.front())
                                      ? arith::AtomicRMWKind::addf
                                      : arith::AtomicRMWKind::addi,
                                  contribution, cell, ValueRange{at});
      continue;
    }
    auto rmw =
        memref::GenericAtomicRMWOp::create(inside, loc, cell, ValueRange{at});
    OpBuilder atomic = OpBuilder::atBlockEnd(rmw.getBody());
    Type type = contribution.getType();
    Value current = rmw.getCurrentValue();
    if (current.getType() != type)
      current = arith::BitcastOp::create(atomic, loc, type, current);
    IRMapping combine;
    combine.map(combiner.getArgument(0), current);
    combine.map(combiner.getArgument(1), contribution);
    for (Operation &op : combiner.without_terminator())
      atomic.clone(op, combine);
    Value next =
        combine.lookupOrDefault(combiner.getTerminator()->getOperand(0));
    if (next.getType() != rmw.getCurrentValue().getType())
      next = arith::BitcastOp::create(atomic, loc,
                                      rmw.getCurrentValue().getType(), next);
    memref::AtomicYieldOp::create(atomic, loc, next);
  }
  inlineAllocaScopes(kernel.getRegion());
  rewriteTapeAccesses(kernel);
  // Blocks of kBlockSize threads, an iteration each.
  auto [blocks, threads] =
      scf::tileParallelLoop(kernel, {kBlockSize}, /*noMinMaxBounds=*/true);
  MLIRContext *context = loop.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  auto mapTo = [&](scf::ParallelOp op, gpu::Processor processor) {
    (void)gpu::setMappingAttr(op, {gpu::ParallelLoopDimMappingAttr::get(
                                      context, processor, identity, identity)});
  };
  mapTo(blocks, gpu::Processor::BlockX);
  mapTo(threads, gpu::Processor::ThreadX);
}

void Offloader::run() {
  Type i32 = b.getI32Type();
  auto pointer = LLVM::LLVMPointerType::get(b.getContext());
  auto begin = runtimeFunction(module, "ct_gpu_begin",
                               b.getFunctionType({i32, pointer}, {i32}));
  auto end =
      runtimeFunction(module, "ct_gpu_end", b.getFunctionType({i32}, {i32}));
  Type indexType = b.getIndexType();
  copyFunction = runtimeFunction(
      module, "ct_gpu_copy",
      b.getFunctionType({indexType, indexType, indexType, i32}, {}));

  collectUsedMemory();
  Value known = measureBuffers();
  Value useGpu = func::CallOp::create(
                     b, loc, begin,
                     ValueRange{arith::ExtUIOp::create(b, loc, i32, known),
                                describeLoop()})
                     .getResult(0);
  createHostCells();

  Value zero32 = arith::ConstantIntOp::create(b, loc, 0, 32);
  Value onGpu =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, useGpu, zero32);
  auto gpuPath = scf::IfOp::create(b, loc, onGpu, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(gpuPath.thenBlock()->getTerminator());
    buildGpuPath();
  }

  Value ran =
      func::CallOp::create(b, loc, end, ValueRange{useGpu}).getResult(0);
  Value ranOnGpu =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, ran, zero32);
  buildResultChoice(ranOnGpu);
}

void Offloader::collectUsedMemory() {
  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(loop.getRegion(), used);
  for (Value value : used) {
    if (isa<MemRefType>(value.getType()))
      buffers.push_back(value);
    else if (getTapeBlock(value))
      blocks.push_back(value);
  }
}

Value Offloader::measureBuffers() {
  // A C pointer's memory has no extent (ct.pointer_view's placeholder)
  // unless a map clause gave it one (a subview); without, the loop runs on
  // the CPU (copying what its indices seem to reach could read past the
  // end of the caller's array).
  Value known = arith::ConstantIntOp::create(b, loc, 1, 1);
  Value unknown = index(ct::PointerViewOp::kUnknownExtent);
  for (Value buffer : buffers) {
    auto type = cast<MemRefType>(buffer.getType());
    Value count = index(elementBytes(type));
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d)) {
        count = arith::MulIOp::create(b, loc, count, index(type.getDimSize(d)));
        continue;
      }
      Value size = memref::DimOp::create(b, loc, buffer, d);
      Value sized = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          size, unknown);
      sizes.push_back(size);
      count = arith::MulIOp::create(b, loc, count, size);
      known = arith::AndIOp::create(b, loc, known, sized);
    }
    dynamicSizes.push_back(sizes);
    bytes.push_back(count);
  }
  return known;
}

void Offloader::createHostCells() {
  auto function = loop->getParentOfType<FunctionOpInterface>();
  OpBuilder entry =
      OpBuilder::atBlockBegin(&function.getFunctionBody().front());
  // With an identity, kReductionStripes cells start from it and the host
  // combines the initial value with them; otherwise one cell starts from
  // the initial value.
  auto reduce = cast<scf::ReduceOp>(loop.getBody()->getTerminator());
  for (auto [init, region] :
       llvm::zip_equal(loop.getInitVals(), reduce.getReductions())) {
    identities.push_back(getReductionIdentity(region.front()));
    int64_t stripes = identities.back() ? kReductionStripes : 1;
    hostCells.push_back(memref::AllocaOp::create(
        entry, loc, MemRefType::get({stripes}, init.getType())));
  }
}

void Offloader::buildGpuPath() {
  IRMapping mapping;
  SmallVector<DeviceCopy> copies;
  for (auto [buffer, sizes, size] :
       llvm::zip_equal(buffers, dynamicSizes, bytes)) {
    DeviceCopy c = makeDeviceCopy(buffer, size, sizes);
    copy(c, /*toDevice=*/true);
    Value view = c.device;
    if (view.getType() != buffer.getType())
      view = memref::CastOp::create(b, loc, buffer.getType(), view);
    mapping.map(buffer, view);
    copies.push_back(c);
  }
  SmallVector<std::pair<DeviceCopy, bool>> blockCopies = copyTapeBlocksIn();
  SmallVector<DeviceCopy> cells = startDeviceCells();
  buildKernelLoop(mapping, llvm::map_to_vector(cells, [](const DeviceCopy &c) {
                    return c.device;
                  }));
  for (const DeviceCopy &c : copies)
    if (!isOnlyRead(c.host, loop))
      copy(c, /*toDevice=*/false);
  for (const DeviceCopy &c : cells)
    copy(c, /*toDevice=*/false);
  for (auto &[c, written] : blockCopies) {
    if (written)
      copy(c, /*toDevice=*/false);
    deviceFree(c.device);
  }
  for (const DeviceCopy &c : llvm::concat<const DeviceCopy>(copies, cells))
    deviceFree(c.device);
}

SmallVector<std::pair<Offloader::DeviceCopy, bool>>
Offloader::copyTapeBlocksIn() {
  Type slotsType = MemRefType::get({ShapedType::kDynamic}, b.getI64Type());
  SmallVector<std::pair<DeviceCopy, bool>> blockCopies;
  for (Value block : blocks) {
    Value count = getTapeBlock(block)->getOperand(1);
    Value device = deviceAlloc(slotsType, count);
    Value hostPointer = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), block);
    DeviceCopy c{
        block, device,
        arith::IndexCastUIOp::create(b, loc, b.getIndexType(), hostPointer),
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, device),
        arith::MulIOp::create(b, loc, count, index(8))};
    // A released block is read (copied in); a claimed one written.
    bool written = isa<ct::TapeClaimOp>(getTapeBlock(block));
    if (!written)
      copy(c, /*toDevice=*/true);
    deviceBlocks[block] = device;
    blockCopies.push_back({c, written});
  }
  return blockCopies;
}

SmallVector<Offloader::DeviceCopy> Offloader::startDeviceCells() {
  auto reduce = cast<scf::ReduceOp>(loop.getBody()->getTerminator());
  SmallVector<DeviceCopy> cells;
  Value zero = index(0);
  for (auto [init, hostCell, identity, region] : llvm::zip_equal(
           loop.getInitVals(), hostCells, identities, reduce.getReductions())) {
    auto type = cast<MemRefType>(hostCell.getType());
    if (identity) {
      Value start = arith::ConstantOp::create(b, loc, *identity);
      auto fill =
          scf::ForOp::create(b, loc, zero, index(type.getDimSize(0)), index(1));
      OpBuilder inFill = OpBuilder::atBlockBegin(fill.getBody());
      memref::StoreOp::create(inFill, loc, start, hostCell,
                              ValueRange{fill.getInductionVar()});
    } else {
      memref::StoreOp::create(b, loc, init, hostCell, ValueRange{zero});
    }
    DeviceCopy c =
        makeDeviceCopy(hostCell, index(type.getDimSize(0) * elementBytes(type)),
                       {}, getCellType(region.front()));
    copy(c, /*toDevice=*/true);
    cells.push_back(c);
  }
  return cells;
}

void Offloader::buildResultChoice(Value ranOnGpu) {
  auto choice = scf::IfOp::create(b, loc, loop.getResultTypes(), ranOnGpu,
                                  /*withElseRegion=*/true);
  loop.replaceAllUsesWith(choice.getResults());
  // The CPU path: the loop's twin for CPU threads, or the loop itself.
  Operation *cpuLoop = twin ? twin : loop.getOperation();
  {
    OpBuilder::InsertionGuard guard(b);
    // Without results, the builder gave both blocks their yield.
    for (Block *block : {choice.thenBlock(), choice.elseBlock()})
      if (block->mightHaveTerminator())
        block->getTerminator()->erase();
    b.setInsertionPointToStart(choice.thenBlock());
    SmallVector<Value> results;
    Value zero = index(0);
    auto reduce = cast<scf::ReduceOp>(loop.getBody()->getTerminator());
    for (auto [init, cell, identity, region] : llvm::zip_equal(
             loop.getInitVals(), hostCells, identities, reduce.getReductions()))
      results.push_back(
          identity
              ? combineStripes(init, cell, region.front(), zero)
              : Value(memref::LoadOp::create(b, loc, cell, ValueRange{zero})));
    scf::YieldOp::create(b, loc, results);
    b.setInsertionPointToStart(choice.elseBlock());
    auto yield = scf::YieldOp::create(b, loc, cpuLoop->getResults());
    cpuLoop->moveBefore(yield);
  }
  if (twin)
    loop.erase();
}

Value Offloader::combineStripes(Value init, Value cell, Block &combiner,
                                Value zero) {
  int64_t stripes = cast<MemRefType>(cell.getType()).getDimSize(0);
  auto combine = scf::ForOp::create(b, loc, zero, index(stripes), index(1),
                                    ValueRange{init});
  OpBuilder inCombine = OpBuilder::atBlockBegin(combine.getBody());
  Value part = memref::LoadOp::create(inCombine, loc, cell,
                                      ValueRange{combine.getInductionVar()});
  IRMapping mapping;
  mapping.map(combiner.getArgument(0), combine.getRegionIterArgs()[0]);
  mapping.map(combiner.getArgument(1), part);
  for (Operation &op : combiner.without_terminator())
    inCombine.clone(op, mapping);
  scf::YieldOp::create(
      inCombine, loc,
      mapping.lookupOrDefault(combiner.getTerminator()->getOperand(0)));
  return combine.getResult(0);
}

struct OffloadLoops : impl::OffloadLoopsBase<OffloadLoops> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<scf::ParallelOp> loops;
    DenseMap<Attribute, Operation *> twins;
    module.walk([&](Operation *op) {
      if (Attribute id = op->getAttr(ct::kHostTwin))
        twins[id] = op;
      if (auto loop = dyn_cast<scf::ParallelOp>(op);
          loop && loop->hasAttr(ct::kDeviceLoop))
        loops.push_back(loop);
    });
    llvm::StringSet<> warned;
    for (scf::ParallelOp loop : loops) {
      Operation *twin = nullptr;
      if (Attribute id = loop->getAttr(ct::kDeviceTwin))
        twin = twins.lookup(id);
      std::string why = loop->getParentOfType<scf::ParallelOp>()
                            ? "it is nested in another parallel loop"
                            : whyNotOffloadable(loop);
      LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << "the parallel loop at "
                              << loop.getLoc()
                              << (why.empty() ? std::string(" becomes a kernel")
                                              : " stays on the CPU: " + why)
                              << "\n");
      if (why.empty()) {
        Offloader(loop, twin, module).run();
        continue;
      }
      // Said once per source loop (its primal and derivative loops share
      // the location).
      if (warned.insert(ct::getSourcePosition(loop.getLoc())).second)
        loop.emitWarning() << "this target loop runs on the CPU, not the "
                              "GPU: "
                           << why;
      // Its twin for CPU threads does the work.
      if (twin) {
        loop.replaceAllUsesWith(twin->getResults());
        loop.erase();
      }
    }
    module.walk([](Operation *op) {
      for (StringRef mark : {ct::kDeviceLoop, ct::kDeviceTwin, ct::kHostTwin})
        op->removeAttr(mark);
    });
  }
};

} // namespace

} // namespace cotangent::codegen
