// Tapes lower to a header on the stack, with 32 slots of its own and the
// address of a global naming the place that made it (its site), and calls
// to the push/pop helpers; values are stored and loaded inline with their
// own type, tagged as slot accesses for ct-tape-alias-scopes. Data moves
// to the heap only past the header's slots (into the block a freed tape of
// the same site kept, else malloc; then realloc), and a freed tape's heap
// block is kept for its site (within a limit) or freed.
// RUN: %cotangent-opt %s --convert-to-llvm | FileCheck %s

// The C allocator functions the helpers call are declared once, up front.
// CHECK-DAG: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @realloc(!llvm.ptr, i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @free(!llvm.ptr)

// CHECK-LABEL: llvm.func @roundtrip
// CHECK-SAME: (%[[X:.*]]: f64, %[[N:.*]]: i64) -> f64
func.func @roundtrip(%x: f64, %n: index) -> f64 {
  // CHECK: %[[TAPE:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i64, i64, ptr, array<32 x i64>)>
  // CHECK: %[[SLOTS:.*]] = llvm.getelementptr %[[TAPE]][0, 4]
  // CHECK: %[[SIZE:.*]] = llvm.getelementptr %[[TAPE]][0, 1]
  // CHECK: %[[CAPACITY:.*]] = llvm.getelementptr %[[TAPE]][0, 2]
  // CHECK: llvm.store %[[SLOTS]], %[[TAPE]]
  // CHECK: llvm.store %{{.*}}, %[[SIZE]]
  // CHECK: %[[INLINE:.*]] = llvm.mlir.constant(32 : i64)
  // CHECK: llvm.store %[[INLINE]], %[[CAPACITY]]
  // CHECK: %[[SITE_FIELD:.*]] = llvm.getelementptr %[[TAPE]][0, 3]
  // CHECK: %[[SITE:.*]] = llvm.mlir.addressof @[[SITE_NAME:__ct_tape_site\.[0-9]+]] : !llvm.ptr
  // CHECK: llvm.store %[[SITE]], %[[SITE_FIELD]] {ct.tape_slot}
  %t = ct.tape_init : !ct.tape
  // CHECK: llvm.call @__ct_tape_reserve(%[[TAPE]], %[[N]])
  ct.tape_reserve %t, %n
  // CHECK: %[[S0:.*]] = llvm.call @__ct_tape_push(%[[TAPE]])
  // CHECK: llvm.store %[[X]], %[[S0]] {ct.tape_slot} : f64, !llvm.ptr
  ct.tape_push %t, %x : f64
  // CHECK: %[[S1:.*]] = llvm.call @__ct_tape_push(%[[TAPE]])
  // CHECK: llvm.store %[[N]], %[[S1]] {ct.tape_slot} : i64, !llvm.ptr
  ct.tape_push %t, %n : index
  // CHECK: %[[P0:.*]] = llvm.call @__ct_tape_pop(%[[TAPE]])
  // CHECK: llvm.load %[[P0]] {ct.tape_slot} : !llvm.ptr -> i64
  %m = ct.tape_pop %t : index
  // CHECK: %[[P1:.*]] = llvm.call @__ct_tape_pop(%[[TAPE]])
  // CHECK: %[[Y:.*]] = llvm.load %[[P1]] {ct.tape_slot} : !llvm.ptr -> f64
  %y = ct.tape_pop %t : f64
  // CHECK: llvm.call @__ct_tape_free(%[[TAPE]])
  ct.tape_free %t
  // CHECK: llvm.return %[[Y]]
  return %y : f64
}

// Each tape_init has a site of its own.
// SITES-COUNT-2: llvm.mlir.global internal @__ct_tape_site.{{[0-9]+}}(#llvm.zero) {addr_space = 0 : i32} : !llvm.ptr
// SITES-NOT: @__ct_tape_site.2(
// RUN: %cotangent-opt %s --convert-to-llvm | FileCheck %s --check-prefix=SITES

