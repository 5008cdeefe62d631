// ct.function_address round-trips and lowers to the address of a
// placeholder global named after the function (declared once, external:
// the module holds its own copy of the function under the function's own
// name, and translation to LLVM IR puts the unit's function in its
// place), as an integer.
// RUN: %cotangent-opt %s | %cotangent-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: %cotangent-opt %s --ct-lower-to-llvm | FileCheck %s

// ROUNDTRIP-LABEL: func.func @same
// ROUNDTRIP: ct.function_address "_Z6squared"
// ROUNDTRIP: ct.function_address "sin"

// CHECK-DAG: llvm.mlir.global external constant @__ct_function_address._Z6squared() {{.*}} : i8
// CHECK-DAG: llvm.mlir.global external constant @__ct_function_address.sin() {{.*}} : i8
// CHECK-LABEL: llvm.func @same
// CHECK: %[[F:.*]] = llvm.mlir.addressof @__ct_function_address._Z6squared : !llvm.ptr
// CHECK: %[[A:.*]] = llvm.ptrtoint %[[F]] : !llvm.ptr to i64
// CHECK: %[[G:.*]] = llvm.mlir.addressof @__ct_function_address.sin : !llvm.ptr
// CHECK: %[[B:.*]] = llvm.ptrtoint %[[G]] : !llvm.ptr to i64
// CHECK: llvm.icmp "eq" %[[A]], %[[B]]
func.func @same() -> i1 {
  %a = ct.function_address "_Z6squared"
  %b = ct.function_address "sin"
  %same = arith.cmpi eq, %a, %b : i64
  return %same : i1
}

func.func @_Z6squared(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}
