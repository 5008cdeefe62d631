// [[ct::differentiable]] and [[ct::checkpoint]] on anything but a function
// are errors at the attribute.
// RUN: not %cotangent-cc %s -- -std=c++20 2>&1 | FileCheck %s --implicit-check-not=error:

// CHECK: attribute-misuse.cpp:[[@LINE+1]]:3: error: 'ct::differentiable' applies to functions only
[[ct::differentiable]] double not_a_function = 2;

// CHECK: attribute-misuse.cpp:[[@LINE+1]]:3: error: 'ct::checkpoint' applies to functions only; for a loop, write '#pragma ct checkpoint' before it
[[ct::checkpoint]] double not_a_function_either = 3;
