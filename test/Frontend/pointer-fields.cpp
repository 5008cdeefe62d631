// A struct's pointer, reference and std::vector fields designate memory:
// the function receives that memory as extra arguments after its declared
// parameters (one per field, in the order of the fields), and `f.x[1]`
// reads the pointer field's argument; the field's own slots are never
// read. The entry point views the caller's object at each field's byte
// offset: a pointer field by loading the address it holds, a vector field
// with ct.vector_view. Fields of a constant parameter are constant.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <vector>

struct Functor {
  const double *x;
  int n;
  double scale;
  std::vector<double> w;
};

// CHECK-LABEL: func.func @_Z5applyRK7FunctorPKd(
// CHECK-SAME: %[[F:arg0]]: memref<?xf64, strided<[1], offset: ?>>, %[[P:arg1]]: memref<?xf64, strided<[1], offset: ?>>, %[[X:arg2]]: memref<?xf64, strided<[1], offset: ?>>, %[[W:arg3]]: memref<?xf64, strided<[1], offset: ?>>) -> f64
// CHECK-DAG: memref.load %[[F]][%c2]
// CHECK-DAG: memref.load %[[X]][%c1]
// CHECK-DAG: memref.load %[[P]][%c0]
// CHECK-DAG: memref.load %[[W]][%c0]
// CHECK-NOT: memref.load %[[F]][%c0]
// CHECK: return
[[ct::differentiable]] double apply(const Functor &f, const double *p) {
  return f.scale * f.x[1] * p[0] + f.w[0];
}

// CHECK-LABEL: func.func @_ZN2ct6detail5entryINS0_11gradient_of
// CHECK: %[[OBJ:.*]] = ct.pointer_view %arg0
// CHECK: %[[PV:.*]] = ct.pointer_view %arg1
// CHECK: %[[ADDR:.*]] = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
// CHECK: %[[XV:.*]] = ct.pointer_view %[[ADDR]]
// CHECK: %[[WF:.*]] = llvm.getelementptr %arg0[24] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[WV:.*]] = ct.vector_view %[[WF]] {begin = 0 : i64, end = 8 : i64}
// CHECK: ct.gradient @_Z5applyRK7FunctorPKd(%[[OBJ]], %[[PV]], %[[XV]], %[[WV]]) shadows(%{{.*}}) activity [const, dup, const, const]
double use(const Functor &f, const double *p, double *dp) {
  return ct::gradient<apply, ct::wrt<1>>(f, p, dp);
}
