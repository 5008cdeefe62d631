//===- TapeToLLVM.cpp - Lowering of ct tapes to the LLVM dialect ----------===//
//
// Also lowers what else of the ct dialect survives differentiation: markers
// become the identity and rule bindings disappear.
//
// A tape is a pointer to a header { ptr data, i64 size, i64 capacity,
// ptr site, [32 x i64] slots } on the stack. Data starts in the header's own
// slots and moves to the heap when they run out, grown at least twofold with
// realloc (a push doubles, a reserve takes at least double). Push
// and pop call two small linkonce_odr helpers that return the slot's address;
// the store or load of the value itself stays inline, so the optimizer sees
// the value's type.
//
// Heap data outlives its tape: freeing a tape keeps its block for the tape's
// site (named by the address of a global of the code that made the tape),
// and the next tape made there starts in it. A derivative called again and
// again (an optimizer's loop) then writes its tape into memory it already
// touched, instead of fresh pages the kernel must fault in and zero on every
// call, which cost as much as the derivative's own work on large tapes. The
// blocks kept, all sites together, are bounded (COTANGENT_TAPE_CACHE_BYTES,
// else 1 GiB; 0 keeps none; the least recently kept go first, 32 at most) and
// stay reachable, so leak checkers see none.
//
//===----------------------------------------------------------------------===//

#include "cotangent/CodeGen/Conversion/TapeToLLVM.h"
#include "CTToLLVMPatterns.h"
#include "cotangent/CodeGen/Transforms/TapeAliasScopes.h"
#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/TapeSlots.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace cotangent;

