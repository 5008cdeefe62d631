#!/usr/bin/env python3
"""A C++ file with one differentiable function of N statements, for the
compile-time benchmark: random scalar statements over four variables (sin,
cos, exp, +, -, *, /), and every 50 statements a short loop over the input
array, a store into a local buffer read back later, and a call of a small
differentiable helper. Its gradient is requested, so the file is what a
user compiles.

Usage: generate.py N [SEED] > file.cpp
"""

import random
import sys


def expression(rng, names):
    a, b = rng.choice(names), rng.choice(names)
    op = rng.choice(["+", "-", "*", "sin", "cos", "exp", "/"])
    if op in ("sin", "cos"):
        return f"std::{op}({a}) * {rng.uniform(0.5, 1.5):.3f}"
    if op == "exp":
        return f"std::exp(-{a} * {a}) + {b}"
    if op == "/":
        return f"{a} / (1.0 + {b} * {b})"
    return f"{a} {op} {b} * {rng.uniform(0.1, 0.9):.3f}"


def main():
    n = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    names = ["a", "b", "c", "d"]
    lines = [
        "#include <cmath>",
        "#include <cotangent/cotangent.h>",
        "",
        "[[ct::differentiable]] static double helper(double x, double y) {",
        "  return std::sin(x) * y + x / (1.0 + y * y);",
        "}",
        "",
        "[[ct::differentiable]] double generated(const double* x, int n) {",
        "  double a = x[0], b = x[1], c = x[2], d = x[3];",
        "  double buffer[64] = {};",
    ]
    for i in range(n):
        target = rng.choice(names)
        if i % 50 == 49:
            slot = (i // 50) % 64
            lines += [
                f"  for (int i = 0; i < n; ++i) {target} += x[i] * {rng.choice(names)} * 0.01;",
                f"  buffer[{slot}] = {rng.choice(names)};",
                f"  {rng.choice(names)} += helper({rng.choice(names)}, buffer[{(slot * 7) % 64}]);",
            ]
        else:
            lines.append(f"  {target} = {expression(rng, names)};")
    lines += [
        "  double sum = a + b + c + d;",
        "  for (int i = 0; i < 64; ++i) sum += buffer[i];",
        "  return sum;",
        "}",
        "",
        "double generatedGradient(const double* x, int n, double* dx) {",
        "  return ct::gradient<generated>(x, n, dx);",
        "}",
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
