//===- cotangent/dense.h - Jacobians and Hessians -------------------------===//
//
// Dense derivatives, built in C++ on the vector-mode entry points of
// <cotangent/cotangent.h> (which includes this header):
//
//   ct::jacobian<f>([ct::extents{e...},] args..., J)
//   ct::hessian<f>([ct::extents{e...},] args..., H)
//   ct::batch_jacobian<f>(B, args..., J)
//
// Inputs are the active parameters flattened in order (a scalar is one; an
// aggregate or array its scalars; a std::vector its elements at the call;
// a raw pointer the extent ct::extents gives, one per active raw pointer
// parameter, in parameter order). Outputs are the floating-point result
// (or the scalars of a result that is an aggregate of them, which the
// drivers write to memory through result_into), then the contents of each
// non-const memory parameter, flattened the same way. J is row-major: rows
// are outputs, columns inputs. The Jacobian takes K = 4 lanes per sweep:
// forward mode (columns) when there are no more inputs than outputs,
// reverse mode (rows) otherwise. The Hessian is the Jacobian of the
// gradient by forward mode over reverse mode.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_DENSE_H
#define COTANGENT_DENSE_H

#include <cstddef>
#include <tuple>
#include <vector>

namespace ct {

/// The extents of the active raw-pointer parameters of a function, in
/// parameter order: `ct::extents{n, m}`.
template <int N> struct extents {
  long sizes[N > 0 ? N : 1];
  template <class... E> constexpr extents(E... e) : sizes{long(e)...} {}
};
template <class... E> extents(E...) -> extents<int(sizeof...(E))>;

namespace detail {

template <class T> struct is_extents : std::false_type {};
template <int N> struct is_extents<extents<N>> : std::true_type {};

template <class T> struct is_std_vector : std::false_type {};
template <class E, class A>
struct is_std_vector<std::vector<E, A>> : std::true_type {};

/// Whether parameter type P is a raw pointer: its extent is not in its
/// type.
template <class P> constexpr bool is_raw_pointer() {
  return std::is_pointer_v<std::remove_reference_t<P>> &&
         role_of<P>() != role::constant;
}

/// The scalars of type T in one object of type O.
template <class T, class O> constexpr std::size_t scalars_in() {
  static_assert(sizeof(O) % sizeof(T) == 0,
                "ct::jacobian: an aggregate must hold scalars of the "
                "Jacobian's type only");
  return sizeof(O) / sizeof(T);
}

/// How the drivers hold a parameter of type P: pointers by value (code
/// differentiated again never binds a pointer to a reference), the rest by
/// reference.
template <class P>
using ref_t = std::conditional_t<std::is_pointer_v<P>, P, P &>;

/// The number of scalars of type T of parameter value `p`; a raw pointer
/// takes the extent (in objects) `raw[next++]`.
template <class T, class P>
std::size_t flat_size(ref_t<P> p, const long *raw, int &next) {
  using O = std::remove_cv_t<std::remove_reference_t<P>>;
  if constexpr (role_of<P>() == role::scalar) {
    return 1;
  } else if constexpr (std::is_pointer_v<O>) {
    return std::size_t(raw[next++]) * scalars_in<T, data_t<P>>();
  } else if constexpr (is_std_vector<O>::value) {
    return p.size() * scalars_in<T, typename O::value_type>();
  } else {
    return scalars_in<T, O>();
  }
}

/// ct::wrt<I...> of the indices whose flag is set.
template <class Acc, int I, bool... Rest> struct wrt_where {
  using type = Acc;
};
template <int... J, int I, bool Keep, bool... Rest>
struct wrt_where<wrt<J...>, I, Keep, Rest...>
    : wrt_where<std::conditional_t<Keep, wrt<J..., I>, wrt<J...>>, I + 1,
                Rest...> {};

/// F with its aggregate result R written to a first parameter instead:
/// what derivatives of a function returning an aggregate differentiate,
/// the result being the first block of outputs.
template <auto F, class R, class Params> struct result_into;
template <auto F, class R, class... P> struct result_into<F, R, list<P...>> {
  static_assert(!std::is_member_function_pointer_v<decltype(F)>,
                "derivatives of a member function returning an aggregate "
                "are not supported yet: call it from a free function");
  static void call(R &out, P... p) { out = F(p...); }
};

/// The selection W of F's parameters P as a selection of result_into's
/// (the result first): shifted by one, with the result when WithResult.
template <class W, bool WithResult, class Is, class... P> struct shifted;
template <class W, bool WithResult, std::size_t... I, class... P>
struct shifted<W, WithResult, std::index_sequence<I...>, P...>
    : wrt_where<wrt<>, 0, WithResult,
                (role_of<P>() != role::constant &&
                 selects<W, int(I)>::value)...> {};
template <class W, bool WithResult, class... P>
using shifted_t =
    typename shifted<W, WithResult, std::index_sequence_for<P...>, P...>::type;

template <auto F, class W, class R, class... P, class... E>
struct aggregate_front<kind::pullback, F, W, R, list<P...>, list<E...>> {
  using signature = void(P..., const R &, E...);
  /// The result; the adjoints of `dret` accumulated into `e...`.
  static R call(P... p, const R &dret, E... e) {
    R out{}, dout = dret;
    ct::pullback<&result_into<F, R, list<P...>>::call,
                 shifted_t<W, true, P...>>(out, p..., &dout, e...);
    return out;
  }
};
template <auto F, class W, class R, class... P, class... E>
struct aggregate_front<kind::jvp, F, W, R, list<P...>, list<E...>> {
  using signature = dual<R>(P..., E...);
  static dual<R> call(P... p, E... e) {
    dual<R> result{};
    ct::jvp<&result_into<F, R, list<P...>>::call, shifted_t<W, true, P...>>(
        result.value, p..., &result.tangent, e...);
    return result;
  }
};

/// A stand-in for the per-parameter std::vector lanes of a function without
/// std::vector parameters. The driver keeps to what differentiable code
/// may hold (no tuples of pointers, no arrays of vectors unless a
/// std::vector parameter needs them), so that a Jacobian or Hessian can be
/// differentiated again.
struct no_vectors {};

/// Drives a function's vector-mode entry points to fill a Jacobian: W
/// selects the inputs (columns); every non-const memory parameter is an
/// output (rows), after the floating-point result. With ForwardOnly, by
/// forward mode whatever the shape (a Hessian: reverse mode over a
/// gradient is not needed, and not compiled). The lanes of every active
/// parameter lie in one buffer: parameter I's scalar e, lane k at
/// (at[I] + e) * K + k.
template <auto F, class W, class T, bool ForwardOnly, class... P> struct dense {
  static constexpr int K = 4;
  static constexpr std::size_t count = sizeof...(P);
  using R = typename function_traits<
      std::remove_pointer_t<std::remove_cv_t<decltype(F)>>>::result;
  static constexpr bool value_output = std::is_floating_point_v<R>;
  static_assert(std::is_void_v<R> || value_output,
                "ct::jacobian<f>: f must return a floating-point scalar, an "
                "aggregate of them (std::array, a struct) or void (outputs "
                "in memory)");

  template <std::size_t I>
  using param = std::tuple_element_t<I, std::tuple<P...>>;
  template <std::size_t I>
  using object = std::remove_cv_t<std::remove_reference_t<param<I>>>;
  /// An input: selected and differentiable.
  template <std::size_t I>
  static constexpr bool input =
      role_of<param<I>>() != role::constant && selects<W, int(I)>::value;
  template <std::size_t I>
  static constexpr bool output = role_of<param<I>>() == role::inout;
  /// Has a derivative argument: inputs and outputs.
  template <std::size_t I> static constexpr bool active = input<I> || output<I>;
  template <std::size_t I>
  static constexpr bool is_vector =
      active<I> && is_std_vector<object<I>>::value;
  template <class Is> struct entry_selection;
  template <std::size_t... I>
  struct entry_selection<std::index_sequence<I...>>
      : wrt_where<wrt<>, 0, active<I>...> {};
  using Wentry = typename entry_selection<std::index_sequence_for<P...>>::type;
  template <class Is> struct any_vector;
  template <std::size_t... I>
  struct any_vector<std::index_sequence<I...>>
      : std::bool_constant<(is_vector<I> || ...)> {};
  static constexpr bool has_vectors =
      any_vector<std::index_sequence_for<P...>>::value;

  /// Flat sizes, where each parameter's inputs, outputs and lanes start.
  std::size_t size[count + 1] = {}, column[count + 1] = {}, row[count + 1] = {},
                           at[count + 1] = {};
  std::size_t inputs = 0, outputs = 0, total = 0;

  template <std::size_t... I>
  void measure(const long *raw, std::index_sequence<I...>, ref_t<P>... p) {
    outputs = value_output ? 1 : 0;
    int next = 0;
    (measure_one<I>(p, raw, next), ...);
    ((column[I] = inputs, inputs += input<I> ? size[I] : 0), ...);
    ((row[I] = outputs, outputs += output<I> ? size[I] : 0), ...);
    ((at[I] = total, total += active<I> ? size[I] : 0), ...);
  }

  template <std::size_t I>
  void measure_one(ref_t<param<I>> p, const long *raw, int &next) {
    if constexpr (active<I>)
      size[I] = flat_size<T, param<I>>(p, raw, next);
  }

  /// The scalars of output parameter I (non-const memory).
  template <std::size_t I> static T *scalars(ref_t<param<I>> p) {
    using O = object<I>;
    if constexpr (std::is_pointer_v<O> && std::is_same_v<data_t<O>, T>)
      return p;
    else if constexpr (std::is_array_v<O> && std::is_same_v<data_t<O>, T>)
      return &p[0];
    else if constexpr (std::is_pointer_v<O>)
      return reinterpret_cast<T *>(p);
    else if constexpr (is_std_vector<O>::value)
      return reinterpret_cast<T *>(p.data());
    else
      return reinterpret_cast<T *>(&p);
  }

  /// In/out memory starts each sweep from its initial contents, kept at
  /// `initial[at[I] + e]`.
  template <std::size_t I>
  void save(ref_t<param<I>> p, std::vector<T> &initial) {
    if constexpr (output<I>) {
      T *data = scalars<I>(p);
      for (std::size_t e = 0; e < size[I]; ++e)
        initial[at[I] + e] = data[e];
    }
  }
  template <std::size_t I>
  void restore(ref_t<param<I>> p, const std::vector<T> &initial) {
    if constexpr (output<I>) {
      T *data = scalars<I>(p);
      for (std::size_t e = 0; e < size[I]; ++e)
        data[e] = initial[at[I] + e];
    }
  }

  /// Lane k of parameter I's scalar e.
  template <std::size_t I, class Own>
  T &lane(std::vector<T> &shadow, Own &own, std::size_t e, int k) {
    if constexpr (is_vector<I>)
      return own[I][e * K + k];
    else
      return shadow[(at[I] + e) * K + k];
  }

  /// What ct::jvp (or, if Reverse, ct::pullback) takes for parameter I:
  /// its lanes, as the parameter's element type.
  template <std::size_t I, bool Reverse, class Own>
  auto derivative_arg(std::vector<T> &shadow, Own &own) {
    using O = object<I>;
    T *lanes = shadow.data() + at[I] * K;
    constexpr bool writes = Reverse || role_of<param<I>>() == role::inout;
    if constexpr (role_of<param<I>>() == role::scalar) {
      if constexpr (Reverse)
        return lanes;
      else
        return static_cast<const T *>(lanes);
    } else if constexpr (is_std_vector<O>::value) {
      static_assert(std::is_same_v<typename O::value_type, T>,
                    "ct::jacobian: a std::vector must hold scalars of the "
                    "Jacobian's type");
      return &own[I];
    } else if constexpr (std::is_same_v<data_t<param<I>>, T>) {
      if constexpr (writes)
        return lanes;
      else
        return static_cast<const T *>(lanes);
    } else {
      using D = data_t<param<I>>;
      if constexpr (writes)
        return reinterpret_cast<D *>(lanes);
      else
        return reinterpret_cast<const D *>(lanes);
    }
  }

  /// Calls the entry point with the derivative arguments of parameters I
  /// on appended to `d`.
  template <std::size_t I, bool Reverse, class Own, class... D>
  auto sweep(std::vector<T> &shadow, Own &own, T *seeds, ref_t<P>... p,
             D... d) {
    if constexpr (I == count) {
      if constexpr (!Reverse)
        return ct::jvp<F, Wentry, lanes<K>>(p..., d...);
      else if constexpr (value_output)
        return ct::pullback<F, Wentry, lanes<K>>(p..., seeds, d...);
      else
        return ct::pullback<F, Wentry, lanes<K>>(p..., d...);
    } else if constexpr (active<I>) {
      return sweep<I + 1, Reverse>(shadow, own, seeds, p..., d...,
                                   derivative_arg<I, Reverse>(shadow, own));
    } else {
      return sweep<I + 1, Reverse>(shadow, own, seeds, p..., d...);
    }
  }

  template <std::size_t I, class Own>
  void clear(std::vector<T> &shadow, Own &own) {
    if constexpr (is_vector<I>) {
      own[I].assign(size[I] * K, T(0));
    } else if constexpr (active<I>) {
      for (std::size_t e = 0; e < size[I] * K; ++e)
        shadow[at[I] * K + e] = T(0);
    }
  }

  /// Columns `first` .. `first + K - 1` by one forward sweep.
  template <class Own, std::size_t... I>
  void forward(std::size_t first, T *J, std::vector<T> &shadow, Own &own,
               const std::vector<T> &initial, std::index_sequence<I...>,
               ref_t<P>... p) {
    (clear<I>(shadow, own), ...);
    // Lane k seeds input first + k.
    for (int k = 0; k < K; ++k)
      if (std::size_t c = first + k; c < inputs)
        ((input<I> && c >= column[I] && c < column[I] + size[I]
              ? (lane<I>(shadow, own, c - column[I], k) = T(1), 0)
              : 0),
         ...);
    (restore<I>(p, initial), ...);
    auto result = sweep<0, false>(shadow, own, shadow.data(), p...);
    for (int k = 0; k < K; ++k) {
      std::size_t c = first + k;
      if (c >= inputs)
        break;
      if constexpr (value_output)
        J[c] = result.tangent[k];
      ((output<I> ? (store_column<I>(J, c, k, shadow, own), 0) : 0), ...);
    }
  }
  template <std::size_t I, class Own>
  void store_column(T *J, std::size_t c, int k, std::vector<T> &shadow,
                    Own &own) {
    for (std::size_t e = 0; e < size[I]; ++e)
      J[(row[I] + e) * inputs + c] = lane<I>(shadow, own, e, k);
  }

  /// Rows `first` .. `first + K - 1` by one reverse sweep.
  template <class Own, std::size_t... I>
  void reverse(std::size_t first, T *J, std::vector<T> &shadow, Own &own,
               const std::vector<T> &initial, std::index_sequence<I...>,
               ref_t<P>... p) {
    (clear<I>(shadow, own), ...);
    T seeds[K] = {};
    for (int k = 0; k < K; ++k) {
      std::size_t r = first + k;
      if (r >= outputs)
        break;
      if (value_output && r == 0)
        seeds[k] = T(1);
      ((output<I> && r >= row[I] && r < row[I] + size[I]
            ? (lane<I>(shadow, own, r - row[I], k) = T(1), 0)
            : 0),
       ...);
    }
    (restore<I>(p, initial), ...);
    sweep<0, true>(shadow, own, seeds, p...);
    for (int k = 0; k < K; ++k) {
      std::size_t r = first + k;
      if (r >= outputs)
        break;
      ((input<I> ? (store_row<I>(J, r, k, shadow, own), 0) : 0), ...);
    }
  }
  template <std::size_t I, class Own>
  void store_row(T *J, std::size_t r, int k, std::vector<T> &shadow, Own &own) {
    for (std::size_t e = 0; e < size[I]; ++e)
      J[r * inputs + column[I] + e] = lane<I>(shadow, own, e, k);
  }

  template <class Own>
  void sweeps(T *J, std::vector<T> &shadow, Own &own,
              const std::vector<T> &initial, ref_t<P>... p) {
    auto is = std::index_sequence_for<P...>{};
    if (ForwardOnly || inputs <= outputs) {
      for (std::size_t c = 0; c < inputs; c += K)
        forward(c, J, shadow, own, initial, is, p...);
    } else if constexpr (!ForwardOnly) {
      for (std::size_t r = 0; r < outputs; r += K)
        reverse(r, J, shadow, own, initial, is, p...);
    }
  }

  /// Fills J; returns its number of entries.
  std::size_t run(const long *raw, T *J, ref_t<P>... p) {
    auto is = std::index_sequence_for<P...>{};
    measure(raw, is, p...);
    std::vector<T> shadow(total * K), initial(total);
    save_all(initial, is, p...);
    if constexpr (has_vectors) {
      std::vector<T> own[count];
      sweeps(J, shadow, own, initial, p...);
    } else {
      no_vectors none;
      sweeps(J, shadow, none, initial, p...);
    }
    return inputs * outputs;
  }
  template <std::size_t... I>
  void save_all(std::vector<T> &initial, std::index_sequence<I...>,
                ref_t<P>... p) {
    (save<I>(p, initial), ...);
  }
  /// One Jacobian of arguments passed by value or reference.
  static std::size_t run_with(const long *raw, T *J, P... p) {
    dense d;
    return d.run(raw, J, p...);
  }
};

/// The number of raw pointers among the parameters P that W selects, and
/// the non-const memory ones: those whose extents ct::extents gives.
template <class W, class Is, class... P> struct raw_pointer_count;
template <class W, std::size_t... I, class... P>
struct raw_pointer_count<W, std::index_sequence<I...>, P...> {
  static constexpr int value =
      ((is_raw_pointer<P>() &&
                (selects<W, int(I)>::value || role_of<P>() == role::inout)
            ? 1
            : 0) +
       ... + 0);
};

/// One Jacobian of F at `p...`; returns its number of entries. A result
/// that is an aggregate is written to memory, its scalars the first rows.
template <auto F, class W, class T, class... P>
std::size_t jacobian_of(const long *raw, T *J, P... p) {
  using R = typename function_traits<
      std::remove_pointer_t<std::remove_cv_t<decltype(F)>>>::result;
  if constexpr (is_aggregate_result<R>) {
    R out{};
    return dense<&result_into<F, R, list<P...>>::call,
                 shifted_t<W, false, P...>, T, false, R &,
                 P...>::run_with(raw, J, out, p...);
  } else {
    return dense<F, W, T, false, P...>::run_with(raw, J, p...);
  }
}

template <auto F, class W, class Params> struct jacobian_fn;
template <auto F, class W, class... P> struct jacobian_fn<F, W, list<P...>> {
  static constexpr int raw_pointers =
      raw_pointer_count<W, std::index_sequence_for<P...>, P...>::value;
  template <class T> void operator()(P... p, T *J) const {
    static_assert(raw_pointers == 0,
                  "ct::jacobian: give the extent of each active raw pointer "
                  "parameter first: ct::jacobian<f>(ct::extents{n...}, "
                  "args..., J)");
    const long none[1] = {0};
    jacobian_of<F, W, T, P...>(none, J, p...);
  }
  template <int N, class T> void operator()(extents<N> e, P... p, T *J) const {
    static_assert(N == raw_pointers,
                  "ct::jacobian: ct::extents needs one extent per active raw "
                  "pointer parameter, in parameter order");
    jacobian_of<F, W, T, P...>(e.sizes, J, p...);
  }
};

/// The gradient of F (selection W) written to its adjoint arguments: the
/// function whose Jacobian is F's Hessian.
template <auto F, class W, class Params, class Adjoints> struct gradient_of_fn;
template <auto F, class W, class... P, class... A>
struct gradient_of_fn<F, W, list<P...>, list<A...>> {
  static void call(P... p, A... a) { ct::gradient<F, W>(p..., a...); }
};

template <auto F, class W, class Params> struct hessian_fn;
template <auto F, class W, class... P> struct hessian_fn<F, W, list<P...>> {
  static_assert(
      std::is_floating_point_v<typename function_traits<
          std::remove_pointer_t<std::remove_cv_t<decltype(F)>>>::result>,
      "ct::hessian<f> needs f to return a floating-point scalar");
  static_assert(!extras<W, 0, P...>::any_inout,
                "ct::hessian<f> needs f's memory parameters to be const "
                "(inputs)");
  static_assert(
      !(is_std_vector<std::remove_cv_t<
            std::remove_pointer_t<std::remove_reference_t<P>>>>::value ||
        ...),
      "ct::hessian<f>: pass std::vector data as a pointer with "
      "ct::extents");
  static constexpr int raw_pointers =
      raw_pointer_count<W, std::index_sequence_for<P...>, P...>::value;
  template <class Is> struct selection;
  template <std::size_t... I>
  struct selection<std::index_sequence<I...>>
      : wrt_where<wrt<>, 0,
                  (role_of<P>() != role::constant &&
                   selects<W, int(I)>::value)...> {};
  /// The gradient's inputs: the parameters W selects.
  using Sel = typename selection<std::index_sequence_for<P...>>::type;

  /// Where the adjoint of an active parameter Q starts in the gradient's
  /// buffer, and its extent in objects (the gradient's adjoints are raw
  /// pointers to the Jacobian driver).
  template <class T, class Q, bool Active>
  static void add(ref_t<Q> q, const long *raw, int &next, long *extent,
                  std::size_t *start, int &adjoint, std::size_t &scalars) {
    if constexpr (Active) {
      std::size_t n = flat_size<T, Q>(q, raw, next);
      using O = std::conditional_t<role_of<Q>() == role::scalar, T, data_t<Q>>;
      extent[adjoint] = long(n / scalars_in<T, O>());
      start[adjoint++] = scalars;
      scalars += n;
    }
  }
  template <class A, class T> static A adjoint_at(T *scalars) {
    if constexpr (std::is_same_v<A, T *>)
      return scalars;
    else
      return reinterpret_cast<A>(scalars);
  }

  template <class Adjoints> struct with;
  template <class... A> struct with<list<A...>> {
    using G = gradient_of_fn<F, W, list<P...>, list<A...>>;
    template <class T, std::size_t... I, std::size_t... J>
    static void run(const long *raw, T *H, std::index_sequence<I...>,
                    std::index_sequence<J...>, ref_t<P>... p) {
      // The user's extents, then the objects each adjoint holds.
      long extent[raw_pointers + sizeof...(A) + 1] = {};
      std::size_t start[sizeof...(A) + 1] = {};
      for (int e = 0; e < raw_pointers; ++e)
        extent[e] = raw[e];
      int next = 0, adjoint = 0;
      std::size_t scalars = 0;
      (add < T, P,
       role_of<P>() != role::constant &&
           selects<W, int(I)>::value >
               (p, raw, next, extent + raw_pointers, start, adjoint, scalars),
       ...);
      std::vector<T> adjoints(scalars);
      dense<&G::call, Sel, T, true, P..., A...>::run_with(
          extent, H, p..., adjoint_at<A>(adjoints.data() + start[J])...);
    }
  };
  using writer = with<typename extras<W, 0, P...>::adjoints>;
  template <class T> void run(const long *raw, T *H, ref_t<P>... p) const {
    writer::run(raw, H, std::index_sequence_for<P...>{},
                std::make_index_sequence<count_of(
                    typename extras<W, 0, P...>::adjoints{})>{},
                p...);
  }
  template <class... A> static constexpr std::size_t count_of(list<A...>) {
    return sizeof...(A);
  }

  template <class T> void operator()(P... p, T *H) const {
    static_assert(raw_pointers == 0,
                  "ct::hessian: give the extent of each active raw pointer "
                  "parameter first: ct::hessian<f>(ct::extents{n...}, "
                  "args..., H)");
    const long none[1] = {0};
    run(none, H, p...);
  }
  template <int N, class T> void operator()(extents<N> e, P... p, T *H) const {
    static_assert(N == raw_pointers,
                  "ct::hessian: ct::extents needs one extent per active raw "
                  "pointer parameter, in parameter order");
    run(e.sizes, H, p...);
  }
};

/// What ct::batch_jacobian takes for parameter P: B examples of an active
/// parameter's object, a constant as it is.
template <class P> constexpr auto batch_arg() {
  using O = std::remove_cv_t<std::remove_reference_t<P>>;
  if constexpr (role_of<P>() == role::constant)
    return type_is<P>{};
  else if constexpr (role_of<P>() == role::inout)
    return type_is<O *>{};
  else
    return type_is<const O *>{};
}
template <class P> using batch_arg_t = typename decltype(batch_arg<P>())::type;

template <class P> decltype(auto) example(batch_arg_t<P> arg, long b) {
  if constexpr (role_of<P>() == role::constant)
    return arg;
  else if constexpr (std::is_reference_v<P>)
    return static_cast<P>(arg[b]);
  else
    return P(arg[b]);
}

template <auto F, class W, class Params> struct batch_fn;
template <auto F, class W, class... P> struct batch_fn<F, W, list<P...>> {
  static_assert(!(is_raw_pointer<P>() || ...),
                "ct::batch_jacobian<f>: f describes one example with fixed "
                "extents: scalars, arrays, std::array or aggregates, not raw "
                "pointers");
  template <class T>
  void operator()(long B, batch_arg_t<P>... args, T *J) const {
    const long none[1] = {0}; // no raw pointers: no extents
    for (long b = 0; b < B; ++b)
      J += jacobian_of<F, W, T, P...>(none, J, example<P>(args, b)...);
  }
};

template <auto F>
using params_of = typename function_traits<
    std::remove_pointer_t<std::remove_cv_t<decltype(F)>>>::params;

} // namespace detail

/// The Jacobian of f, row-major (outputs x inputs):
/// `ct::jacobian<f>([ct::extents{e...},] args..., J)`.
template <auto F, class W = detail::all>
inline constexpr detail::jacobian_fn<F, W, detail::params_of<F>> jacobian{};

/// The Hessian of scalar f over its active inputs, row-major n x n, by
/// forward mode over reverse mode with K lanes:
/// `ct::hessian<f>([ct::extents{e...},] args..., H)`.
template <auto F, class W = detail::all>
inline constexpr detail::hessian_fn<F, W, detail::params_of<F>> hessian{};

/// B Jacobians of f, one per example, contiguous:
/// `ct::batch_jacobian<f>(B, args..., J)`, each active argument a pointer
/// to B consecutive examples, constants shared.
template <auto F, class W = detail::all>
inline constexpr detail::batch_fn<F, W, detail::params_of<F>> batch_jacobian{};

} // namespace ct

#endif // COTANGENT_DENSE_H
