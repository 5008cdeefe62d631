// f(x, y) = x*x*y and a request for its value and gradient at (3, 4):
// the ct dialect as the frontend will emit it for `ct::gradient<f>(3.0, 4.0,
// &dx, &dy)`.
func.func @f(%x: f64, %y: f64) -> f64 {
  %0 = arith.mulf %x, %x : f64
  %1 = arith.mulf %0, %y : f64
  return %1 : f64
}

func.func @main() -> (f64, f64, f64) {
  %x = arith.constant 3.0 : f64
  %y = arith.constant 4.0 : f64
  %v, %dx, %dy = ct.gradient @f(%x, %y) activity [active, active]
      : (f64, f64) -> (f64, f64, f64)
  return %v, %dx, %dy : f64, f64, f64
}