namespace {

constexpr StringLiteral kPushHelper = "__ct_tape_push";
constexpr StringLiteral kPopHelper = "__ct_tape_pop";
constexpr StringLiteral kFreeHelper = "__ct_tape_free";
constexpr StringLiteral kReserveHelper = "__ct_tape_reserve";
constexpr StringLiteral kClaimHelper = "__ct_tape_claim";
constexpr StringLiteral kReleaseHelper = "__ct_tape_release";

// The helpers' bodies. The header holds kInlineSlots slots of its own, so
// a small tape (a pullback without loops) never calls malloc; growing out
// of them takes the block its site keeps, or mallocs, and copies into it;
// growing further reallocs. The helpers' `!header` alias spells the same
// count, and the field indices below.
constexpr int64_t kInlineSlots = 32;
constexpr int64_t kSiteField = 3, kSlotsField = 4;
constexpr StringLiteral kHelperSource = R"mlir(
!header = !llvm.struct<(ptr, i64, i64, ptr, array<32 x i64>)>
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @realloc(!llvm.ptr, i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @dprintf(i32, !llvm.ptr, ...) -> i32
llvm.func @abort()
llvm.func @getenv(!llvm.ptr) -> !llvm.ptr
llvm.func @strtoll(!llvm.ptr, !llvm.ptr, i32) -> i64
!entry = !llvm.struct<(ptr, ptr, i64, i64)>
llvm.mlir.global linkonce_odr @__ct_tape_cache(#llvm.zero) {addr_space = 0 : i32} : !llvm.array<32 x !entry>
llvm.mlir.global linkonce_odr @__ct_tape_cache_lock(0 : i32) {addr_space = 0 : i32} : i32
llvm.mlir.global linkonce_odr @__ct_tape_cache_clock(0 : i64) {addr_space = 0 : i32} : i64
llvm.mlir.global linkonce_odr @__ct_tape_cache_limit(-1 : i64) {addr_space = 0 : i32} : i64
llvm.mlir.global linkonce_odr constant @__ct_tape_cache_variable("COTANGENT_TAPE_CACHE_BYTES\00") {addr_space = 0 : i32} : !llvm.array<27 x i8>
// The most bytes of blocks kept for later tapes, all sites together:
// COTANGENT_TAPE_CACHE_BYTES, else (unset or empty) 1 GiB; read once.
llvm.func linkonce_odr @__ct_tape_cache_limit_bytes() -> i64 {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %limit_addr = llvm.mlir.addressof @__ct_tape_cache_limit : !llvm.ptr
  %known = llvm.load %limit_addr atomic monotonic {alignment = 8 : i64} : !llvm.ptr -> i64
  %unread = llvm.icmp "slt" %known, %zero : i64
  llvm.cond_br %unread weights([1, 1000]), ^read, ^done(%known : i64)
^read:
  %null = llvm.mlir.zero : !llvm.ptr
  %name = llvm.mlir.addressof @__ct_tape_cache_variable : !llvm.ptr
  %text = llvm.call @getenv(%name) : (!llvm.ptr) -> !llvm.ptr
  %unset = llvm.icmp "eq" %text, %null : !llvm.ptr
  %default = llvm.mlir.constant(1073741824 : i64) : i64
  llvm.cond_br %unset, ^store(%default : i64), ^set
^set:
  %first = llvm.load %text : !llvm.ptr -> i8
  %nul = llvm.mlir.constant(0 : i8) : i8
  %empty = llvm.icmp "eq" %first, %nul : i8
  llvm.cond_br %empty, ^store(%default : i64), ^parse
^parse:
  %ten = llvm.mlir.constant(10 : i32) : i32
  %parsed = llvm.call @strtoll(%text, %null, %ten) : (!llvm.ptr, !llvm.ptr, i32) -> i64
  %clamped = llvm.intr.smax(%parsed, %zero) : (i64, i64) -> i64
  llvm.br ^store(%clamped : i64)
^store(%limit: i64):
  llvm.store %limit, %limit_addr atomic monotonic {alignment = 8 : i64} : i64, !llvm.ptr
  llvm.br ^done(%limit : i64)
^done(%result: i64):
  llvm.return %result : i64
}
// The kept blocks: a table of 32 entries { site, block, bytes, last use }
// under a spin lock (taken once per tape that leaves its header, and once
// per tape freed).
llvm.func linkonce_odr @__ct_tape_cache_acquire() {
  %one = llvm.mlir.constant(1 : i32) : i32
  %zero = llvm.mlir.constant(0 : i32) : i32
  %lock = llvm.mlir.addressof @__ct_tape_cache_lock : !llvm.ptr
  llvm.br ^try
^try:
  %held = llvm.atomicrmw xchg %lock, %one acquire : !llvm.ptr, i32
  %free = llvm.icmp "eq" %held, %zero : i32
  llvm.cond_br %free, ^done, ^try
^done:
  llvm.return
}
llvm.func linkonce_odr @__ct_tape_cache_release_lock() {
  %zero = llvm.mlir.constant(0 : i32) : i32
  %lock = llvm.mlir.addressof @__ct_tape_cache_lock : !llvm.ptr
  llvm.store %zero, %lock atomic release {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}
// The block kept for `site` (its capacity in slots in its first slot),
// taken out of the table, or null.
llvm.func linkonce_odr @__ct_tape_cache_take(%site: !llvm.ptr) -> !llvm.ptr {
  %null = llvm.mlir.zero : !llvm.ptr
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  %count = llvm.mlir.constant(32 : i64) : i64
  %table = llvm.mlir.addressof @__ct_tape_cache : !llvm.ptr
  llvm.call @__ct_tape_cache_acquire() : () -> ()
  llvm.br ^scan(%zero : i64)
^scan(%i: i64):
  %end = llvm.icmp "eq" %i, %count : i64
  llvm.cond_br %end, ^done(%null : !llvm.ptr), ^look
^look:
  %site_addr = llvm.getelementptr %table[0, %i, 0] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<32 x !entry>
  %block_addr = llvm.getelementptr %table[0, %i, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<32 x !entry>
  %entry_site = llvm.load %site_addr : !llvm.ptr -> !llvm.ptr
  %block = llvm.load %block_addr : !llvm.ptr -> !llvm.ptr
  %same = llvm.icmp "eq" %entry_site, %site : !llvm.ptr
  %held = llvm.icmp "ne" %block, %null : !llvm.ptr
  %found = llvm.and %same, %held : i1
  %next = llvm.add %i, %one : i64
  llvm.cond_br %found, ^take(%i, %block : i64, !llvm.ptr), ^scan(%next : i64)
^take(%at: i64, %taken: !llvm.ptr):
  %taken_block_addr = llvm.getelementptr %table[0, %at, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<32 x !entry>
  %taken_bytes_addr = llvm.getelementptr %table[0, %at, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<32 x !entry>
  llvm.store %null, %taken_block_addr : !llvm.ptr, !llvm.ptr
  llvm.store %zero, %taken_bytes_addr : i64, !llvm.ptr
  llvm.br ^done(%taken : !llvm.ptr)
^done(%result: !llvm.ptr):
  llvm.call @__ct_tape_cache_release_lock() : () -> ()
  llvm.return %result : !llvm.ptr
}
// The entry to fill for a block of `bytes` more: an empty one, once the
// blocks kept fit in the limit with it; else the least recently kept
// block (or -1 if there is none), which the caller frees.
llvm.func linkonce_odr @__ct_tape_cache_room(%bytes: i64, %limit: i64) -> !llvm.struct<(i64, i1)> {
  %null = llvm.mlir.zero : !llvm.ptr
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  %none = llvm.mlir.constant(-1 : i64) : i64
  %latest = llvm.mlir.constant(-1 : i64) : i64
  %count = llvm.mlir.constant(32 : i64) : i64
  %true = llvm.mlir.constant(true) : i1
  %table = llvm.mlir.addressof @__ct_tape_cache : !llvm.ptr
  llvm.br ^scan(%zero, %bytes, %none, %none, %latest : i64, i64, i64, i64, i64)
^scan(%i: i64, %total: i64, %empty: i64, %oldest: i64, %oldest_use: i64):
  %end = llvm.icmp "eq" %i, %count : i64
  llvm.cond_br %end, ^decide, ^look
^look:
  %block_addr = llvm.getelementptr %table[0, %i, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<32 x !entry>
  %bytes_addr = llvm.getelementptr %table[0, %i, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<32 x !entry>
  %use_addr = llvm.getelementptr %table[0, %i, 3] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<32 x !entry>
  %block = llvm.load %block_addr : !llvm.ptr -> !llvm.ptr
  %held = llvm.load %bytes_addr : !llvm.ptr -> i64
  %use = llvm.load %use_addr : !llvm.ptr -> i64
  %is_empty = llvm.icmp "eq" %block, %null : !llvm.ptr
  %no_empty_yet = llvm.icmp "eq" %empty, %none : i64
  %first_empty = llvm.and %is_empty, %no_empty_yet : i1
  %new_empty = llvm.select %first_empty, %i, %empty : i1, i64
  %new_total = llvm.add %total, %held : i64
  %is_older = llvm.icmp "ult" %use, %oldest_use : i64
  %is_kept = llvm.xor %is_empty, %true : i1
  %older_kept = llvm.and %is_older, %is_kept : i1
  %new_oldest = llvm.select %older_kept, %i, %oldest : i1, i64
  %new_oldest_use = llvm.select %older_kept, %use, %oldest_use : i1, i64
  %next = llvm.add %i, %one : i64
  llvm.br ^scan(%next, %new_total, %new_empty, %new_oldest, %new_oldest_use : i64, i64, i64, i64, i64)
^decide:
  %fits = llvm.icmp "ule" %total, %limit : i64
  %has_empty = llvm.icmp "ne" %empty, %none : i64
  %room = llvm.and %fits, %has_empty : i1
  %undef = llvm.mlir.undef : !llvm.struct<(i64, i1)>
  %at = llvm.select %room, %empty, %oldest : i1, i64
  %with_at = llvm.insertvalue %at, %undef[0] : !llvm.struct<(i64, i1)>
  %result = llvm.insertvalue %room, %with_at[1] : !llvm.struct<(i64, i1)>
  llvm.return %result : !llvm.struct<(i64, i1)>
}
// Keeps a freed tape's block for the next tape made at `site`, making room
// by freeing the least recently kept blocks; a block larger than the limit
// is freed.
llvm.func linkonce_odr @__ct_tape_cache_give(%site: !llvm.ptr, %block: !llvm.ptr, %capacity: i64) {
  %null = llvm.mlir.zero : !llvm.ptr
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  %eight = llvm.mlir.constant(8 : i64) : i64
  %bytes = llvm.mul %capacity, %eight : i64
  %limit = llvm.call @__ct_tape_cache_limit_bytes() : () -> i64
  %too_large = llvm.icmp "ugt" %bytes, %limit : i64
  llvm.cond_br %too_large, ^refuse, ^lock
^refuse:
  llvm.call @free(%block) : (!llvm.ptr) -> ()
  llvm.return
^lock:
  %table = llvm.mlir.addressof @__ct_tape_cache : !llvm.ptr
  llvm.call @__ct_tape_cache_acquire() : () -> ()
  llvm.br ^find
^find:
  %room = llvm.call @__ct_tape_cache_room(%bytes, %limit) : (i64, i64) -> !llvm.struct<(i64, i1)>
  %at = llvm.extractvalue %room[0] : !llvm.struct<(i64, i1)>
  %empty = llvm.extractvalue %room[1] : !llvm.struct<(i64, i1)>
  %site_addr = llvm.getelementptr %table[0, %at, 0] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<32 x !entry>
  %block_addr = llvm.getelementptr %table[0, %at, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<32 x !entry>
  %bytes_addr = llvm.getelementptr %table[0, %at, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<32 x !entry>
  %use_addr = llvm.getelementptr %table[0, %at, 3] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<32 x !entry>
  llvm.cond_br %empty, ^keep, ^evict
^evict:
  %evicted = llvm.load %block_addr : !llvm.ptr -> !llvm.ptr
  llvm.call @free(%evicted) : (!llvm.ptr) -> ()
  llvm.store %null, %block_addr : !llvm.ptr, !llvm.ptr
  llvm.store %zero, %bytes_addr : i64, !llvm.ptr
  llvm.br ^find
^keep:
  %clock = llvm.mlir.addressof @__ct_tape_cache_clock : !llvm.ptr
  %now = llvm.load %clock : !llvm.ptr -> i64
  %later = llvm.add %now, %one : i64
  llvm.store %later, %clock : i64, !llvm.ptr
  llvm.store %capacity, %block : i64, !llvm.ptr
  llvm.store %site, %site_addr : !llvm.ptr, !llvm.ptr
  llvm.store %block, %block_addr : !llvm.ptr, !llvm.ptr
  llvm.store %bytes, %bytes_addr : i64, !llvm.ptr
  llvm.store %later, %use_addr : i64, !llvm.ptr
  llvm.call @__ct_tape_cache_release_lock() : () -> ()
  llvm.return
}
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

/// Makes sure the module has the tape helpers (and the C library functions
/// they call), parsing them on first use.
LogicalResult ensureHelpers(OpBuilder &builder, Operation *from) {
  constexpr StringLiteral kFailed = "ct.tape_helpers_failed";
  auto module = from->getParentOfType<ModuleOp>();
  if (module.lookupSymbol(kPushHelper))
    return success();
  if (module->hasAttr(kFailed))
    return failure(); // Reported at the first tape operation.
  OwningOpRef<ModuleOp> helpers =
      parseSourceString<ModuleOp>(kHelperSource, builder.getContext());
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

LLVM::LLVMStructType getHeaderType(MLIRContext *context) {
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i64 = IntegerType::get(context, 64);
  return LLVM::LLVMStructType::getLiteral(
      context,
      {ptr, i64, i64, ptr, LLVM::LLVMArrayType::get(i64, kInlineSlots)});
}

/// A new global of the module whose address names one site that makes
/// tapes: the block a freed tape keeps is found again by it.
LLVM::GlobalOp createTapeSite(OpBuilder &builder, Operation *from) {
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

/// Tags an access of tape memory for ct-tape-alias-scopes: a load or store
/// of a slot, a store into the header, or a call of a helper (which reads
/// and writes the header and, growing the tape, copies its slots; LLVM
/// gives a helper's body the call's scopes when it inlines it).
Operation *markTapeAccess(Operation *access) {
  access->setAttr(codegen::kTapeSlotAccess,
                  UnitAttr::get(access->getContext()));
  return access;
}

/// Calls a helper that takes the tape and returns a slot address.
Value callSlotHelper(ConversionPatternRewriter &rewriter, Location loc,
                     StringRef helper, Value tape) {
  auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
  return markTapeAccess(LLVM::CallOp::create(rewriter, loc, TypeRange{ptr},
                                             helper, ValueRange{tape}))
      ->getResult(0);
}

struct TapeInitLowering : ConvertOpToLLVMPattern<ct::TapeInitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::TapeInitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(ensureHelpers(rewriter, op)))
      return failure();
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto ptr = LLVM::LLVMPointerType::get(context);
    auto header = getHeaderType(context);
    Value one = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                         rewriter.getI64IntegerAttr(1));
    Value tape = LLVM::AllocaOp::create(rewriter, loc, ptr, header, one);
    // { header's own slots, 0, kInlineSlots, site }; the slots need no
    // zeroing.
    Value slots = LLVM::GEPOp::create(rewriter, loc, ptr, header, tape,
                                      ArrayRef<LLVM::GEPArg>{0, kSlotsField});
    Value sizeAddr = LLVM::GEPOp::create(rewriter, loc, ptr, header, tape,
                                         ArrayRef<LLVM::GEPArg>{0, 1});
    Value capacityAddr = LLVM::GEPOp::create(rewriter, loc, ptr, header, tape,
                                             ArrayRef<LLVM::GEPArg>{0, 2});
    auto i64 = [&](int64_t value) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                      rewriter.getI64IntegerAttr(value));
    };
    markTapeAccess(LLVM::StoreOp::create(rewriter, loc, slots, tape));
    markTapeAccess(LLVM::StoreOp::create(rewriter, loc, i64(0), sizeAddr));
    markTapeAccess(
        LLVM::StoreOp::create(rewriter, loc, i64(kInlineSlots), capacityAddr));
    Value siteAddr = LLVM::GEPOp::create(rewriter, loc, ptr, header, tape,
                                         ArrayRef<LLVM::GEPArg>{0, kSiteField});
    Value site =
        LLVM::AddressOfOp::create(rewriter, loc, createTapeSite(rewriter, op));
    markTapeAccess(LLVM::StoreOp::create(rewriter, loc, site, siteAddr));
    rewriter.replaceOp(op, tape);
    return success();
  }
};

/// The low and high 64-bit words of the bits of `value`: an entry of two
/// slots (ct::getTapeSlots), each pushed as an i64 (a push may move the
/// tape, so the first word is stored before the second slot is taken).
std::pair<Value, Value> splitWords(OpBuilder &b, Location loc, Value value) {
  unsigned width = value.getType().getIntOrFloatBitWidth();
  Type i64 = b.getI64Type(), i128 = b.getIntegerType(128);
  Value bits = LLVM::BitcastOp::create(b, loc, b.getIntegerType(width), value);
  Value wide = LLVM::ZExtOp::create(b, loc, i128, bits);
  Value shift =
      LLVM::ConstantOp::create(b, loc, i128, b.getIntegerAttr(i128, 64));
  return {LLVM::TruncOp::create(b, loc, i64, wide),
          LLVM::TruncOp::create(b, loc, i64,
                                LLVM::LShrOp::create(b, loc, wide, shift))};
}

/// The value of `type` whose bits are the words `low` and `high`.
Value joinWords(OpBuilder &b, Location loc, Type type, Value low, Value high) {
  unsigned width = type.getIntOrFloatBitWidth();
  Type i128 = b.getIntegerType(128);
  Value shift =
      LLVM::ConstantOp::create(b, loc, i128, b.getIntegerAttr(i128, 64));
  Value wide = LLVM::OrOp::create(
      b, loc, LLVM::ZExtOp::create(b, loc, i128, low),
      LLVM::ShlOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i128, high),
                          shift));
  return LLVM::BitcastOp::create(
      b, loc, type,
      LLVM::TruncOp::create(b, loc, b.getIntegerType(width), wide));
}

struct TapePushLowering : ConvertOpToLLVMPattern<ct::TapePushOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::TapePushOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(ensureHelpers(rewriter, op)))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value, 2> words = {adaptor.getValue()};
    if (ct::getTapeSlots(adaptor.getValue().getType()) == 2) {
      auto [low, high] = splitWords(rewriter, loc, adaptor.getValue());
      words = {low, high};
    }
    for (Value word : words) {
      Value slot =
          callSlotHelper(rewriter, loc, kPushHelper, adaptor.getTape());
      markTapeAccess(LLVM::StoreOp::create(rewriter, loc, word, slot));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct TapePopLowering : ConvertOpToLLVMPattern<ct::TapePopOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::TapePopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(ensureHelpers(rewriter, op)))
      return failure();
    Location loc = op.getLoc();
    Type type = getTypeConverter()->convertType(op.getType());
    auto pop = [&](Type word) -> Value {
      Value slot = callSlotHelper(rewriter, loc, kPopHelper, adaptor.getTape());
      return markTapeAccess(LLVM::LoadOp::create(rewriter, loc, word, slot))
          ->getResult(0);
    };
    if (ct::getTapeSlots(type) == 1) {
      rewriter.replaceOp(op, pop(type));
      return success();
    }
    Value high = pop(rewriter.getI64Type());
    Value low = pop(rewriter.getI64Type());
    rewriter.replaceOp(op, joinWords(rewriter, loc, type, low, high));
    return success();
  }
};

struct TapeReserveLowering : ConvertOpToLLVMPattern<ct::TapeReserveOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::TapeReserveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(ensureHelpers(rewriter, op)))
      return failure();
    markTapeAccess(LLVM::CallOp::create(
        rewriter, op.getLoc(), TypeRange{}, kReserveHelper,
        ValueRange{adaptor.getTape(), adaptor.getCount()}));
    rewriter.eraseOp(op);
    return success();
  }
};

