"""Turns a generated function into a whole C++ program that runs the oracles.

The function text (over `real`) is emitted in namespace `ad` with
`real = double`, marked differentiable, and in namespace `ref` with
`real = long double`, and in namespace `ieee` in double with floating-point
exceptions observable; `main` describes `f` to oracles.h through flat
adapters (see there) and runs every check.
"""

import random
import re

INT_VALUE = 3  # what every `int` parameter receives


def active(params):
    return [(role, name, length) for role, name, length in params
            if role != "int"]


def initial_length(role, length):
    """How many inputs a parameter is (a resized vector: its initial
    contents)."""
    if role == "scalar":
        return 1
    return length[0] if role == "grown" else length


def output_length(role, length):
    """How many outputs a parameter is (in/out memory, and a resized
    vector's final contents)."""
    if role == "grown":
        return length[1]
    return length if role == "inout" else 0


def render_args_struct(params):
    """`Args<T>`: f's active arguments, loaded from and stored to flat
    vectors in parameter order."""
    fields, load, store, flat = [], [], [], []
    for role, name, length in active(params):
        if role == "grown":
            # Its initial contents in, its final contents out; a pullback's
            # derivative vector ends with the initial size.
            first, final = length
            fields.append(f"  std::vector<T> {name} = std::vector<T>({first});")
            load.append(f"    {name}.assign({first}, T(0));\n"
                        f"    for (int j = 0; j < {first}; ++j) {name}[j] = in[k++];")
            flat.append(f"    for (int j = 0; j < {first}; ++j) out[k++] = {name}[j];")
            store.append(f"    for (int j = 0; j < {final}; ++j) out[k++] = {name}[j];")
        elif role == "scalar":
            fields.append(f"  T {name}{{}};")
            load.append(f"    {name} = in[k++];")
            flat.append(f"    out[k++] = {name};")
        else:
            fields.append(f"  T {name}[{length}]{{}};")
            load.append(f"    for (int j = 0; j < {length}; ++j) {name}[j] = in[k++];")
            flat.append(f"    for (int j = 0; j < {length}; ++j) out[k++] = {name}[j];")
            if role == "inout":
                store.append(f"    for (int j = 0; j < {length}; ++j) out[k++] = {name}[j];")
    return ("template <class T> struct Args {\n" + "\n".join(fields) + "\n"
            "  void load(const T *in) {\n    int k = 0;\n" + "\n".join(load) +
            "\n  }\n"
            "  void outputs(T value, T *out) const {\n    out[0] = value;\n"
            "    int k = 1;\n" + "\n".join(store) + "\n    (void)k;\n  }\n"
            "  void flatten(T *out) const {\n    int k = 0;\n" + "\n".join(flat) +
            "\n  }\n};")


def call_args(params, obj, extra=()):
    """f's arguments from an Args object, then `extra` derivative ones."""
    args = []
    for role, name, _ in params:
        args.append(str(INT_VALUE) if role == "int" else f"{obj}.{name}")
    return ", ".join(args + list(extra))


def shadows(params, obj, scalar_by_pointer):
    out = []
    for role, name, _ in active(params):
        if role == "scalar":
            out.append(f"&{obj}.{name}" if scalar_by_pointer else f"{obj}.{name}")
        elif role == "grown":
            out.append(f"&{obj}.{name}")
        else:
            out.append(f"{obj}.{name}")
    return out


def rule_text(name):
    return (f"void {name}_pullback(real x, real dret, real *dx) {{\n"
            f"  *dx += dret * (std::cos(x) * x + std::sin(x));\n}}\n"
            f"ct::dual<real> {name}_tangent(real x, real tx) {{\n"
            f"  return {{std::sin(x) * x, tx * (std::cos(x) * x + std::sin(x))}};\n}}\n"
            f"CT_CUSTOM_GRADIENT({name}, {name}_pullback);\n"
            f"CT_CUSTOM_JVP({name}, {name}_tangent);")


def keeps_addresses(function_text):
    """Whether f keeps addresses in memory (generate.memory_statement): a
    Buffer, buffers swapped through pointers, a vector grown at run time,
    a vector of vectors or an array of vectors, a struct whose vector
    field grows (Trace), a
    class holding a std::unique_ptr (Owned), linked nodes (Node), a
    vector of structs holding names (Named) or a buffer replaced by
    `new`, or objects with virtual functions and a pointer field (Own,
    Over: virtual accessors), C's growable arrays (Grown). Reverse over
    reverse
    does not differentiate those yet (docs/Memory.md), so their programs
    leave out that oracle rather than being rejected whole."""
    return ("Buffer " in function_text
            or "std::vector<Layer>" in function_text
            or "Trace " in function_text
            or "Owned " in function_text
            or "Own " in function_text
            or "Grown " in function_text
            or "Node " in function_text
            or "std::vector<Named>" in function_text
            or "std::vector<std::vector<real>>" in function_text
            or "std::array<std::vector<real>," in function_text
            or re.search(r"std::vector<real> rw\d+\[", function_text) is not None
            or re.search(r"real \*\w+ = (u\d+|new real)", function_text) is not None
            or re.search(r"std::vector<real> g\d+;", function_text) is not None)


