#!/usr/bin/env bash
# Differentiates GradBench's hand-tracking objectives as their authors wrote
# them (gradbench/evals/ht.hpp) with the Cotangent plugin and checks the
# derivatives against central differences (scripts/gradbench/ht-check.cpp).
# GradBench's sources are not part of this repository: pass a checkout.
#   scripts/check-gradbench.sh <gradbench checkout> [build dir] [flags...]
set -euo pipefail
checkout=${1:?usage: $0 <gradbench checkout> [build dir] [flags...]}
build=${2:-build}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# GradBench downloads nlohmann's json.hpp next to its sources; Debian's
# nlohmann-json3-dev has the same header.
printf '#include <nlohmann/json.hpp>\n' > "$work/json.hpp"
for opt in -O0 -O2; do
  clang++-22 -std=c++20 "$opt" "$@" -fplugin="$root/$build/lib/CotangentPlugin.so" \
    -I"$root/runtime/include" -I"$checkout/cpp" -I"$work" \
    "$here/gradbench/ht-check.cpp" -o "$work/ht$opt"
  echo "ht $opt: $("$work/ht$opt" | tail -1)"
done
