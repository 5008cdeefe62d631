#!/usr/bin/env python3
"""What Eigen's matrix-level rules cost (docs/Eigen.md): compiles
bench/matrix-rules/ridge.cpp (a Cholesky solve and log-determinant by
Eigen's llt) with the plugin, checks its gradient against the hand-written
one, and times the objective, its gradient by ct::gradient and by hand at
several sizes, each in a process of its own (for its peak memory); writes
the median times, their ratios and the peak resident memory to
bench/matrix-rules-results.json.

Eigen is compiled with its default (SSE2) code. Each time is measured
twice: as the C library allocates (blocks past its mmap threshold are
mapped afresh on each call, and each new page faults), and with freed
memory kept by the C library (GLIBC_TUNABLES raising its mmap and trim
thresholds), which separates the arithmetic from the page faults; on this
benchmark's virtual machine a fresh page costs about 10 microseconds.

usage: bench/matrix_rules.py [build-dir]   (make bench-matrix-rules)
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = [32, 64, 128, 200, 256]
# The C library keeping what is freed (no fresh pages after the first call).
KEPT_HEAP = ("glibc.malloc.mmap_threshold=1073741824:"
             "glibc.malloc.trim_threshold=2147483648:"
             "glibc.malloc.top_pad=134217728")
REPETITIONS = {32: 101, 64: 51, 128: 21, 200: 11, 256: 11}


def run(binary, *args, env=None):
    """The stdout of one run."""
    return subprocess.run([binary, *map(str, args)], check=True,
                          capture_output=True, text=True,
                          env=env).stdout.strip()


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "ridge")
        subprocess.run(
            ["clang++-22", "-std=c++20", "-O3",
             f"-fplugin={os.path.join(ROOT, build, 'lib', 'CotangentPlugin.so')}",
             f"-I{os.path.join(ROOT, 'runtime', 'include')}",
             "-isystem", "/usr/include/eigen3",
             os.path.join(ROOT, "bench", "matrix-rules", "ridge.cpp"),
             "-o", binary], check=True)
        results = {"workload": "ridge: b^T S^-1 b + log det S, S = A A^T + n I"
                               " (Eigen llt), gradient with respect to A",
                   "flags": "-O3, Eigen's default (SSE2) code",
                   "sizes": []}
        for n in SIZES:
            worst = run(binary, n, "check")
            if float(worst) > 1e-8:
                sys.exit(f"n={n}: the gradient differs from the hand-written "
                         f"one by {worst} (relative)")
            row = {"n": n, "gradient_vs_manual_max_rel_diff": float(worst)}
            kept = dict(os.environ, GLIBC_TUNABLES=KEPT_HEAP)
            for suffix, env in (("", None), ("_heap_kept", kept)):
                for kind in ("primal", "cotangent", "manual"):
                    ms = run(binary, n, kind, REPETITIONS[n], env=env)
                    row[f"{kind}_ms{suffix}"] = float(ms)
                row[f"cotangent_over_primal{suffix}"] = (
                    row[f"cotangent_ms{suffix}"] / row[f"primal_ms{suffix}"])
                row[f"cotangent_over_manual{suffix}"] = (
                    row[f"cotangent_ms{suffix}"] / row[f"manual_ms{suffix}"])
            results["sizes"].append(row)
            print(json.dumps(row))
        # Peak memory of one gradient at the largest size, against one
        # objective (separate processes, the objective first).
        n = SIZES[-1]
        for kind in ("primal", "cotangent", "manual"):
            out = subprocess.run(
                ["/usr/bin/env", "python3", "-c",
                 "import resource,subprocess,sys;"
                 f"subprocess.run([{binary!r},'{n}','{kind}','1'],check=True,"
                 "stdout=subprocess.DEVNULL);"
                 "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"],
                check=True, capture_output=True, text=True).stdout.strip()
            results[f"peak_rss_kb_n{n}_{kind}"] = int(out)
    with open(os.path.join(ROOT, "bench", "matrix-rules-results.json"), "w") as f:
        json.dump(results, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