/// Claim and release call their helper, which returns the block's address.
template <typename BlockOp, const StringLiteral &helper>
struct TapeBlockLowering : ConvertOpToLLVMPattern<BlockOp> {
  using ConvertOpToLLVMPattern<BlockOp>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(BlockOp op, typename BlockOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(ensureHelpers(rewriter, op)))
      return failure();
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    markTapeAccess(rewriter.replaceOpWithNewOp<LLVM::CallOp>(
        op, TypeRange{ptr}, helper,
        ValueRange{adaptor.getTape(), adaptor.getCount()}));
    return success();
  }
};

/// The address of slot `index` (8 bytes each) of a block.
Value buildSlotAddress(ConversionPatternRewriter &rewriter, Location loc,
                       Value block, Value index) {
  auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
  return LLVM::GEPOp::create(rewriter, loc, ptr, rewriter.getI64Type(), block,
                             ArrayRef<LLVM::GEPArg>{index});
}

struct TapeWriteLowering : ConvertOpToLLVMPattern<ct::TapeWriteOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::TapeWriteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value slot = buildSlotAddress(rewriter, op.getLoc(), adaptor.getBlock(),
                                  adaptor.getIndex());
    markTapeAccess(
        LLVM::StoreOp::create(rewriter, op.getLoc(), adaptor.getValue(), slot));
    rewriter.eraseOp(op);
    return success();
  }
};

