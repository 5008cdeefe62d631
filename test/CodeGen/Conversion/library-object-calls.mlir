// RUN: %cotangent-opt %s --ct-lower-external-calls | FileCheck %s

// A library function called as compiled follows the plan the frontend
// took from Clang's ABI tables (ct.c_args, ct.c_result): objects by value
// loaded from their bytes as register types (a flattened struct: one
// argument per element, at its byte offset), copied with `byval`, numbers
// widened, a hidden result pointer first, a register result stored into
// the result's place, and a reference result made a memref of the
// memory it designates.

// CHECK-LABEL: func.func @caller(
// CHECK-SAME: %[[MAP:[^:]*]]: memref<?xi8, strided<[1], offset: ?>>, %[[IT:[^:]*]]: memref<?xi8, strided<[1], offset: ?>>, %[[BIG:[^:]*]]: memref<?xi8, strided<[1], offset: ?>>, %[[K:[^:]*]]: i16, %[[OUT:[^:]*]]: memref<?xi8, strided<[1], offset: ?>>)
func.func @caller(%map: memref<?xi8, strided<[1], offset: ?>>,
                  %it: memref<?xi8, strided<[1], offset: ?>>,
                  %big: memref<?xi8, strided<[1], offset: ?>>, %k: i16,
                  %out: memref<?xi8, strided<[1], offset: ?>>) -> f64 {
  // The iterator's two words, loaded at offsets 0 and 8; the big object
  // copied on the stack; the number widened; a {ptr, i64} stored back.
  // CHECK: %[[W0:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
  // CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
  // CHECK: %[[AT8:.*]] = llvm.getelementptr %{{.*}}[%[[EIGHT]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK: %[[W1:.*]] = llvm.load %[[AT8]] : !llvm.ptr -> i64
  // CHECK: %[[R:.*]] = llvm.call @_ZNK3lib5Table6lookupE(%{{.*}}, %[[W0]], %[[W1]], %{{.*}}, %[[K]]) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i16) -> !llvm.struct<(ptr, i64)>
  // CHECK: llvm.store %[[R]], %{{.*}} : !llvm.struct<(ptr, i64)>, !llvm.ptr
  func.call @_ZNK3lib5Table6lookupE(%map, %it, %big, %k, %out) : (memref<?xi8, strided<[1], offset: ?>>, memref<?xi8, strided<[1], offset: ?>>, memref<?xi8, strided<[1], offset: ?>>, i16, memref<?xi8, strided<[1], offset: ?>>) -> ()
  // A hidden result pointer comes first, before the object.
  // CHECK: llvm.call @_ZNK3lib5Table4keysE(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> ()
  func.call @_ZNK3lib5Table4keysE(%map, %out) : (memref<?xi8, strided<[1], offset: ?>>, memref<?xi8, strided<[1], offset: ?>>) -> ()
  // A reference result: a memref of the memory at the returned address.
  // CHECK: %[[P:.*]] = llvm.call @_ZNK3lib5Table2atE(%{{.*}}, %[[K]]) : (!llvm.ptr, i16) -> !llvm.ptr
  // CHECK: %[[D0:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  // CHECK: %[[D1:.*]] = llvm.insertvalue %[[P]], %[[D0]][0]
  // CHECK: %[[D2:.*]] = llvm.insertvalue %[[P]], %[[D1]][1]
  // CHECK: %[[REF:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<?xf64, strided<[1], offset: ?>>
  // CHECK: memref.load %[[REF]]
  %ref = func.call @_ZNK3lib5Table2atE(%map, %k) : (memref<?xi8, strided<[1], offset: ?>>, i16) -> memref<?xf64, strided<[1], offset: ?>>
  %c0 = arith.constant 0 : index
  %v = memref.load %ref[%c0] : memref<?xf64, strided<[1], offset: ?>>
  return %v : f64
}

// CHECK: llvm.func @_ZNK3lib5Table6lookupE(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr {llvm.byval = !llvm.array<64 x i8>}, i16 {llvm.signext}) -> !llvm.struct<(ptr, i64)>
func.func private @_ZNK3lib5Table6lookupE(memref<?xi8, strided<[1], offset: ?>> {ct.readonly}, memref<?xi8, strided<[1], offset: ?>>, memref<?xi8, strided<[1], offset: ?>>, i16, memref<?xi8, strided<[1], offset: ?>>) attributes {ct.external, ct.library_object = "lib::Table",
  ct.c_args = [{kind = "address", operand = 0 : i64},
               {kind = "load", operand = 1 : i64, type = !llvm.ptr},
               {kind = "load", operand = 1 : i64, type = i64, offset = 8 : i64},
               {kind = "byval", operand = 2 : i64, type = !llvm.array<64 x i8>},
               {kind = "value", operand = 3 : i64, ext = "sext"}],
  ct.c_result = {kind = "store", operand = 4 : i64, type = !llvm.struct<(ptr, i64)>}}
// CHECK: llvm.func @_ZNK3lib5Table4keysE(!llvm.ptr, !llvm.ptr)
func.func private @_ZNK3lib5Table4keysE(memref<?xi8, strided<[1], offset: ?>> {ct.readonly}, memref<?xi8, strided<[1], offset: ?>>) attributes {ct.external, ct.library_object = "lib::Table",
  ct.c_args = [{kind = "address", operand = 1 : i64},
               {kind = "address", operand = 0 : i64}],
  ct.c_result = {kind = "void"}}
// CHECK: llvm.func @_ZNK3lib5Table2atE(!llvm.ptr, i16) -> !llvm.ptr
func.func private @_ZNK3lib5Table2atE(memref<?xi8, strided<[1], offset: ?>> {ct.readonly}, i16) -> memref<?xf64, strided<[1], offset: ?>> attributes {ct.external, ct.library_object = "lib::Table",
  ct.c_args = [{kind = "address", operand = 0 : i64},
               {kind = "value", operand = 1 : i64}],
  ct.c_result = {kind = "pointer"}}
