#!/usr/bin/env python3
"""`%clangxx-ct` of sanitized builds: the plugin cannot load into the
installed clang there (it would need the sanitizer runtime), so the same
program is built the other way Cotangent supports: cotangent-cc (sanitized,
so its memory errors show) emits the derivatives' object file, clang++
without the plugin compiles the program, and the two are linked.

Usage: clangxx-via-cotangent-cc.py COTANGENT_CC CLANGXX [clang++ arguments]
with sources, -o OUT, -O<n>, -I, -D, -std=, -stdlib=, -fopenmp and
-fplugin-arg-cotangent-target=T (cotangent-cc --target=T),
-fplugin-arg-cotangent-strong-zero (--strong-zero),
-fplugin-arg-cotangent-ad-optimizations=off (--ad-optimizations=false) and
-fplugin-arg-cotangent-auto-checkpoint=off (--auto-checkpoint=false);
anything else
that asks the plugin itself for something (-c, -S, -fsyntax-only, other
-fplugin-arg-...) is refused (such tests are UNSUPPORTED: sanitizer).
"""

import os
import subprocess
import sys
import tempfile


def main():
    cotangent_cc, clangxx, *args = sys.argv[1:]
    sources = [a for a in args if a.endswith((".cpp", ".cc"))]
    target = "-fplugin-arg-cotangent-target="
    targets = [a[len(target):] for a in args if a.startswith(target)]
    args = [a for a in args if not a.startswith(target)]
    # Plugin arguments with a cotangent-cc option of their own.
    translated = {
        "-fplugin-arg-cotangent-strong-zero": "--strong-zero",
        "-fplugin-arg-cotangent-ad-optimizations=off":
            "--ad-optimizations=false",
        "-fplugin-arg-cotangent-auto-checkpoint=off": "--auto-checkpoint=false",
    }
    options = [translated[a] for a in args if a in translated]
    args = [a for a in args if a not in translated]
    refused = [a for a in args
               if a in ("-c", "-S", "-fsyntax-only", "-emit-llvm")
               or a.startswith("-fplugin")]
    if refused or not sources:
        sys.exit(f"clangxx-via-cotangent-cc: unsupported: {refused or args}")
    flags = [a for a in args
             if a.startswith(("-I", "-D", "-std=", "-stdlib=")) or a == "-fopenmp"]
    level = next((a[2:] for a in reversed(args) if a.startswith("-O")), "0")
    with tempfile.TemporaryDirectory() as scratch:
        objects = []
        for i, source in enumerate(sources):
            obj = os.path.join(scratch, f"derivatives{i}.o")
            cc = [cotangent_cc, source, "--emit=obj", "-O", level or "2",
                  "-o", obj] + [f"--target={t}" for t in targets] + options + \
                ["--"] + flags
            if subprocess.call(cc) != 0:
                sys.exit(1)
            objects.append(obj)
        # Libraries again after the derivatives' objects, which use them;
        # ours (the GPU runtime) are sanitized like the rest of this build.
        archives = [a for a in args if a.endswith(".a")]
        sanitize = ["-fsanitize=address,undefined"] if archives else []
        sys.exit(subprocess.call(
            [clangxx, "-Wno-unknown-attributes"] + args + objects + archives +
            sanitize))


if __name__ == "__main__":
    main()
