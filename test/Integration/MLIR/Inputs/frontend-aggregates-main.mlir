  // Appended to the module cotangent-cc printed for frontend-aggregates.cpp.
  func.func private @ctExpectNear(f64, f64, f64, i64)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %zero = arith.constant 0.0 : f64
    %half = arith.constant 0.5 : f64
    %one = arith.constant 1.0 : f64
    %two = arith.constant 2.0 : f64
    %four = arith.constant 4.0 : f64
    %nine = arith.constant 9.0 : f64
    %tol = arith.constant 1.0e-12 : f64
    // p[i] = i + 0.5, dp = 0: two points (0.5, 1.5, 2.5), (3.5, 4.5, 5.5).
    %p = memref.alloca() : memref<6xf64>
    %dp = memref.alloca() : memref<6xf64>
    scf.for %i = %c0 to %c6 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f64
      %v = arith.addf %f, %half : f64
      memref.store %v, %p[%i] : memref<6xf64>
      memref.store %zero, %dp[%i] : memref<6xf64>
    }
    %pc = memref.cast %p : memref<6xf64> to memref<?xf64, strided<[1], offset: ?>>
    %dpc = memref.cast %dp : memref<6xf64> to memref<?xf64, strided<[1], offset: ?>>

    // energy with k = 0.5: s = p0 + p1 = (4, 6, 8), |s| = sqrt(116);
    // value 2 k |s| + 9; d/dk = 2 |s|; d/dp_{i,j} = 2 k s_j / |s|.
    %n2 = arith.constant 2 : i32
    %v, %dk = ct.gradient @_Z6energyPK4Vec3id(%pc, %n2, %half) shadows(%dpc)
        activity [dup, const, active]
        : (memref<?xf64, strided<[1], offset: ?>>, i32, f64, memref<?xf64, strided<[1], offset: ?>>) -> (f64, f64)
    %s116 = arith.constant 116.0 : f64
    %norm = math.sqrt %s116 : f64
    %twok = arith.mulf %two, %half : f64
    %knorm = arith.mulf %twok, %norm : f64
    %ev = arith.addf %knorm, %nine : f64
    %i1 = arith.constant 1 : i64
    call @ctExpectNear(%v, %ev, %tol, %i1) : (f64, f64, f64, i64) -> ()
    %edk = arith.mulf %two, %norm : f64
    %i2 = arith.constant 2 : i64
    call @ctExpectNear(%dk, %edk, %tol, %i2) : (f64, f64, f64, i64) -> ()
    %perNorm = arith.divf %twok, %norm : f64
    %e0 = arith.mulf %perNorm, %four : f64
    %d0 = memref.load %dp[%c0] : memref<6xf64>
    %i3 = arith.constant 3 : i64
    call @ctExpectNear(%d0, %e0, %tol, %i3) : (f64, f64, f64, i64) -> ()
    %d3 = memref.load %dp[%c3] : memref<6xf64>
    %i4 = arith.constant 4 : i64
    call @ctExpectNear(%d3, %e0, %tol, %i4) : (f64, f64, f64, i64) -> ()
    %eight = arith.constant 8.0 : f64
    %e5 = arith.mulf %perNorm, %eight : f64
    %d5 = memref.load %dp[%c2] : memref<6xf64>
    %i5 = arith.constant 5 : i64
    call @ctExpectNear(%d5, %e5, %tol, %i5) : (f64, f64, f64, i64) -> ()

    // walk over p[0..4): d/dp_j = p_{j-1} + p_{j+1} inside the range.
    scf.for %i = %c0 to %c6 step %c1 {
      memref.store %zero, %dp[%i] : memref<6xf64>
    }
    %n4 = arith.constant 4 : i32
    %w = ct.gradient @_Z4walkPKdi(%pc, %n4) shadows(%dpc)
        activity [dup, const]
        : (memref<?xf64, strided<[1], offset: ?>>, i32, memref<?xf64, strided<[1], offset: ?>>) -> (f64)
    // 3 + 0.5*1.5 + 1.5*2.5 + 2.5*3.5 = 16.25
    %ew = arith.constant 16.25 : f64
    %i6 = arith.constant 6 : i64
    call @ctExpectNear(%w, %ew, %tol, %i6) : (f64, f64, f64, i64) -> ()
    %w0 = memref.load %dp[%c0] : memref<6xf64>
    %ew0 = arith.constant 1.5 : f64
    %i7 = arith.constant 7 : i64
    call @ctExpectNear(%w0, %ew0, %tol, %i7) : (f64, f64, f64, i64) -> ()
    %w1 = memref.load %dp[%c1] : memref<6xf64>
    %ew1 = arith.constant 3.0 : f64
    %i8 = arith.constant 8 : i64
    call @ctExpectNear(%w1, %ew1, %tol, %i8) : (f64, f64, f64, i64) -> ()
    %w4 = memref.load %dp[%c4] : memref<6xf64>
    %i9 = arith.constant 9 : i64
    call @ctExpectNear(%w4, %zero, %tol, %i9) : (f64, f64, f64, i64) -> ()

    // combine(a, b, t) = a + t b with a = p0, b = p1, t = 2, seeded with
    // (1, 2, 3) on the result: da = seed, db = t seed, dt = seed . b.
    %a = memref.subview %pc[0] [3] [1] : memref<?xf64, strided<[1], offset: ?>> to memref<3xf64, strided<[1], offset: ?>>
    %b = memref.subview %pc[3] [3] [1] : memref<?xf64, strided<[1], offset: ?>> to memref<3xf64, strided<[1], offset: ?>>
    %ac = memref.cast %a : memref<3xf64, strided<[1], offset: ?>> to memref<?xf64, strided<[1], offset: ?>>
    %bc = memref.cast %b : memref<3xf64, strided<[1], offset: ?>> to memref<?xf64, strided<[1], offset: ?>>
    %r = memref.alloca() : memref<3xf64>
    %dr = memref.alloca() : memref<3xf64>
    %da = memref.alloca() : memref<3xf64>
    %db = memref.alloca() : memref<3xf64>
    scf.for %i = %c0 to %c3 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f64
      %seed = arith.addf %f, %one : f64
      memref.store %seed, %dr[%i] : memref<3xf64>
      memref.store %zero, %da[%i] : memref<3xf64>
      memref.store %zero, %db[%i] : memref<3xf64>
    }
    %rc = memref.cast %r : memref<3xf64> to memref<?xf64, strided<[1], offset: ?>>
    %drc = memref.cast %dr : memref<3xf64> to memref<?xf64, strided<[1], offset: ?>>
    %dac = memref.cast %da : memref<3xf64> to memref<?xf64, strided<[1], offset: ?>>
    %dbc = memref.cast %db : memref<3xf64> to memref<?xf64, strided<[1], offset: ?>>
    %dt = ct.pullback @_Z7combine4Vec3RKS_d(%ac, %bc, %two, %rc) shadows(%dac, %dbc, %drc)
        activity [dup, dup, active, dup]
        : (memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>, f64, memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>) -> (f64)
    // dt = 1*3.5 + 2*4.5 + 3*5.5 = 29
    %edt = arith.constant 29.0 : f64
    %i10 = arith.constant 10 : i64
    call @ctExpectNear(%dt, %edt, %tol, %i10) : (f64, f64, f64, i64) -> ()
    %da2 = memref.load %da[%c2] : memref<3xf64>
    %i11 = arith.constant 11 : i64
    %three = arith.constant 3.0 : f64
    call @ctExpectNear(%da2, %three, %tol, %i11) : (f64, f64, f64, i64) -> ()
    %db2 = memref.load %db[%c2] : memref<3xf64>
    %six = arith.constant 6.0 : f64
    %i12 = arith.constant 12 : i64
    call @ctExpectNear(%db2, %six, %tol, %i12) : (f64, f64, f64, i64) -> ()
    return
  }
}
