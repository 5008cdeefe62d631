#!/usr/bin/env python3
"""What checkpointing loops without a pragma gives (docs/Performance.md,
"Checkpointing"): runs the benchmark's long time-stepping workloads (no
pragma in their code) and short ones, once as compiled (the compiler
chooses, at run time, to checkpoint the long loops) and once with
COTANGENT_CHECKPOINT_TAPE_BYTES so large that every loop is recorded,
each with the tape memory kept between calls (the default) and without
(COTANGENT_TAPE_CACHE_BYTES=0: every call's tape in fresh memory);
times bench/auto-checkpoint/snapshots.cpp (the ODE's loop with several
snapshot counts); and compiles the workload files whose loops are
versioned with and without -fplugin-arg-cotangent-auto-checkpoint=off.
Writes bench/auto-checkpoint-results.json.

usage: bench/auto_checkpoint.py [build-dir]   (make bench-auto-checkpoint)
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKLOADS = ["ode-n100-s100000", "stencil-n256-s1000", "ode-n100-s1000",
             "gmm-as-written-d64-k100-n1000", "lstm-l2-c1024"]
COMPILED = ["Ode.cpp", "Stencil.cpp", "Lstm.cpp", "GmmAsWritten.cpp"]
NO_LIMIT = "1000000000000"


def bench(build, recorded, kept=True):
    """Median times (ms) and peak bytes per workload and kind."""
    env = dict(os.environ)
    env.pop("COTANGENT_CHECKPOINT_TAPE_BYTES", None)
    env.pop("COTANGENT_TAPE_CACHE_BYTES", None)
    if recorded:
        env["COTANGENT_CHECKPOINT_TAPE_BYTES"] = NO_LIMIT
    if not kept:
        env["COTANGENT_TAPE_CACHE_BYTES"] = "0"
    pattern = "^(%s)/(primal|cotangent|manual)$" % "|".join(WORKLOADS)
    out = subprocess.run(
        [os.path.join(ROOT, build, "bin", "cotangent-bench"),
         "--benchmark_filter=" + pattern, "--benchmark_repetitions=3",
         "--benchmark_report_aggregates_only=true",
         "--benchmark_format=json"],
        check=True, capture_output=True, text=True, env=env).stdout
    found = {}
    for row in json.loads(out)["benchmarks"]:
        if row.get("aggregate_name") != "median":
            continue
        workload, kind = row["run_name"].split("/")
        unit = {"ms": 1, "us": 1e-3, "ns": 1e-6}[row["time_unit"]]
        found.setdefault(workload, {})[kind] = {
            "ms": row["real_time"] * unit,
            "peak_bytes": row.get("peak_bytes")}
    return found


def compile_seconds(build, source, auto):
    plugin = os.path.join(ROOT, build, "lib", "CotangentPlugin.so")
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(
            ["clang++-22", "-std=c++20", "-O3", "-march=native",
             "-fplugin=" + plugin,
             "-fplugin-arg-cotangent-auto-checkpoint=" + ("on" if auto else "off"),
             "-I" + os.path.join(ROOT, "runtime", "include"),
             "-I" + os.path.join(ROOT, "bench", "workloads"), "-c",
             os.path.join(ROOT, "bench", "workloads", source),
             "-o", os.devnull], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def snapshot_counts(build):
    plugin = os.path.join(ROOT, build, "lib", "CotangentPlugin.so")
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "snapshots")
        subprocess.run(
            ["clang++-22", "-std=c++20", "-O3", "-march=native",
             "-fplugin=" + plugin,
             "-I" + os.path.join(ROOT, "runtime", "include"),
             "-I" + os.path.join(ROOT, "bench", "workloads"),
             os.path.join(ROOT, "bench", "auto-checkpoint", "snapshots.cpp"),
             "-o", binary], check=True)
        return json.loads(subprocess.run([binary, "100000"], check=True,
                                         capture_output=True,
                                         text=True).stdout)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    chosen, recorded = bench(build, False), bench(build, True)
    fresh_chosen = bench(build, False, kept=False)
    fresh_recorded = bench(build, True, kept=False)
    rows = []
    for workload in WORKLOADS:
        a, r = chosen[workload], recorded[workload]
        row = {"workload": workload,
               "primal_ms": a["primal"]["ms"],
               "chosen_ms": a["cotangent"]["ms"],
               "chosen_peak_bytes": a["cotangent"]["peak_bytes"],
               "recorded_ms": r["cotangent"]["ms"],
               "recorded_peak_bytes": r["cotangent"]["peak_bytes"],
               "manual_ms": a["manual"]["ms"],
               "manual_peak_bytes": a["manual"]["peak_bytes"]}
        row["chosen_over_manual"] = row["chosen_ms"] / row["manual_ms"]
        row["recorded_over_manual"] = (row["recorded_ms"] /
                                       r["manual"]["ms"])
        row["fresh_chosen_ms"] = fresh_chosen[workload]["cotangent"]["ms"]
        row["fresh_recorded_ms"] = fresh_recorded[workload]["cotangent"]["ms"]
        rows.append(row)
        print(json.dumps(row))
    compiles = []
    for source in COMPILED:
        row = {"file": source,
               "with_s": compile_seconds(build, source, True),
               "without_s": compile_seconds(build, source, False)}
        row["ratio"] = row["with_s"] / row["without_s"]
        compiles.append(row)
        print(json.dumps(row))
    results = {"limit": "the runtime's default (half the tape memory kept "
                        "between calls: 512 MiB; without kept memory, the "
                        "last-level cache, at most 32 MiB); recorded: "
                        "COTANGENT_CHECKPOINT_TAPE_BYTES=" + NO_LIMIT,
               "repetitions": 3, "workloads": rows, "compile": compiles,
               "snapshot_counts": snapshot_counts(build)}
    print(json.dumps(results["snapshot_counts"]))
    with open(os.path.join(ROOT, "bench", "auto-checkpoint-results.json"),
              "w") as f:
        json.dump(results, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
