// ct-internalize: only entry points (ct.entry_point) and exported
// derivatives (ct.export) stay public; every other function with a body
// becomes private, and declarations of code compiled elsewhere stay as
// they are.
// RUN: %cotangent-opt %s --ct-internalize | FileCheck %s

// CHECK: func.func @entry(
// CHECK: func.func @exported(
// CHECK: func.func private @helper(
// CHECK: func.func private @library(
func.func @entry(%x: f64) -> f64 attributes {ct.entry_point} {
  %y = func.call @helper(%x) : (f64) -> f64
  return %y : f64
}
func.func @exported(%x: f64) -> f64 attributes {ct.export} {
  %y = func.call @library(%x) : (f64) -> f64
  return %y : f64
}
func.func @helper(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}
func.func private @library(f64) -> f64
