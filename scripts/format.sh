#!/usr/bin/env bash
# Formats the C++ sources with clang-format-22 (.clang-format: LLVM style),
# or with --check only reports the files that are not formatted and fails.
# Test inputs keep their layout (test/.clang-format): their checks name
# lines and columns.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.h' | grep -v '^test/')
if [ "${1:-}" = --check ]; then
  clang-format-22 --dry-run -Werror "${files[@]}"
  echo "format: ${#files[@]} files formatted"
else
  clang-format-22 -i "${files[@]}"
fi
