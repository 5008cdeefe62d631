// The Rosenbrock function of 4 variables,
//   f(x) = sum_{i<3} 100 (x[i+1] - x[i]^2)^2 + (1 - x[i])^2,
// its gradient (reverse mode), a JVP (forward mode) and a Hessian-vector
// product (forward over reverse), each next to central finite differences.
// `make demo` differentiates, lowers and runs it.

func.func private @ctReport(i64, index, f64, f64)

func.func @rosenbrock(%x: memref<4xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %hundred = arith.constant 100.0 : f64
  %f = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> f64 {
    %ip1 = arith.addi %i, %c1 : index
    %xi = memref.load %x[%i] : memref<4xf64>
    %xn = memref.load %x[%ip1] : memref<4xf64>
    %sq = arith.mulf %xi, %xi : f64
    %d = arith.subf %xn, %sq : f64
    %d2 = arith.mulf %d, %d : f64
    %a = arith.mulf %hundred, %d2 : f64
    %e = arith.subf %one, %xi : f64
    %e2 = arith.mulf %e, %e : f64
    %t = arith.addf %a, %e2 : f64
    %s = arith.addf %acc, %t : f64
    scf.yield %s : f64
  }
  return %f : f64
}

// The gradient into %g (zeroed first).
func.func @gradient(%x: memref<4xf64>, %g: memref<4xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %zero, %g[%i] : memref<4xf64>
  }
  %v = ct.gradient @rosenbrock(%x) shadows(%g) activity [dup]
      : (memref<4xf64>, memref<4xf64>) -> f64
  return %v : f64
}

// f at x + t * e_k.
func.func @shifted(%x: memref<4xf64>, %k: index, %t: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %y = memref.alloca() : memref<4xf64>
  memref.copy %x, %y : memref<4xf64> to memref<4xf64>
  %xk = memref.load %y[%k] : memref<4xf64>
  %s = arith.addf %xk, %t : f64
  memref.store %s, %y[%k] : memref<4xf64>
  %f = func.call @rosenbrock(%y) : (memref<4xf64>) -> f64
  return %f : f64
}

memref.global "private" constant @point : memref<4xf64> = dense<[-1.2, 1.0, 0.8, 1.1]>
memref.global "private" constant @direction : memref<4xf64> = dense<[1.0, -0.5, 0.25, 2.0]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %what_value = arith.constant 0 : i64
  %what_gradient = arith.constant 1 : i64
  %what_jvp = arith.constant 2 : i64
  %what_hvp = arith.constant 3 : i64
  %h = arith.constant 1.0e-6 : f64
  %mh = arith.constant -1.0e-6 : f64
  %two_h = arith.constant 2.0e-6 : f64
  %zero = arith.constant 0.0 : f64
  %x = memref.alloca() : memref<4xf64>
  %g = memref.alloca() : memref<4xf64>
  %v = memref.alloca() : memref<4xf64>
  %x0 = memref.get_global @point : memref<4xf64>
  %v0 = memref.get_global @direction : memref<4xf64>
  memref.copy %x0, %x : memref<4xf64> to memref<4xf64>
  memref.copy %v0, %v : memref<4xf64> to memref<4xf64>

  // Value and gradient; each partial against (f(x+h e_i) - f(x-h e_i))/2h.
  %f = func.call @gradient(%x, %g) : (memref<4xf64>, memref<4xf64>) -> f64
  %plain = func.call @rosenbrock(%x) : (memref<4xf64>) -> f64
  func.call @ctReport(%what_value, %c0, %f, %plain) : (i64, index, f64, f64) -> ()
  scf.for %i = %c0 to %c4 step %c1 {
    %fp = func.call @shifted(%x, %i, %h) : (memref<4xf64>, index, f64) -> f64
    %fm = func.call @shifted(%x, %i, %mh) : (memref<4xf64>, index, f64) -> f64
    %d = arith.subf %fp, %fm : f64
    %fd = arith.divf %d, %two_h : f64
    %gi = memref.load %g[%i] : memref<4xf64>
    func.call @ctReport(%what_gradient, %i, %gi, %fd) : (i64, index, f64, f64) -> ()
  }

  // JVP along v, against (f(x+hv) - f(x-hv))/2h.
  %tv = memref.alloca() : memref<4xf64>
  memref.copy %v, %tv : memref<4xf64> to memref<4xf64>
  %fv, %jvp = ct.jvp @rosenbrock(%x) tangents(%tv) activity [dup]
      : (memref<4xf64>, memref<4xf64>) -> (f64, f64)
  %xp = memref.alloca() : memref<4xf64>
  %xm = memref.alloca() : memref<4xf64>
  scf.for %i = %c0 to %c4 step %c1 {
    %xi = memref.load %x[%i] : memref<4xf64>
    %vi = memref.load %v[%i] : memref<4xf64>
    %hv = arith.mulf %h, %vi : f64
    %p = arith.addf %xi, %hv : f64
    %m = arith.subf %xi, %hv : f64
    memref.store %p, %xp[%i] : memref<4xf64>
    memref.store %m, %xm[%i] : memref<4xf64>
  }
  %fxp = func.call @rosenbrock(%xp) : (memref<4xf64>) -> f64
  %fxm = func.call @rosenbrock(%xm) : (memref<4xf64>) -> f64
  %dj = arith.subf %fxp, %fxm : f64
  %fdj = arith.divf %dj, %two_h : f64
  func.call @ctReport(%what_jvp, %c0, %jvp, %fdj) : (i64, index, f64, f64) -> ()

  // HVP: forward mode over the gradient, against gradient differences.
  %gp = memref.alloca() : memref<4xf64>
  %gm = memref.alloca() : memref<4xf64>
  %hvx = memref.alloca() : memref<4xf64>
  %hv = memref.alloca() : memref<4xf64>
  memref.copy %v, %hvx : memref<4xf64> to memref<4xf64>
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %zero, %hv[%i] : memref<4xf64>
  }
  %gval, %dgval = ct.jvp @gradient(%x, %g) tangents(%hvx, %hv) activity [dup, dup]
      : (memref<4xf64>, memref<4xf64>, memref<4xf64>, memref<4xf64>) -> (f64, f64)
  %u1 = func.call @gradient(%xp, %gp) : (memref<4xf64>, memref<4xf64>) -> f64
  %u2 = func.call @gradient(%xm, %gm) : (memref<4xf64>, memref<4xf64>) -> f64
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %gp[%i] : memref<4xf64>
    %b = memref.load %gm[%i] : memref<4xf64>
    %d = arith.subf %a, %b : f64
    %fd = arith.divf %d, %two_h : f64
    %hvi = memref.load %hv[%i] : memref<4xf64>
    func.call @ctReport(%what_hvp, %i, %hvi, %fd) : (i64, index, f64, f64) -> ()
  }
  return
}
