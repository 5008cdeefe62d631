#!/usr/bin/env bash
# Installs the Debian packages Cotangent needs, if any are missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
# `install-deps.sh bench` adds what the benchmarks need (matplotlib; Ceres
# Solver, whose automatic differentiation one benchmark compares against).
set -euo pipefail

packages=(
  # LLVM, Clang and MLIR 22; lit and FileCheck come with them.
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  clang-22 libclang-22-dev libclang-rt-22-dev lld-22
  # LLVM's C++ library: std::vector and <algorithm> are tested with it too.
  libc++-22-dev libc++abi-22-dev
  # LLVM's OpenMP runtime: parallel loops on every core (-fopenmp).
  libomp-22-dev
  # Build tools; clang-format checks the sources' layout.
  cmake ninja-build ccache python3 clang-format-22
  # Tests, benchmarks, JSON; Eigen's headers (numerical C++ as written).
  libgtest-dev libbenchmark-dev nlohmann-json3-dev libeigen3-dev
)
if [ "${1:-}" = bench ]; then
  packages+=(python3-matplotlib libceres-dev)
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
      grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

command="apt-get update && apt-get install -y ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "Cotangent needs these Debian packages: ${missing[*]}" >&2
  echo "Install them as root, then run make again:" >&2
  echo "  sudo sh -c '$command'" >&2
  exit 1
fi

echo "Installing missing packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}"
