#!/usr/bin/env bash
# Compiles a peer AD tool's regression tests (Clad's test/ directory) with
# the Cotangent plugin: each function a test differentiates becomes a probe
# (scripts/peer-tests/convert.py) that is compiled and run; then the pure
# ones (scalar parameters, pointers or references to const numbers) are
# compiled again with gradients checked against central differences
# (probe-fd.h). Clad's sources are not part of this repository: pass a
# checkout.
#   scripts/check-peer-tests.sh <clad checkout> [build dir] [jobs]
# Prints one line per probe that does not pass, then the counts:
# "parse" (the test needs Clad itself: its custom-rule types, its headers),
# "undefined" (it calls a function it only declares, whose derivative a
# Clad custom rule gives: nothing computes its value),
# "error" (the plugin refused it, or the probe does not link), "run"
# (it crashed), "mismatch" (a gradient differs from the differences).
set -euo pipefail
checkout=${1:?usage: $0 <clad checkout> [build dir] [jobs]}
build=${2:-build}
jobs=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/peer-tests/convert.py" "$checkout" "$work/compile" \
  "$here/peer-tests/probe.h" > /dev/null
python3 "$here/peer-tests/convert.py" "$checkout" "$work/numbers" \
  "$here/peer-tests/probe-fd.h" > /dev/null
export PLUGIN="$root/$build/lib/CotangentPlugin.so" INCLUDE="$root/runtime/include"
probe() {
  local c=$1 b=${1%.cpp}
  if ! clang++-22 -std=c++20 -fsyntax-only -w -I"$INCLUDE" "$c" > "$b.log" 2>&1; then
    echo "parse $c"; return; fi
  if ! timeout 300 clang++-22 -std=c++20 -O0 -w -fplugin="$PLUGIN" -I"$INCLUDE" \
      "$c" -o "$b.bin" >> "$b.log" 2>&1; then
    # Only the linker failing, on functions the test declares and never
    # defines (the tool's custom rules give their derivatives; nothing
    # computes their values), none of ours: the test needs the tool.
    if ! grep ' error:' "$b.log" | grep -qv 'linker command failed' &&
        grep -q 'undefined reference' "$b.log" &&
        ! grep 'undefined reference' "$b.log" | grep -q 'ct::\|cotangent'; then
      echo "undefined $c: $(grep -m1 -o 'undefined reference to .*' "$b.log")"
      return; fi
    echo "error $c: $(grep -m1 'error:' "$b.log")"; return; fi
  if ! timeout 20 "$b.bin" > "$b.out" 2>&1; then echo "run $c"; return; fi
  if grep -q MISMATCH "$b.out"; then echo "mismatch $c: $(grep -m1 MISMATCH "$b.out")"
  elif grep -q SKIP "$b.out"; then echo "skip $c"
  else echo "ok $c"; fi
}
export -f probe
cut -f1 "$work/compile/cases.tsv" | xargs -P"$jobs" -I{} bash -c 'probe {}' \
  > "$work/compile.txt"
# Numbers for the probes that compiled and ran.
sed -n 's/^ok //p' "$work/compile.txt" | sed "s|$work/compile|$work/numbers|" |
  xargs -P"$jobs" -I{} bash -c 'probe {}' > "$work/numbers.txt"
grep -v '^ok \|^skip ' "$work/compile.txt" "$work/numbers.txt" | sed "s|$work/||" || true
echo "compile and run: $(cut -d' ' -f1 "$work/compile.txt" | sort | uniq -c | xargs)"
echo "against differences: $(cut -d' ' -f1 "$work/numbers.txt" | sort | uniq -c | xargs)"