struct TapeReadLowering : ConvertOpToLLVMPattern<ct::TapeReadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::TapeReadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    Value slot = buildSlotAddress(rewriter, op.getLoc(), adaptor.getBlock(),
                                  adaptor.getIndex());
    markTapeAccess(rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, type, slot));
    return success();
  }
};

struct TapeFreeLowering : ConvertOpToLLVMPattern<ct::TapeFreeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::TapeFreeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(ensureHelpers(rewriter, op)))
      return failure();
    markTapeAccess(LLVM::CallOp::create(rewriter, op.getLoc(), TypeRange{},
                                        kFreeHelper,
                                        ValueRange{adaptor.getTape()}));
    rewriter.eraseOp(op);
    return success();
  }
};

/// Markers are the identity on values once differentiation is done.
struct StopGradientLowering : ConvertOpToLLVMPattern<ct::StopGradientOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::StopGradientOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

struct PassThroughLowering : ConvertOpToLLVMPattern<ct::PassThroughOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::PassThroughOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getValue());
    return success();
  }
};

/// The bits of a number read as another: an LLVM bitcast.
struct BitCastLowering : ConvertOpToLLVMPattern<ct::BitCastOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::BitCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, op.getType(),
                                                 adaptor.getInput());
    return success();
  }
};

/// A pointer view is the descriptor { p, p, 0, kUnknownExtent, 1 }.
struct PointerViewLowering : ConvertOpToLLVMPattern<ct::PointerViewOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::PointerViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    rewriter.replaceOp(op, buildPointerDescriptor(rewriter, loc, op.getType(),
                                                  type, adaptor.getPointer()));
    return success();
  }
};

} // namespace