// Tapes passed between functions become pointers.
// CHECK-LABEL: llvm.func @takes_tape(%{{.*}}: !llvm.ptr, %{{.*}}: f32)
func.func @takes_tape(%t: !ct.tape, %v: f32) {
  ct.tape_push %t, %v : f32
  return
}

// An 80-bit float takes two slots: its bits' low word is pushed first (and
// stored before the second slot is taken, which may move the tape), and
// popped last.
// CHECK-LABEL: llvm.func @two_slots
// CHECK-SAME: (%[[T:.*]]: !llvm.ptr, %[[V:.*]]: f80) -> f80
func.func @two_slots(%t: !ct.tape, %v: f80) -> f80 {
  // CHECK: %[[BITS:.*]] = llvm.bitcast %[[V]] : f80 to i80
  // CHECK: %[[WIDE:.*]] = llvm.zext %[[BITS]] : i80 to i128
  // CHECK: %[[LOW:.*]] = llvm.trunc %[[WIDE]] : i128 to i64
  // CHECK: %[[SHIFTED:.*]] = llvm.lshr %[[WIDE]]
  // CHECK: %[[HIGH:.*]] = llvm.trunc %[[SHIFTED]] : i128 to i64
  // CHECK: %[[S0:.*]] = llvm.call @__ct_tape_push(%[[T]])
  // CHECK: llvm.store %[[LOW]], %[[S0]] {ct.tape_slot} : i64, !llvm.ptr
  // CHECK: %[[S1:.*]] = llvm.call @__ct_tape_push(%[[T]])
  // CHECK: llvm.store %[[HIGH]], %[[S1]] {ct.tape_slot} : i64, !llvm.ptr
  ct.tape_push %t, %v : f80
  // CHECK: %[[P0:.*]] = llvm.call @__ct_tape_pop(%[[T]])
  // CHECK: %[[HI:.*]] = llvm.load %[[P0]] {ct.tape_slot} : !llvm.ptr -> i64
  // CHECK: %[[P1:.*]] = llvm.call @__ct_tape_pop(%[[T]])
  // CHECK: %[[LO:.*]] = llvm.load %[[P1]] {ct.tape_slot} : !llvm.ptr -> i64
  // CHECK: %[[JOINED:.*]] = llvm.or
  // CHECK: %[[NARROW:.*]] = llvm.trunc %[[JOINED]] : i128 to i80
  // CHECK: %[[Y:.*]] = llvm.bitcast %[[NARROW]] : i80 to f80
  %y = ct.tape_pop %t : f80
  // CHECK: llvm.return %[[Y]]
  return %y : f80
}

// Blocks: claim and release call their helpers, which return the block's
// address; writes and reads are a GEP over 8-byte slots and a store or load
// of the value's own type.
// CHECK-LABEL: llvm.func @blocks(
// CHECK-SAME: %{{.*}}: f64, %[[N:[^:]*]]: i64) -> f64
func.func @blocks(%x: f64, %n: index) -> f64 {
  %c1 = arith.constant 1 : index
  %t = ct.tape_init : !ct.tape
  // CHECK: %[[CLAIMED:.*]] = llvm.call @__ct_tape_claim(%{{.*}}, %[[N]]) {ct.tape_slot} : (!llvm.ptr, i64) -> !llvm.ptr
  %b = ct.tape_claim %t, %n
  // CHECK: %[[W:.*]] = llvm.getelementptr %[[CLAIMED]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  // CHECK: llvm.store %{{.*}}, %[[W]] {ct.tape_slot} : f64, !llvm.ptr
  ct.tape_write %x, %b[%c1] : f64
  // CHECK: %[[RELEASED:.*]] = llvm.call @__ct_tape_release(%{{.*}}, %[[N]]) {ct.tape_slot} : (!llvm.ptr, i64) -> !llvm.ptr
  %r = ct.tape_release %t, %n
  // CHECK: %[[R:.*]] = llvm.getelementptr %[[RELEASED]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  // CHECK: llvm.load %[[R]] {ct.tape_slot} : !llvm.ptr -> f64
  %y = ct.tape_read %r[%c1] : f64
  ct.tape_free %t
  return %y : f64
}

