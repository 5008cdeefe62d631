#!/usr/bin/env python3
"""Writes the differentiated MLIR (`cotangent-cc --emit=ad`) of every C++
file under test/, bench/ and examples/ that uses Cotangent, one file each,
with its diagnostics, so that a change meant to keep behaviour (a move, a
split, a rename) can be checked byte for byte:

    scripts/emit-ad-snapshot.py --build build --out /tmp/before
    ... change, rebuild ...
    scripts/emit-ad-snapshot.py --build build --out /tmp/after
    diff -r /tmp/before /tmp/after

Every file is compiled with the same flags (C++20, the runtime headers and
the test helpers on the include path, OpenMP on); files meant to fail keep
their diagnostics in the output, which must not change either.
"""

import argparse
import concurrent.futures
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = ("test", "bench", "examples")


def sources():
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.cpp")):
            text = path.read_text(errors="replace")
            if "ct::" in text or "cotangent" in text:
                yield path


def snapshot(compiler, path, out, timeout):
    command = [compiler, str(path), "--emit=ad", "--", "-std=c++20",
               "-fopenmp", "-I", str(ROOT / "runtime" / "include"),
               "-I", str(ROOT / "test" / "Integration" / "CPU" / "Inputs"),
               "-I", str(path.parent)]
    try:
        run = subprocess.run(command, cwd=ROOT, capture_output=True,
                             text=True, timeout=timeout)
        text = run.stdout + run.stderr + f"\n// exit status {run.returncode}\n"
    except subprocess.TimeoutExpired:
        text = f"// timed out after {timeout} s\n"
    # Paths differ between checkouts; what is around them must not.
    text = text.replace(str(ROOT), "<root>")
    target = out / (str(path.relative_to(ROOT)) + ".ad")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=int, default=300)
    args = parser.parse_args()
    compiler = str(pathlib.Path(args.build).resolve() / "bin" / "cotangent-cc")
    out = pathlib.Path(args.out)
    files = list(sources())
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for done in pool.map(
                lambda p: snapshot(compiler, p, out, args.timeout), files):
            pass
    print(f"{len(files)} files written under {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
