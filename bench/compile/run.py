#!/usr/bin/env python3
"""The compile-time benchmark: seconds to compile generated differentiable
functions of 1,000 to 32,000 statements (generate.py: scalar statements,
loops, a local buffer, calls) and every benchmark workload file, with the
plugin and without, the plugin's own share (its -time-report total), and
the growth per doubling of the function's size, checked against
GROWTH_LIMIT (the plugin's whole compile, each doubling; reported, not
asserted: a timed check has no place in the tests).

usage: run.py BUILD_DIR OUT_JSON
"""
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SIZES = [1000, 2000, 4000, 8000, 16000, 32000]
# Compiles of the largest size take minutes: once each.
REPEATS = {32000: 1}
GROWTH_LIMIT = 2.2
WORKLOADS = ["Gmm", "Ba", "Lstm", "Ode", "Det"]
CLANG = "/usr/lib/llvm-22/bin/clang++"


def timed(cmd, cwd, repeats):
    """Median wall seconds, and the plugin's own total from its time report
    (None without the plugin)."""
    samples, own = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        done = subprocess.run(cmd, cwd=cwd, check=True, text=True,
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
        samples.append(time.perf_counter() - start)
        totals = re.findall(r"([\d.]+) \(100\.0%\)\s+Total", done.stderr)
        if totals:
            own.append(float(totals[-1]))
    return statistics.median(samples), (statistics.median(own) if own else None)


def workload_commands(build_dir, suffix=""):
    """{name: (plugin command, plain command, directory)} for the workload
    files (`suffix` "Manual": the hand-written derivatives) from the
    build's compile_commands.json, writing nowhere."""
    with open(os.path.join(build_dir, "compile_commands.json")) as f:
        commands = json.load(f)
    result = {}
    for entry in commands:
        match = re.search(r"bench/workloads/(%s)%s\.cpp$" % ("|".join(WORKLOADS), suffix),
                          entry["file"])
        if not match:
            continue
        args = shlex.split(entry["command"])
        args[args.index("-o") + 1] = os.devnull
        args = [a for a in args
                if not a.startswith("-MD") and a not in ("-MF", "-MT")]
        plain = [a for a in args if not a.startswith("-fplugin")]
        result[match.group(1).lower()] = (args, plain, entry["directory"])
    return result


def workload_compile_times(build_dir, repeats=3):
    """{workload: (seconds with the plugin, seconds without, the plugin's
    own phases, seconds for the file of hand-written derivatives)}."""
    manual = workload_commands(build_dir, "Manual")
    result = {}
    for name, (plugin, plain, cwd) in workload_commands(build_dir).items():
        with_plugin, own = timed(plugin + ["-fplugin-arg-cotangent-time-report"],
                                 cwd, repeats)
        hand = (timed(manual[name][1], manual[name][2], repeats)[0]
                if name in manual else None)
        result[name] = (with_plugin, timed(plain, cwd, repeats)[0], own, hand)
    return result


def main():
    build_dir, out_json = os.path.abspath(sys.argv[1]), sys.argv[2]
    plugin = os.path.join(build_dir, "lib", "CotangentPlugin.so")
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for n in SIZES:
            source = os.path.join(scratch, "generated%d.cpp" % n)
            with open(source, "w") as f:
                subprocess.run([sys.executable, os.path.join(HERE, "generate.py"),
                                str(n)], check=True, stdout=f)
            base = [CLANG, "-std=c++20", "-O2", "-I", os.path.join(ROOT, "runtime", "include"),
                    "-c", source, "-o", os.devnull]
            repeats = REPEATS.get(n, 3)
            with_plugin, own = timed(base + ["-fplugin=" + plugin,
                                             "-fplugin-arg-cotangent-time-report"],
                                     scratch, repeats)
            plain, _ = timed(base, scratch, repeats)
            rows.append({"kind": "generated", "statements": n,
                         "plugin_s": with_plugin, "plain_s": plain,
                         "cotangent_s": own, "repeats": repeats})
    for i in range(1, len(rows)):
        for key in ("plugin_s", "plain_s", "cotangent_s"):
            rows[i][key.replace("_s", "_growth")] = rows[i][key] / rows[i - 1][key]
    for name, (with_plugin, plain, own, hand) in workload_compile_times(build_dir).items():
        rows.append({"kind": "workload", "workload": name, "plugin_s": with_plugin,
                     "plain_s": plain, "cotangent_s": own,
                     "ratio": with_plugin / plain, "hand_written_s": hand})

    print("%-22s %10s %10s %12s %8s %8s %8s %8s" % (
        "file", "plugin s", "plain s", "Cotangent s", "x plain",
        "growth", "own grw", "hand s"))
    for r in rows:
        name = ("generated %d" % r["statements"] if r["kind"] == "generated"
                else r["workload"])
        print("%-22s %10.2f %10.2f %12s %8.2f %8s %8s %8s" % (
            name, r["plugin_s"], r["plain_s"],
            "%.2f" % r["cotangent_s"] if r.get("cotangent_s") else "-",
            r["plugin_s"] / r["plain_s"],
            "%.2f" % r["plugin_growth"] if "plugin_growth" in r else "-",
            "%.2f" % r["cotangent_growth"] if "cotangent_growth" in r else "-",
            "%.2f" % r["hand_written_s"] if r.get("hand_written_s") else "-"))
    print("plugin s / plain s: clang -O2 -c with and without the plugin; "
          "Cotangent s: the plugin's own phases (its time report);")
    print("growth: plugin compile time / the previous size's (one doubling); "
          "own grw: the same for the plugin's own phases;")
    print("hand s: compiling the workload's file of hand-written derivatives "
          "(the same objective and its derivatives, no plugin).")
    growths = [r["plugin_growth"] for r in rows if "plugin_growth" in r]
    check = {"limit": GROWTH_LIMIT, "max_growth": max(growths),
             "met": max(growths) <= GROWTH_LIMIT}
    print("growth check: the plugin's compile grows at most %.2fx per doubling "
          "up to %d statements (limit %.1f): %s" % (
              check["max_growth"], SIZES[-1], GROWTH_LIMIT,
              "met" if check["met"] else "NOT met"))
    with open(out_json, "w") as f:
        json.dump({"results": rows, "growth_check": check}, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
