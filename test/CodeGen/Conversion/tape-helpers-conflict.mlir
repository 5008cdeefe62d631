// A program that declares a C library function the tape helpers call
// (malloc, realloc, free, dprintf, abort) with another signature gets an
// error naming it, not a broken call.
// RUN: %cotangent-opt %s --convert-to-llvm --verify-diagnostics

llvm.func @abort(i32)

func.func @tape(%x: f64) -> f64 {
  // expected-error @below {{the program declares 'abort' with a signature other than the C library's; reverse-mode tapes call the C library's}}
  %t = ct.tape_init : !ct.tape
  ct.tape_push %t, %x : f64
  %y = ct.tape_pop %t : f64
  ct.tape_free %t
  return %y : f64
}
