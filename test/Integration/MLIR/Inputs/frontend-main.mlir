  // Appended to the module cotangent-cc printed for frontend-to-ad.cpp.
  func.func private @ctExpectNear(f64, f64, f64, i64)
  func.func @main() {
    %tol = arith.constant 1.0e-10 : f64
    %one = arith.constant 1.0 : f64
    %x = arith.constant 0.8 : f64
    %n = arith.constant 25 : i32
    %c3 = arith.constant 3 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %p = memref.alloca() : memref<3xf64>
    %dp = memref.alloca() : memref<3xf64>
    %a = arith.constant 0.5 : f64
    %b = arith.constant -1.5 : f64
    %c = arith.constant 2.0 : f64
    %zero = arith.constant 0.0 : f64
    memref.store %a, %p[%c0] : memref<3xf64>
    memref.store %b, %p[%c1] : memref<3xf64>
    memref.store %c, %p[%c2] : memref<3xf64>
    memref.store %zero, %dp[%c0] : memref<3xf64>
    memref.store %zero, %dp[%c1] : memref<3xf64>
    memref.store %zero, %dp[%c2] : memref<3xf64>
    %pc = memref.cast %p : memref<3xf64> to memref<?xf64, strided<[1], offset: ?>>
    %dpc = memref.cast %dp : memref<3xf64> to memref<?xf64, strided<[1], offset: ?>>
    %v, %dx = ct.gradient @_Z4polyPKddi(%pc, %x, %n) shadows(%dpc) activity [dup, active, const]
        : (memref<?xf64, strided<[1], offset: ?>>, f64, i32, memref<?xf64, strided<[1], offset: ?>>) -> (f64, f64)
    // poly = sum_k p[k] x^k for k < 3 (the loop stops at n = 25 > 3 terms
    // by its early return): d/dx = p1 + 2 p2 x, d/dp_k = x^k.
    %two = arith.constant 2.0 : f64
    %t = arith.mulf %two, %c : f64
    %t2 = arith.mulf %t, %x : f64
    %ex = arith.addf %b, %t2 : f64
    %i1 = arith.constant 1 : i64
    func.call @ctExpectNear(%dx, %ex, %tol, %i1) : (f64, f64, f64, i64) -> ()
    %g2 = memref.load %dp[%c2] : memref<3xf64>
    %xx = arith.mulf %x, %x : f64
    %i2 = arith.constant 2 : i64
    func.call @ctExpectNear(%g2, %xx, %tol, %i2) : (f64, f64, f64, i64) -> ()
    %g0 = memref.load %dp[%c0] : memref<3xf64>
    %i3 = arith.constant 3 : i64
    func.call @ctExpectNear(%g0, %one, %tol, %i3) : (f64, f64, f64, i64) -> ()
    %w, %tx = ct.jvp @_Z4polyPKddi(%pc, %x, %n) tangents(%dpc, %one) activity [dup, active, const]
        : (memref<?xf64, strided<[1], offset: ?>>, f64, i32, memref<?xf64, strided<[1], offset: ?>>, f64) -> (f64, f64)
    // The tangent memory now holds dp = (1, x, x^2); the JVP along
    // (dp, 1) is sum_k dp_k x^k + (p1 + 2 p2 x).
    %x3 = arith.mulf %xx, %x : f64
    %x4 = arith.mulf %xx, %xx : f64
    %s1 = arith.addf %one, %xx : f64
    %s2 = arith.addf %s1, %x4 : f64
    %ejvp = arith.addf %s2, %ex : f64
    %i4 = arith.constant 4 : i64
    func.call @ctExpectNear(%tx, %ejvp, %tol, %i4) : (f64, f64, f64, i64) -> ()
    return
  }
}