// CHECK-DAG: llvm.func linkonce_odr @__ct_tape_claim(%{{.*}}: !llvm.ptr, %{{.*}}: i64) -> !llvm.ptr
// CHECK-DAG: llvm.func linkonce_odr @__ct_tape_release(%{{.*}}: !llvm.ptr, %{{.*}}: i64) -> !llvm.ptr
// CHECK-DAG: llvm.func linkonce_odr @__ct_tape_push(%{{.*}}: !llvm.ptr) -> !llvm.ptr
// CHECK-DAG: llvm.func linkonce_odr @__ct_tape_pop(%{{.*}}: !llvm.ptr) -> !llvm.ptr
// CHECK-DAG: llvm.func linkonce_odr @__ct_tape_free(%{{.*}}: !llvm.ptr)
// CHECK-DAG: llvm.func linkonce_odr @__ct_tape_grow(%{{.*}}: !llvm.ptr, %{{.*}}: i64)
// CHECK-DAG: llvm.func linkonce_odr @__ct_tape_reserve(%{{.*}}: !llvm.ptr, %{{.*}}: i64)

// A reserve that does not fit grows the tape at least twofold, like a push:
// loops nested in a loop reserve once per outer iteration, and growing to
// just what they need would copy the whole tape every time.
// RUN: %cotangent-opt %s --convert-to-llvm | FileCheck %s --check-prefix=RESERVE
// RESERVE: llvm.func linkonce_odr @__ct_tape_reserve(%[[TAPE:[^:]*]]: !llvm.ptr, %[[COUNT:[^:]*]]: i64)
// RESERVE: llvm.load
// RESERVE: %[[CAPACITY:.*]] = llvm.load
// RESERVE: %[[NEEDED:.*]] = llvm.add %{{.*}}, %[[COUNT]] : i64
// RESERVE: %[[DOUBLED:.*]] = llvm.mul %[[CAPACITY]], %{{.*}} : i64
// RESERVE: %[[GROWN:.*]] = llvm.intr.umax(%[[NEEDED]], %[[DOUBLED]])
// RESERVE: llvm.call @__ct_tape_grow(%[[TAPE]], %[[GROWN]])

// Growing checks what the C allocators return and that the size in bytes
// fits in 64 bits; failing, it reports the size on stderr and aborts.
// RUN: %cotangent-opt %s --convert-to-llvm | FileCheck %s --check-prefix=GROW
// GROW-DAG: llvm.func @dprintf(i32, !llvm.ptr, ...) -> i32
// GROW-DAG: llvm.func @abort()
// GROW-DAG: llvm.mlir.global linkonce_odr constant @__ct_tape_oom_message("cotangent: out of memory: a reverse-mode tape {{.*}} needs %llu bytes\0A\00")
// GROW: llvm.func linkonce_odr @__ct_tape_out_of_memory(%[[BYTES:.*]]: i64)
// GROW-SAME: passthrough = ["noreturn", "cold", "noinline"]
// GROW: llvm.call @dprintf(%{{.*}}, %{{.*}}, %[[BYTES]])
// GROW: llvm.call @abort()
// GROW: llvm.func linkonce_odr @__ct_tape_grow(
// GROW: %[[PRODUCT:.*]] = "llvm.intr.umul.with.overflow"
// GROW: %[[OVERFLOWS:.*]] = llvm.extractvalue %[[PRODUCT]][1]
// GROW: llvm.cond_br %[[OVERFLOWS]] weights([1, 1000]), ^[[FAIL:.*]], ^
// GROW: %[[FRESH:.*]] = llvm.call @malloc
// GROW: %[[NO_FRESH:.*]] = llvm.icmp "eq" %[[FRESH]], %{{.*}} : !llvm.ptr
// GROW: llvm.cond_br %[[NO_FRESH]] weights([1, 1000]), ^[[FAIL]], ^
// GROW: %[[RESIZED:.*]] = llvm.call @realloc
// GROW: %[[NO_RESIZED:.*]] = llvm.icmp "eq" %[[RESIZED]], %{{.*}} : !llvm.ptr
// GROW: llvm.cond_br %[[NO_RESIZED]] weights([1, 1000]), ^[[FAIL]], ^
// GROW: ^[[FAIL]]:
// GROW: llvm.call @__ct_tape_out_of_memory
// GROW-NEXT: llvm.unreachable


