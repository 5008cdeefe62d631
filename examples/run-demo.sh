#!/usr/bin/env bash
# `make demo`: runs what Cotangent can do today on the examples.
set -euo pipefail
build=${1:-build}
opt="$build/bin/cotangent-opt"

echo "== The ct dialect: a derivative request, parsed and verified =="
"$opt" examples/mlir/requests.mlir
echo
echo "C++ examples (value, gradient, JVP and HVP checked against finite"
echo "differences) arrive with the Clang plugin; see README.md for the status."
