//===- cotangent/cotangent.h - Cotangent's C++ API ------------------------===//
//
// The derivative entry points of Cotangent (see the README's API table):
//
//   ct::gradient<f>(args..., d_args...)            -> f's value
//   ct::gradient<f, ct::wrt<I...>>(args..., d_args...)
//   ct::pullback<f>(args..., dret, d_args...)       -> f's value
//   ct::jvp<f>(args..., t_args...)                  -> ct::dual<R>{value,
//   tangent} ct::hvp<f>(args..., v_args..., hv_args...) ct::pullback<f,
//   ct::lanes<K>>(args..., dret, d_args...)  K seeds at once ct::jvp<f,
//   ct::lanes<K>>(args..., t_args...)  -> ct::dual<R, K>
//
// Each is an ordinary function whose signature is derived from f's: the
// header type-checks every call. Its body is a declaration the Cotangent
// plugin defines when it compiles the translation unit; built without the
// plugin, a program that calls one fails to link, naming the derivative
// (`ct::detail::entry<..., &f, ...>::call`).
//
// Parameter roles (README, "Parameter roles"): floating-point scalars by value
// are active, with a `T*` adjoint; pointers and references to floating-point
// data (or to aggregates of it) are memory, with a `T*` shadow: `const`
// memory is input (the shadow receives +=), non-const memory is in/out (the
// shadow holds the seed of the final contents on entry and the cotangent of
// the initial contents on return); aggregates by value are active inputs
// with a `T*` adjoint; everything else (integers, bool, enums, pointers to
// them) is constant and takes no extra argument.
//
// Standard C++20; needs no plugin and no library to compile.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_COTANGENT_H
#define COTANGENT_COTANGENT_H

#include <type_traits>
#include <utility>

// The schedule checkpointed loops' derivatives follow (#pragma ct checkpoint).
#include "checkpoint_schedule.h"
#include "scratch.h"

