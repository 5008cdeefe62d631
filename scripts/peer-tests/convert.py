#!/usr/bin/env python3
"""Turns a peer AD tool's regression tests (Clad's test/ directory) into
probes of Cotangent: for each function a test passes to `clad::gradient`,
`differentiate`, `hessian` or `jacobian`, one C++ file holding the test's
code but its `main` and a `main` that calls `ct::gradient` (or `ct::jvp`)
with arguments made from the function's parameter types (probe.h).

  convert.py <clad checkout> <out dir> <probe header>

Writes <out dir>/cases.tsv: file, test, function, mode."""
import pathlib
import re
import sys

DIRS = ["Gradient", "FirstDerivative", "ForwardMode", "Arrays", "Hessian",
        "Jacobian", "Misc", "Functors", "NestedCalls", "Regressions",
        "MixedDerivatives", "NthDerivative"]
HEADERS = ["cassert", "cmath", "cstdlib", "cstring", "cstdio", "vector",
           "array", "utility", "algorithm", "memory", "map", "string"]
CALL = re.compile(r"clad::(gradient|differentiate|hessian|jacobian)\s*"
                  r"(<[^()]*?>)?\s*\(\s*(&?\s*[\w:]+(?:<[^()>]*>)?)")


def main_end(text, start):
    """The index just past the closing brace of the main at `start`."""
    depth, i = 0, text.index("{", start)
    while i < len(text):
        if text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                break
        elif text[i] in "\"'":
            quote, i = text[i], i + 1
            while i < len(text) and text[i] != quote:
                i += 2 if text[i] == "\\" else 1
        elif text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def probes(text, directory):
    """The test's code without its main (functions defined after main are
    kept), and the (forward?, name) it probes. Its own headers (`#include
    "../PrintOverloads.h"`, a header beside it) are included from
    `directory`, where the test lives."""
    m = re.search(r"^int\s+main\s*\(", text, re.M)
    if not m:
        return None, []
    end = main_end(text, m.start())
    head, body = text[:m.start()] + text[end:], text[m.start():end]
    head = re.sub(r'#include\s+"(clad/[^"]*|\.\./TestUtils\.h)"', "", head)
    head = re.sub(r'#include\s+"([^"/][^"]*)"',
                  lambda m: f'#include "{directory / m.group(1)}"', head)
    head = re.sub(r"^\s*//.*$", "", head, flags=re.M)
    names = []
    for call in CALL.finditer(body):
        key = (call.group(1) == "differentiate",
               call.group(3).replace(" ", "").lstrip("&"))
        if key not in names:
            names.append(key)
    return head, names


def main():
    checkout, out, probe = (pathlib.Path(a).resolve() for a in sys.argv[1:4])
    shim = probe.parent / "shim.h"
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for directory in DIRS:
        for test in sorted((checkout / "test" / directory).glob("*")):
            if test.suffix not in (".C", ".cpp"):
                continue
            head, names = probes(test.read_text(errors="replace"),
                                 test.parent)
            stem = directory + "_" + re.sub(r"\W", "_", test.stem)
            for i, (forward, name) in enumerate(names):
                includes = "".join(f"#include <{h}>\n" for h in HEADERS)
                macro = "PROBE_JVP" if forward else "PROBE_GRADIENT"
                case = out / f"{stem}__{i}.cpp"
                case.write_text(f'{includes}#include "{shim}"\n{head}\n'
                                f'#include "{probe}"\n'
                                f'int main() {{ {macro}({name}); '
                                f'std::puts("ok"); }}\n')
                rows.append((str(case), f"{directory}/{test.name}", name,
                             "jvp" if forward else "gradient"))
    with open(out / "cases.tsv", "w") as f:
        for row in rows:
            f.write("\t".join(row) + "\n")
    print(len(rows))


if __name__ == "__main__":
    main()
