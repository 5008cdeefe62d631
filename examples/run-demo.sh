#!/usr/bin/env bash
# `make demo`: compiles the C++ examples with the Cotangent plugin and runs
# them (value, gradient, JVP and HVP of each, next to central finite
# differences), then builds the CMake example project through
# find_package(Cotangent), then runs the MLIR-level example.
set -euo pipefail
build=${1:-build}
llvm=/usr/lib/llvm-22
plugin="$build/lib/CotangentPlugin.so"
out="$build/examples"
mkdir -p "$out"

status=0
for example in examples/cpp/*.cpp; do
  name=$(basename "$example" .cpp)
  echo "== $example"
  "$llvm/bin/clang++" -std=c++20 -O2 -fplugin="$plugin" -Iruntime/include \
    "$example" -o "$out/$name"
  if ! "$out/$name"; then
    echo "FAILED: a derivative of $name disagrees with finite differences" >&2
    status=1
  fi
done

echo "== examples/cmake-project (find_package(Cotangent))"
cmake -S examples/cmake-project -B "$out/cmake-project" -G Ninja \
  -DCMAKE_CXX_COMPILER="$llvm/bin/clang++" \
  -DCotangent_DIR="$PWD/$build/cmake-package" > /dev/null
cmake --build "$out/cmake-project" > /dev/null
"$out/cmake-project/rosenbrock-cmake" || status=1

# The engine alone, on MLIR.
opt="$build/bin/cotangent-opt"
libs="$llvm/lib/libmlir_runner_utils.so,$llvm/lib/libmlir_c_runner_utils.so"
libs="$libs,$build/lib/libCotangentTestUtils.so"
for example in examples/mlir/*.mlir; do
  echo "== $example"
  output=$("$opt" "$example" --ct-autodiff --ct-lower-to-llvm |
           "$llvm/bin/mlir-runner" -e main -entry-point-result=void \
             -shared-libs="$libs")
  echo "$output"
  if ! awk '/rel. difference/ { if ($NF + 0 > 1e-6) bad = 1 } END { exit bad }' \
      <<<"$output"; then
    echo "FAILED: a derivative disagrees with finite differences" >&2
    status=1
  fi
done
exit $status
