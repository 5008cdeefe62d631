// A std::tuple mixing an integer with a double lies as C++ lays it out, in
// slots of its floating type: libstdc++ keeps each element in a base class
// of its own (the double at byte 0, the int at byte 8), and the int's base
// is packed in the low bytes of the second slot. The constructor stores it
// there (the slot's other bits kept), std::get<0> reads and writes those
// bits, std::get<1> the first slot as it is.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

#include <tuple>

// CHECK-LABEL: func.func @_Z6scaledd(
// CHECK: %[[TUPLE:.*]] = memref.alloca() : memref<2xf64>
// std::get<0>(t) += 1: the int's bits of slot 1, the rest kept.
// CHECK: %[[SLOT:.*]] = memref.load %[[TUPLE]][%c1] : memref<2xf64>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[SLOT]] : f64 to i64
// CHECK: %[[OLD:.*]] = arith.trunci %[[BITS]] : i64 to i32
// CHECK: %[[NEW:.*]] = arith.addi %[[OLD]], %c1_i32
// CHECK: %[[KEPT:.*]] = arith.andi %[[BITS]], %c-4294967296_i64
// CHECK: %[[WIDE:.*]] = arith.extui %[[NEW]] : i32 to i64
// CHECK: %[[MERGED:.*]] = arith.ori %[[KEPT]], %[[WIDE]]
// CHECK: %[[BACK:.*]] = arith.bitcast %[[MERGED]] : i64 to f64
// CHECK: memref.store %[[BACK]], %[[TUPLE]][%c1]
// std::get<1>(t) * std::get<0>(t).
// CHECK: %[[X:.*]] = memref.load %[[TUPLE]][%c0] : memref<2xf64>
// CHECK: %[[AGAIN:.*]] = memref.load %[[TUPLE]][%c1] : memref<2xf64>
// CHECK: %[[AGAINBITS:.*]] = arith.bitcast %[[AGAIN]] : f64 to i64
// CHECK: %[[N:.*]] = arith.trunci %[[AGAINBITS]] : i64 to i32
// CHECK: %[[NF:.*]] = arith.sitofp %[[N]] : i32 to f64
// CHECK: arith.mulf %[[X]], %[[NF]]
// The constructor of the tuple's bases: the int packed into slot 1.
// CHECK-LABEL: func.func @_ZNSt11_Tuple_implILm0EJidEEC2
// CHECK: %[[HEAD:.*]] = memref.load %arg1[%c0] : memref<?xi32
// CHECK: %[[PREV:.*]] = memref.load %arg0[%c1]
// CHECK: arith.bitcast %[[PREV]] : f64 to i64
// CHECK: arith.extui %[[HEAD]] : i32 to i64
// CHECK: memref.store %{{.*}}, %arg0[%c1]
[[ct::differentiable]] double scaled(double x) {
  std::tuple<int, double> t{3, x};
  std::get<0>(t) += 1;
  return std::get<1>(t) * std::get<0>(t);
}
