// A function pointer is the function's address, an i64
// (ct.function_address, the unit's own function): chosen by `?:`, tested
// for null as an integer. A call through one the lowering cannot name
// compares it with each function of the unit whose address is taken and
// whose type is the call's, calling the match; any other address aborts.
// In LLVM IR the address is the C++ function's symbol, declared, and the
// differentiable copy of the function takes another name.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I %S/../../runtime/include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I %S/../../runtime/include | %cotangent-opt > /dev/null
// RUN: %cotangent-cc %s --emit=llvm -- -std=c++20 -I %S/../../runtime/include | FileCheck %s --check-prefix=LLVM

#include <cotangent/cotangent.h>

double square(double t) { return t * t; }
double twice(double t) { return 2 * t; }
using Unary = double (*)(double);

// CHECK-LABEL: func.func @_Z7throughdi(
// CHECK-SAME: %[[X:.*]]: f64, %[[K:.*]]: i32
// CHECK: %[[G:.*]] = scf.if %{{.*}} -> (i64) {
// CHECK:   ct.function_address "_Z6squared"
// CHECK: } else {
// CHECK:   ct.function_address "_Z5twiced"
// CHECK: arith.cmpi eq, %[[G]], %c0_i64
// CHECK: %[[SQUARE:.*]] = ct.function_address "_Z6squared"
// CHECK: %[[IS_SQUARE:.*]] = arith.cmpi eq, %[[G]], %[[SQUARE]] : i64
// CHECK: scf.if %[[IS_SQUARE]] -> (f64) {
// CHECK:   func.call @_Z6squared(%[[X]])
// CHECK: } else {
// CHECK:   %[[TWICE:.*]] = ct.function_address "_Z5twiced"
// CHECK:   arith.cmpi eq, %[[G]], %[[TWICE]] : i64
// CHECK:     func.call @_Z5twiced(%[[X]])
// CHECK:     ct.abort "{{.*}}function-pointers.cpp:[[@LINE+5]]: a call through a function pointer in a derivative found a function whose address its file does not take; aborting"
[[ct::differentiable]] double through(double x, int k) {
  Unary g = k > 0 ? square : twice;
  if (!g)
    return 0;
  return g(x);
}

// The caller's pointer is the function's address: the entry point views
// the C pointer as its integer.
// LLVM-LABEL: define internal {{.*}} @_Z5givendPFddE.pullback
// LLVM: icmp eq i64 %{{.*}}, ptrtoint (ptr @_Z6squared to i64)
// LLVM-LABEL: define weak_odr double @_ZN2ct6detail5entry
// LLVM: ptrtoint ptr %1 to i64
// LLVM: declare void @_Z6squared()
double given(double x, Unary g) { return g(x); }
double use(double x, double *dx) { return ct::gradient<given>(x, &square, dx); }

// Each candidate is lowered in its branch as a direct call of it would be:
// one taking a `void *` context (C's callbacks) is lowered in place there,
// its context the caller's variable.
double scaledBy(double t, void *context) {
  return *static_cast<double *>(context) * t;
}
double shiftedBy(double t, void *context) {
  return *static_cast<double *>(context) + t;
}
// CHECK-LABEL: func.func @_Z8callbackddi(
// CHECK-SAME: %[[X:.*]]: f64, %[[Y:.*]]: f64, %[[K:.*]]: i32
// CHECK: %[[G:.*]] = scf.if
// CHECK: } else {
// CHECK: scf.yield %{{.*}} : i64
// CHECK-NEXT: }
// CHECK-NEXT: %[[SCALED:.*]] = ct.function_address "_Z8scaledBydPv"
// CHECK-NEXT: %[[IS_SCALED:.*]] = arith.cmpi eq, %[[G]], %[[SCALED]] : i64
// CHECK: scf.if %[[IS_SCALED]] -> (f64) {
// CHECK-NEXT: arith.mulf %[[Y]], %[[X]] : f64
// CHECK: } else {
// CHECK:   %[[SHIFTED:.*]] = ct.function_address "_Z9shiftedBydPv"
// CHECK:   arith.cmpi eq, %[[G]], %[[SHIFTED]] : i64
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.addf %[[Y]], %[[X]] : f64
// CHECK:     ct.abort
// CHECK-NOT: func.call
// CHECK: return
[[ct::differentiable]] double callback(double x, double y, int k) {
  double (*g)(double, void *) = k > 0 ? scaledBy : shiftedBy;
  return g(x, &y);
}