// Leaving the header, a tape takes the block its site kept, if any (enlarged
// by realloc if it is too small), else mallocs; its capacity becomes the
// block's. Freeing a heap tape gives its block, site and capacity to the
// cache, which keeps it within COTANGENT_TAPE_CACHE_BYTES (read once, 1 GiB
// unset or empty), freeing the least recently kept blocks to make room.
// RUN: %cotangent-opt %s --convert-to-llvm | FileCheck %s --check-prefix=KEEP
// KEEP-DAG: llvm.func @getenv(!llvm.ptr) -> !llvm.ptr
// KEEP-DAG: llvm.func @strtoll(!llvm.ptr, !llvm.ptr, i32) -> i64
// KEEP-LABEL: llvm.func linkonce_odr @__ct_tape_grow(
// KEEP: %[[SITE_ADDR:.*]] = llvm.getelementptr %{{.*}}[0, 3]
// KEEP-NEXT: %[[SITE:.*]] = llvm.load %[[SITE_ADDR]] : !llvm.ptr -> !llvm.ptr
// KEEP: %[[KEPT:.*]] = llvm.call @__ct_tape_cache_take(%[[SITE]])
// KEEP: llvm.call @realloc(%[[KEPT]]
// KEEP: llvm.call @malloc
// KEEP-LABEL: llvm.func linkonce_odr @__ct_tape_free(
// KEEP: llvm.call @__ct_tape_cache_give(
// KEEP-DAG: llvm.mlir.global linkonce_odr @__ct_tape_cache(#llvm.zero) {addr_space = 0 : i32} : !llvm.array<32 x struct<(ptr, ptr, i64, i64)>>
// KEEP-DAG: llvm.mlir.global linkonce_odr constant @__ct_tape_cache_variable("COTANGENT_TAPE_CACHE_BYTES\00")
// KEEP-LABEL: llvm.func linkonce_odr @__ct_tape_cache_limit_bytes() -> i64
// KEEP: llvm.load %{{.*}} atomic monotonic
// KEEP: llvm.call @getenv
// KEEP: llvm.mlir.constant(1073741824 : i64)
// KEEP: llvm.call @strtoll
// KEEP: llvm.store %{{.*}}, %{{.*}} atomic monotonic
// KEEP-LABEL: llvm.func linkonce_odr @__ct_tape_cache_take(%{{.*}}: !llvm.ptr) -> !llvm.ptr
// KEEP: llvm.call @__ct_tape_cache_acquire()
// KEEP: llvm.call @__ct_tape_cache_release_lock()
// KEEP-LABEL: llvm.func linkonce_odr @__ct_tape_cache_give(
// KEEP: %[[LIMIT:.*]] = llvm.call @__ct_tape_cache_limit_bytes()
// KEEP: llvm.icmp "ugt" %{{.*}}, %[[LIMIT]]
// KEEP: llvm.call @free
// KEEP: llvm.call @__ct_tape_cache_acquire()
// KEEP: llvm.call @__ct_tape_cache_room
// KEEP: llvm.call @free
// KEEP: llvm.call @__ct_tape_cache_release_lock()
