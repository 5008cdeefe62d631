// [[ct::differentiable]] on anything but a function is an error at the
// attribute.
// RUN: not %cotangent-cc %s -- -std=c++20 2>&1 | FileCheck %s

// CHECK: attribute-misuse.cpp:[[@LINE+1]]:3: error: 'ct::differentiable' applies to functions only
[[ct::differentiable]] double not_a_function = 2;
