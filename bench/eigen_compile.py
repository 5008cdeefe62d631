#!/usr/bin/env python3
"""What the plugin adds to the compile time of Eigen code: compiles each of
the Eigen integration tests (test/Integration/CPU/eigen-*.cpp) to an object
file with the plugin and without it (plain Clang, the same flags; the
entry points' derivatives are then left undefined, which an object file
allows), at -O0 with Eigen's scalar code (-DEIGEN_DONT_VECTORIZE) and at
-O2 with its default SSE2 code, one compile at a time, and writes the wall
times and their ratios to bench/eigen-compile-results.json (docs/Eigen.md's
table). Each file's derivatives are what its test checks: every function
differentiated in the modes the test asks for (reverse, forward, Hessian-
vector products, vector lanes), so the ratio is that of a heavily
differentiated file, not of one gradient.

usage: bench/eigen_compile.py [build-dir]   (make bench-eigen-compile)
"""
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIGURATIONS = [
    ("-O0, scalar", ["-O0", "-DEIGEN_DONT_VECTORIZE"]),
    ("-O2, SSE2", ["-O2"]),
]


def compile_seconds(source, flags, plugin, output):
    """Wall seconds of one compile to an object file."""
    command = ["clang++-22", "-std=c++20", *flags, "-c", source, "-o", output,
               f"-I{os.path.join(ROOT, 'runtime', 'include')}",
               f"-I{os.path.join(ROOT, 'test', 'Integration', 'CPU', 'Inputs')}",
               "-isystem", "/usr/include/eigen3", "-w"]
    if plugin:
        command.append(f"-fplugin={plugin}")
    start = time.monotonic()
    subprocess.run(command, check=True, capture_output=True)
    return time.monotonic() - start


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    plugin = os.path.join(ROOT, build, "lib", "CotangentPlugin.so")
    sources = sorted(glob.glob(
        os.path.join(ROOT, "test", "Integration", "CPU", "eigen-*.cpp")))
    results = {"compiler": "clang++-22 -std=c++20 -c", "files": []}
    with tempfile.TemporaryDirectory() as tmp:
        output = os.path.join(tmp, "out.o")
        for source in sources:
            row = {"file": os.path.basename(source)}
            for name, flags in CONFIGURATIONS:
                plain = compile_seconds(source, flags, None, output)
                with_plugin = compile_seconds(source, flags, plugin, output)
                row[name] = {"plain_s": round(plain, 2),
                             "plugin_s": round(with_plugin, 2),
                             "ratio": round(with_plugin / plain, 2)}
            results["files"].append(row)
            print(json.dumps(row), flush=True)
    with open(os.path.join(ROOT, "bench", "eigen-compile-results.json"),
              "w") as out:
        json.dump(results, out, indent=2)
        out.write("\n")


if __name__ == "__main__":
    main()
