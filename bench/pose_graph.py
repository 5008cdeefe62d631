#!/usr/bin/env python3
"""A pose-graph edge's Jacobian (docs/Eigen.md): compiles
bench/pose-graph/ (a Ceres-style templated functor on Eigen::Map and
Eigen::Quaternion, 6 residuals of 4 parameter blocks, 14 parameters) with
the plugin, checks every Jacobian against the hand-written one and that
against central differences, then times one edge's residuals and Jacobian
blocks (Ceres's row-major layout) by ct::pullback with 6 lanes, by ct::jvp
with 14 lanes, by hand, and by Ceres's AutoDiffCostFunction on its Jets
where Ceres is installed (Debian's libceres-dev), against the functor
alone. Two flag sets: -O3 (Eigen's SSE2 code) and -O3 -march=native.
Also the compile time of the functor's translation unit with the plugin
and without. Writes bench/pose-graph-results.json.

usage: bench/pose_graph.py [build-dir]   (make bench-pose-graph)
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = os.path.join(ROOT, "bench", "pose-graph")
FLAG_SETS = {"-O3": ["-O3"], "-O3 -march=native": ["-O3", "-march=native"]}
KINDS = ["primal", "pullback", "jvp", "manual", "ceres"]
PASSES = 101      # passes over the graph's 2,000 edges, per process
PROCESSES = 3     # processes per kind; the median of their medians


def have_ceres():
    return os.path.isfile("/usr/include/ceres/ceres.h")


def compile_object(source, flags, out, plugin=None, defines=()):
    """Compiles one translation unit; returns the seconds it took."""
    command = ["clang++-22", "-std=c++20", *flags, *defines,
               f"-I{os.path.join(ROOT, 'runtime', 'include')}",
               "-isystem", "/usr/include/eigen3", "-c",
               os.path.join(SOURCES, source), "-o", out]
    if plugin:
        command.insert(1, f"-fplugin={plugin}")
    start = time.monotonic()
    subprocess.run(command, check=True)
    return time.monotonic() - start


def build(tmp, flags, plugin, ceres):
    """The benchmark's binary for one flag set, and the compile times of
    the functor's translation unit with the plugin and without."""
    objects = []
    row = {}
    for source, with_plugin in (("cotangent.cpp", True), ("manual.cpp", False),
                                ("main.cpp", False), ("ceres.cpp", False)):
        out = os.path.join(tmp, source + ".o")
        seconds = compile_object(
            source, flags, out, plugin if with_plugin else None,
            ["-DHAVE_CERES"] if source == "ceres.cpp" and ceres else [])
        if source == "cotangent.cpp":
            row["compile_s_plugin"] = seconds
            # (Without the plugin the derivatives are left undefined,
            # which an object file allows.)
            row["compile_s_plain"] = compile_object(
                source, flags, os.path.join(tmp, "plain.o"))
        objects.append(out)
    binary = os.path.join(tmp, "pose-graph")
    subprocess.run(["clang++-22", *objects, "-o", binary] +
                   (["-lceres", "-lglog"] if ceres else []), check=True)
    return binary, row


def run(binary, *args):
    return subprocess.run([binary, *map(str, args)], check=True,
                          capture_output=True, text=True).stdout.strip()


def measure(binary, ceres):
    row = json.loads(run(binary, "check"))
    for name, worst in row["max_rel_diff"].items():
        if worst > (1e-6 if name == "manual_vs_differences" else 1e-12):
            sys.exit(f"{name}: {worst} (relative)")
    for kind in KINDS:
        if kind == "ceres" and not ceres:
            continue
        times = [float(run(binary, kind, PASSES)) for _ in range(PROCESSES)]
        row[f"{kind}_ns"] = statistics.median(times)
    for kind in ("pullback", "jvp", "manual", "ceres"):
        if f"{kind}_ns" not in row:
            continue
        for base in ("primal", "manual", "ceres"):
            if base != kind and f"{base}_ns" in row:
                row[f"{kind}_over_{base}"] = (row[f"{kind}_ns"] /
                                              row[f"{base}_ns"])
    return row


def main():
    build_dir = sys.argv[1] if len(sys.argv) > 1 else "build"
    plugin = os.path.join(ROOT, build_dir, "lib", "CotangentPlugin.so")
    ceres = have_ceres()
    results = {"workload": "3-D pose-graph edge: 6 residuals, parameter "
                           "blocks 3, 4, 3, 4 (Ceres-style functor on "
                           "Eigen::Map and Eigen::Quaternion)",
               "ceres": ceres, "flag_sets": []}
    with tempfile.TemporaryDirectory() as tmp:
        for label, flags in FLAG_SETS.items():
            binary, row = build(tmp, flags, plugin, ceres)
            row.update(measure(binary, ceres))
            results["edges"] = row.pop("edges")
            row["flags"] = label
            results["flag_sets"].append(row)
            print(json.dumps(row))
    with open(os.path.join(ROOT, "bench", "pose-graph-results.json"), "w") as f:
        json.dump(results, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
