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
template <class T> struct Tag {};
// The tool's own stack for custom rules that keep state between their two
// halves.
template <class T> struct tape {
  T values[64];
  unsigned n = 0;
};
template <class T, class U> void push(tape<T> &t, U value) {
  t.values[t.n++] = value;
}
template <class T> T pop(tape<T> &t) { return t.values[--t.n]; }
template <class T> struct pullback_state {
  T data;
};
namespace custom_derivatives {
// The tool's built-in rules that the tests' own rules call.
namespace std {
template <class T, class U>
ValueAndPushforward<T, T> pow_pushforward(T x, U p, T dx, U dp) {
  T value = ::std::pow(x, p);
  T derivative = p * ::std::pow(x, p - 1) * dx;
  if (dp != U(0))
    derivative += value * ::std::log(x) * dp;
  return {value, derivative};
}
} // namespace std
} // namespace custom_derivatives
} // namespace clad
#define elidable_reverse_forw
