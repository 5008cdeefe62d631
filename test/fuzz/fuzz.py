#!/usr/bin/env python3
"""Random-program testing of the whole pipeline.

For each seed: generate a program (generate.py, harness.py), check that it is
valid C++ without the plugin, build it with the plugin at -O0 and -O2, and
at -O2 with the plain derivative strategy (ad-optimizations=off: every
loop taped, no eager loops or calls, no recomputation), and at -O2 with
-fopenmp and every loop a candidate for parallel derivative loops
(parallel-loops=all, run on two threads), and at -O2 with the reverse over
reverse oracle (for functions without in/out memory), run all five, and
classify the outcome:

  ok          built, every oracle passed, the five builds agree, and at
              least one derivative was checked
  untested    as ok, but every derivative check was skipped (f is not
              finite or not differentiable at the point): not a failure,
              not counted as ok
  crash       the compiler died (signal, LLVM's crash banner, an internal
              error)
  rejected    the plugin refused it (the generator uses only what the
              README lists as supported, so every refusal is a failure)
  wrong       an oracle failed
  mismatch    the builds computed different numbers
  runtime     the program crashed or hung
  timeout     a compile took longer than a minute (a compile-time bug, or
              an overloaded machine; the compiler's processes are killed;
              not reduced)
  invalid     the generator produced bad C++ (a bug of the fuzzer)

Failures are reduced (statements deleted while the same failure persists)
and saved with the compiler's output under the output directory; the
outcome reported is the original program's.

  fuzz.py --build build --seed 0 --count 200 [--jobs N] [--out fuzz-failures]
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from generate import generate  # noqa: E402
from harness import render_program  # noqa: E402
from reduce import reduce_lines  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump", "internal error",
                 "Assertion", "UNREACHABLE", "AddressSanitizer",
                 "runtime error:", "Cotangent crashed")


class Toolchain:
    def __init__(self, build, clang):
        self.clang = clang
        self.plugin = os.path.join(build, "lib", "CotangentPlugin.so")
        self.flags = ["-std=c++20", "-I", os.path.join(SOURCE, "runtime", "include"),
                      "-I", HERE]


COMPILE_LIMIT = 60  # seconds; a compile that takes longer is a failure
RUN_LIMIT = 30


def run(command, timeout, env=None):
    """(exit status or None on timeout, output). The command runs in a
    process group of its own, killed whole on timeout: clang++ leaves its
    cc1 child running when only the driver is killed."""
    p = subprocess.Popen(command, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, env=env,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = p.communicate()
        return None, out or ""


def first_error(output):
    """The first error message, without its location (the reducer keeps a
    rejection while this stays the same)."""
    for line in output.splitlines():
        m = re.search(r"error: (.*)", line)
        if m:
            return m.group(1)
    return ""


def values(output):
    found = {}
    for line in output.splitlines():
        if line.startswith("value "):
            _, name, number = line.split()
            found[name] = float(number)
    return found


# The builds of each program: name, flags. The plain strategy is the oracle
# the optimised ones must agree with (to rounding).
BUILDS = (("-O0", ["-O0"]), ("-O2", ["-O2"]),
          ("-O2 plain", ["-O2", "-fplugin-arg-cotangent-ad-optimizations=off"]),
          # Every loop a candidate for parallel derivative loops, run on two
          # OpenMP threads: ct-parallelize-loops must prove each loop it
          # makes parallel (a wrong proof is a race, a wrong number).
          # (The long double reference's OpenMP reductions need libatomic;
          # their sums are reassociated, in an order the threads decide,
          # so values agree to 1e-8: seed 97196's differ by 2e-9. Seed
          # 99011's differ by 0.7% on two threads only: its loop feeds a
          # `+` reduction's sum back into sin() of arguments near 1e12, so
          # one rounding of the reassociated sum changes everything after
          # it; with that reduction made exact (`max`) every build and
          # thread count agrees.)
          ("-O2 parallel", ["-O2", "-fopenmp",
                            "-fplugin-arg-cotangent-parallel-loops=all",
                            "-DFUZZ_VALUE_TOLERANCE=1e-8", "-latomic"]),
          # H v again by reverse over reverse: the gradient of
          # gradient(f) . v (harness.py), checked against ct::hvp.
          ("-O2 reverse-over-reverse", ["-O2", "-DFUZZ_REVERSE_OVER_REVERSE"]))


def derivative_checks(output):
    """How many derivative checks passed (the oracles' summary line)."""
    m = re.search(r"^oracles: (\d+) passed", output, re.M)
    return int(m.group(1)) if m else 0


def rounding(output):
    """How far a run's derivatives move, relative to their size, when an
    input moves by a few units of rounding (oracles.h)."""
    m = re.search(r"^rounding (\S+)$", output, re.M)
    return float(m.group(1)) if m else 0.0


def compare(reference, other, names):
    """Names of numbers that differ between two runs. Where rounding decides
    the derivatives at the point (seed 43157: sin() of arguments near 1e12
    after a reduction the parallel build reassociates), builds that round
    differently differ as much; each build's own oracles have judged them."""
    a, b = values(reference), values(other)
    decided_by_rounding = max(rounding(reference), rounding(other)) > 1e-9
    differ = []
    for name in sorted(set(a) & set(b)):
        if decided_by_rounding and not name.startswith("value."):
            continue
        x, y = a[name], b[name]
        if x != x and y != y:
            continue
        if abs(x - y) > 1e-9 * max(1.0, abs(x), abs(y)):
            differ.append(f"{name}: {names[0]} {x!r} {names[1]} {y!r}")
    return differ


def classify(tools, source, workdir):
    """(outcome, detail) of one program text."""
    path = os.path.join(workdir, "program.cpp")
    with open(path, "w") as f:
        f.write(source)
    code, out = run([tools.clang, *tools.flags, "-fsyntax-only",
                     "-Wno-unknown-attributes", path], 60)
    if code != 0:
        return "invalid", out
    outputs = {}
    for level, flags in BUILDS:
        exe = os.path.join(workdir, "program" + level.replace(" ", "-"))
        code, out = run([tools.clang, *tools.flags, *flags,
                         "-fplugin=" + tools.plugin, "-w", path, "-o", exe],
                        COMPILE_LIMIT)
        if code is None:
            return "timeout", f"{level}: compile timed out\n" + out
        if code < 0 or any(m in out for m in CRASH_MARKERS):
            return "crash", out
        if code != 0:
            return "rejected", out
        code, out = run([exe], RUN_LIMIT,
                        env={**os.environ, "OMP_NUM_THREADS": "2"})
        if code is None:
            return "runtime", f"{level}: timed out\n{out}"
        if code < 0:
            return "runtime", f"{level}: signal {-code}\n{out}"
        if "FAIL" in out or code != 0:
            return "wrong", f"{level}:\n" + "\n".join(
                l for l in out.splitlines() if "FAIL" in l or "oracles" in l)
        outputs[level] = out
    differ = [d for level, _ in BUILDS[1:]
              for d in compare(outputs["-O0"], outputs[level], ("-O0", level))]
    if differ:
        return "mismatch", "\n".join(differ)
    if all(derivative_checks(out) == 0 for out in outputs.values()):
        return "untested", "every derivative check was skipped"
    return "ok", ""


def signature(outcome, detail):
    """What must stay the same while reducing."""
    if outcome == "rejected":
        return outcome, first_error(detail)
    if outcome == "crash":
        m = re.search(r"#\d+ 0x[0-9a-f]+ (cotangent::\S+)", detail)
        return outcome, m.group(1) if m else ""
    return outcome, ""


def check_seed(tools, seed, out_dir, reduce):
    text, params, rules = generate(seed)
    with tempfile.TemporaryDirectory(prefix="ct-fuzz-") as work:
        outcome, detail = classify(tools, render_program(text, params, rules, seed), work)
        if outcome in ("ok", "untested") or out_dir is None:
            return seed, outcome, detail
        saved, saved_detail = text, detail
        if reduce and outcome not in ("timeout", "invalid"):
            wanted = signature(outcome, detail)

            def still_fails(lines):
                candidate = "\n".join(lines)
                got = classify(tools, render_program(candidate, params, rules, seed), work)
                return signature(*got) == wanted

            reduced = "\n".join(reduce_lines(text.split("\n"), still_fails))
            # Kept only if it still fails the same way when run again.
            got = classify(tools, render_program(reduced, params, rules, seed), work)
            if signature(*got) == wanted:
                saved, saved_detail = reduced, got[1]
        os.makedirs(out_dir, exist_ok=True)
        base = os.path.join(out_dir, f"{outcome}-seed{seed}")
        with open(base + ".cpp", "w") as f:
            f.write(render_program(saved, params, rules, seed))
        with open(base + ".txt", "w") as f:
            f.write(saved_detail)
        return seed, outcome, detail


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(SOURCE, "build"))
    parser.add_argument("--clang", default=shutil.which("clang++-22") or "clang++")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default="fuzz-failures",
                        help="where reduced failures go")
    parser.add_argument("--no-reduce", action="store_true")
    parser.add_argument("--print", action="store_true",
                        help="print the program of --seed and stop")
    args = parser.parse_args()

    if args.print:
        text, params, rules = generate(args.seed)
        print(render_program(text, params, rules, args.seed))
        return 0
    tools = Toolchain(args.build, args.clang)
    if not os.path.exists(tools.plugin):
        print(f"fuzz: no plugin at {tools.plugin}; build first", file=sys.stderr)
        return 2
    counts = {}
    failures = []
    seeds = range(args.seed, args.seed + args.count)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(check_seed, tools, s, args.out, not args.no_reduce)
                for s in seeds]
        for job in concurrent.futures.as_completed(jobs):
            seed, outcome, detail = job.result()
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome == "untested":
                print(f"fuzz: seed {seed}: untested (every derivative check "
                      "skipped)", flush=True)
            elif outcome != "ok":
                failures.append((seed, outcome, detail))
                # A rejection's error, not the warnings printed before it.
                error = first_error(detail) if outcome == "rejected" else ""
                first = [error] if error else detail.strip().splitlines()[:3]
                print(f"fuzz: seed {seed}: {outcome}: " + " | ".join(first)[:300],
                      flush=True)
    summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    print(f"fuzz: {args.count} programs from seed {args.seed}: {summary}")
    if failures:
        print(f"fuzz: reduced failures in {os.path.abspath(args.out)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