Value cotangent::buildPointerDescriptor(OpBuilder &b, Location loc,
                                        MemRefType view, Type type,
                                        Value pointer) {
  auto index = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                    b.getI64IntegerAttr(value));
  };
  auto descriptor = MemRefDescriptor::poison(b, loc, type);
  descriptor.setAllocatedPtr(b, loc, pointer);
  descriptor.setAlignedPtr(b, loc, pointer);
  descriptor.setOffset(b, loc, index(0));
  // Row-major from the innermost dimension; the dynamic (outermost) size
  // is the extent no object reaches. Views of memory with the lanes of
  // vector mode have a static innermost dimension.
  int64_t stride = 1;
  for (int64_t d = view.getRank() - 1; d >= 0; --d) {
    int64_t extent = view.getDimSize(d);
    if (ShapedType::isDynamic(extent))
      extent = ct::PointerViewOp::kUnknownExtent / stride;
    descriptor.setSize(b, loc, d, index(extent));
    descriptor.setStride(b, loc, d, index(stride));
    stride *= extent;
  }
  return descriptor;
}

namespace {

/// A vector view reads the vector's first and end pointers: the
/// descriptor { first, first, 0, (end - first) / scalar size, 1 }.
struct VectorViewLowering : ConvertOpToLLVMPattern<ct::VectorViewOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ct::VectorViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    Type i64 = rewriter.getI64Type();
    auto index = [&](int64_t value) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, i64,
                                      rewriter.getI64IntegerAttr(value));
    };
    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    auto loadPointer = [&](int64_t byteOffset) -> Value {
      Value at = LLVM::GEPOp::create(rewriter, loc, ptrType,
                                     rewriter.getI8Type(), adaptor.getObject(),
                                     ArrayRef<LLVM::GEPArg>{byteOffset});
      return LLVM::LoadOp::create(rewriter, loc, ptrType, at);
    };
    Value first = loadPointer(op.getBegin());
    Value end = loadPointer(op.getEnd());
    Value bytes = LLVM::SubOp::create(
        rewriter, loc, LLVM::PtrToIntOp::create(rewriter, loc, i64, end),
        LLVM::PtrToIntOp::create(rewriter, loc, i64, first));
    unsigned scalarBytes =
        op.getType().getElementType().getIntOrFloatBitWidth() / 8;
    Value size = LLVM::UDivOp::create(rewriter, loc, bytes, index(scalarBytes));
    auto descriptor = MemRefDescriptor::poison(rewriter, loc, type);
    descriptor.setAllocatedPtr(rewriter, loc, first);
    descriptor.setAlignedPtr(rewriter, loc, first);
    descriptor.setOffset(rewriter, loc, index(0));
    descriptor.setSize(rewriter, loc, 0, size);
    descriptor.setStride(rewriter, loc, 0, index(1));
    rewriter.replaceOp(op, Value(descriptor));
    return success();
  }
};