namespace ct {

/// Selects the active parameters of a reverse-mode entry point (0-based).
template <int... Index> struct wrt {};

/// Vector mode: `ct::pullback<f, ct::lanes<K>>` and `ct::jvp<f,
/// ct::lanes<K>>` take K derivatives through one sweep, which computes f
/// once. Every derivative argument holds K lanes, element-interleaved: a
/// scalar's is `T[K]`, memory's holds element i, lane k at `d[i * K + k]`.
template <int K> struct lanes {
  static_assert(K >= 1 && K <= 64, "ct::lanes<K>: K must be from 1 to 64");
};

/// A forward-mode result: the value and its tangent; with K lanes
/// (`ct::jvp<f, ct::lanes<K>>`), the value and its K tangents.
template <class R, int K = 0> struct dual {
  R value;
  R tangent[K];
};
template <class R> struct dual<R, 0> {
  R value;
  R tangent;
};
/// The forward-mode result of a function returning void: its tangents are
/// in the in/out memory's tangent arguments.
template <> struct dual<void, 0> {};
template <int K> struct dual<void, K> {};

namespace detail {
template <class T> struct is_dual : std::false_type {};
template <class R, int K> struct is_dual<dual<R, K>> : std::true_type {};
template <class T> struct is_void_dual : std::false_type {};
template <int K> struct is_void_dual<dual<void, K>> : std::true_type {};
} // namespace detail

/// The value of `x`, with zero derivative.
template <class T> T stop_gradient(T x) { return x; }

/// The value of `G(x)`, differentiated as the identity (straight-through).
template <auto G, class T> T pass_through(T x) { return G(x); }

namespace detail {

enum class kind : int { gradient = 0, pullback = 1, jvp = 2, hvp = 3 };

/// The kinds as types, so that a missing derivative's symbol reads
/// `ct::detail::entry<ct::detail::gradient_of, ..., &f, ...>::call`.
template <kind K> struct kind_tag {
  static constexpr kind value = K;
};
struct gradient_of : kind_tag<kind::gradient> {};
struct pullback_of : kind_tag<kind::pullback> {};
struct jvp_of : kind_tag<kind::jvp> {};
struct hvp_of : kind_tag<kind::hvp> {};
template <kind K>
using tag_t = std::conditional_t<
    K == kind::gradient, gradient_of,
    std::conditional_t<K == kind::pullback, pullback_of,
                       std::conditional_t<K == kind::jvp, jvp_of, hvp_of>>>;
/// A kind in vector mode with L lanes.
template <class Tag, int L> struct in_lanes : Tag {};
template <kind K, int L>
using lane_tag_t = std::conditional_t<L == 0, tag_t<K>, in_lanes<tag_t<K>, L>>;

/// The lanes an entry point's options ask for (0: not vector mode).
template <class T> struct lanes_in : std::integral_constant<int, 0> {};
template <int L> struct lanes_in<lanes<L>> : std::integral_constant<int, L> {};
/// No second option.
struct no_option {};

/// Every parameter active: the default of ct::wrt.
struct all {};
/// The default selection of a member function: its parameters, not the
/// object (which ct::wrt<0, ...> selects).
struct all_but_object {};

template <class... T> struct list {};

template <class T> struct type_is {
  using type = T;
};

enum class role { constant, scalar, input, inout, value };

/// Whether memory of type T holds values to differentiate: floating-point
/// scalars, classes, containers (std::vector) of those, and pointers to
/// those (an array of parameter blocks, `const double* const*`).
template <class T> constexpr bool floating_data() {
  using U = std::remove_cv_t<std::remove_all_extents_t<T>>;
  if constexpr (requires {
                  typename U::value_type;
                  typename U::allocator_type;
                })
    return floating_data<typename U::value_type>();
  else if constexpr (std::is_pointer_v<U>)
    return floating_data<std::remove_pointer_t<U>>();
  else
    return std::is_floating_point_v<U> || std::is_class_v<U>;
}
template <class T> inline constexpr bool floating_data_v = floating_data<T>();

/// What a parameter of type T is to differentiation.
template <class T> constexpr role role_of() {
  if constexpr (std::is_reference_v<T> || std::is_pointer_v<T>) {
    using pointee = std::remove_reference_t<
        std::remove_pointer_t<std::remove_reference_t<T>>>;
    if constexpr (std::is_reference_v<T> &&
                  std::is_pointer_v<std::remove_reference_t<T>>)
      return role::constant; // a reference to a pointer
    else if constexpr (!floating_data_v<pointee>)
      return role::constant;
    else
      return std::is_const_v<pointee> ? role::input : role::inout;
  } else if constexpr (std::is_floating_point_v<T>) {
    return role::scalar;
  } else if constexpr (std::is_class_v<T>) {
    return floating_data_v<T> ? role::value : role::constant;
  } else {
    return role::constant;
  }
}

/// Memory of type D as its derivative holds it: the same, but a pointer
/// points to writable memory (the shadow of a `const double*` block is a
/// `double*` to the block's derivative).
template <class D> constexpr auto derivative_data() {
  if constexpr (std::is_pointer_v<D>)
    return type_is<std::remove_cv_t<std::remove_pointer_t<D>> *>{};
  else
    return type_is<D>{};
}

/// The plain scalar or aggregate a memory parameter points at, as its
/// derivative holds it.
template <class T>
using data_t =
    typename decltype(derivative_data<
                      std::remove_cv_t<std::remove_all_extents_t<
                          std::remove_reference_t<std::remove_pointer_t<
                              std::remove_reference_t<T>>>>>>())::type;

/// How an argument crosses into the derivative: scalars and pointers as
/// they are, references and aggregates by address (so that the derivative's
/// symbol has a plain C ABI any compiler agrees on).
template <class T> constexpr auto abi_of() {
  if constexpr (std::is_reference_v<T>)
    return type_is<std::remove_reference_t<T> *>{};
  else if constexpr (std::is_class_v<T>)
    return type_is<const T *>{};
  else
    return type_is<T>{};
}
template <class T> using abi_t = typename decltype(abi_of<T>())::type;

template <class T>
  requires(std::is_reference_v<T> || std::is_class_v<T>)
abi_t<T> to_abi(std::remove_reference_t<T> &x) {
  return &x;
}
/// Scalars and pointers by value (so that code differentiated again, which
/// calls an entry point, never binds a pointer to a reference).
template <class T>
  requires(!std::is_reference_v<T> && !std::is_class_v<T>)
T to_abi(T x) {
  return x;
}

template <class W, int I> struct selects;
template <int I> struct selects<all, I> : std::true_type {};
template <int I>
struct selects<all_but_object, I> : std::bool_constant<I != 0> {};
template <int... J, int I>
struct selects<wrt<J...>, I> : std::bool_constant<((J == I) || ...)> {};

template <class W, int N> struct wrt_valid : std::true_type {};
template <int... J, int N>
struct wrt_valid<wrt<J...>, N>
    : std::bool_constant<((J >= 0 && J < N) && ...)> {};

template <class... L> struct concat;
template <> struct concat<> {
  using type = list<>;
};
template <class... A> struct concat<list<A...>> {
  using type = list<A...>;
};
template <class... A, class... B, class... R>
struct concat<list<A...>, list<B...>, R...> : concat<list<A..., B...>, R...> {};

/// The extra argument of an active parameter of type T: an adjoint or
/// shadow for reverse mode (`T*`), a tangent for forward mode. With L
/// lanes a scalar's tangent is `const T*` (L of them).
template <class T, int L = 0> struct extra {
  static constexpr role r = role_of<T>();
  static constexpr auto pick_adjoint() {
    if constexpr (r == role::scalar)
      return type_is<T *>{};
    else
      return type_is<data_t<T> *>{};
  }
  static constexpr auto pick_tangent() {
    if constexpr (r == role::scalar && L > 0)
      return type_is<const T *>{};
    else if constexpr (r == role::scalar)
      return type_is<T>{};
    else if constexpr (r == role::inout)
      return type_is<data_t<T> *>{};
    else
      return type_is<const data_t<T> *>{};
  }
  using adjoint = typename decltype(pick_adjoint())::type;
  using tangent = typename decltype(pick_tangent())::type;
};

template <class W, int L, class Is, class... P> struct extras_impl;
template <class W, int L, int... I, class... P>
struct extras_impl<W, L, std::integer_sequence<int, I...>, P...> {
  template <int J, class T>
  static constexpr bool active =
      role_of<T>() != role::constant && selects<W, J>::value;
  using adjoints = typename concat<std::conditional_t<
      active<I, P>, list<typename extra<P>::adjoint>, list<>>...>::type;
  using tangents = typename concat<std::conditional_t<
      active<I, P>, list<typename extra<P, L>::tangent>, list<>>...>::type;
  static constexpr bool any_inout =
      ((active<I, P> && role_of<P>() == role::inout) || ...);
  static constexpr bool selected_constant =
      ((selects<W, I>::value && !std::is_same_v<W, all> &&
        !std::is_same_v<W, all_but_object> && role_of<P>() == role::constant) ||
       ...);
};

template <class W, int L, class... P>
using extras =
    extras_impl<W, L, std::make_integer_sequence<int, sizeof...(P)>, P...>;

/// The symbol the plugin defines: one per (kind, function, selection), with
/// a signature of scalars and pointers only.
template <class Kind, class Fn, Fn *F, class W, class Sig> struct entry;
/// The same for a member function (the object first, by address).
template <class Kind, class M, M F, class W, class Sig> struct method_entry;
/// For a function with internal linkage `call` has internal linkage too;
/// the plugin defines it in the same unit, so Clang's warning that it is
/// not defined does not apply.
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wundefined-internal"
#endif
template <class Kind, class Fn, Fn *F, class W, class R, class... A>
struct entry<Kind, Fn, F, W, R(A...)> {
  static R call(A...);
};
template <class Kind, class M, M F, class W, class R, class... A>
struct method_entry<Kind, M, F, W, R(A...)> {
  static R call(A...);
};
#ifdef __clang__
#pragma clang diagnostic pop
#endif

/// The entry symbol of F (a function or a member function pointer). Its
/// template parameters are declared with F's type rather than `auto`,
/// whose mangling differs between compilers and versions.
template <class Kind, auto F, class W, class Sig> constexpr auto pick_entry() {
  using T = std::remove_cv_t<decltype(F)>;
  if constexpr (std::is_member_function_pointer_v<T>)
    return type_is<method_entry<Kind, T, F, W, Sig>>{};
  else
    return type_is<entry<Kind, std::remove_pointer_t<T>, F, W, Sig>>{};
}
template <class Kind, auto F, class W, class Sig>
using entry_t = typename decltype(pick_entry<Kind, F, W, Sig>())::type;

/// The entry point the user calls: f's arguments unchanged, then the extra
/// arguments; it forwards to `entry`. L is the lanes of vector mode (0:
/// not vector mode).
template <kind K, auto F, class W, int L, class R, class Ps, class Es>
struct front;

template <kind K, auto F, class W, int L, class R, class... P, class... E>
struct front<K, F, W, L, R, list<P...>, list<E...>> {
  /// The user's signature; a custom gradient rule returns nothing.
  using signature =
      std::conditional_t<K == kind::pullback, void(P..., E...), R(P..., E...)>;
  using Tag = lane_tag_t<K, L>;
  static R call(P... p, E... e) {
    if constexpr (K == kind::jvp && !is_dual<R>::value) {
      return entry_t<Tag, F, W, R(abi_t<P>..., E...)>::call(to_abi<P>(p)...,
                                                            e...);
    } else if constexpr (K == kind::jvp) {
      if constexpr (is_void_dual<R>::value) {
        entry_t<Tag, F, W, void(abi_t<P>..., E...)>::call(to_abi<P>(p)...,
                                                          e...);
        return R{};
      } else {
        using V = decltype(R::value);
        using Entry = entry_t<Tag, F, W, V(abi_t<P>..., E..., V *)>;
        R result{};
        if constexpr (L == 0)
          result.value = Entry::call(to_abi<P>(p)..., e..., &result.tangent);
        else
          result.value = Entry::call(to_abi<P>(p)..., e..., result.tangent);
        return result;
      }
    } else {
      return entry_t<Tag, F, W, R(abi_t<P>..., E...)>::call(to_abi<P>(p)...,
                                                            e...);
    }
  }
};

template <class Fn> struct function_traits {
  static_assert(sizeof(Fn) == 0,
                "Cotangent's entry points take a function: ct::gradient<f>");
};
template <class R, class... P> struct function_traits<R(P...)> {
  using result = R;
  template <class W> using ex = extras<W, 0, P...>;
  static constexpr int arity = sizeof...(P);
  using params = list<P...>;
};
template <class R, class... P>
struct function_traits<R(P...) noexcept> : function_traits<R(P...)> {};
/// A member function is differentiated as a function of its object (a
/// reference, first) and its parameters.
/// Its qualifiers (const, volatile, & or &&, noexcept) qualify the object
/// as C++ does (an unqualified one is an lvalue); the derivative reads the
/// object through that reference.
#define CT_MEMBER_FUNCTION_TRAITS(CV, REF, OBJECT, NOEXCEPT)                   \
  template <class R, class C, class... P>                                      \
  struct function_traits<R (C::*)(P...) CV REF NOEXCEPT>                       \
      : function_traits<R(CV C OBJECT, P...)> {};
#define CT_MEMBER_FUNCTION_TRAITS_CV(REF, OBJECT, NOEXCEPT)                    \
  CT_MEMBER_FUNCTION_TRAITS(, REF, OBJECT, NOEXCEPT)                           \
  CT_MEMBER_FUNCTION_TRAITS(const, REF, OBJECT, NOEXCEPT)                      \
  CT_MEMBER_FUNCTION_TRAITS(volatile, REF, OBJECT, NOEXCEPT)                   \
  CT_MEMBER_FUNCTION_TRAITS(const volatile, REF, OBJECT, NOEXCEPT)
CT_MEMBER_FUNCTION_TRAITS_CV(, &, )
CT_MEMBER_FUNCTION_TRAITS_CV(&, &, )
CT_MEMBER_FUNCTION_TRAITS_CV(&&, &&, )
CT_MEMBER_FUNCTION_TRAITS_CV(, &, noexcept)
CT_MEMBER_FUNCTION_TRAITS_CV(&, &, noexcept)
CT_MEMBER_FUNCTION_TRAITS_CV(&&, &&, noexcept)
#undef CT_MEMBER_FUNCTION_TRAITS_CV
#undef CT_MEMBER_FUNCTION_TRAITS

template <class Traits, class W> struct checked {
  using traits = Traits;
  using R = typename traits::result;
  static_assert(wrt_valid<W, traits::arity>::value,
                "ct::wrt<I...>: an index is not a parameter of the function "
                "(indices are 0-based)");
  static_assert(!traits::template ex<W>::selected_constant,
                "ct::wrt<I...>: a selected parameter is an integer, bool, "
                "enum or pointer to them, which has no derivative");
};

/// Whether a function's result R is an aggregate of floating-point
/// scalars (std::array<double, 3>, a struct of doubles), which derivatives
/// treat as memory the function writes (dense.h).
template <class R>
inline constexpr bool is_aggregate_result =
    std::is_class_v<R> && std::is_trivially_copyable_v<R> &&
    floating_data_v<R> && !is_dual<R>::value;
/// Whether R is a std::vector of floating-point numbers (or of aggregates
/// of them), which derivatives treat alike: memory the function fills,
/// whose size the call decides.
template <class R> constexpr bool vector_result() {
  if constexpr (requires {
                  typename R::value_type;
                  typename R::allocator_type;
                })
    return std::is_floating_point_v<typename R::value_type> ||
           is_aggregate_result<typename R::value_type>;
  else
    return false;
}
template <class R>
inline constexpr bool is_written_result =
    is_aggregate_result<R> || vector_result<R>();
/// ct::pullback and ct::jvp of a function returning such an aggregate
/// (dense.h): the seed or tangent of the result is an R too.
template <kind K, auto F, class W, class R, class Ps, class Es>
struct aggregate_front;

template <kind K, auto F, class W, int L, class Traits, class Params>
struct front_of;
template <kind K, auto F, class W, int L, class Traits, class... P>
struct front_of<K, F, W, L, Traits, list<P...>> : checked<Traits, W> {
  using R = typename Traits::result;
  using ex = extras<W, L, P...>;
  /// A seed of a pullback: K of them in vector mode.
  using seed = std::conditional_t<L == 0, R, const R *>;
  static constexpr auto pick() {
    if constexpr (K == kind::gradient) {
      static_assert(std::is_floating_point_v<R>,
                    "ct::gradient<f> needs f to return float or double; use "
                    "ct::pullback<f> for other results");
      return front<K, F, W, L, R, list<P...>, typename ex::adjoints>{};
    } else if constexpr (K == kind::pullback && is_written_result<R>) {
      static_assert(L == 0, "ct::pullback<f, ct::lanes<K>> needs f to "
                            "return a number or void");
      return aggregate_front<K, F, W, R, list<P...>, typename ex::adjoints>{};
    } else if constexpr (K == kind::jvp && is_written_result<R>) {
      static_assert(L == 0, "ct::jvp<f, ct::lanes<K>> needs f to return a "
                            "number or void");
      return aggregate_front<K, F, W, R, list<P...>, typename ex::tangents>{};
    } else if constexpr (K == kind::pullback) {
      static_assert(std::is_void_v<R> || std::is_arithmetic_v<R>,
                    "ct::pullback<f> needs f to return a number, an "
                    "aggregate of floating-point numbers, a std::vector of "
                    "them or void");
      // A result that is not floating-point (a Ceres functor's `bool`)
      // has no seed: it is returned as it is.
      if constexpr (!std::is_floating_point_v<R>)
        return front<K, F, W, L, R, list<P...>, typename ex::adjoints>{};
      else
        return front<
            K, F, W, L, R, list<P...>,
            typename concat<list<seed>, typename ex::adjoints>::type>{};
    } else if constexpr (K == kind::jvp) {
      static_assert(std::is_void_v<R> || std::is_arithmetic_v<R>,
                    "ct::jvp<f> needs f to return a number, an aggregate of "
                    "floating-point numbers, a std::vector of them or void");
      // A result that is not floating-point has no tangent: it is
      // returned as it is.
      if constexpr (std::is_void_v<R> || std::is_floating_point_v<R>)
        return front<K, F, W, L, dual<R, L>, list<P...>,
                     typename ex::tangents>{};
      else
        return front<K, F, W, L, R, list<P...>, typename ex::tangents>{};
    } else {
      static_assert(std::is_floating_point_v<R>,
                    "ct::hvp<f> needs f to return float or double");
      static_assert(!ex::any_inout,
                    "ct::hvp<f> needs f's memory parameters to be const "
                    "(inputs): the Hessian of f is taken with respect to "
                    "its inputs");
      return front<K, F, W, L, void, list<P...>,
                   typename concat<typename ex::tangents,
                                   typename ex::adjoints>::type>{};
    }
  }
  using type = decltype(pick());
};

/// The options of an entry point, `ct::wrt<I...>` and `ct::lanes<L>` in
/// either order, either one left out.
template <class T> struct is_lanes : std::false_type {};
template <int L> struct is_lanes<lanes<L>> : std::true_type {};

template <class A, class B> struct options {
  static constexpr bool lanes_in_range =
      (!is_lanes<A>::value ||
       (lanes_in<A>::value >= 1 && lanes_in<A>::value <= 64)) &&
      (!is_lanes<B>::value ||
       (lanes_in<B>::value >= 1 && lanes_in<B>::value <= 64));
  static constexpr int L = lanes_in<A>::value + lanes_in<B>::value;
  using W = std::conditional_t<
      lanes_in<A>::value != 0,
      std::conditional_t<std::is_same_v<B, no_option>, all, B>, A>;
  static constexpr bool valid =
      (lanes_in<A>::value == 0 || lanes_in<B>::value == 0) &&
      (std::is_same_v<B, no_option> || lanes_in<A>::value != 0 ||
       lanes_in<B>::value != 0);
};

template <kind K, auto F, class A, class B> constexpr auto entry_point() {
  using O = options<A, B>;
  static_assert(O::lanes_in_range, "ct::lanes<K>: K must be from 1 to 64");
  static_assert(O::valid,
                "Cotangent's entry points take at most one ct::wrt<I...> and "
                "one ct::lanes<K>: ct::pullback<f, ct::wrt<0>, ct::lanes<4>>");
  static_assert(O::L == 0 || K == kind::pullback || K == kind::jvp,
                "ct::lanes<K> is for ct::pullback and ct::jvp (the primitives "
                "of vector mode)");
  using W = typename O::W;
  using T = std::remove_cv_t<decltype(F)>;
  if constexpr (std::is_member_function_pointer_v<T>) {
    // `ct::gradient<&C::f>(object, args..., d_args...)`.
    using traits = function_traits<T>;
    using Wm = std::conditional_t<std::is_same_v<W, all>, all_but_object, W>;
    return &front_of<K, F, Wm, O::L, traits,
                     typename traits::params>::type::call;
  } else {
    using Fn = std::remove_pointer_t<T>;
    static_assert(std::is_function_v<Fn>,
                  "Cotangent's entry points take a function: ct::gradient<f> "
                  "or ct::gradient<&Class::member>");
    using traits = function_traits<Fn>;
    return &front_of<K, F, W, O::L, traits,
                     typename traits::params>::type::call;
  }
}

} // namespace detail

/// Value and reverse-mode gradient: `ct::gradient<f>(args..., d_args...)`.
template <auto F, class W = detail::all, class B = detail::no_option>
inline constexpr auto gradient =
    detail::entry_point<detail::kind::gradient, F, W, B>();

/// Reverse mode with a seed: `ct::pullback<f>(args..., dret, d_args...)`;
/// `ct::pullback<f, ct::lanes<K>>(args..., dret, d_args...)` with K seeds
/// (`dret` points at K of them) through one sweep.
template <auto F, class W = detail::all, class B = detail::no_option>
inline constexpr auto pullback =
    detail::entry_point<detail::kind::pullback, F, W, B>();

/// Forward mode: `ct::jvp<f>(args..., t_args...)` -> `ct::dual<R>`;
/// `ct::jvp<f, ct::lanes<K>>` -> `ct::dual<R, K>`, K tangents through one
/// sweep (a scalar's tangent argument points at K of them).
template <auto F, class W = detail::all, class B = detail::no_option>
inline constexpr auto jvp = detail::entry_point<detail::kind::jvp, F, W, B>();

/// Hessian-vector product: `ct::hvp<f>(args..., v_args..., hv_args...)`.
template <auto F, class W = detail::all, class B = detail::no_option>
inline constexpr auto hvp = detail::entry_point<detail::kind::hvp, F, W, B>();

namespace detail {
template <class R, class Ps, class Es> struct function_of;
template <class R, class... P, class... E>
struct function_of<R, list<P...>, list<E...>> {
  using type = R(P..., E...);
};

template <kind K, class Fn, Fn *F> struct rule_signature {
  using front_type =
      typename front_of<K, F, all, 0, function_traits<Fn>,
                        typename function_traits<Fn>::params>::type;
  using type = typename front_type::signature;
};

/// A custom rule, found by the plugin: `Rule` replaces differentiation of
/// `F` in mode `K` (pullback: reverse mode; jvp: forward mode). The check
/// makes a rule with the wrong signature an error at the macro.
template <kind K, class Fn, Fn *F, class RuleFn, RuleFn *Rule>
struct custom_rule {
  using expected = typename rule_signature<K, Fn, F>::type;
  static_assert(std::is_same_v<RuleFn, expected>,
                "the custom rule's signature must be exactly the entry "
                "point's: CT_CUSTOM_GRADIENT(f, pb) needs "
                "void pb(args..., dret, d_args...) (ct::pullback<f> without "
                "its result); CT_CUSTOM_JVP(f, t) needs "
                "ct::dual<R> t(args..., t_args...) (ct::jvp<f>)");
};

/// Calls a forward rule as C++ compiled it and stores its ct::dual through
/// a pointer (value, then tangent), as differentiable code returns an
/// aggregate: the plugin calls a rule it cannot lower through this.
template <class RuleFn, RuleFn *Rule> struct jvp_trampoline {
  // (A rule of another signature: custom_rule's assertion reports it.)
  static void apply() {}
};
template <class R, class... Q, dual<R> (*Rule)(Q...)>
struct jvp_trampoline<dual<R>(Q...), Rule> {
  static void apply(Q... args, R *out) {
    dual<R> result = Rule(args...);
    out[0] = result.value;
    out[1] = result.tangent;
  }
};

/// The residual type of a VJP rule's forward half `R f_fwd(P..., Res*)`:
/// its last parameter, a pointer to a writable trivially copyable type.
template <class Fwd> struct residual_of {
  using type = void;
};
template <class R, class... P> struct residual_of<R(P...)> {
  using last = typename decltype((std::type_identity<P>{}, ...))::type;
  using type = std::conditional_t<
      std::is_pointer_v<last> &&
          !std::is_const_v<std::remove_pointer_t<last>> &&
          std::is_trivially_copyable_v<std::remove_pointer_t<last>>,
      std::remove_pointer_t<last>, void>;
};
template <class R> struct residual_of<R()> {
  using type = void;
};

/// A function type without `noexcept`, which rules may differ in.
template <class Fn> struct without_noexcept {
  using type = Fn;
};
template <class R, class... P> struct without_noexcept<R(P...) noexcept> {
  using type = R(P...);
};
template <class Fn>
using without_noexcept_t = typename without_noexcept<Fn>::type;

template <class Res, class Fn> struct with_residuals;
template <class Res, class R, class... P> struct with_residuals<Res, R(P...)> {
  /// `R f_fwd(P..., Res*)`.
  using forward = R(P..., Res *);
};
template <class Res, class Pullback> struct backward_of;
template <class Res, class... Q> struct backward_of<Res, void(Q...)> {
  /// `void f_bwd(const Res*, args..., dret, d_args...)`.
  using type = void(const Res *, Q...);
};

/// A split rule, found by the plugin: `Fwd` runs in the forward sweep and
/// fills a `Res`, kept for the reverse sweep, where `Bwd` receives it.
template <class Fn, Fn *F, class FwdFn, FwdFn *Fwd, class BwdFn, BwdFn *Bwd>
struct custom_vjp_rule {
  using residual = typename residual_of<without_noexcept_t<FwdFn>>::type;
  static_assert(!std::is_void_v<residual>,
                "CT_CUSTOM_VJP(f, f_fwd, f_bwd): f_fwd's last parameter must "
                "be Res*, a pointer to a writable, trivially copyable type "
                "that holds the residuals");
  static_assert(
      std::is_void_v<residual> ||
          std::is_same_v<without_noexcept_t<FwdFn>,
                         typename with_residuals<
                             residual, without_noexcept_t<Fn>>::forward>,
      "CT_CUSTOM_VJP(f, f_fwd, f_bwd): f_fwd must take f's "
      "parameters then Res*, and return what f returns: "
      "R f_fwd(args..., Res* res)");
  static_assert(
      std::is_void_v<residual> ||
          std::is_same_v<without_noexcept_t<BwdFn>,
                         typename backward_of<
                             residual, typename rule_signature<
                                           kind::pullback, Fn, F>::type>::type>,
      "CT_CUSTOM_VJP(f, f_fwd, f_bwd): f_bwd must be "
      "void f_bwd(const Res* res, args..., dret, d_args...): the residuals, "
      "then what ct::pullback<f> takes");
};
} // namespace detail

} // namespace ct