def keeps_layers(function_text):
    """Whether the program keeps a std::vector of Layers, a Trace or linked
    Nodes:
    structs holding a number that carries a derivative beside a
    std::vector kept in them: vector mode of
    memory that holds both addresses and derivatives is diagnosed, not
    supported yet (docs/Memory.md), so its programs leave out the Jacobian
    oracle rather than being rejected whole."""
    return ("std::vector<Layer>" in function_text
            or "Trace " in function_text
            or "Node " in function_text)


def render_program(function_text, params, rules, seed):
    rng = random.Random(seed * 7919 + 1)
    inputs = sum(initial_length(role, length)
                 for role, _, length in active(params))
    outputs = 1 + sum(output_length(role, length)
                      for role, _, length in params)
    has_inout = any(role in ("inout", "grown") for role, _, _ in params)

    def vector(n, low=-1.0, high=1.0):
        return "{" + ", ".join(f"{rng.uniform(low, high):.6f}" for _ in range(n)) + "}"

    rule_defs = "\n".join(rule_text(name) for name in rules)
    jacobian = f"""  a.jacobian = [](const double *in, double *J) {{
    Args<double> x;
    x.load(in);
    ct::jacobian<ad::f>({jacobian_args(params)}J);
  }};
"""
    # (Vector mode of a resized vector is not supported yet: an error.)
    if keeps_layers(function_text) or any(role == "grown"
                                          for role, _, _ in params):
        jacobian = ""
    hvp = ""
    if not has_inout:
        hvp = f"""  a.hvp = [](const double *in, const double *v, double *hv) {{
    Args<double> x, t, h;
    x.load(in);
    t.load(v);
    ct::hvp<ad::f>({call_args(params, 'x', shadows(params, 't', False) + shadows(params, 'h', True))});
    h.flatten(hv);
  }};
  a.gradient = [](const double *in, double *g) {{
    Args<double> x, d;
    x.load(in);
    double value = ct::gradient<ad::f>({call_args(params, 'x', shadows(params, 'd', True))});
    d.flatten(g);
    return value;
  }};
"""
    if not has_inout and not keeps_addresses(function_text):
        hvp += f"""#ifdef FUZZ_REVERSE_OVER_REVERSE
  a.hvpReverse = [](const double *in, const double *v, double *hv) {{
    Args<double> x, h;
    x.load(in);
    ct::gradient<ad::gradientDot, ct::wrt<{", ".join(str(i) for i in range(len(active(params))))}>>({", ".join(f"x.{name}" for _, name, _ in active(params))}, v, {", ".join(shadows(params, 'h', True))});
    h.flatten(hv);
  }};
"""
        hvp += f"""  a.hvpLanes = [](const double *in, const double *v, double *hv) {{
    Args<double> x, h;
    x.load(in);
    ct::gradient<ad::lanesDot, ct::wrt<{", ".join(str(i) for i in range(len(active(params))))}>>({", ".join(f"x.{name}" for _, name, _ in active(params))}, v, {", ".join(shadows(params, 'h', True))});
    h.flatten(hv);
  }};
"""
        hvp += """#endif
"""
    return f"""// Generated by test/fuzz (seed {seed}).
#include <cotangent/cotangent.h>

#include "oracles.h"

#include <algorithm>
#include <array>
#include <cfenv>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

namespace ad {{
using real = double;
#define DIFFERENTIABLE [[ct::differentiable]]
#define STOP_GRADIENT ct::stop_gradient
#define OMP(directive) _Pragma(#directive)
{function_text}
#undef OMP
#undef STOP_GRADIENT
#undef DIFFERENTIABLE
{rule_defs}
{gradient_dot(params) if not has_inout and not keeps_addresses(function_text) else ""}}} // namespace ad

namespace ref {{
using real = long double;
#define DIFFERENTIABLE
#define STOP_GRADIENT fuzz::frozen
// Serial: the reference replays stop_gradient values in call order.
#define OMP(directive)
{function_text}
#undef OMP
#undef STOP_GRADIENT
#undef DIFFERENTIABLE
}} // namespace ref

// f in double with IEEE exceptions kept (nothing computed is dropped): does
// f itself overflow or take an invalid operation at this point?
namespace ieee {{
#pragma STDC FENV_ACCESS ON
using real = double;
#define DIFFERENTIABLE [[gnu::noinline]]
#define STOP_GRADIENT
#define OMP(directive)
{function_text}
#undef OMP
#undef STOP_GRADIENT
#undef DIFFERENTIABLE
#pragma STDC FENV_ACCESS OFF
}} // namespace ieee

{render_args_struct(params)}

int main() {{
  fuzz::Adapters a;
  a.inputs = {inputs};
  a.gradientDifferences = {"false" if "STOP_GRADIENT" in function_text else "true"};
  a.outputs = {outputs};
  a.primal = [](const double *in, double *out) {{
    Args<double> x;
    x.load(in);
    x.outputs(ad::f({call_args(params, 'x')}), out);
  }};
  a.reference = [](const long double *in, long double *out) {{
    Args<long double> x;
    x.load(in);
    x.outputs(ref::f({call_args(params, 'x')}), out);
  }};
  a.overflows = [](const double *in) {{
    Args<double> x;
    x.load(in);
    std::feclearexcept(FE_ALL_EXCEPT);
    ieee::f({call_args(params, 'x')});
    return std::fetestexcept(FE_OVERFLOW | FE_INVALID | FE_DIVBYZERO) != 0;
  }};
  a.pullback = [](const double *in, const double *w, double *g) {{
    Args<double> x, d;
    x.load(in);
    // In/out memory carries its seed in; every other adjoint starts at 0.
    {seed_inout(params)}
    double value = ct::pullback<ad::f>({call_args(params, 'x', ['w[0]'] + shadows(params, 'd', True))});
    d.flatten(g);
    return value;
  }};
  a.jvp = [](const double *in, const double *v, double *jv) {{
    Args<double> x, t;
    x.load(in);
    t.load(v);
    auto result = ct::jvp<ad::f>({call_args(params, 'x', shadows(params, 't', False))});
    t.outputs(result.tangent, jv);
    return result.value;
  }};
{jacobian}{hvp}  fuzz::Vec x = {vector(inputs)};
  fuzz::Vec v = {vector(inputs)};
  fuzz::Vec u = {vector(inputs)};
  fuzz::Vec w = {vector(outputs)};
  return fuzz::run(a, x, v, w, u);
}}
"""


