//===- probe-fd.h - A peer test's gradient against differences ------------===//
//
// PROBE_GRADIENT(f) / PROBE_JVP(f), for an f that is pure (numbers, and
// pointers or references to const numbers): ct::gradient of f against
// central differences of f itself, for each number and the first four
// elements of each buffer, printing a MISMATCH line for each that differs
// (coarser steps and tolerance where float is involved); SKIP for others.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <cmath>
#include <cotangent/cotangent.h>
#include <cstdio>
#include <tuple>
#include <type_traits>
#include <utility>
namespace probe {
template <class P> constexpr bool pureParam() {
  using V = std::remove_reference_t<P>;
  if constexpr (std::is_arithmetic_v<std::remove_cv_t<V>> &&
                !std::is_reference_v<P>)
    return true;
  else if constexpr (std::is_pointer_v<V>)
    return std::is_const_v<std::remove_pointer_t<V>> &&
           std::is_arithmetic_v<std::remove_cv_t<std::remove_pointer_t<V>>>;
  else if constexpr (std::is_reference_v<P>)
    return std::is_const_v<V> && std::is_arithmetic_v<std::remove_cv_t<V>>;
  else
    return false;
}
template <class P, int I> struct Holder {
  using V = std::remove_cvref_t<P>;
  using E = std::remove_cv_t<std::remove_pointer_t<V>>;
  static E *buffer() {
    static E b[64];
    return b;
  }
  V value{};
  Holder() {
    if constexpr (std::is_pointer_v<V>) {
      for (int i = 0; i < 64; ++i)
        buffer()[i] = E(0.3 + 0.17 * ((i * 7 + I) % 11));
      value = buffer();
    } else if constexpr (std::is_floating_point_v<V>)
      value = V(0.6 + 0.23 * I);
    else if constexpr (std::is_integral_v<V>)
      value = V(7); // (3, a constant the tests use, made `x - 3` zero)
  }
  P get() {
    if constexpr (std::is_pointer_v<V>)
      return value;
    else
      return static_cast<P>(value);
  }
};
template <class P> struct Shadow {
  using V = std::remove_cvref_t<P>;
  using E = std::remove_cv_t<std::remove_pointer_t<V>>;
  E b[64]{};
};
template <auto F, class R, class... P, std::size_t... I>
void check(std::index_sequence<I...>) {
  std::tuple<Holder<P, int(I)>...> h;
  constexpr bool active[] = {
      (std::is_floating_point_v<std::remove_cvref_t<
           std::remove_pointer_t<std::remove_cvref_t<P>>>>)...,
      false};
  std::tuple<Shadow<P>...> s;
  auto shadowArg = [&](auto &sh) { return sh.b; };
  auto call = [&] { return double(F(std::get<I>(h).get()...)); };
  // gradient: active params are floating scalars or pointers to floating.
  auto grad = [&](auto... d) {
    return ct::gradient<F>(std::get<I>(h).get()..., d...);
  };
  (void)grad;
  double value = 0;
  {
    auto args = std::tuple_cat([&]() {
      if constexpr (active[I])
        return std::tuple<
            std::remove_cv_t<std::remove_pointer_t<std::remove_cvref_t<P>>> *>(
            std::get<I>(s).b);
      else
        return std::tuple<>();
    }()...);
    value = std::apply(grad, args);
  }
  double primal = call();
  if (!(std::abs(value - primal) <= 1e-9 * (1 + std::abs(primal))) &&
      !(std::isnan(value) && std::isnan(primal)))
    std::printf("MISMATCH value %g vs %g\n", value, primal);
  constexpr bool single =
      std::is_same_v<R, float> ||
      (std::is_same_v<
           std::remove_cvref_t<std::remove_pointer_t<std::remove_cvref_t<P>>>,
           float> ||
       ...);
  // A function of doubles that rounds them to float inside (`fmodf(x, y)`)
  // is a staircase at the scale of fine steps: f does not move when x moves
  // by 64 of its ulps. Such a function gets float's steps and tolerance.
  auto coarse = [&](auto &x) {
    auto saved = x;
    x = saved + 64 * std::abs(double(saved)) * 2.2e-16;
    double moved = call();
    x = saved;
    return single || moved == call();
  };
  auto fd = [&](auto &x, bool low) {
    auto saved = x;
    double hh = (low ? 2e-3 : 1e-5) * (1 + std::abs(double(x)));
    x = saved + hh;
    double up = call();
    x = saved - hh;
    double down = call();
    x = saved;
    return (up - down) / (2 * hh);
  };
  auto compare = [&](int param, int k, double got, auto &x) {
    bool low = coarse(x);
    double want = fd(x, low);
    double tol = (low ? 1e-2 : 1e-4) * (1 + std::abs(want));
    if (!(std::abs(got - want) <= tol) &&
        !(std::isnan(want) && std::isnan(got)))
      std::printf("MISMATCH param %d elem %d: gradient %.10g fd %.10g\n", param,
                  k, got, want);
  };
  auto one = [&](auto i) {
    constexpr int J = decltype(i)::value;
    if constexpr (active[J]) {
      using V = std::remove_cvref_t<std::tuple_element_t<J, std::tuple<P...>>>;
      auto &holder = std::get<J>(h);
      if constexpr (std::is_pointer_v<V>) {
        for (int k = 0; k < 4; ++k)
          compare(J, k, std::get<J>(s).b[k], holder.buffer()[k]);
      } else {
        compare(J, 0, std::get<J>(s).b[0], holder.value);
      }
    }
  };
  (one(std::integral_constant<int, int(I)>{}), ...);
}
template <auto F, class R, class... P> void run(R (*)(P...)) {
  if constexpr (std::is_floating_point_v<R> && (pureParam<P>() && ...) &&
                sizeof...(P) > 0)
    check<F, R, P...>(std::index_sequence_for<P...>{});
  else
    std::puts("SKIP");
}
/// Member functions: their object is not a number (not checked here).
template <auto F, class M>
  requires std::is_member_function_pointer_v<M>
void run(M) {
  std::puts("SKIP");
}
} // namespace probe
#define PROBE_GRADIENT(f) probe::run<&f>(&f)
#define PROBE_JVP(f) probe::run<&f>(&f)
