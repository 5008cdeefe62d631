#!/usr/bin/env bash
# `make demo`: differentiates the examples, lowers them to LLVM, runs them
# and checks every derivative against finite differences.
set -euo pipefail
build=${1:-build}
llvm=/usr/lib/llvm-22
opt="$build/bin/cotangent-opt"
libs="$llvm/lib/libmlir_runner_utils.so,$llvm/lib/libmlir_c_runner_utils.so"
libs="$libs,$build/lib/libCotangentTestUtils.so"
lower=(--ct-differentiate --mem2reg --canonicalize --cse
       --convert-math-to-funcs --convert-math-to-llvm --convert-math-to-libm
       --convert-scf-to-cf --expand-strided-metadata --lower-affine
       --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts)

status=0
for example in examples/mlir/*.mlir; do
  grep -q "func.func @main" "$example" || continue
  echo "== $example"
  output=$("$opt" "$example" "${lower[@]}" |
           "$llvm/bin/mlir-runner" -e main -entry-point-result=void \
             -shared-libs="$libs")
  echo "$output"
  # Central differences with h = 1e-6 agree to about 1e-9 here.
  if ! awk '/rel. difference/ { if ($NF + 0 > 1e-6) bad = 1 } END { exit bad }' \
      <<<"$output"; then
    echo "FAILED: a derivative disagrees with finite differences" >&2
    status=1
  fi
done

echo
echo "C++ examples (the same, from [[ct::differentiable]] C++) arrive with the"
echo "Clang plugin; see README.md for what works today."
exit $status
