//===- shim.h - The peer tool's names its tests' custom rules use ---------===//
//
// Enough of them for those tests to parse without the tool: its custom
// rules are then ordinary, unused functions (Cotangent differentiates the
// functions' own bodies).
//
//===----------------------------------------------------------------------===//
#pragma once
#define CUDA_HOST_DEVICE
#define CLAD_NONDIFFERENTIABLE_TYPE(x)
namespace clad {
template <class T, class U> struct ValueAndPushforward {
  T value;
  U pushforward;
};
template <class T, class U> struct ValueAndAdjoint {
  T value;
  U adjoint;
};
template <class T> using array_ref = T *;
template <class T> struct array {
  T *p;
  unsigned n;
};
template <class T> struct matrix {
  T *p;
};
struct tape_placeholder {};
namespace custom_derivatives {}
} // namespace clad