/// Rule bindings have done their work by the time code is generated.
template <typename RuleOp> struct RuleErasure : ConvertOpToLLVMPattern<RuleOp> {
  using ConvertOpToLLVMPattern<RuleOp>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(RuleOp op, typename RuleOp::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

struct CTToLLVMInterface : public ConvertToLLVMPatternInterface {
  using ConvertToLLVMPatternInterface::ConvertToLLVMPatternInterface;
  void populateConvertToLLVMConversionPatterns(
      ConversionTarget &target, LLVMTypeConverter &converter,
      RewritePatternSet &patterns) const final {
    converter.addConversion([](ct::TapeType type) -> Type {
      return LLVM::LLVMPointerType::get(type.getContext());
    });
    patterns.add<
        TapeInitLowering, TapePushLowering, TapePopLowering,
        TapeReserveLowering, TapeBlockLowering<ct::TapeClaimOp, kClaimHelper>,
        TapeBlockLowering<ct::TapeReleaseOp, kReleaseHelper>, TapeWriteLowering,
        TapeReadLowering, TapeFreeLowering, StopGradientLowering,
        PassThroughLowering, BitCastLowering, PointerViewLowering,
        VectorViewLowering, RuleErasure<ct::CustomGradientOp>,
        RuleErasure<ct::CustomVjpOp>, RuleErasure<ct::CustomJvpOp>>(converter);
    populateLibraryMathToLLVMPatterns(converter, patterns);
    populateAbortToLLVMPatterns(converter, patterns);
    populateAddressesToLLVMPatterns(converter, patterns);
  }
};

} // namespace

void cotangent::registerConvertCTToLLVMInterface(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, ct::CTDialect *dialect) {
    dialect->addInterfaces<CTToLLVMInterface>();
  });
}
