//===- TapeMemoryCache.cpp - Tape memory kept between calls ---------------===//
//
// The helpers that keep a freed tape's heap block for the next tape made at
// the same site (TapeHelpers.h): a process-wide table of 32 entries { site,
// block, bytes, last use } under a spin lock, taken once per tape that
// leaves its header and once per tape freed. The blocks kept stay within
// COTANGENT_TAPE_CACHE_BYTES (read once; unset or empty: 1 GiB; 0 keeps
// none): a larger block is freed, and room is made by freeing the least
// recently kept blocks. Kept blocks stay reachable from the table, so leak
// checkers report none. Written as LLVM-dialect IR, linkonce_odr like the
// other tape helpers, so that a program needs no runtime library.
//
//===----------------------------------------------------------------------===//

#include "TapeHelpers.h"

using namespace mlir;

namespace {

constexpr StringLiteral kCacheSource = R"mlir(
!entry = !llvm.struct<(ptr, ptr, i64, i64)>
llvm.func @getenv(!llvm.ptr) -> !llvm.ptr
llvm.func @strtoll(!llvm.ptr, !llvm.ptr, i32) -> i64
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
)mlir";

} // namespace

StringRef cotangent::tape::getMemoryCacheSource() { return kCacheSource; }
