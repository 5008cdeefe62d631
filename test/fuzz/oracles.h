//===- oracles.h - Checks of a random program's derivatives ---------------===//
//
// A random program's `main` describes `f` through flat adapters: its active
// inputs as one vector (scalars, then array elements, in parameter order),
// its outputs as another (the return value, then the final contents of
// in/out memory). run() checks every derivative against references that
// need no hand-written derivative:
//
//   value  the value every entry point returns equals a plain call;
//   fd     each column of the Jacobian against central differences of the
//          long double version of f (a coordinate where two step sizes
//          disagree is a kink: it is skipped, not failed);
//   dot    forward and reverse agree: w . (J v) == (J^T w) . v;
//   hvp    symmetry v . H u == u . H v, and H v against central differences
//          of the gradient (kinks skipped the same way);
//   lanes  ct::jacobian (vector mode, 4 lanes a sweep, forward or reverse
//          by the shape) equals the Jacobian of one-lane JVPs, column by
//          column, up to rounding;
//   rr     the gradient of gradient(f) . v (reverse over reverse) equals
//          ct::hvp's H v up to rounding.
//
// Where f in double overflows (or divides by zero, or takes an invalid
// operation) at the point, even in a value that never reaches its result,
// IEEE arithmetic makes derivatives through that value NaN (0 * inf): a
// non-finite derivative is then skipped, a finite wrong one still fails.
//
// Where the derivatives move by more than a check's tolerance when one
// input moves by a few units of rounding, rounding decides them at the
// point, and the check is skipped rather than failed.
//
// Each check prints `check <name>: ok|FAIL|skip ...`; every number the
// oracles compute is also printed as `value <name> <number>`, so that the
// driver can compare the -O0 and -O2 builds.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_FUZZ_ORACLES_H
#define COTANGENT_FUZZ_ORACLES_H

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <utility>
#include <vector>

/// How close a derivative's value must be to f's. OpenMP builds relax it
/// (fuzz.py): a reduction adds each thread's private sum to the original
/// variable at its end, a reassociation of the sum the derivative's
/// primal sweep (or its own parallel loop) need not repeat.
#ifndef FUZZ_VALUE_TOLERANCE
#define FUZZ_VALUE_TOLERANCE 1e-12
#endif