#define CT_DETAIL_CONCAT2(a, b) a##b
#define CT_DETAIL_CONCAT(a, b) CT_DETAIL_CONCAT2(a, b)
#define CT_DETAIL_RULE(kind_, f, rule)                                         \
  [[maybe_unused]] static constexpr ::ct::detail::custom_rule<                 \
      ::ct::detail::kind::kind_, decltype(f), f, decltype(rule), rule>         \
  CT_DETAIL_CONCAT(ct_custom_rule_, __COUNTER__) {}
/// Keeps functions in the object file although nothing else may call them:
/// the plugin calls a rule (or a function bound to one) that differentiable
/// code cannot express as C++ compiled it.
#define CT_DETAIL_KEEP(...)                                                    \
  [[gnu::used]] static void (*const CT_DETAIL_CONCAT(                          \
      ct_kept_, __COUNTER__)[])() = {__VA_ARGS__}
#define CT_DETAIL_ADDRESS(function) reinterpret_cast<void (*)()>(&(function))

/// `f_pullback(args..., dret, d_args...)` replaces reverse-mode
/// differentiation of `f`, which then need not have a visible body.
#define CT_CUSTOM_GRADIENT(f, f_pullback)                                      \
  CT_DETAIL_RULE(pullback, f, f_pullback);                                     \
  CT_DETAIL_KEEP(CT_DETAIL_ADDRESS(f), CT_DETAIL_ADDRESS(f_pullback))
