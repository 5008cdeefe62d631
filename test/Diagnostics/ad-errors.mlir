// What the AD engine cannot differentiate is an error at the construct,
// saying what it is and the way out; never a crash.
// RUN: %cotangent-opt %s --ct-differentiate -split-input-file -verify-diagnostics

func.func @f(%x: f64) -> f64 {
  // expected-error @below {{cannot differentiate 'math.sincos' in reverse mode: no derivative rule; bind a custom rule to the enclosing function or stop the gradient with ct::stop_gradient}}
  %s, %c = math.sincos %x : f64
  %r = arith.addf %s, %c : f64
  return %r : f64
}
func.func @main(%x: f64) -> (f64, f64) {
  %v, %dx = ct.gradient @f(%x) activity [active] : (f64) -> (f64, f64)
  return %v, %dx : f64, f64
}

// -----

func.func @f(%x: f64) -> f64 {
  // expected-error @below {{cannot differentiate 'math.sincos': no derivative rule; bind a custom rule to the enclosing function or stop the gradient with ct::stop_gradient}}
  %s, %c = math.sincos %x : f64
  %r = arith.addf %s, %c : f64
  return %r : f64
}
func.func @main(%x: f64) -> (f64, f64) {
  %v, %dx = ct.jvp @f(%x) tangents(%x) activity [active] : (f64, f64) -> (f64, f64)
  return %v, %dx : f64, f64
}

// -----

// expected-error @below {{cannot differentiate @g: it has no body; bind a custom rule to it (ct.custom_gradient / ct.custom_jvp)}}
func.func private @g(f64) -> f64
func.func @f(%x: f64) -> f64 {
  %y = func.call @g(%x) : (f64) -> f64
  return %y : f64
}
func.func @main(%x: f64) -> (f64, f64) {
  %v, %dx = ct.gradient @f(%x) activity [active] : (f64) -> (f64, f64)
  return %v, %dx : f64, f64
}

// -----

func.func @f(%x: f64) -> f64 {
  // expected-error @below {{cannot differentiate 'scf.execute_region' in reverse mode: no derivative rule for this operation with regions}}
  %r = scf.execute_region -> f64 {
    %y = arith.mulf %x, %x : f64
    scf.yield %y : f64
  }
  return %r : f64
}
func.func @main(%x: f64) -> (f64, f64) {
  %v, %dx = ct.gradient @f(%x) activity [active] : (f64) -> (f64, f64)
  return %v, %dx : f64, f64
}

// -----

// A derivative stored into memory the request keeps constant, then read
// back, would be lost: an error at the store, not a silent zero.
func.func @through_constant_buffer(%x: f64, %buffer: memref<1xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %y = arith.mulf %x, %x : f64
  // expected-error @below {{cannot differentiate: a value that carries a derivative is stored into memory that is constant here (a parameter not selected for differentiation); select it, or copy it into a local buffer first}}
  memref.store %y, %buffer[%c0] : memref<1xf64>
  %z = memref.load %buffer[%c0] : memref<1xf64>
  return %z : f64
}
func.func @grad_through_constant_buffer(%x: f64, %buffer: memref<1xf64>) -> (f64, f64) {
  %v, %dx = ct.gradient @through_constant_buffer(%x, %buffer) activity [active, const] : (f64, memref<1xf64>) -> (f64, f64)
  return %v, %dx : f64, f64
}