def gradient_dot(params):
    """gradient(f) . v as a function of f's active inputs: its gradient is
    H v by reverse mode over reverse mode (checked against ct::hvp)."""
    declared, locals_, dot = [], [], []
    offset = 0
    for role, name, length in active(params):
        if role == "scalar":
            declared.append(f"real {name}")
            locals_.append(f"  real d_{name} = 0;")
            dot.append(f"d_{name} * v[{offset}]")
            offset += 1
        else:
            declared.append(f"const real *{name}")
            locals_.append(f"  real d_{name}[{length}] = {{}};")
            dot.append(f"std::inner_product(d_{name}, d_{name} + {length}, v + {offset}, real(0))")
            offset += length
    derivative_args = [f"&d_{name}" if role == "scalar" else f"d_{name}"
                       for role, name, _ in active(params)]
    call = ", ".join([str(INT_VALUE) if role == "int" else name
                      for role, name, _ in params] + derivative_args)
    text = (f"real gradientDot({', '.join(declared + ['const real *v'])}) {{\n"
            + "\n".join(locals_) + f"\n  ct::gradient<f>({call});\n"
            f"  return {' + '.join(dot)};\n}}\n")
    text += lanes_dot(params, declared)
    return "#ifdef FUZZ_REVERSE_OVER_REVERSE\n" + text + "#endif\n"


def lanes_dot(params, declared):
    """(J v + J 2v) / 3 = gradient(f) . v by forward vector mode with two
    lanes, as a function of f's active inputs: its gradient is H v by
    reverse mode over vector mode (checked against ct::hvp)."""
    locals_, tangents = [], []
    offset = 0
    for role, name, length in active(params):
        if role == "scalar":
            locals_.append(f"  real t_{name}[2] = {{v[{offset}], 2 * v[{offset}]}};")
            offset += 1
        else:
            locals_.append(f"  real t_{name}[{2 * length}];\n"
                           f"  for (int j = 0; j < {length}; ++j) {{\n"
                           f"    t_{name}[2 * j] = v[{offset} + j];\n"
                           f"    t_{name}[2 * j + 1] = 2 * v[{offset} + j];\n"
                           f"  }}")
            offset += length
        tangents.append(f"t_{name}")
    call = ", ".join([str(INT_VALUE) if role == "int" else name
                      for role, name, _ in params] + tangents)
    return (f"real lanesDot({', '.join(declared + ['const real *v'])}) {{\n"
            + "\n".join(locals_)
            + f"\n  auto d = ct::jvp<f, ct::lanes<2>>({call});\n"
            f"  return (d.tangent[0] + d.tangent[1]) / 3;\n}}\n")


def jacobian_args(params):
    """ct::jacobian's arguments before J: the extents of the arrays (raw
    pointers), then f's."""
    lengths = [str(length) for role, _, length in active(params)
               if role != "scalar"]
    extents = f"ct::extents{{{', '.join(lengths)}}}, " if lengths else ""
    return extents + call_args(params, 'x') + ", "


def seed_inout(params):
    """Puts each in/out array's seed (w after the return's) in its shadow;
    Args starts zeroed."""
    lines = ["int s = 1;"]
    for role, name, length in params:
        if role == "inout":
            lines.append(f"for (int j = 0; j < {length}; ++j) d.{name}[j] = w[s++];")
        elif role == "grown":
            # The seeds of its final contents.
            lines.append(f"d.{name}.assign({length[1]}, 0.0);")
            lines.append(f"for (int j = 0; j < {length[1]}; ++j) d.{name}[j] = w[s++];")
    lines.append("(void)s;")
    return "\n    ".join(lines)
