#!/bin/bash
# Builds, into DIR (default gpu-run/ in the checkout: not ignored by git,
# so tools that copy the working tree to a GPU machine take it along), the
# GPU programs and a script that runs them (binaries built here run there;
# libomp is carried along). Then, on that machine:
#   bash DIR/run.sh
# runs the GPU integration tests (-O2, -O0, plain strategy) with
# CT_VERBOSE=1 (which loops ran as kernels), the exp/log accuracy test, and
# cotangent-bench-gpu with the kernel times (CT_VERBOSE=2).
# Needs `make build` first (the plugin, libcotangent_gpu.a, the bench).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/gpu-run}"
build="$root/build"
mkdir -p "$out"
cxx=(/usr/lib/llvm-22/bin/clang++ -std=c++20 -fopenmp
     "-fplugin=$build/lib/CotangentPlugin.so"
     -fplugin-arg-cotangent-target=cuda:sm_90
     "-I$root/runtime/include" "-I$root/test/Integration/CPU/Inputs")
runtime="$build/lib/libcotangent_gpu.a"
"${cxx[@]}" -O2 "$root/test/Integration/GPU/target-loops.cpp" "$runtime" -o "$out/target-loops"
"${cxx[@]}" -O0 "$root/test/Integration/GPU/target-loops.cpp" "$runtime" -o "$out/target-loops-O0"
"${cxx[@]}" -O2 -fplugin-arg-cotangent-ad-optimizations=off \
  "$root/test/Integration/GPU/target-loops.cpp" "$runtime" -o "$out/target-loops-plain"
"${cxx[@]}" -O2 "$root/test/Integration/GPU/device-math.cpp" "$runtime" -o "$out/device-math"
cp "$build/bin/cotangent-bench-gpu" "$out/"
cp -L /usr/lib/x86_64-linux-gnu/libomp.so.5 "$out/"
cat > "$out/run.sh" <<'RUN'
#!/bin/bash
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD
nvidia-smi -L
echo "== target-loops"; CT_VERBOSE=1 ./target-loops 2>&1 | grep -v ": ok$" | sort | uniq -c | sort -rn
for t in target-loops-O0 target-loops-plain; do echo "== $t"; ./$t | tail -1; done
echo "== device-math"; ./device-math | tail -3
echo "== kernel times"; CT_VERBOSE=2 ./cotangent-bench-gpu 10 25 100000 1 2>&1 | grep -v "blocks of"
echo "== GMM d=10 n=100000"; ./cotangent-bench-gpu 10 25 100000 5
echo "== GMM d=64 n=10000"; ./cotangent-bench-gpu 64 100 10000 3 | head -5
RUN
chmod +x "$out/run.sh"
echo "built $out; on the GPU machine: bash $out/run.sh"
