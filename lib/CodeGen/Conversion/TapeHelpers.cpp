//===- TapeHelpers.cpp - The functions tapes lower to ---------------------===//
//
// A tape is a pointer to a header { ptr data, i64 size, i64 capacity,
// ptr site, [32 x i64] slots } on the stack. Data starts in the header's own
// slots and moves to the heap when they run out, grown at least twofold with
// realloc (a push doubles, a reserve takes at least double). Push and pop
// call two small linkonce_odr helpers that return the slot's address. Heap
// data outlives its tape: freeing a tape keeps its block for the tape's site
// (TapeMemoryCache.cpp), and the next tape made there starts in it.
//
//===----------------------------------------------------------------------===//

#include "TapeHelpers.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::tape;

namespace {

// The helpers' bodies. Growing out of the header's slots takes the block
// the tape's site keeps, or mallocs, and copies into it; growing further
// reallocs. The `!header` alias spells the layout of TapeHelpers.h.
constexpr StringLiteral kHelperSource = R"mlir(
!header = !llvm.struct<(ptr, i64, i64, ptr, array<32 x i64>)>
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @realloc(!llvm.ptr, i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @dprintf(i32, !llvm.ptr, ...) -> i32
llvm.func @abort()
llvm.mlir.global linkonce_odr constant @__ct_tape_oom_message("cotangent: out of memory: a reverse-mode tape (the values a derivative keeps for its reverse sweep) needs %llu bytes\0A\00") {addr_space = 0 : i32} : !llvm.array<118 x i8>
llvm.func linkonce_odr @__ct_tape_out_of_memory(%bytes: i64) attributes {passthrough = ["noreturn", "cold", "noinline"]} {
  %stderr = llvm.mlir.constant(2 : i32) : i32
  %message = llvm.mlir.addressof @__ct_tape_oom_message : !llvm.ptr
  %printed = llvm.call @dprintf(%stderr, %message, %bytes) vararg(!llvm.func<i32 (i32, ptr, ...)>) : (i32, !llvm.ptr, i64) -> i32
  llvm.call @abort() : () -> ()
  llvm.unreachable
}
llvm.func linkonce_odr @__ct_tape_grow(%tape: !llvm.ptr, %capacity: i64) {
  %eight = llvm.mlir.constant(8 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %size_addr = llvm.getelementptr %tape[0, 1] : (!llvm.ptr) -> !llvm.ptr, !header
  %capacity_addr = llvm.getelementptr %tape[0, 2] : (!llvm.ptr) -> !llvm.ptr, !header
  %inline = llvm.getelementptr %tape[0, 4] : (!llvm.ptr) -> !llvm.ptr, !header
  %product = "llvm.intr.umul.with.overflow"(%capacity, %eight) : (i64, i64) -> !llvm.struct<(i64, i1)>
  %bytes = llvm.extractvalue %product[0] : !llvm.struct<(i64, i1)>
  %overflows = llvm.extractvalue %product[1] : !llvm.struct<(i64, i1)>
  llvm.cond_br %overflows weights([1, 1000]), ^fail, ^allocate
^allocate:
  %old_data = llvm.load %tape : !llvm.ptr -> !llvm.ptr
  %in_header = llvm.icmp "eq" %old_data, %inline : !llvm.ptr
  llvm.cond_br %in_header, ^leave_header, ^resize
^leave_header:
  %site_addr = llvm.getelementptr %tape[0, 3] : (!llvm.ptr) -> !llvm.ptr, !header
  %site = llvm.load %site_addr : !llvm.ptr -> !llvm.ptr
  %kept = llvm.call @__ct_tape_cache_take(%site) : (!llvm.ptr) -> !llvm.ptr
  %no_kept = llvm.icmp "eq" %kept, %null : !llvm.ptr
  llvm.cond_br %no_kept, ^copy, ^reuse
^reuse:
  %kept_capacity = llvm.load %kept : !llvm.ptr -> i64
  %fits = llvm.icmp "uge" %kept_capacity, %capacity : i64
  llvm.cond_br %fits, ^fill(%kept, %kept_capacity : !llvm.ptr, i64), ^enlarge
^enlarge:
  %enlarged = llvm.call @realloc(%kept, %bytes) : (!llvm.ptr, i64) -> !llvm.ptr
  %no_enlarged = llvm.icmp "eq" %enlarged, %null : !llvm.ptr
  llvm.cond_br %no_enlarged weights([1, 1000]), ^fail, ^fill(%enlarged, %capacity : !llvm.ptr, i64)
^copy:
  %fresh = llvm.call @malloc(%bytes) : (i64) -> !llvm.ptr
  %no_fresh = llvm.icmp "eq" %fresh, %null : !llvm.ptr
  llvm.cond_br %no_fresh weights([1, 1000]), ^fail, ^fill(%fresh, %capacity : !llvm.ptr, i64)
^fill(%block: !llvm.ptr, %block_capacity: i64):
  %size = llvm.load %size_addr : !llvm.ptr -> i64
  %used = llvm.mul %size, %eight : i64
  "llvm.intr.memcpy"(%block, %old_data, %used) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.br ^done(%block, %block_capacity : !llvm.ptr, i64)
^resize:
  %resized = llvm.call @realloc(%old_data, %bytes) : (!llvm.ptr, i64) -> !llvm.ptr
  %no_resized = llvm.icmp "eq" %resized, %null : !llvm.ptr
  llvm.cond_br %no_resized weights([1, 1000]), ^fail, ^done(%resized, %capacity : !llvm.ptr, i64)
^fail:
  // The C library's allocators failed, or the size does not fit in 64 bits
  // (reported as 2^64 - 1).
  %all_ones = llvm.mlir.constant(-1 : i64) : i64
  %reported = llvm.select %overflows, %all_ones, %bytes : i1, i64
  llvm.call @__ct_tape_out_of_memory(%reported) : (i64) -> ()
  llvm.unreachable
^done(%new_data: !llvm.ptr, %new_capacity: i64):
  llvm.store %new_data, %tape : !llvm.ptr, !llvm.ptr
  llvm.store %new_capacity, %capacity_addr : i64, !llvm.ptr
  llvm.return
}
llvm.func linkonce_odr @__ct_tape_push(%tape: !llvm.ptr) -> !llvm.ptr {
  %one = llvm.mlir.constant(1 : i64) : i64
  %two = llvm.mlir.constant(2 : i64) : i64
  %minimum = llvm.mlir.constant(1024 : i64) : i64
  %size_addr = llvm.getelementptr %tape[0, 1] : (!llvm.ptr) -> !llvm.ptr, !header
  %capacity_addr = llvm.getelementptr %tape[0, 2] : (!llvm.ptr) -> !llvm.ptr, !header
  %size = llvm.load %size_addr : !llvm.ptr -> i64
  %capacity = llvm.load %capacity_addr : !llvm.ptr -> i64
  %full = llvm.icmp "eq" %size, %capacity : i64
  llvm.cond_br %full weights([1, 1000]), ^grow, ^push
^grow:
  %doubled = llvm.mul %capacity, %two : i64
  %new_capacity = llvm.intr.umax(%doubled, %minimum) : (i64, i64) -> i64
  llvm.call @__ct_tape_grow(%tape, %new_capacity) : (!llvm.ptr, i64) -> ()
  llvm.br ^push
^push:
  %data = llvm.load %tape : !llvm.ptr -> !llvm.ptr
  %slot = llvm.getelementptr %data[%size] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  %next = llvm.add %size, %one : i64
  llvm.store %next, %size_addr : i64, !llvm.ptr
  llvm.return %slot : !llvm.ptr
}
llvm.func linkonce_odr @__ct_tape_reserve(%tape: !llvm.ptr, %count: i64) {
  %two = llvm.mlir.constant(2 : i64) : i64
  %size_addr = llvm.getelementptr %tape[0, 1] : (!llvm.ptr) -> !llvm.ptr, !header
  %capacity_addr = llvm.getelementptr %tape[0, 2] : (!llvm.ptr) -> !llvm.ptr, !header
  %size = llvm.load %size_addr : !llvm.ptr -> i64
  %capacity = llvm.load %capacity_addr : !llvm.ptr -> i64
  %needed = llvm.add %size, %count : i64
  %short = llvm.icmp "ugt" %needed, %capacity : i64
  llvm.cond_br %short, ^grow, ^done
^grow:
  %doubled = llvm.mul %capacity, %two : i64
  %new_capacity = llvm.intr.umax(%needed, %doubled) : (i64, i64) -> i64
  llvm.call @__ct_tape_grow(%tape, %new_capacity) : (!llvm.ptr, i64) -> ()
  llvm.br ^done
^done:
  llvm.return
}
llvm.func linkonce_odr @__ct_tape_claim(%tape: !llvm.ptr, %count: i64) -> !llvm.ptr {
  llvm.call @__ct_tape_reserve(%tape, %count) : (!llvm.ptr, i64) -> ()
  %size_addr = llvm.getelementptr %tape[0, 1] : (!llvm.ptr) -> !llvm.ptr, !header
  %size = llvm.load %size_addr : !llvm.ptr -> i64
  %next = llvm.add %size, %count : i64
  llvm.store %next, %size_addr : i64, !llvm.ptr
  %data = llvm.load %tape : !llvm.ptr -> !llvm.ptr
  %block = llvm.getelementptr %data[%size] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.return %block : !llvm.ptr
}
llvm.func linkonce_odr @__ct_tape_release(%tape: !llvm.ptr, %count: i64) -> !llvm.ptr {
  %size_addr = llvm.getelementptr %tape[0, 1] : (!llvm.ptr) -> !llvm.ptr, !header
  %size = llvm.load %size_addr : !llvm.ptr -> i64
  %rest = llvm.sub %size, %count : i64
  llvm.store %rest, %size_addr : i64, !llvm.ptr
  %data = llvm.load %tape : !llvm.ptr -> !llvm.ptr
  %block = llvm.getelementptr %data[%rest] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.return %block : !llvm.ptr
}
llvm.func linkonce_odr @__ct_tape_pop(%tape: !llvm.ptr) -> !llvm.ptr {
  %one = llvm.mlir.constant(1 : i64) : i64
  %size_addr = llvm.getelementptr %tape[0, 1] : (!llvm.ptr) -> !llvm.ptr, !header
  %size = llvm.load %size_addr : !llvm.ptr -> i64
  %top = llvm.sub %size, %one : i64
  llvm.store %top, %size_addr : i64, !llvm.ptr
  %data = llvm.load %tape : !llvm.ptr -> !llvm.ptr
  %slot = llvm.getelementptr %data[%top] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.return %slot : !llvm.ptr
}
llvm.func linkonce_odr @__ct_tape_free(%tape: !llvm.ptr) {
  %data = llvm.load %tape : !llvm.ptr -> !llvm.ptr
  %inline = llvm.getelementptr %tape[0, 4] : (!llvm.ptr) -> !llvm.ptr, !header
  %on_heap = llvm.icmp "ne" %data, %inline : !llvm.ptr
  llvm.cond_br %on_heap, ^release, ^done
^release:
  %site_addr = llvm.getelementptr %tape[0, 3] : (!llvm.ptr) -> !llvm.ptr, !header
  %site = llvm.load %site_addr : !llvm.ptr -> !llvm.ptr
  %capacity_addr = llvm.getelementptr %tape[0, 2] : (!llvm.ptr) -> !llvm.ptr, !header
  %capacity = llvm.load %capacity_addr : !llvm.ptr -> i64
  llvm.call @__ct_tape_cache_give(%site, %data, %capacity) : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.br ^done
^done:
  llvm.return
}
)mlir";

} // namespace

LogicalResult tape::ensureHelpers(OpBuilder &builder, Operation *from) {
  constexpr StringLiteral kFailed = "ct.tape_helpers_failed";
  auto module = from->getParentOfType<ModuleOp>();
  if (module.lookupSymbol(kPushHelper))
    return success();
  if (module->hasAttr(kFailed))
    return failure(); // Reported at the first tape operation.
  std::string source = (kHelperSource + getMemoryCacheSource()).str();
  OwningOpRef<ModuleOp> helpers =
      parseSourceString<ModuleOp>(source, builder.getContext());
  if (!helpers)
    return from->emitError("internal error: tape helpers do not parse");
  // The C library functions the helpers call: the program's own
  // declarations of them must have the C signatures.
  for (auto function : helpers->getOps<LLVM::LLVMFuncOp>()) {
    auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(function.getName());
    if (function.isExternal() && existing &&
        existing.getFunctionType() != function.getFunctionType()) {
      module->setAttr(kFailed, builder.getUnitAttr());
      return from->emitError("the program declares '")
             << function.getName()
             << "' with a signature other than the C library's; "
                "reverse-mode tapes call the C library's";
    }
  }
  // Declarations go up front, definitions at the end.
  OpBuilder::InsertionGuard guard(builder);
  for (Operation &op : helpers->getBody()->getOperations()) {
    auto function = dyn_cast<LLVM::LLVMFuncOp>(op);
    bool declaration = function && function.isExternal();
    if (declaration && module.lookupSymbol(function.getName()))
      continue;
    if (declaration)
      builder.setInsertionPointToStart(module.getBody());
    else
      builder.setInsertionPointToEnd(module.getBody());
    builder.clone(op);
  }
  return success();
}

LLVM::LLVMStructType tape::getHeaderType(MLIRContext *context) {
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i64 = IntegerType::get(context, 64);
  return LLVM::LLVMStructType::getLiteral(
      context,
      {ptr, i64, i64, ptr, LLVM::LLVMArrayType::get(i64, kInlineSlots)});
}

LLVM::GlobalOp tape::createSite(OpBuilder &builder, Operation *from) {
  constexpr StringLiteral kSiteCount = "ct.tape_sites";
  auto module = from->getParentOfType<ModuleOp>();
  int64_t index = 0;
  if (auto count = module->getAttrOfType<IntegerAttr>(kSiteCount))
    index = count.getInt();
  module->setAttr(kSiteCount, builder.getI64IntegerAttr(index + 1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
  return LLVM::GlobalOp::create(builder, from->getLoc(), ptr,
                                /*isConstant=*/false, LLVM::Linkage::Internal,
                                ("__ct_tape_site." + Twine(index)).str(),
                                LLVM::ZeroAttr::get(builder.getContext()));
}
