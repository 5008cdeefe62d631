//===- probe.h - A peer test's function through Cotangent's entry points --===//
//
// PROBE_GRADIENT(f) / PROBE_JVP(f) call ct::gradient (ct::pullback for a
// void f) or ct::jvp of f, a function or a member function, with
// arguments made from its parameter types: numbers, buffers of 64
// elements behind pointers, a default-made object for a member function.
// It checks that the plugin compiles f and that the derivative runs
// (scripts/check-peer-tests.sh); probe-fd.h checks numbers.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <cotangent/cotangent.h>
#include <cstdio>
#include <type_traits>
#include <utility>
namespace probe {
template <class T> T &slot() {
  static T storage[64]{};
  return storage[0];
}
template <class P> struct Arg {
  using V = std::remove_cvref_t<P>;
  static decltype(auto) make() {
    if constexpr (std::is_pointer_v<V>) {
      using E = std::remove_cv_t<std::remove_pointer_t<V>>;
      if constexpr (std::is_void_v<E> || std::is_function_v<E>)
        return V{};
      else {
        static E buffer[64]{};
        if constexpr (std::is_floating_point_v<E>)
          for (int i = 0; i < 64; ++i)
            buffer[i] = E(0.5 + 0.25 * i);
        else if constexpr (std::is_integral_v<E>)
          for (int i = 0; i < 64; ++i)
            buffer[i] = E(i % 3);
        return static_cast<V>(buffer);
      }
    } else if constexpr (std::is_lvalue_reference_v<P>) {
      static V value = init();
      return static_cast<P>(value);
    } else {
      return init();
    }
  }
  static V init() {
    if constexpr (std::is_floating_point_v<V>)
      return V(1.25);
    else if constexpr (std::is_integral_v<V>)
      return V(5);
    else if constexpr (requires {
                         typename V::value_type;
                         V(8);
                       })
      return V(8);
    else
      return V{};
  }
};
template <class D> D shadow() {
  using E = std::remove_pointer_t<D>;
  static E buffer[64]{};
  if constexpr (requires {
                  typename E::value_type;
                  E(8);
                })
    for (auto &b : buffer)
      b = E(8);
  return buffer;
}
template <class D> D tangent() {
  if constexpr (std::is_pointer_v<D>) {
    using E = std::remove_cv_t<std::remove_pointer_t<D>>;
    static E buffer[64]{};
    return buffer;
  } else {
    return D(1);
  }
}
template <auto F, class R, class... P, class... E>
void gradient(ct::detail::list<E...>) {
  if constexpr (std::is_floating_point_v<R>)
    (void)ct::gradient<F>(Arg<P>::make()..., shadow<E>()...);
  else if constexpr (std::is_void_v<R>)
    ct::pullback<F>(Arg<P>::make()..., shadow<E>()...);
}
template <auto F, class R, class... P> void gradientOf(R (*)(P...)) {
  gradient<F, R, P...>(
      typename ct::detail::extras<ct::detail::all, 0, P...>::adjoints{});
}
template <auto F, class R, class... P, class... E>
void jvp(ct::detail::list<E...>) {
  (void)ct::jvp<F>(Arg<P>::make()..., tangent<E>()...);
}
template <auto F, class R, class... P> void jvpOf(R (*)(P...)) {
  jvp<F, R, P...>(
      typename ct::detail::extras<ct::detail::all, 0, P...>::tangents{});
}
/// A member function is called on a static object of its class, passed as
/// the reference its qualifiers make (`Object`: `const C &`, `C &&`, ...).
template <auto F, class R, class C, class Object, class... P, class... E>
void memberGradient(ct::detail::list<E...>) {
  static C object{};
  if constexpr (std::is_floating_point_v<R>)
    (void)ct::gradient<F>(static_cast<Object>(object), Arg<P>::make()...,
                          shadow<E>()...);
  else if constexpr (std::is_void_v<R>)
    ct::pullback<F>(static_cast<Object>(object), Arg<P>::make()...,
                    shadow<E>()...);
}
template <auto F, class R, class C, class Object, class... P, class... E>
void memberJvp(ct::detail::list<E...>) {
  static C object{};
  (void)ct::jvp<F>(static_cast<Object>(object), Arg<P>::make()...,
                   tangent<E>()...);
}
#define PROBE_MEMBER(CV, REF, OBJECT, NOEXCEPT)                                \
  template <auto F, class R, class C, class... P>                              \
  void gradientOf(R (C::*)(P...) CV REF NOEXCEPT) {                            \
    memberGradient<F, R, C, CV C OBJECT, P...>(                                \
        typename ct::detail::extras<ct::detail::all_but_object, 0,             \
                                    CV C OBJECT, P...>::adjoints{});           \
  }                                                                            \
  template <auto F, class R, class C, class... P>                              \
  void jvpOf(R (C::*)(P...) CV REF NOEXCEPT) {                                 \
    memberJvp<F, R, C, CV C OBJECT, P...>(                                     \
        typename ct::detail::extras<ct::detail::all_but_object, 0,             \
                                    CV C OBJECT, P...>::tangents{});           \
  }
#define PROBE_MEMBER_CV(REF, OBJECT, NOEXCEPT)                                 \
  PROBE_MEMBER(, REF, OBJECT, NOEXCEPT)                                        \
  PROBE_MEMBER(const, REF, OBJECT, NOEXCEPT)                                   \
  PROBE_MEMBER(volatile, REF, OBJECT, NOEXCEPT)                                \
  PROBE_MEMBER(const volatile, REF, OBJECT, NOEXCEPT)
PROBE_MEMBER_CV(, &, )
PROBE_MEMBER_CV(&, &, )
PROBE_MEMBER_CV(&&, &&, )
PROBE_MEMBER_CV(, &, noexcept)
PROBE_MEMBER_CV(&, &, noexcept)
PROBE_MEMBER_CV(&&, &&, noexcept)
#undef PROBE_MEMBER_CV
#undef PROBE_MEMBER
} // namespace probe
#define PROBE_GRADIENT(f) probe::gradientOf<&f>(&f)
#define PROBE_JVP(f) probe::jvpOf<&f>(&f)