namespace fuzz {

using Vec = std::vector<double>;
using LVec = std::vector<long double>;

struct Adapters {
  int inputs = 0, outputs = 0;
  /// outputs = f(inputs), in double and long double.
  std::function<void(const double *, double *)> primal;
  std::function<void(const long double *, long double *)> reference;
  /// Reverse mode with output seeds w: returns f's value, adjoints into g.
  std::function<double(const double *, const double *, double *)> pullback;
  /// Forward mode along v: returns f's value, output tangents into jv.
  std::function<double(const double *, const double *, double *)> jvp;
  /// H v into hv (scalar f without in/out memory only).
  std::function<void(const double *, const double *, double *)> hvp;
  /// H v again, as the gradient of gradient(f) . v: reverse over reverse.
  std::function<void(const double *, const double *, double *)> hvpReverse;
  /// H v again, as the gradient of gradient(f) . v computed in forward
  /// vector mode: reverse mode over vector mode.
  std::function<void(const double *, const double *, double *)> hvpLanes;
  /// The whole Jacobian (outputs x inputs, row-major) by ct::jacobian.
  std::function<void(const double *, double *)> jacobian;
  /// The gradient (seed 1), for differences of the gradient.
  std::function<double(const double *, double *)> gradient;
  /// Whether f in double raises overflow, invalid or divide-by-zero at a
  /// point: an inf or NaN inside f, even in a value that does not reach
  /// the result, makes derivatives through it NaN (IEEE: 0 * inf).
  std::function<bool(const double *)> overflows;
  /// False when f uses ct::stop_gradient: its value still moves with the
  /// inputs, so differences of the gradient see through it while H v (a
  /// derivative of the gradient, which holds it constant) does not.
  bool gradientDifferences = true;
};

inline int failures = 0;
/// Checks that compared a derivative and passed: a program whose every
/// check was skipped has tested nothing (the driver says "untested").
inline int passedChecks = 0;
/// f overflows at the point checked: a non-finite derivative is IEEE
/// arithmetic's answer there, not a wrong one (docs/AD.md).
inline bool primalOverflows = false;

/// ct::stop_gradient in the long double reference: at the unperturbed point
/// each value is recorded; at the perturbed points the recorded values are
/// replayed in the same order, so that differences do not see through them.
struct Frozen {
  std::vector<long double> values;
  size_t next = 0;
  bool replaying = false, diverged = false;
};
inline Frozen frozenState;

template <class T> T frozen(T x) {
  Frozen &s = frozenState;
  if (!s.replaying) {
    s.values.push_back(x);
    return x;
  }
  if (s.next >= s.values.size()) {
    s.diverged = true;
    return x;
  }
  return static_cast<T>(s.values[s.next++]);
}

/// Whether two numbers agree; a NaN agrees with nothing, not even a NaN (two
/// modes that both give NaN have not been shown right).
inline bool close(double a, double b, double tolerance) {
  if (std::isnan(a) || std::isnan(b))
    return false;
  if (std::isinf(a) || std::isinf(b))
    return a == b;
  return std::fabs(a - b) <=
         tolerance * std::fmax(1.0, std::fmax(std::fabs(a), std::fabs(b)));
}

inline void expect(const char *name, int index, double actual,
                   double expected, double tolerance) {
  std::printf("value %s.%d %.17g\n", name, index, actual);
  if (close(actual, expected, tolerance)) {
    if (std::strncmp(name, "value.", 6) != 0) // a value is not a derivative
      ++passedChecks;
    std::printf("check %s.%d: ok\n", name, index);
    return;
  }
  // Where f overflows, a mode's 0 * inf is NaN under IEEE, and modes meet
  // different such products (a Jacobian by reverse mode against forward
  // mode's column): either side may be the non-finite one.
  if (primalOverflows && (!std::isfinite(actual) || !std::isfinite(expected))) {
    std::printf("check %s.%d: skip (f overflows here)\n", name, index);
    return;
  }
  ++failures;
  std::printf("check %s.%d: FAIL actual=%.17g expected=%.17g\n", name, index,
              actual, expected);
}

/// How far the derivatives at x move, relative to their size, when one
/// input moves by a few units of rounding; computed on first use. Where
/// they move by more than a check's tolerance, rounding decides the
/// derivative at x, and two modes, each exact up to rounding, differ by as
/// much: at seed 43209, sin(0.75 * x * x) of an x near 1e13 makes partial
/// derivatives near 1e26 that cancel in (o[i] - o[i]), and reverse mode's
/// adjoint of o[i] loses the other seeds it held to that cancellation.
class DerivativeSpread {
public:
  using Mode = std::function<void(const double *, Vec &, Vec &)>;
  DerivativeSpread(const Vec &x, Mode derivatives)
      : x(x), derivatives(std::move(derivatives)) {}

  /// The largest relative move of a derivative's component.
  double measured() {
    if (spread < 0)
      spread = measure();
    return spread;
  }
  bool exceeds(double tolerance) { return measured() > tolerance; }

private:
  double measure() const {
    Vec first, second, movedFirst, movedSecond, moved = x;
    derivatives(x.data(), first, second);
    double widest = 0;
    // A component not finite at x itself (f overflows there) has its own
    // skip; it says nothing about rounding.
    auto widen = [&](const Vec &was, const Vec &now) {
      for (size_t k = 0; k < was.size(); ++k)
        if (std::isfinite(was[k]))
          widest = std::fmax(widest, std::isfinite(now[k])
                                       ? std::fabs(now[k] - was[k]) /
                                             std::fmax(1.0, std::fabs(was[k]))
                                       : INFINITY);
    };
    for (size_t i = 0; i < x.size(); ++i)
      for (double units : {1.0, 4.0, 16.0})
        for (double sign : {1.0, -1.0}) {
          moved[i] = x[i] + sign * units * DBL_EPSILON *
                                std::fmax(1.0, std::fabs(x[i]));
          derivatives(moved.data(), movedFirst, movedSecond);
          moved[i] = x[i];
          widen(first, movedFirst);
          widen(second, movedSecond);
        }
    return widest;
  }

