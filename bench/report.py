#!/usr/bin/env python3
"""Turns Google Benchmark's JSON into the benchmark table, bench/results.json
and docs/bench.png, with each workload file's plugin / plain compile time
from the compile-time benchmark's results (bench/compile/run.py).

usage: report.py BENCHMARK_JSON COMPILE_JSON OUT_JSON OUT_PNG
"""
import json
import sys


def compile_times(path):
    """{workload: (seconds with the plugin, seconds without)}."""
    with open(path) as f:
        rows = json.load(f)["results"]
    return {r["workload"]: (r["plugin_s"], r["plain_s"])
            for r in rows if r["kind"] == "workload"}


def medians(path):
    """{(workload, kind): (median real time in ms, counters)}."""
    with open(path) as f:
        data = json.load(f)
    runs = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = b.get("run_name", b["name"])
        workload, kind = name.split("/", 1)
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        counters = {k: v for k, v in b.items()
                    if k in ("max_rel_error", "peak_bytes", "units_timed", "units_total")}
        runs[(workload, kind)] = (b["real_time"] * scale, counters)
    return data["context"], runs


def main():
    bench_json, compile_json, out_json, out_png = sys.argv[1:5]
    context, runs = medians(bench_json)
    # The workloads in the order the benchmark registers them (run.sh
    # interleaves the repetitions, which shuffles the JSON).
    order = ["gmm", "ba", "lstm", "ode", "det", "stencil"]
    workloads = sorted({w for (w, kind) in runs},
                       key=lambda w: (order.index(w.split("-")[0])
                                      if w.split("-")[0] in order else len(order), w))
    compiles = compile_times(compile_json)

    rows = []
    for w in workloads:
        primal, _ = runs[(w, "primal")]
        ours, counters = runs[(w, "cotangent")]
        manual, manual_counters = runs[(w, "manual")]
        fd, fd_counters = runs[(w, "finite-differences")]
        fd_total = fd * fd_counters["units_total"] / fd_counters["units_timed"]
        row = {
            "workload": w,
            "primal_ms": primal,
            "cotangent_ms": ours,
            "manual_ms": manual,
            "finite_differences_ms": fd_total,
            "finite_differences_extrapolated": fd_counters["units_timed"] < fd_counters["units_total"],
            "cotangent_over_primal": ours / primal,
            "manual_over_primal": manual / primal,
            "cotangent_over_manual": ours / manual,
            "max_rel_error_vs_manual": counters["max_rel_error"],
            "cotangent_peak_bytes": counters["peak_bytes"],
            "manual_peak_bytes": manual_counters["peak_bytes"],
        }
        if (w, "hvp") in runs:
            row["hvp_ms"] = runs[(w, "hvp")][0]
            row["hvp_over_gradient"] = row["hvp_ms"] / ours
        family = w.split("-")[0]
        if family in compiles:
            with_plugin, plain = compiles[family]
            row["compile_s_plugin"] = with_plugin
            row["compile_s_plain"] = plain
            row["compile_ratio"] = with_plugin / plain
        rows.append(row)

    header = ("workload", "primal ms", "Cotangent ms", "ratio", "hand ratio",
              "vs hand", "FD ratio", "max rel err", "compile x")
    print("%-22s %10s %12s %7s %10s %8s %9s %11s %9s" % header)
    for r in rows:
        print("%-22s %10.3f %12.3f %7.2f %10.2f %8.2f %8.0f%s %11.1e %9s" % (
            r["workload"], r["primal_ms"], r["cotangent_ms"],
            r["cotangent_over_primal"], r["manual_over_primal"],
            r["cotangent_over_manual"],
            r["finite_differences_ms"] / r["primal_ms"],
            "*" if r["finite_differences_extrapolated"] else " ",
            r["max_rel_error_vs_manual"],
            "%.2f" % r["compile_ratio"] if "compile_ratio" in r else "-"))
    print("ratio: gradient (BA: Jacobian) time / primal time; hand ratio: the "
          "hand-written one's; vs hand: Cotangent / hand-written;")
    print("FD ratio: central finite differences / primal (* extrapolated from "
          "a sample of coordinates); compile x: plugin / plain compile time.")
    for r in rows:
        if "hvp_over_gradient" in r:
            print("%s: HVP %.3f ms, HVP / gradient %.2f" % (
                r["workload"], r["hvp_ms"], r["hvp_over_gradient"]))
    for r in rows:
        if r["workload"].startswith("lstm"):
            print("%s: peak memory added by the gradient: Cotangent %.2f MB, "
                  "hand-written %.2f MB" % (r["workload"],
                                            r["cotangent_peak_bytes"] / 1e6,
                                            r["manual_peak_bytes"] / 1e6))

    # Checkpointed loops against the same loops recorded step by step.
    by_name = {r["workload"]: r for r in rows}
    for r in rows:
        taped = by_name.get(r["workload"].replace("checkpointed-", ""))
        if taped is None or taped is r:
            continue
        r["time_over_taped"] = r["cotangent_ms"] / taped["cotangent_ms"]
        r["peak_over_taped"] = r["cotangent_peak_bytes"] / taped["cotangent_peak_bytes"]
        print("%s: %.1f MB (taped %.1f MB, 1/%.0f), %.0f ms (taped %.0f ms, "
              "%.2fx); hand-written %.1f MB" % (
                  r["workload"], r["cotangent_peak_bytes"] / 1e6,
                  taped["cotangent_peak_bytes"] / 1e6,
                  1 / r["peak_over_taped"], r["cotangent_ms"],
                  taped["cotangent_ms"], r["time_over_taped"],
                  r["manual_peak_bytes"] / 1e6))

    with open(out_json, "w") as f:
        json.dump({"context": context, "results": rows}, f, indent=2)
        f.write("\n")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [r["workload"] for r in rows]
    x = range(len(rows))
    fig, ax = plt.subplots(figsize=(10, 4.5))
    width = 0.38
    ax.bar([i - width / 2 for i in x], [r["cotangent_over_primal"] for r in rows],
           width, label="Cotangent")
    ax.bar([i + width / 2 for i in x], [r["manual_over_primal"] for r in rows],
           width, label="hand-written")
    ax.axhline(3.0, color="gray", linestyle="--", linewidth=1, label="target 3.0")
    ax.set_xticks(list(x))
    ax.set_xticklabels(names, rotation=15, ha="right")
    ax.set_ylabel("derivative time / primal time")
    ax.set_title("Cotangent benchmarks (median, single thread)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)


if __name__ == "__main__":
    main()
