// ct.vtable_address round-trips and lowers to the address of the table's
// global (declared once, as an external weak byte: a class no object of
// which is made has no table, and the address is then null) plus its
// offset, as an integer.
// RUN: %cotangent-opt %s | %cotangent-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: %cotangent-opt %s --ct-lower-to-llvm | FileCheck %s

// ROUNDTRIP-LABEL: func.func @points
// ROUNDTRIP: ct.vtable_address "_ZTV6Circle" + 16
// ROUNDTRIP: ct.vtable_address "_ZTV6Circle" + 48

// CHECK: llvm.mlir.global extern_weak constant @_ZTV6Circle() {{.*}} : i8
// CHECK-NOT: llvm.mlir.global {{.*}}@_ZTV6Circle
// CHECK-LABEL: llvm.func @points
// CHECK: %[[T0:.*]] = llvm.mlir.addressof @_ZTV6Circle : !llvm.ptr
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[T0]][16] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[A0:.*]] = llvm.ptrtoint %[[P0]] : !llvm.ptr to i64
// CHECK: %[[T1:.*]] = llvm.mlir.addressof @_ZTV6Circle : !llvm.ptr
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[T1]][48] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[A1:.*]] = llvm.ptrtoint %[[P1]] : !llvm.ptr to i64
// CHECK: llvm.icmp "eq" %[[A0]], %[[A1]]
func.func @points() -> i1 {
  %a = ct.vtable_address "_ZTV6Circle" + 16
  %b = ct.vtable_address "_ZTV6Circle" + 48
  %same = arith.cmpi eq, %a, %b : i64
  return %same : i1
}