/// `f_jvp(args..., t_args...)` (returning ct::dual) replaces forward mode.
#define CT_CUSTOM_JVP(f, f_jvp)                                                \
  CT_DETAIL_RULE(jvp, f, f_jvp);                                               \
  CT_DETAIL_KEEP(                                                              \
      CT_DETAIL_ADDRESS(f),                                                    \
      CT_DETAIL_ADDRESS(                                                       \
          (::ct::detail::jvp_trampoline<decltype(f_jvp), f_jvp>::apply)))
/// `R f_fwd(args..., Res* res)` computes f's value and fills residuals in
/// the forward sweep; `void f_bwd(const Res* res, args..., dret,
/// d_args...)` accumulates the adjoints in the reverse sweep from them.
#define CT_CUSTOM_VJP(f, f_fwd, f_bwd)                                         \
  [[maybe_unused]] static constexpr ::ct::detail::custom_vjp_rule<             \
      decltype(f), f, decltype(f_fwd), f_fwd, decltype(f_bwd), f_bwd>          \
      CT_DETAIL_CONCAT(ct_custom_rule_, __COUNTER__){};                        \
  CT_DETAIL_KEEP(CT_DETAIL_ADDRESS(f), CT_DETAIL_ADDRESS(f_fwd),               \
                 CT_DETAIL_ADDRESS(f_bwd))

// ct::jacobian, ct::hessian and ct::batch_jacobian, on vector mode.
#include "dense.h"

#endif // COTANGENT_COTANGENT_H
