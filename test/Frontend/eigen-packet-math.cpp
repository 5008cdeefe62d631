// A call of Eigen's math function of a packet (Eigen::internal::pexp,
// plog, generic_pow...) is the <cmath> function on each lane, which the
// engine differentiates by its rule, not Eigen's polynomial of the lanes
// (EigenPacketMath.cpp). The packet functions are declared here as Eigen
// declares them; their bodies are never lowered.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s

typedef double v2d __attribute__((vector_size(16)));

namespace Eigen::internal {
template <class Packet> Packet pexp(const Packet &a);
template <class Packet> Packet plog1p(const Packet &a);
template <class Packet> Packet prsqrt(const Packet &a);
template <class Packet> Packet generic_pow(const Packet &a, const Packet &b);
} // namespace Eigen::internal

// CHECK-LABEL: func.func @_Z9exponentsdd(
// CHECK-SAME: %[[X:.*]]: f64, %[[Y:.*]]: f64
// CHECK-DAG: math.exp %[[X]] : f64
// CHECK-DAG: math.exp %[[Y]] : f64
// CHECK-DAG: math.log1p %[[X]] : f64
// CHECK-DAG: math.log1p %[[Y]] : f64
// CHECK-DAG: math.powf %[[X]], %[[Y]] : f64
// CHECK-DAG: math.powf %[[Y]], %[[X]] : f64
// CHECK-DAG: %[[ROOT:.*]] = math.sqrt %[[X]] : f64
// CHECK-DAG: arith.divf %{{.*}}, %[[ROOT]] : f64
// CHECK-NOT: call
// CHECK: return
[[ct::differentiable]] double exponents(double x, double y) {
  v2d a = {x, y}, b = {y, x};
  v2d e = Eigen::internal::pexp(a) + Eigen::internal::plog1p(a) +
          Eigen::internal::generic_pow(a, b) + Eigen::internal::prsqrt(a);
  return e[0] * e[1];
}
