// A recursive function given an object whose pointer field designates the
// caller's numbers (a span by value) is lowered on its own, taking the
// memory of the field as an argument beside the object; its recursive calls
// pass the object's copy and a view of the field's memory from where the
// field points. The first call, from the differentiated function, is
// lowered in place (its body's two calls are f's).
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s

struct Span {
  const double *data;
  int size;
};

double sumSpans(Span s);

// CHECK-LABEL: func.func @_Z1fPKd(
// CHECK: %[[FIRST:.*]] = memref.subview %arg0[0]
// CHECK: call @_Z8sumSpans4Span(%{{.*}}, %[[FIRST]])
// CHECK: %[[REST:.*]] = memref.subview %arg0[2]
// CHECK: call @_Z8sumSpans4Span(%{{.*}}, %[[REST]])
[[ct::differentiable]] double f(const double *x) { return sumSpans(Span{x, 5}); }

// CHECK-LABEL: func.func @_Z8sumSpans4Span(
// CHECK-SAME: {ct.by_value}, %[[DATA:.*]]: memref<?xf64, strided<[1], offset: ?>>) -> f64
// CHECK: %[[LOW:.*]] = memref.subview %[[DATA]][0]
// CHECK: func.call @_Z8sumSpans4Span(%{{.*}}, %[[LOW]])
// CHECK: %[[HIGH:.*]] = memref.subview %[[DATA]][%{{.*}}]
// CHECK: func.call @_Z8sumSpans4Span(%{{.*}}, %[[HIGH]])
double sumSpans(Span s) {
  if (s.size == 1)
    return s.data[0] * s.data[0];
  int half = s.size / 2;
  return sumSpans(Span{s.data, half}) + sumSpans(Span{s.data + half, s.size - half});
}