  Vec x;
  Mode derivatives;
  double spread = -1;
};

/// Two sums that must agree up to rounding: `scale` sums the magnitudes
/// of their terms.
inline void expectSums(const char *name, double lhs, double rhs, double scale,
                       double tolerance, DerivativeSpread &spread) {
  std::printf("value %s %.17g\n", name, lhs);
  if (std::isfinite(lhs) && std::isfinite(rhs) &&
      std::fabs(lhs - rhs) <= tolerance * std::fmax(1.0, scale)) {
    ++passedChecks;
    std::printf("check %s: ok\n", name);
    return;
  }
  if (primalOverflows && !(std::isfinite(lhs) && std::isfinite(rhs))) {
    std::printf("check %s: skip (f overflows here)\n", name);
    return;
  }
  if (spread.exceeds(tolerance)) {
    std::printf("check %s: skip (the derivatives change by more than the "
                "tolerance when an input moves by a few units of rounding)\n",
                name);
    return;
  }
  ++failures;
  std::printf("check %s: FAIL %.17g != %.17g\n", name, lhs, rhs);
}

inline void skip(const char *name, int index, const char *why) {
  std::printf("check %s.%d: skip (%s)\n", name, index, why);
}

/// Column `i` of the Jacobian by central differences in long double with
/// step h; false when an evaluation is not finite. `magnitude`, if given,
/// receives the largest |f_k(x)|: the differences' rounding error is about
/// magnitude * LDBL_EPSILON / h.
/// `asymmetry` is set to how far the one-sided slopes differ, the largest
/// over the outputs of |f(x+h) - 2 f(x) + f(x-h)| / h, relative to the
/// slope: h f'' where f is smooth, the jump of f' at a kink (which the
/// central difference averages away: a tie made by a value frozen there).
inline bool difference(const Adapters &a, const Vec &x, int i, long double h,
                       LVec &column, long double *magnitude = nullptr,
                       long double *asymmetry = nullptr) {
  LVec lx(x.begin(), x.end()), plus(a.outputs), minus(a.outputs);
  frozenState = Frozen{};
  a.reference(lx.data(), plus.data());
  LVec center = plus;
  if (magnitude) {
    *magnitude = 0;
    for (long double value : plus)
      *magnitude = std::fmax(*magnitude, std::fabs(value));
  }
  frozenState.replaying = true;
  lx[i] = x[i] + h;
  a.reference(lx.data(), plus.data());
  bool replayedAll = frozenState.next == frozenState.values.size();
  frozenState.next = 0;
  lx[i] = x[i] - h;
  a.reference(lx.data(), minus.data());
  replayedAll = replayedAll && frozenState.next == frozenState.values.size();
  if (frozenState.diverged || !replayedAll)
    return false; // control flow changed nearby
  column.resize(a.outputs);
  if (asymmetry)
    *asymmetry = 0;
  for (int k = 0; k < a.outputs; ++k) {
    column[k] = (plus[k] - minus[k]) / (2 * h);
    if (!std::isfinite(static_cast<double>(column[k])))
      return false;
    if (asymmetry)
      *asymmetry = std::fmax(
          *asymmetry, std::fabs(plus[k] - 2 * center[k] + minus[k]) / h /
                          std::fmax(1.0L, std::fabs(column[k])));
  }
  return true;
}

/// H v against central differences of the gradient along v (kinks, where
/// two step sizes disagree, are skipped).
inline void checkHvpByDifferences(const Adapters &a, const Vec &x,
                                  const Vec &v, const Vec &hv) {
  auto gradientAlong = [&](double t, Vec &grad) {
    Vec shifted(x);
    for (int i = 0; i < a.inputs; ++i)
      shifted[i] += t * v[i];
    grad.assign(a.inputs, 0.0);
    a.gradient(shifted.data(), grad.data());
  };
  Vec gp, gm, gpf, gmf;
  double h = 1e-5;
  gradientAlong(h, gp);
  gradientAlong(-h, gm);
  gradientAlong(h / 8, gpf);
  gradientAlong(-h / 8, gmf);
  for (int i = 0; i < a.inputs; ++i) {
    double coarse = (gp[i] - gm[i]) / (2 * h);
    double fine = (gpf[i] - gmf[i]) / (2 * h / 8);
    if (!std::isfinite(coarse) || !close(coarse, fine, 1e-4)) {
      skip("hvp.fd", i, "gradient not differentiable here");
      continue;
    }
    expect("hvp.fd", i, hv[i], fine, 1e-4);
  }
}

/// Whether the long double reference agrees with the double primal at x to
/// 1e-6; where it does not, rounding decides f there (ill-conditioned) and
/// the reference's differences say nothing about the double derivative.
inline bool referenceAgrees(const Adapters &a, const Vec &x, const Vec &out) {
  LVec lx(x.begin(), x.end()), reference(a.outputs);
  frozenState = Frozen{};
  a.reference(lx.data(), reference.data());
  for (int k = 0; k < a.outputs; ++k)
    if (!close(out[k], static_cast<double>(reference[k]), 1e-6)) {
      std::printf("check fd: skip (the long double reference differs from "
                  "f by %.3g: f is ill-conditioned here)\n",
                  static_cast<double>(reference[k]) - out[k]);
      return false;
    }
  return true;
}

/// Whether f's value at `x` is not determined to the tolerance by x itself:
/// moving one input by a few units of rounding changes it by more. A mode
/// computes f's intermediate values in another order (a reduction, a
/// complex product); where f is this sensitive (a comparison of such an
/// intermediate choosing a branch, sin of a huge argument), its value
/// differs from f's as f's own neighbours do (seed 8101: f moved from 0.99
/// to 1.02 with one input's last bit).
inline bool sensitiveToRounding(const Adapters &a, const Vec &x,
                                double expected) {
  Vec moved = x, out(a.outputs);
  for (int i = 0; i < a.inputs; ++i)
    for (double units : {1.0, 4.0, 16.0})
      for (double sign : {1.0, -1.0}) {
        moved[i] = x[i] + sign * units * DBL_EPSILON *
                              std::fmax(1.0, std::fabs(x[i]));
        a.primal(moved.data(), out.data());
        moved[i] = x[i];
        if (!close(out[0], expected, FUZZ_VALUE_TOLERANCE))
          return true;
      }
  return false;
}

/// A mode's value of f against f's, where f's value is determined by x.
inline void expectValue(const Adapters &a, const Vec &x, const char *name,
                        double value, double expected) {
  if (!close(value, expected, FUZZ_VALUE_TOLERANCE) &&
      sensitiveToRounding(a, x, expected)) {
    std::printf("check %s.0: skip (f changes by more than the tolerance "
                "when an input moves by a few units of rounding)\n",
                name);
    return;
  }
  expect(name, 0, value, expected, FUZZ_VALUE_TOLERANCE);
}

inline int run(const Adapters &a, const Vec &x, const Vec &v, const Vec &w,
               const Vec &u) {
  Vec out(a.outputs);
  a.primal(x.data(), out.data());
  for (double o : out)
    if (!std::isfinite(o)) {
      std::printf("check primal: skip (not finite at this point)\n");
      std::printf("oracles: 0 passed, 0 failed\n");
      return 0;
    }

  primalOverflows = a.overflows && a.overflows(x.data());
  // Reverse mode with seeds w, forward mode along v.
  Vec g(a.inputs), jv(a.outputs);
  double value = a.pullback(x.data(), w.data(), g.data());
  expectValue(a, x, "value.pullback", value, out[0]);
  value = a.jvp(x.data(), v.data(), jv.data());
  expectValue(a, x, "value.jvp", value, out[0]);

  // The dot-product test: exact up to rounding, kinks included.
  double forward = 0, reverse = 0, scale = 0;
  for (int k = 0; k < a.outputs; ++k) {
    forward += w[k] * jv[k];
    scale += std::fabs(w[k] * jv[k]);
  }
  for (int i = 0; i < a.inputs; ++i) {
    reverse += g[i] * v[i];
    scale += std::fabs(g[i] * v[i]);
  }
  DerivativeSpread firstOrder(x, [&](const double *at, Vec &pulled,
                                    Vec &pushed) {
    pulled.assign(a.inputs, 0.0);
    pushed.assign(a.outputs, 0.0);
    a.pullback(at, w.data(), pulled.data());
    a.jvp(at, v.data(), pushed.data());
  });
  expectSums("dot", forward, reverse, scale, 1e-10, firstOrder);
  double roundingSpread = firstOrder.measured();

  // Each input's column of J against finite differences: reverse mode's
  // adjoint (w . column) and forward mode's contribution. The differences
  // are of the long double reference, so they judge the double derivative
  // only where the two precisions compute the same function: sin() of an
  // argument near 1e13 (seed 500021) differs in its first digit between
  // them, and so do their derivatives.
  bool wellConditioned = referenceAgrees(a, x, out);
  for (int i = 0; wellConditioned && i < a.inputs; ++i) {
    LVec coarse, fine;
    long double h = 1e-5L * std::fmax(1.0, std::fabs(x[i]));
    long double magnitude = 0, asymmetry = 0, asymmetryFine = 0;
    if (!difference(a, x, i, h, coarse, nullptr, &asymmetry) ||
        !difference(a, x, i, h / 8, fine, &magnitude, &asymmetryFine)) {
      skip("fd", i, "not finite nearby");
      continue;
    }
    // One-sided slopes that differ by as much at h / 8 as at h (not 8
    // times less, as where f is smooth): a kink exactly at x.
    if (asymmetryFine > 1e-9L && asymmetryFine > asymmetry / 2) {
      skip("fd", i, "not differentiable here (a kink at this point)");
      continue;
    }
    long double adjoint = 0, adjointFine = 0;
    for (int k = 0; k < a.outputs; ++k) {
      adjoint += w[k] * coarse[k];
      adjointFine += w[k] * fine[k];
    }
    // Where f is so large that the differences' rounding error exceeds
    // the tolerance (f near 1e63 resolves nothing below 1e50), they say
    // nothing about the derivative.
    if (magnitude * LDBL_EPSILON / (h / 8) >
        1e-7L * std::fmax(1.0L, std::fabs(adjointFine))) {
      skip("fd", i, "f too large here for differences to resolve");
      continue;
    }
    if (!close(static_cast<double>(adjoint),
               static_cast<double>(adjointFine), 1e-6)) {
      skip("fd", i, "not differentiable here");
      continue;
    }
    // Forward mode along the unit vector e_i.
    Vec e(a.inputs, 0.0), column(a.outputs);
    e[i] = 1;
    a.jvp(x.data(), e.data(), column.data());
    bool agree = close(g[i], static_cast<double>(adjointFine), 1e-6);
    for (int k = 0; k < a.outputs; ++k)
      agree = agree && close(column[k], static_cast<double>(fine[k]), 1e-6);
    if (!agree && firstOrder.exceeds(1e-6)) {
      skip("fd", i, "the derivatives change by more than the tolerance when "
                    "an input moves by a few units of rounding");
      continue;
    }
    expect("fd.reverse", i, g[i], static_cast<double>(adjointFine), 1e-6);
    for (int k = 0; k < a.outputs; ++k)
      expect("fd.forward", i * a.outputs + k, column[k],
             static_cast<double>(fine[k]), 1e-6);
  }

  if (a.jacobian) {
    Vec J(size_t(a.outputs) * a.inputs);
    a.jacobian(x.data(), J.data());
    for (int i = 0; i < a.inputs; ++i) {
      Vec e(a.inputs, 0.0), column(a.outputs);
      e[i] = 1;
      a.jvp(x.data(), e.data(), column.data());
      for (int k = 0; k < a.outputs; ++k)
        expect("lanes", k * a.inputs + i, J[size_t(k) * a.inputs + i],
               column[k], 1e-9);
    }
  }

  if (a.hvp) {
    Vec hv(a.inputs), hu(a.inputs);
    a.hvp(x.data(), v.data(), hv.data());
    a.hvp(x.data(), u.data(), hu.data());
    double uHv = 0, vHu = 0, scale2 = 0;
    for (int i = 0; i < a.inputs; ++i) {
      uHv += u[i] * hv[i];
      vHu += v[i] * hu[i];
      scale2 += std::fabs(u[i] * hv[i]) + std::fabs(v[i] * hu[i]);
    }
    DerivativeSpread secondOrder(x, [&](const double *at, Vec &alongV,
                                        Vec &alongU) {
      alongV.assign(a.inputs, 0.0);
      alongU.assign(a.inputs, 0.0);
      a.hvp(at, v.data(), alongV.data());
      a.hvp(at, u.data(), alongU.data());
    });
    expectSums("hvp.symmetry", uHv, vHu, scale2, 1e-9, secondOrder);
    roundingSpread = std::fmax(roundingSpread, secondOrder.measured());
    if (a.hvpReverse) {
      Vec rr(a.inputs);
      a.hvpReverse(x.data(), v.data(), rr.data());
      for (int i = 0; i < a.inputs; ++i)
        expect("rr", i, rr[i], hv[i], 1e-9);
    }
    if (a.hvpLanes) {
      Vec rl(a.inputs);
      a.hvpLanes(x.data(), v.data(), rl.data());
      for (int i = 0; i < a.inputs; ++i)
        expect("rr.lanes", i, rl[i], hv[i], 1e-9);
    }
    if (a.gradientDifferences)
      checkHvpByDifferences(a, x, v, hv);
  }
  // Builds that round differently (a reduction's order, a fused multiply-
  // add) differ by this much: fuzz.py compares their derivatives only where
  // it is small.
  std::printf("rounding %.3g\n", roundingSpread);
  std::printf("oracles: %d passed, %d failed\n", passedChecks, failures);
  return failures != 0;
}

} // namespace fuzz

#endif // COTANGENT_FUZZ_ORACLES_H
