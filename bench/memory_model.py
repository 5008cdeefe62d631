#!/usr/bin/env python3
"""What the general memory model costs (docs/Memory.md): runs the
workloads that need it (a neighbour list built by push_back, an MLP whose
activations are reassigned layer by layer, the same MLP whose network is a
std::vector of layers holding std::vectors) beside the same computations in
the form the memref model takes (a reserved list, fixed buffers), with the
hand-written gradients, and writes their median times and ratios to
bench/memory-model-results.json; the gradients again without tape memory
kept between calls (COTANGENT_TAPE_CACHE_BYTES=0: every call's tape in
fresh pages), for what keeping it gives.

usage: bench/memory_model.py [build-dir]   (make bench-memory-model)
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAIRS = {  # general-model workload -> its memref-model form
    "neighbours-n2000": "neighbours-reserved-n2000",
    "mlp-64-128-128-10": "mlp-fixed-buffers-64-128-128-10",
    "mlp-layers-64-128-128-10": "mlp-fixed-buffers-64-128-128-10",
}


def run(build, kinds, kept):
    """Google Benchmark's JSON of the workloads' `kinds`."""
    names = "|".join(list(PAIRS) + list(PAIRS.values()))
    env = dict(os.environ)
    env.pop("COTANGENT_TAPE_CACHE_BYTES", None)
    if not kept:
        env["COTANGENT_TAPE_CACHE_BYTES"] = "0"
    with tempfile.NamedTemporaryFile(suffix=".json") as raw:
        subprocess.run(
            [os.path.join(ROOT, build, "bin", "cotangent-bench"),
             f"--benchmark_filter=^({names})/({kinds})$",
             "--benchmark_repetitions=5",
             "--benchmark_enable_random_interleaving=true",
             "--benchmark_report_aggregates_only=true",
             f"--benchmark_out={raw.name}", "--benchmark_out_format=json"],
            check=True, stdout=subprocess.DEVNULL, env=env)
        with open(raw.name) as f:
            return json.load(f)


def medians_of(data):
    """{(workload, kind): {ms, peak_bytes}} of the medians."""
    medians = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        workload, kind = b["run_name"].split("/")
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        medians[(workload, kind)] = {
            "ms": b["real_time"] * scale,
            "peak_bytes": b.get("peak_bytes")}
    return medians


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    data = run(build, "primal|cotangent|manual", kept=True)
    medians = medians_of(data)
    fresh = medians_of(run(build, "cotangent", kept=False))
    results = {"context": {"host": data["context"].get("host_name"),
                           "date": data["context"].get("date")},
               "workloads": []}
    for general, memref in PAIRS.items():
        entry = {"general": general, "memref": memref}
        for label, name in (("general", general), ("memref", memref)):
            primal = medians[(name, "primal")]["ms"]
            gradient = medians[(name, "cotangent")]
            manual = medians[(name, "manual")]["ms"]
            entry[label + "_ms"] = {"primal": primal,
                                    "gradient": gradient["ms"],
                                    "hand_written": manual}
            entry[label + "_gradient_peak_bytes"] = gradient["peak_bytes"]
            entry[label + "_gradient_over_primal"] = gradient["ms"] / primal
            entry[label + "_gradient_over_hand_written"] = gradient["ms"] / manual
            entry[label + "_gradient_without_kept_memory_ms"] = fresh[
                (name, "cotangent")]["ms"]
        entry["general_over_memref_gradient"] = (
            entry["general_ms"]["gradient"] / entry["memref_ms"]["gradient"])
        results["workloads"].append(entry)
    out = os.path.join(ROOT, "bench", "memory-model-results.json")
    with open(out, "w") as f:
        json.dump(results, f, indent=2)
        f.write("\n")
    for w in results["workloads"]:
        print(f"{w['general']}: gradient {w['general_gradient_over_primal']:.2f}x primal, "
              f"{w['general_gradient_over_hand_written']:.2f}x hand-written; "
              f"{w['general_over_memref_gradient']:.2f}x the memref form "
              f"({w['memref']}: {w['memref_gradient_over_hand_written']:.2f}x hand-written)")


if __name__ == "__main__":
    main()
