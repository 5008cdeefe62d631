// Every derivative rule, in reverse and forward mode, against central finite
// differences of the op itself (h = 1e-6, relative tolerance 1e-6).
// RUN: %cotangent-opt %s --ct-differentiate %ad-cleanup %lower-to-llvm \
// RUN:   | %mlir-runner -e main -entry-point-result=void | FileCheck %s --implicit-check-not=FAIL
// CHECK-NOT: FAIL

func.func private @ctExpectNear(f64, f64, f64, i64)

// math.sin
func.func @u0(%x: f64) -> f64 {
  %r = math.sin %x : f64
  return %r : f64
}
// math.cos
func.func @u1(%x: f64) -> f64 {
  %r = math.cos %x : f64
  return %r : f64
}
// math.tan
func.func @u2(%x: f64) -> f64 {
  %r = math.tan %x : f64
  return %r : f64
}
// math.asin
func.func @u3(%x: f64) -> f64 {
  %r = math.asin %x : f64
  return %r : f64
}
// math.acos
func.func @u4(%x: f64) -> f64 {
  %r = math.acos %x : f64
  return %r : f64
}
// math.atan
func.func @u5(%x: f64) -> f64 {
  %r = math.atan %x : f64
  return %r : f64
}
// math.sinh
func.func @u6(%x: f64) -> f64 {
  %r = math.sinh %x : f64
  return %r : f64
}
// math.cosh
func.func @u7(%x: f64) -> f64 {
  %r = math.cosh %x : f64
  return %r : f64
}
// math.tanh
func.func @u8(%x: f64) -> f64 {
  %r = math.tanh %x : f64
  return %r : f64
}
// math.asinh
func.func @u9(%x: f64) -> f64 {
  %r = math.asinh %x : f64
  return %r : f64
}
// math.acosh
func.func @u10(%x: f64) -> f64 {
  %r = math.acosh %x : f64
  return %r : f64
}
// math.atanh
func.func @u11(%x: f64) -> f64 {
  %r = math.atanh %x : f64
  return %r : f64
}
// math.exp
func.func @u12(%x: f64) -> f64 {
  %r = math.exp %x : f64
  return %r : f64
}
// math.exp2
func.func @u13(%x: f64) -> f64 {
  %r = math.exp2 %x : f64
  return %r : f64
}
// math.expm1
func.func @u14(%x: f64) -> f64 {
  %r = math.expm1 %x : f64
  return %r : f64
}
// math.log
func.func @u15(%x: f64) -> f64 {
  %r = math.log %x : f64
  return %r : f64
}
// math.log2
func.func @u16(%x: f64) -> f64 {
  %r = math.log2 %x : f64
  return %r : f64
}
// math.log10
func.func @u17(%x: f64) -> f64 {
  %r = math.log10 %x : f64
  return %r : f64
}
// math.log1p
func.func @u18(%x: f64) -> f64 {
  %r = math.log1p %x : f64
  return %r : f64
}
// math.sqrt
func.func @u19(%x: f64) -> f64 {
  %r = math.sqrt %x : f64
  return %r : f64
}
// math.rsqrt
func.func @u20(%x: f64) -> f64 {
  %r = math.rsqrt %x : f64
  return %r : f64
}
// math.cbrt
func.func @u21(%x: f64) -> f64 {
  %r = math.cbrt %x : f64
  return %r : f64
}
// math.absf
func.func @u22(%x: f64) -> f64 {
  %r = math.absf %x : f64
  return %r : f64
}
// math.erf
func.func @u23(%x: f64) -> f64 {
  %r = math.erf %x : f64
  return %r : f64
}
// math.erfc
func.func @u24(%x: f64) -> f64 {
  %r = math.erfc %x : f64
  return %r : f64
}
// math.floor
func.func @u25(%x: f64) -> f64 {
  %r = math.floor %x : f64
  return %r : f64
}
// math.ceil
func.func @u26(%x: f64) -> f64 {
  %r = math.ceil %x : f64
  return %r : f64
}
// math.round
func.func @u27(%x: f64) -> f64 {
  %r = math.round %x : f64
  return %r : f64
}
// math.roundeven
func.func @u28(%x: f64) -> f64 {
  %r = math.roundeven %x : f64
  return %r : f64
}
// math.trunc
func.func @u29(%x: f64) -> f64 {
  %r = math.trunc %x : f64
  return %r : f64
}
// arith.negf
func.func @u30(%x: f64) -> f64 {
  %r = arith.negf %x : f64
  return %r : f64
}
// arith.addf
func.func @b0(%x: f64, %y: f64) -> f64 {
  %r = arith.addf %x, %y : f64
  return %r : f64
}
// arith.subf
func.func @b1(%x: f64, %y: f64) -> f64 {
  %r = arith.subf %x, %y : f64
  return %r : f64
}
// arith.mulf
func.func @b2(%x: f64, %y: f64) -> f64 {
  %r = arith.mulf %x, %y : f64
  return %r : f64
}
// arith.divf
func.func @b3(%x: f64, %y: f64) -> f64 {
  %r = arith.divf %x, %y : f64
  return %r : f64
}
// arith.remf
func.func @b4(%x: f64, %y: f64) -> f64 {
  %r = arith.remf %x, %y : f64
  return %r : f64
}
// arith.maximumf
func.func @b5(%x: f64, %y: f64) -> f64 {
  %r = arith.maximumf %x, %y : f64
  return %r : f64
}
// arith.maxnumf
func.func @b6(%x: f64, %y: f64) -> f64 {
  %r = arith.maxnumf %x, %y : f64
  return %r : f64
}
// arith.minimumf
func.func @b7(%x: f64, %y: f64) -> f64 {
  %r = arith.minimumf %x, %y : f64
  return %r : f64
}
// arith.minnumf
func.func @b8(%x: f64, %y: f64) -> f64 {
  %r = arith.minnumf %x, %y : f64
  return %r : f64
}
// math.powf
func.func @b9(%x: f64, %y: f64) -> f64 {
  %r = math.powf %x, %y : f64
  return %r : f64
}
// math.atan2
func.func @b10(%x: f64, %y: f64) -> f64 {
  %r = math.atan2 %x, %y : f64
  return %r : f64
}
// math.copysign
func.func @b11(%x: f64, %y: f64) -> f64 {
  %r = math.copysign %x, %y : f64
  return %r : f64
}
// ct.hypot
func.func @hyp(%x: f64, %y: f64) -> f64 {
  %r = ct.hypot %x, %y : f64
  return %r : f64
}
// math.fpowi
func.func @fpowi(%x: f64) -> f64 {
  %n = arith.constant 3 : i32
  %r = math.fpowi %x, %n : f64, i32
  return %r : f64
}
// math.fma
func.func @fma(%x: f64, %y: f64, %z: f64) -> f64 {
  %r = math.fma %x, %y, %z : f64
  return %r : f64
}
// arith.select, arith.cmpf
func.func @select(%x: f64, %y: f64) -> f64 {
  %c = arith.cmpf olt, %x, %y : f64
  %r = arith.select %c, %x, %y : f64
  return %r : f64
}
// arith.truncf, arith.extf: derivative through f32
func.func @widths(%x: f64) -> f64 {
  %s = arith.truncf %x : f64 to f32
  %t = arith.mulf %s, %s : f32
  %r = arith.extf %t : f32 to f64
  return %r : f64
}

func.func @main() {
  %h = arith.constant 1.0e-6 : f64
  %two_h = arith.constant 2.0e-6 : f64
  %tol = arith.constant 1.0e-6 : f64
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  // math.sin
  %u0_x0 = arith.constant 0.7 : f64
  %u0_v, %u0_g0 = ct.gradient @u0(%u0_x0) activity [active] : (f64) -> (f64, f64)
  %u0_p0 = arith.addf %u0_x0, %h : f64
  %u0_m0 = arith.subf %u0_x0, %h : f64
  %u0_fp0 = func.call @u0(%u0_p0) : (f64) -> f64
  %u0_fm0 = func.call @u0(%u0_m0) : (f64) -> f64
  %u0_d0 = arith.subf %u0_fp0, %u0_fm0 : f64
  %u0_fd0 = arith.divf %u0_d0, %two_h : f64
  %c1 = arith.constant 1 : i64
  func.call @ctExpectNear(%u0_g0, %u0_fd0, %tol, %c1) : (f64, f64, f64, i64) -> ()
  %u0_jv0, %u0_jt0 = ct.jvp @u0(%u0_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c2 = arith.constant 2 : i64
  func.call @ctExpectNear(%u0_jt0, %u0_fd0, %tol, %c2) : (f64, f64, f64, i64) -> ()
  // math.cos
  %u1_x0 = arith.constant 0.7 : f64
  %u1_v, %u1_g0 = ct.gradient @u1(%u1_x0) activity [active] : (f64) -> (f64, f64)
  %u1_p0 = arith.addf %u1_x0, %h : f64
  %u1_m0 = arith.subf %u1_x0, %h : f64
  %u1_fp0 = func.call @u1(%u1_p0) : (f64) -> f64
  %u1_fm0 = func.call @u1(%u1_m0) : (f64) -> f64
  %u1_d0 = arith.subf %u1_fp0, %u1_fm0 : f64
  %u1_fd0 = arith.divf %u1_d0, %two_h : f64
  %c3 = arith.constant 3 : i64
  func.call @ctExpectNear(%u1_g0, %u1_fd0, %tol, %c3) : (f64, f64, f64, i64) -> ()
  %u1_jv0, %u1_jt0 = ct.jvp @u1(%u1_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c4 = arith.constant 4 : i64
  func.call @ctExpectNear(%u1_jt0, %u1_fd0, %tol, %c4) : (f64, f64, f64, i64) -> ()
  // math.tan
  %u2_x0 = arith.constant 0.4 : f64
  %u2_v, %u2_g0 = ct.gradient @u2(%u2_x0) activity [active] : (f64) -> (f64, f64)
  %u2_p0 = arith.addf %u2_x0, %h : f64
  %u2_m0 = arith.subf %u2_x0, %h : f64
  %u2_fp0 = func.call @u2(%u2_p0) : (f64) -> f64
  %u2_fm0 = func.call @u2(%u2_m0) : (f64) -> f64
  %u2_d0 = arith.subf %u2_fp0, %u2_fm0 : f64
  %u2_fd0 = arith.divf %u2_d0, %two_h : f64
  %c5 = arith.constant 5 : i64
  func.call @ctExpectNear(%u2_g0, %u2_fd0, %tol, %c5) : (f64, f64, f64, i64) -> ()
  %u2_jv0, %u2_jt0 = ct.jvp @u2(%u2_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c6 = arith.constant 6 : i64
  func.call @ctExpectNear(%u2_jt0, %u2_fd0, %tol, %c6) : (f64, f64, f64, i64) -> ()
  // math.asin
  %u3_x0 = arith.constant 0.3 : f64
  %u3_v, %u3_g0 = ct.gradient @u3(%u3_x0) activity [active] : (f64) -> (f64, f64)
  %u3_p0 = arith.addf %u3_x0, %h : f64
  %u3_m0 = arith.subf %u3_x0, %h : f64
  %u3_fp0 = func.call @u3(%u3_p0) : (f64) -> f64
  %u3_fm0 = func.call @u3(%u3_m0) : (f64) -> f64
  %u3_d0 = arith.subf %u3_fp0, %u3_fm0 : f64
  %u3_fd0 = arith.divf %u3_d0, %two_h : f64
  %c7 = arith.constant 7 : i64
  func.call @ctExpectNear(%u3_g0, %u3_fd0, %tol, %c7) : (f64, f64, f64, i64) -> ()
  %u3_jv0, %u3_jt0 = ct.jvp @u3(%u3_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c8 = arith.constant 8 : i64
  func.call @ctExpectNear(%u3_jt0, %u3_fd0, %tol, %c8) : (f64, f64, f64, i64) -> ()
  // math.acos
  %u4_x0 = arith.constant 0.3 : f64
  %u4_v, %u4_g0 = ct.gradient @u4(%u4_x0) activity [active] : (f64) -> (f64, f64)
  %u4_p0 = arith.addf %u4_x0, %h : f64
  %u4_m0 = arith.subf %u4_x0, %h : f64
  %u4_fp0 = func.call @u4(%u4_p0) : (f64) -> f64
  %u4_fm0 = func.call @u4(%u4_m0) : (f64) -> f64
  %u4_d0 = arith.subf %u4_fp0, %u4_fm0 : f64
  %u4_fd0 = arith.divf %u4_d0, %two_h : f64
  %c9 = arith.constant 9 : i64
  func.call @ctExpectNear(%u4_g0, %u4_fd0, %tol, %c9) : (f64, f64, f64, i64) -> ()
  %u4_jv0, %u4_jt0 = ct.jvp @u4(%u4_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c10 = arith.constant 10 : i64
  func.call @ctExpectNear(%u4_jt0, %u4_fd0, %tol, %c10) : (f64, f64, f64, i64) -> ()
  // math.atan
  %u5_x0 = arith.constant 0.8 : f64
  %u5_v, %u5_g0 = ct.gradient @u5(%u5_x0) activity [active] : (f64) -> (f64, f64)
  %u5_p0 = arith.addf %u5_x0, %h : f64
  %u5_m0 = arith.subf %u5_x0, %h : f64
  %u5_fp0 = func.call @u5(%u5_p0) : (f64) -> f64
  %u5_fm0 = func.call @u5(%u5_m0) : (f64) -> f64
  %u5_d0 = arith.subf %u5_fp0, %u5_fm0 : f64
  %u5_fd0 = arith.divf %u5_d0, %two_h : f64
  %c11 = arith.constant 11 : i64
  func.call @ctExpectNear(%u5_g0, %u5_fd0, %tol, %c11) : (f64, f64, f64, i64) -> ()
  %u5_jv0, %u5_jt0 = ct.jvp @u5(%u5_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c12 = arith.constant 12 : i64
  func.call @ctExpectNear(%u5_jt0, %u5_fd0, %tol, %c12) : (f64, f64, f64, i64) -> ()
  // math.sinh
  %u6_x0 = arith.constant 0.6 : f64
  %u6_v, %u6_g0 = ct.gradient @u6(%u6_x0) activity [active] : (f64) -> (f64, f64)
  %u6_p0 = arith.addf %u6_x0, %h : f64
  %u6_m0 = arith.subf %u6_x0, %h : f64
  %u6_fp0 = func.call @u6(%u6_p0) : (f64) -> f64
  %u6_fm0 = func.call @u6(%u6_m0) : (f64) -> f64
  %u6_d0 = arith.subf %u6_fp0, %u6_fm0 : f64
  %u6_fd0 = arith.divf %u6_d0, %two_h : f64
  %c13 = arith.constant 13 : i64
  func.call @ctExpectNear(%u6_g0, %u6_fd0, %tol, %c13) : (f64, f64, f64, i64) -> ()
  %u6_jv0, %u6_jt0 = ct.jvp @u6(%u6_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c14 = arith.constant 14 : i64
  func.call @ctExpectNear(%u6_jt0, %u6_fd0, %tol, %c14) : (f64, f64, f64, i64) -> ()
  // math.cosh
  %u7_x0 = arith.constant 0.6 : f64
  %u7_v, %u7_g0 = ct.gradient @u7(%u7_x0) activity [active] : (f64) -> (f64, f64)
  %u7_p0 = arith.addf %u7_x0, %h : f64
  %u7_m0 = arith.subf %u7_x0, %h : f64
  %u7_fp0 = func.call @u7(%u7_p0) : (f64) -> f64
  %u7_fm0 = func.call @u7(%u7_m0) : (f64) -> f64
  %u7_d0 = arith.subf %u7_fp0, %u7_fm0 : f64
  %u7_fd0 = arith.divf %u7_d0, %two_h : f64
  %c15 = arith.constant 15 : i64
  func.call @ctExpectNear(%u7_g0, %u7_fd0, %tol, %c15) : (f64, f64, f64, i64) -> ()
  %u7_jv0, %u7_jt0 = ct.jvp @u7(%u7_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c16 = arith.constant 16 : i64
  func.call @ctExpectNear(%u7_jt0, %u7_fd0, %tol, %c16) : (f64, f64, f64, i64) -> ()
  // math.tanh
  %u8_x0 = arith.constant 0.6 : f64
  %u8_v, %u8_g0 = ct.gradient @u8(%u8_x0) activity [active] : (f64) -> (f64, f64)
  %u8_p0 = arith.addf %u8_x0, %h : f64
  %u8_m0 = arith.subf %u8_x0, %h : f64
  %u8_fp0 = func.call @u8(%u8_p0) : (f64) -> f64
  %u8_fm0 = func.call @u8(%u8_m0) : (f64) -> f64
  %u8_d0 = arith.subf %u8_fp0, %u8_fm0 : f64
  %u8_fd0 = arith.divf %u8_d0, %two_h : f64
  %c17 = arith.constant 17 : i64
  func.call @ctExpectNear(%u8_g0, %u8_fd0, %tol, %c17) : (f64, f64, f64, i64) -> ()
  %u8_jv0, %u8_jt0 = ct.jvp @u8(%u8_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c18 = arith.constant 18 : i64
  func.call @ctExpectNear(%u8_jt0, %u8_fd0, %tol, %c18) : (f64, f64, f64, i64) -> ()
  // math.asinh
  %u9_x0 = arith.constant 0.9 : f64
  %u9_v, %u9_g0 = ct.gradient @u9(%u9_x0) activity [active] : (f64) -> (f64, f64)
  %u9_p0 = arith.addf %u9_x0, %h : f64
  %u9_m0 = arith.subf %u9_x0, %h : f64
  %u9_fp0 = func.call @u9(%u9_p0) : (f64) -> f64
  %u9_fm0 = func.call @u9(%u9_m0) : (f64) -> f64
  %u9_d0 = arith.subf %u9_fp0, %u9_fm0 : f64
  %u9_fd0 = arith.divf %u9_d0, %two_h : f64
  %c19 = arith.constant 19 : i64
  func.call @ctExpectNear(%u9_g0, %u9_fd0, %tol, %c19) : (f64, f64, f64, i64) -> ()
  %u9_jv0, %u9_jt0 = ct.jvp @u9(%u9_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c20 = arith.constant 20 : i64
  func.call @ctExpectNear(%u9_jt0, %u9_fd0, %tol, %c20) : (f64, f64, f64, i64) -> ()
  // math.acosh
  %u10_x0 = arith.constant 1.7 : f64
  %u10_v, %u10_g0 = ct.gradient @u10(%u10_x0) activity [active] : (f64) -> (f64, f64)
  %u10_p0 = arith.addf %u10_x0, %h : f64
  %u10_m0 = arith.subf %u10_x0, %h : f64
  %u10_fp0 = func.call @u10(%u10_p0) : (f64) -> f64
  %u10_fm0 = func.call @u10(%u10_m0) : (f64) -> f64
  %u10_d0 = arith.subf %u10_fp0, %u10_fm0 : f64
  %u10_fd0 = arith.divf %u10_d0, %two_h : f64
  %c21 = arith.constant 21 : i64
  func.call @ctExpectNear(%u10_g0, %u10_fd0, %tol, %c21) : (f64, f64, f64, i64) -> ()
  %u10_jv0, %u10_jt0 = ct.jvp @u10(%u10_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c22 = arith.constant 22 : i64
  func.call @ctExpectNear(%u10_jt0, %u10_fd0, %tol, %c22) : (f64, f64, f64, i64) -> ()
  // math.atanh
  %u11_x0 = arith.constant 0.4 : f64
  %u11_v, %u11_g0 = ct.gradient @u11(%u11_x0) activity [active] : (f64) -> (f64, f64)
  %u11_p0 = arith.addf %u11_x0, %h : f64
  %u11_m0 = arith.subf %u11_x0, %h : f64
  %u11_fp0 = func.call @u11(%u11_p0) : (f64) -> f64
  %u11_fm0 = func.call @u11(%u11_m0) : (f64) -> f64
  %u11_d0 = arith.subf %u11_fp0, %u11_fm0 : f64
  %u11_fd0 = arith.divf %u11_d0, %two_h : f64
  %c23 = arith.constant 23 : i64
  func.call @ctExpectNear(%u11_g0, %u11_fd0, %tol, %c23) : (f64, f64, f64, i64) -> ()
  %u11_jv0, %u11_jt0 = ct.jvp @u11(%u11_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c24 = arith.constant 24 : i64
  func.call @ctExpectNear(%u11_jt0, %u11_fd0, %tol, %c24) : (f64, f64, f64, i64) -> ()
  // math.exp
  %u12_x0 = arith.constant 0.5 : f64
  %u12_v, %u12_g0 = ct.gradient @u12(%u12_x0) activity [active] : (f64) -> (f64, f64)
  %u12_p0 = arith.addf %u12_x0, %h : f64
  %u12_m0 = arith.subf %u12_x0, %h : f64
  %u12_fp0 = func.call @u12(%u12_p0) : (f64) -> f64
  %u12_fm0 = func.call @u12(%u12_m0) : (f64) -> f64
  %u12_d0 = arith.subf %u12_fp0, %u12_fm0 : f64
  %u12_fd0 = arith.divf %u12_d0, %two_h : f64
  %c25 = arith.constant 25 : i64
  func.call @ctExpectNear(%u12_g0, %u12_fd0, %tol, %c25) : (f64, f64, f64, i64) -> ()
  %u12_jv0, %u12_jt0 = ct.jvp @u12(%u12_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c26 = arith.constant 26 : i64
  func.call @ctExpectNear(%u12_jt0, %u12_fd0, %tol, %c26) : (f64, f64, f64, i64) -> ()
  // math.exp2
  %u13_x0 = arith.constant 0.5 : f64
  %u13_v, %u13_g0 = ct.gradient @u13(%u13_x0) activity [active] : (f64) -> (f64, f64)
  %u13_p0 = arith.addf %u13_x0, %h : f64
  %u13_m0 = arith.subf %u13_x0, %h : f64
  %u13_fp0 = func.call @u13(%u13_p0) : (f64) -> f64
  %u13_fm0 = func.call @u13(%u13_m0) : (f64) -> f64
  %u13_d0 = arith.subf %u13_fp0, %u13_fm0 : f64
  %u13_fd0 = arith.divf %u13_d0, %two_h : f64
  %c27 = arith.constant 27 : i64
  func.call @ctExpectNear(%u13_g0, %u13_fd0, %tol, %c27) : (f64, f64, f64, i64) -> ()
  %u13_jv0, %u13_jt0 = ct.jvp @u13(%u13_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c28 = arith.constant 28 : i64
  func.call @ctExpectNear(%u13_jt0, %u13_fd0, %tol, %c28) : (f64, f64, f64, i64) -> ()
  // math.expm1
  %u14_x0 = arith.constant 0.5 : f64
  %u14_v, %u14_g0 = ct.gradient @u14(%u14_x0) activity [active] : (f64) -> (f64, f64)
  %u14_p0 = arith.addf %u14_x0, %h : f64
  %u14_m0 = arith.subf %u14_x0, %h : f64
  %u14_fp0 = func.call @u14(%u14_p0) : (f64) -> f64
  %u14_fm0 = func.call @u14(%u14_m0) : (f64) -> f64
  %u14_d0 = arith.subf %u14_fp0, %u14_fm0 : f64
  %u14_fd0 = arith.divf %u14_d0, %two_h : f64
  %c29 = arith.constant 29 : i64
  func.call @ctExpectNear(%u14_g0, %u14_fd0, %tol, %c29) : (f64, f64, f64, i64) -> ()
  %u14_jv0, %u14_jt0 = ct.jvp @u14(%u14_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c30 = arith.constant 30 : i64
  func.call @ctExpectNear(%u14_jt0, %u14_fd0, %tol, %c30) : (f64, f64, f64, i64) -> ()
  // math.log
  %u15_x0 = arith.constant 1.3 : f64
  %u15_v, %u15_g0 = ct.gradient @u15(%u15_x0) activity [active] : (f64) -> (f64, f64)
  %u15_p0 = arith.addf %u15_x0, %h : f64
  %u15_m0 = arith.subf %u15_x0, %h : f64
  %u15_fp0 = func.call @u15(%u15_p0) : (f64) -> f64
  %u15_fm0 = func.call @u15(%u15_m0) : (f64) -> f64
  %u15_d0 = arith.subf %u15_fp0, %u15_fm0 : f64
  %u15_fd0 = arith.divf %u15_d0, %two_h : f64
  %c31 = arith.constant 31 : i64
  func.call @ctExpectNear(%u15_g0, %u15_fd0, %tol, %c31) : (f64, f64, f64, i64) -> ()
  %u15_jv0, %u15_jt0 = ct.jvp @u15(%u15_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c32 = arith.constant 32 : i64
  func.call @ctExpectNear(%u15_jt0, %u15_fd0, %tol, %c32) : (f64, f64, f64, i64) -> ()
  // math.log2
  %u16_x0 = arith.constant 1.3 : f64
  %u16_v, %u16_g0 = ct.gradient @u16(%u16_x0) activity [active] : (f64) -> (f64, f64)
  %u16_p0 = arith.addf %u16_x0, %h : f64
  %u16_m0 = arith.subf %u16_x0, %h : f64
  %u16_fp0 = func.call @u16(%u16_p0) : (f64) -> f64
  %u16_fm0 = func.call @u16(%u16_m0) : (f64) -> f64
  %u16_d0 = arith.subf %u16_fp0, %u16_fm0 : f64
  %u16_fd0 = arith.divf %u16_d0, %two_h : f64
  %c33 = arith.constant 33 : i64
  func.call @ctExpectNear(%u16_g0, %u16_fd0, %tol, %c33) : (f64, f64, f64, i64) -> ()
  %u16_jv0, %u16_jt0 = ct.jvp @u16(%u16_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c34 = arith.constant 34 : i64
  func.call @ctExpectNear(%u16_jt0, %u16_fd0, %tol, %c34) : (f64, f64, f64, i64) -> ()
  // math.log10
  %u17_x0 = arith.constant 1.3 : f64
  %u17_v, %u17_g0 = ct.gradient @u17(%u17_x0) activity [active] : (f64) -> (f64, f64)
  %u17_p0 = arith.addf %u17_x0, %h : f64
  %u17_m0 = arith.subf %u17_x0, %h : f64
  %u17_fp0 = func.call @u17(%u17_p0) : (f64) -> f64
  %u17_fm0 = func.call @u17(%u17_m0) : (f64) -> f64
  %u17_d0 = arith.subf %u17_fp0, %u17_fm0 : f64
  %u17_fd0 = arith.divf %u17_d0, %two_h : f64
  %c35 = arith.constant 35 : i64
  func.call @ctExpectNear(%u17_g0, %u17_fd0, %tol, %c35) : (f64, f64, f64, i64) -> ()
  %u17_jv0, %u17_jt0 = ct.jvp @u17(%u17_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c36 = arith.constant 36 : i64
  func.call @ctExpectNear(%u17_jt0, %u17_fd0, %tol, %c36) : (f64, f64, f64, i64) -> ()
  // math.log1p
  %u18_x0 = arith.constant 0.3 : f64
  %u18_v, %u18_g0 = ct.gradient @u18(%u18_x0) activity [active] : (f64) -> (f64, f64)
  %u18_p0 = arith.addf %u18_x0, %h : f64
  %u18_m0 = arith.subf %u18_x0, %h : f64
  %u18_fp0 = func.call @u18(%u18_p0) : (f64) -> f64
  %u18_fm0 = func.call @u18(%u18_m0) : (f64) -> f64
  %u18_d0 = arith.subf %u18_fp0, %u18_fm0 : f64
  %u18_fd0 = arith.divf %u18_d0, %two_h : f64
  %c37 = arith.constant 37 : i64
  func.call @ctExpectNear(%u18_g0, %u18_fd0, %tol, %c37) : (f64, f64, f64, i64) -> ()
  %u18_jv0, %u18_jt0 = ct.jvp @u18(%u18_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c38 = arith.constant 38 : i64
  func.call @ctExpectNear(%u18_jt0, %u18_fd0, %tol, %c38) : (f64, f64, f64, i64) -> ()
  // math.sqrt
  %u19_x0 = arith.constant 2.2 : f64
  %u19_v, %u19_g0 = ct.gradient @u19(%u19_x0) activity [active] : (f64) -> (f64, f64)
  %u19_p0 = arith.addf %u19_x0, %h : f64
  %u19_m0 = arith.subf %u19_x0, %h : f64
  %u19_fp0 = func.call @u19(%u19_p0) : (f64) -> f64
  %u19_fm0 = func.call @u19(%u19_m0) : (f64) -> f64
  %u19_d0 = arith.subf %u19_fp0, %u19_fm0 : f64
  %u19_fd0 = arith.divf %u19_d0, %two_h : f64
  %c39 = arith.constant 39 : i64
  func.call @ctExpectNear(%u19_g0, %u19_fd0, %tol, %c39) : (f64, f64, f64, i64) -> ()
  %u19_jv0, %u19_jt0 = ct.jvp @u19(%u19_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c40 = arith.constant 40 : i64
  func.call @ctExpectNear(%u19_jt0, %u19_fd0, %tol, %c40) : (f64, f64, f64, i64) -> ()
  // math.rsqrt
  %u20_x0 = arith.constant 2.2 : f64
  %u20_v, %u20_g0 = ct.gradient @u20(%u20_x0) activity [active] : (f64) -> (f64, f64)
  %u20_p0 = arith.addf %u20_x0, %h : f64
  %u20_m0 = arith.subf %u20_x0, %h : f64
  %u20_fp0 = func.call @u20(%u20_p0) : (f64) -> f64
  %u20_fm0 = func.call @u20(%u20_m0) : (f64) -> f64
  %u20_d0 = arith.subf %u20_fp0, %u20_fm0 : f64
  %u20_fd0 = arith.divf %u20_d0, %two_h : f64
  %c41 = arith.constant 41 : i64
  func.call @ctExpectNear(%u20_g0, %u20_fd0, %tol, %c41) : (f64, f64, f64, i64) -> ()
  %u20_jv0, %u20_jt0 = ct.jvp @u20(%u20_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c42 = arith.constant 42 : i64
  func.call @ctExpectNear(%u20_jt0, %u20_fd0, %tol, %c42) : (f64, f64, f64, i64) -> ()
  // math.cbrt
  %u21_x0 = arith.constant 2.2 : f64
  %u21_v, %u21_g0 = ct.gradient @u21(%u21_x0) activity [active] : (f64) -> (f64, f64)
  %u21_p0 = arith.addf %u21_x0, %h : f64
  %u21_m0 = arith.subf %u21_x0, %h : f64
  %u21_fp0 = func.call @u21(%u21_p0) : (f64) -> f64
  %u21_fm0 = func.call @u21(%u21_m0) : (f64) -> f64
  %u21_d0 = arith.subf %u21_fp0, %u21_fm0 : f64
  %u21_fd0 = arith.divf %u21_d0, %two_h : f64
  %c43 = arith.constant 43 : i64
  func.call @ctExpectNear(%u21_g0, %u21_fd0, %tol, %c43) : (f64, f64, f64, i64) -> ()
  %u21_jv0, %u21_jt0 = ct.jvp @u21(%u21_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c44 = arith.constant 44 : i64
  func.call @ctExpectNear(%u21_jt0, %u21_fd0, %tol, %c44) : (f64, f64, f64, i64) -> ()
  // math.absf
  %u22_x0 = arith.constant -0.8 : f64
  %u22_v, %u22_g0 = ct.gradient @u22(%u22_x0) activity [active] : (f64) -> (f64, f64)
  %u22_p0 = arith.addf %u22_x0, %h : f64
  %u22_m0 = arith.subf %u22_x0, %h : f64
  %u22_fp0 = func.call @u22(%u22_p0) : (f64) -> f64
  %u22_fm0 = func.call @u22(%u22_m0) : (f64) -> f64
  %u22_d0 = arith.subf %u22_fp0, %u22_fm0 : f64
  %u22_fd0 = arith.divf %u22_d0, %two_h : f64
  %c45 = arith.constant 45 : i64
  func.call @ctExpectNear(%u22_g0, %u22_fd0, %tol, %c45) : (f64, f64, f64, i64) -> ()
  %u22_jv0, %u22_jt0 = ct.jvp @u22(%u22_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c46 = arith.constant 46 : i64
  func.call @ctExpectNear(%u22_jt0, %u22_fd0, %tol, %c46) : (f64, f64, f64, i64) -> ()
  // math.erf
  %u23_x0 = arith.constant 0.4 : f64
  %u23_v, %u23_g0 = ct.gradient @u23(%u23_x0) activity [active] : (f64) -> (f64, f64)
  %u23_p0 = arith.addf %u23_x0, %h : f64
  %u23_m0 = arith.subf %u23_x0, %h : f64
  %u23_fp0 = func.call @u23(%u23_p0) : (f64) -> f64
  %u23_fm0 = func.call @u23(%u23_m0) : (f64) -> f64
  %u23_d0 = arith.subf %u23_fp0, %u23_fm0 : f64
  %u23_fd0 = arith.divf %u23_d0, %two_h : f64
  %c47 = arith.constant 47 : i64
  func.call @ctExpectNear(%u23_g0, %u23_fd0, %tol, %c47) : (f64, f64, f64, i64) -> ()
  %u23_jv0, %u23_jt0 = ct.jvp @u23(%u23_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c48 = arith.constant 48 : i64
  func.call @ctExpectNear(%u23_jt0, %u23_fd0, %tol, %c48) : (f64, f64, f64, i64) -> ()
  // math.erfc
  %u24_x0 = arith.constant 0.4 : f64
  %u24_v, %u24_g0 = ct.gradient @u24(%u24_x0) activity [active] : (f64) -> (f64, f64)
  %u24_p0 = arith.addf %u24_x0, %h : f64
  %u24_m0 = arith.subf %u24_x0, %h : f64
  %u24_fp0 = func.call @u24(%u24_p0) : (f64) -> f64
  %u24_fm0 = func.call @u24(%u24_m0) : (f64) -> f64
  %u24_d0 = arith.subf %u24_fp0, %u24_fm0 : f64
  %u24_fd0 = arith.divf %u24_d0, %two_h : f64
  %c49 = arith.constant 49 : i64
  func.call @ctExpectNear(%u24_g0, %u24_fd0, %tol, %c49) : (f64, f64, f64, i64) -> ()
  %u24_jv0, %u24_jt0 = ct.jvp @u24(%u24_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c50 = arith.constant 50 : i64
  func.call @ctExpectNear(%u24_jt0, %u24_fd0, %tol, %c50) : (f64, f64, f64, i64) -> ()
  // math.floor
  %u25_x0 = arith.constant 1.3 : f64
  %u25_v, %u25_g0 = ct.gradient @u25(%u25_x0) activity [active] : (f64) -> (f64, f64)
  %u25_p0 = arith.addf %u25_x0, %h : f64
  %u25_m0 = arith.subf %u25_x0, %h : f64
  %u25_fp0 = func.call @u25(%u25_p0) : (f64) -> f64
  %u25_fm0 = func.call @u25(%u25_m0) : (f64) -> f64
  %u25_d0 = arith.subf %u25_fp0, %u25_fm0 : f64
  %u25_fd0 = arith.divf %u25_d0, %two_h : f64
  %c51 = arith.constant 51 : i64
  func.call @ctExpectNear(%u25_g0, %u25_fd0, %tol, %c51) : (f64, f64, f64, i64) -> ()
  %u25_jv0, %u25_jt0 = ct.jvp @u25(%u25_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c52 = arith.constant 52 : i64
  func.call @ctExpectNear(%u25_jt0, %u25_fd0, %tol, %c52) : (f64, f64, f64, i64) -> ()
  // math.ceil
  %u26_x0 = arith.constant 1.3 : f64
  %u26_v, %u26_g0 = ct.gradient @u26(%u26_x0) activity [active] : (f64) -> (f64, f64)
  %u26_p0 = arith.addf %u26_x0, %h : f64
  %u26_m0 = arith.subf %u26_x0, %h : f64
  %u26_fp0 = func.call @u26(%u26_p0) : (f64) -> f64
  %u26_fm0 = func.call @u26(%u26_m0) : (f64) -> f64
  %u26_d0 = arith.subf %u26_fp0, %u26_fm0 : f64
  %u26_fd0 = arith.divf %u26_d0, %two_h : f64
  %c53 = arith.constant 53 : i64
  func.call @ctExpectNear(%u26_g0, %u26_fd0, %tol, %c53) : (f64, f64, f64, i64) -> ()
  %u26_jv0, %u26_jt0 = ct.jvp @u26(%u26_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c54 = arith.constant 54 : i64
  func.call @ctExpectNear(%u26_jt0, %u26_fd0, %tol, %c54) : (f64, f64, f64, i64) -> ()
  // math.round
  %u27_x0 = arith.constant 1.3 : f64
  %u27_v, %u27_g0 = ct.gradient @u27(%u27_x0) activity [active] : (f64) -> (f64, f64)
  %u27_p0 = arith.addf %u27_x0, %h : f64
  %u27_m0 = arith.subf %u27_x0, %h : f64
  %u27_fp0 = func.call @u27(%u27_p0) : (f64) -> f64
  %u27_fm0 = func.call @u27(%u27_m0) : (f64) -> f64
  %u27_d0 = arith.subf %u27_fp0, %u27_fm0 : f64
  %u27_fd0 = arith.divf %u27_d0, %two_h : f64
  %c55 = arith.constant 55 : i64
  func.call @ctExpectNear(%u27_g0, %u27_fd0, %tol, %c55) : (f64, f64, f64, i64) -> ()
  %u27_jv0, %u27_jt0 = ct.jvp @u27(%u27_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c56 = arith.constant 56 : i64
  func.call @ctExpectNear(%u27_jt0, %u27_fd0, %tol, %c56) : (f64, f64, f64, i64) -> ()
  // math.roundeven
  %u28_x0 = arith.constant 1.3 : f64
  %u28_v, %u28_g0 = ct.gradient @u28(%u28_x0) activity [active] : (f64) -> (f64, f64)
  %u28_p0 = arith.addf %u28_x0, %h : f64
  %u28_m0 = arith.subf %u28_x0, %h : f64
  %u28_fp0 = func.call @u28(%u28_p0) : (f64) -> f64
  %u28_fm0 = func.call @u28(%u28_m0) : (f64) -> f64
  %u28_d0 = arith.subf %u28_fp0, %u28_fm0 : f64
  %u28_fd0 = arith.divf %u28_d0, %two_h : f64
  %c57 = arith.constant 57 : i64
  func.call @ctExpectNear(%u28_g0, %u28_fd0, %tol, %c57) : (f64, f64, f64, i64) -> ()
  %u28_jv0, %u28_jt0 = ct.jvp @u28(%u28_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c58 = arith.constant 58 : i64
  func.call @ctExpectNear(%u28_jt0, %u28_fd0, %tol, %c58) : (f64, f64, f64, i64) -> ()
  // math.trunc
  %u29_x0 = arith.constant 1.3 : f64
  %u29_v, %u29_g0 = ct.gradient @u29(%u29_x0) activity [active] : (f64) -> (f64, f64)
  %u29_p0 = arith.addf %u29_x0, %h : f64
  %u29_m0 = arith.subf %u29_x0, %h : f64
  %u29_fp0 = func.call @u29(%u29_p0) : (f64) -> f64
  %u29_fm0 = func.call @u29(%u29_m0) : (f64) -> f64
  %u29_d0 = arith.subf %u29_fp0, %u29_fm0 : f64
  %u29_fd0 = arith.divf %u29_d0, %two_h : f64
  %c59 = arith.constant 59 : i64
  func.call @ctExpectNear(%u29_g0, %u29_fd0, %tol, %c59) : (f64, f64, f64, i64) -> ()
  %u29_jv0, %u29_jt0 = ct.jvp @u29(%u29_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c60 = arith.constant 60 : i64
  func.call @ctExpectNear(%u29_jt0, %u29_fd0, %tol, %c60) : (f64, f64, f64, i64) -> ()
  // arith.negf
  %u30_x0 = arith.constant 0.9 : f64
  %u30_v, %u30_g0 = ct.gradient @u30(%u30_x0) activity [active] : (f64) -> (f64, f64)
  %u30_p0 = arith.addf %u30_x0, %h : f64
  %u30_m0 = arith.subf %u30_x0, %h : f64
  %u30_fp0 = func.call @u30(%u30_p0) : (f64) -> f64
  %u30_fm0 = func.call @u30(%u30_m0) : (f64) -> f64
  %u30_d0 = arith.subf %u30_fp0, %u30_fm0 : f64
  %u30_fd0 = arith.divf %u30_d0, %two_h : f64
  %c61 = arith.constant 61 : i64
  func.call @ctExpectNear(%u30_g0, %u30_fd0, %tol, %c61) : (f64, f64, f64, i64) -> ()
  %u30_jv0, %u30_jt0 = ct.jvp @u30(%u30_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c62 = arith.constant 62 : i64
  func.call @ctExpectNear(%u30_jt0, %u30_fd0, %tol, %c62) : (f64, f64, f64, i64) -> ()
  // arith.addf
  %b0_x0 = arith.constant 1.5 : f64
  %b0_x1 = arith.constant 0.7 : f64
  %b0_v, %b0_g0, %b0_g1 = ct.gradient @b0(%b0_x0, %b0_x1) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %b0_p0 = arith.addf %b0_x0, %h : f64
  %b0_m0 = arith.subf %b0_x0, %h : f64
  %b0_fp0 = func.call @b0(%b0_p0, %b0_x1) : (f64, f64) -> f64
  %b0_fm0 = func.call @b0(%b0_m0, %b0_x1) : (f64, f64) -> f64
  %b0_d0 = arith.subf %b0_fp0, %b0_fm0 : f64
  %b0_fd0 = arith.divf %b0_d0, %two_h : f64
  %c63 = arith.constant 63 : i64
  func.call @ctExpectNear(%b0_g0, %b0_fd0, %tol, %c63) : (f64, f64, f64, i64) -> ()
  %b0_jv0, %b0_jt0 = ct.jvp @b0(%b0_x0, %b0_x1) tangents(%one, %zero) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c64 = arith.constant 64 : i64
  func.call @ctExpectNear(%b0_jt0, %b0_fd0, %tol, %c64) : (f64, f64, f64, i64) -> ()
  %b0_p1 = arith.addf %b0_x1, %h : f64
  %b0_m1 = arith.subf %b0_x1, %h : f64
  %b0_fp1 = func.call @b0(%b0_x0, %b0_p1) : (f64, f64) -> f64
  %b0_fm1 = func.call @b0(%b0_x0, %b0_m1) : (f64, f64) -> f64
  %b0_d1 = arith.subf %b0_fp1, %b0_fm1 : f64
  %b0_fd1 = arith.divf %b0_d1, %two_h : f64
  %c65 = arith.constant 65 : i64
  func.call @ctExpectNear(%b0_g1, %b0_fd1, %tol, %c65) : (f64, f64, f64, i64) -> ()
  %b0_jv1, %b0_jt1 = ct.jvp @b0(%b0_x0, %b0_x1) tangents(%zero, %one) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c66 = arith.constant 66 : i64
  func.call @ctExpectNear(%b0_jt1, %b0_fd1, %tol, %c66) : (f64, f64, f64, i64) -> ()
  // arith.subf
  %b1_x0 = arith.constant 1.5 : f64
  %b1_x1 = arith.constant 0.7 : f64
  %b1_v, %b1_g0, %b1_g1 = ct.gradient @b1(%b1_x0, %b1_x1) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %b1_p0 = arith.addf %b1_x0, %h : f64
  %b1_m0 = arith.subf %b1_x0, %h : f64
  %b1_fp0 = func.call @b1(%b1_p0, %b1_x1) : (f64, f64) -> f64
  %b1_fm0 = func.call @b1(%b1_m0, %b1_x1) : (f64, f64) -> f64
  %b1_d0 = arith.subf %b1_fp0, %b1_fm0 : f64
  %b1_fd0 = arith.divf %b1_d0, %two_h : f64
  %c67 = arith.constant 67 : i64
  func.call @ctExpectNear(%b1_g0, %b1_fd0, %tol, %c67) : (f64, f64, f64, i64) -> ()
  %b1_jv0, %b1_jt0 = ct.jvp @b1(%b1_x0, %b1_x1) tangents(%one, %zero) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c68 = arith.constant 68 : i64
  func.call @ctExpectNear(%b1_jt0, %b1_fd0, %tol, %c68) : (f64, f64, f64, i64) -> ()
  %b1_p1 = arith.addf %b1_x1, %h : f64
  %b1_m1 = arith.subf %b1_x1, %h : f64
  %b1_fp1 = func.call @b1(%b1_x0, %b1_p1) : (f64, f64) -> f64
  %b1_fm1 = func.call @b1(%b1_x0, %b1_m1) : (f64, f64) -> f64
  %b1_d1 = arith.subf %b1_fp1, %b1_fm1 : f64
  %b1_fd1 = arith.divf %b1_d1, %two_h : f64
  %c69 = arith.constant 69 : i64
  func.call @ctExpectNear(%b1_g1, %b1_fd1, %tol, %c69) : (f64, f64, f64, i64) -> ()
  %b1_jv1, %b1_jt1 = ct.jvp @b1(%b1_x0, %b1_x1) tangents(%zero, %one) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c70 = arith.constant 70 : i64
  func.call @ctExpectNear(%b1_jt1, %b1_fd1, %tol, %c70) : (f64, f64, f64, i64) -> ()
  // arith.mulf
  %b2_x0 = arith.constant 1.5 : f64
  %b2_x1 = arith.constant 0.7 : f64
  %b2_v, %b2_g0, %b2_g1 = ct.gradient @b2(%b2_x0, %b2_x1) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %b2_p0 = arith.addf %b2_x0, %h : f64
  %b2_m0 = arith.subf %b2_x0, %h : f64
  %b2_fp0 = func.call @b2(%b2_p0, %b2_x1) : (f64, f64) -> f64
  %b2_fm0 = func.call @b2(%b2_m0, %b2_x1) : (f64, f64) -> f64
  %b2_d0 = arith.subf %b2_fp0, %b2_fm0 : f64
  %b2_fd0 = arith.divf %b2_d0, %two_h : f64
  %c71 = arith.constant 71 : i64
  func.call @ctExpectNear(%b2_g0, %b2_fd0, %tol, %c71) : (f64, f64, f64, i64) -> ()
  %b2_jv0, %b2_jt0 = ct.jvp @b2(%b2_x0, %b2_x1) tangents(%one, %zero) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c72 = arith.constant 72 : i64
  func.call @ctExpectNear(%b2_jt0, %b2_fd0, %tol, %c72) : (f64, f64, f64, i64) -> ()
  %b2_p1 = arith.addf %b2_x1, %h : f64
  %b2_m1 = arith.subf %b2_x1, %h : f64
  %b2_fp1 = func.call @b2(%b2_x0, %b2_p1) : (f64, f64) -> f64
  %b2_fm1 = func.call @b2(%b2_x0, %b2_m1) : (f64, f64) -> f64
  %b2_d1 = arith.subf %b2_fp1, %b2_fm1 : f64
  %b2_fd1 = arith.divf %b2_d1, %two_h : f64
  %c73 = arith.constant 73 : i64
  func.call @ctExpectNear(%b2_g1, %b2_fd1, %tol, %c73) : (f64, f64, f64, i64) -> ()
  %b2_jv1, %b2_jt1 = ct.jvp @b2(%b2_x0, %b2_x1) tangents(%zero, %one) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c74 = arith.constant 74 : i64
  func.call @ctExpectNear(%b2_jt1, %b2_fd1, %tol, %c74) : (f64, f64, f64, i64) -> ()
  // arith.divf
  %b3_x0 = arith.constant 1.5 : f64
  %b3_x1 = arith.constant 0.7 : f64
  %b3_v, %b3_g0, %b3_g1 = ct.gradient @b3(%b3_x0, %b3_x1) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %b3_p0 = arith.addf %b3_x0, %h : f64
  %b3_m0 = arith.subf %b3_x0, %h : f64
  %b3_fp0 = func.call @b3(%b3_p0, %b3_x1) : (f64, f64) -> f64
  %b3_fm0 = func.call @b3(%b3_m0, %b3_x1) : (f64, f64) -> f64
  %b3_d0 = arith.subf %b3_fp0, %b3_fm0 : f64
  %b3_fd0 = arith.divf %b3_d0, %two_h : f64
  %c75 = arith.constant 75 : i64
  func.call @ctExpectNear(%b3_g0, %b3_fd0, %tol, %c75) : (f64, f64, f64, i64) -> ()
  %b3_jv0, %b3_jt0 = ct.jvp @b3(%b3_x0, %b3_x1) tangents(%one, %zero) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c76 = arith.constant 76 : i64
  func.call @ctExpectNear(%b3_jt0, %b3_fd0, %tol, %c76) : (f64, f64, f64, i64) -> ()
  %b3_p1 = arith.addf %b3_x1, %h : f64
  %b3_m1 = arith.subf %b3_x1, %h : f64
  %b3_fp1 = func.call @b3(%b3_x0, %b3_p1) : (f64, f64) -> f64
  %b3_fm1 = func.call @b3(%b3_x0, %b3_m1) : (f64, f64) -> f64
  %b3_d1 = arith.subf %b3_fp1, %b3_fm1 : f64
  %b3_fd1 = arith.divf %b3_d1, %two_h : f64
  %c77 = arith.constant 77 : i64
  func.call @ctExpectNear(%b3_g1, %b3_fd1, %tol, %c77) : (f64, f64, f64, i64) -> ()
  %b3_jv1, %b3_jt1 = ct.jvp @b3(%b3_x0, %b3_x1) tangents(%zero, %one) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c78 = arith.constant 78 : i64
  func.call @ctExpectNear(%b3_jt1, %b3_fd1, %tol, %c78) : (f64, f64, f64, i64) -> ()
  // arith.remf
  %b4_x0 = arith.constant 2.5 : f64
  %b4_x1 = arith.constant 0.7 : f64
  %b4_v, %b4_g0, %b4_g1 = ct.gradient @b4(%b4_x0, %b4_x1) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %b4_p0 = arith.addf %b4_x0, %h : f64
  %b4_m0 = arith.subf %b4_x0, %h : f64
  %b4_fp0 = func.call @b4(%b4_p0, %b4_x1) : (f64, f64) -> f64
  %b4_fm0 = func.call @b4(%b4_m0, %b4_x1) : (f64, f64) -> f64
  %b4_d0 = arith.subf %b4_fp0, %b4_fm0 : f64
  %b4_fd0 = arith.divf %b4_d0, %two_h : f64
  %c79 = arith.constant 79 : i64
  func.call @ctExpectNear(%b4_g0, %b4_fd0, %tol, %c79) : (f64, f64, f64, i64) -> ()
  %b4_jv0, %b4_jt0 = ct.jvp @b4(%b4_x0, %b4_x1) tangents(%one, %zero) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c80 = arith.constant 80 : i64
  func.call @ctExpectNear(%b4_jt0, %b4_fd0, %tol, %c80) : (f64, f64, f64, i64) -> ()
  %b4_p1 = arith.addf %b4_x1, %h : f64
  %b4_m1 = arith.subf %b4_x1, %h : f64
  %b4_fp1 = func.call @b4(%b4_x0, %b4_p1) : (f64, f64) -> f64
  %b4_fm1 = func.call @b4(%b4_x0, %b4_m1) : (f64, f64) -> f64
  %b4_d1 = arith.subf %b4_fp1, %b4_fm1 : f64
  %b4_fd1 = arith.divf %b4_d1, %two_h : f64
  %c81 = arith.constant 81 : i64
  func.call @ctExpectNear(%b4_g1, %b4_fd1, %tol, %c81) : (f64, f64, f64, i64) -> ()
  %b4_jv1, %b4_jt1 = ct.jvp @b4(%b4_x0, %b4_x1) tangents(%zero, %one) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c82 = arith.constant 82 : i64
  func.call @ctExpectNear(%b4_jt1, %b4_fd1, %tol, %c82) : (f64, f64, f64, i64) -> ()
  // arith.maximumf
  %b5_x0 = arith.constant 1.5 : f64
  %b5_x1 = arith.constant 0.7 : f64
  %b5_v, %b5_g0, %b5_g1 = ct.gradient @b5(%b5_x0, %b5_x1) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %b5_p0 = arith.addf %b5_x0, %h : f64
  %b5_m0 = arith.subf %b5_x0, %h : f64
  %b5_fp0 = func.call @b5(%b5_p0, %b5_x1) : (f64, f64) -> f64
  %b5_fm0 = func.call @b5(%b5_m0, %b5_x1) : (f64, f64) -> f64
  %b5_d0 = arith.subf %b5_fp0, %b5_fm0 : f64
  %b5_fd0 = arith.divf %b5_d0, %two_h : f64
  %c83 = arith.constant 83 : i64
  func.call @ctExpectNear(%b5_g0, %b5_fd0, %tol, %c83) : (f64, f64, f64, i64) -> ()
  %b5_jv0, %b5_jt0 = ct.jvp @b5(%b5_x0, %b5_x1) tangents(%one, %zero) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c84 = arith.constant 84 : i64
  func.call @ctExpectNear(%b5_jt0, %b5_fd0, %tol, %c84) : (f64, f64, f64, i64) -> ()
  %b5_p1 = arith.addf %b5_x1, %h : f64
  %b5_m1 = arith.subf %b5_x1, %h : f64
  %b5_fp1 = func.call @b5(%b5_x0, %b5_p1) : (f64, f64) -> f64
  %b5_fm1 = func.call @b5(%b5_x0, %b5_m1) : (f64, f64) -> f64
  %b5_d1 = arith.subf %b5_fp1, %b5_fm1 : f64
  %b5_fd1 = arith.divf %b5_d1, %two_h : f64
  %c85 = arith.constant 85 : i64
  func.call @ctExpectNear(%b5_g1, %b5_fd1, %tol, %c85) : (f64, f64, f64, i64) -> ()
  %b5_jv1, %b5_jt1 = ct.jvp @b5(%b5_x0, %b5_x1) tangents(%zero, %one) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c86 = arith.constant 86 : i64
  func.call @ctExpectNear(%b5_jt1, %b5_fd1, %tol, %c86) : (f64, f64, f64, i64) -> ()
  // arith.maxnumf
  %b6_x0 = arith.constant 0.5 : f64
  %b6_x1 = arith.constant 0.7 : f64
  %b6_v, %b6_g0, %b6_g1 = ct.gradient @b6(%b6_x0, %b6_x1) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %b6_p0 = arith.addf %b6_x0, %h : f64
  %b6_m0 = arith.subf %b6_x0, %h : f64
  %b6_fp0 = func.call @b6(%b6_p0, %b6_x1) : (f64, f64) -> f64
  %b6_fm0 = func.call @b6(%b6_m0, %b6_x1) : (f64, f64) -> f64
  %b6_d0 = arith.subf %b6_fp0, %b6_fm0 : f64
  %b6_fd0 = arith.divf %b6_d0, %two_h : f64
  %c87 = arith.constant 87 : i64
  func.call @ctExpectNear(%b6_g0, %b6_fd0, %tol, %c87) : (f64, f64, f64, i64) -> ()
  %b6_jv0, %b6_jt0 = ct.jvp @b6(%b6_x0, %b6_x1) tangents(%one, %zero) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c88 = arith.constant 88 : i64
  func.call @ctExpectNear(%b6_jt0, %b6_fd0, %tol, %c88) : (f64, f64, f64, i64) -> ()
  %b6_p1 = arith.addf %b6_x1, %h : f64
  %b6_m1 = arith.subf %b6_x1, %h : f64
  %b6_fp1 = func.call @b6(%b6_x0, %b6_p1) : (f64, f64) -> f64
  %b6_fm1 = func.call @b6(%b6_x0, %b6_m1) : (f64, f64) -> f64
  %b6_d1 = arith.subf %b6_fp1, %b6_fm1 : f64
  %b6_fd1 = arith.divf %b6_d1, %two_h : f64
  %c89 = arith.constant 89 : i64
  func.call @ctExpectNear(%b6_g1, %b6_fd1, %tol, %c89) : (f64, f64, f64, i64) -> ()
  %b6_jv1, %b6_jt1 = ct.jvp @b6(%b6_x0, %b6_x1) tangents(%zero, %one) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c90 = arith.constant 90 : i64
  func.call @ctExpectNear(%b6_jt1, %b6_fd1, %tol, %c90) : (f64, f64, f64, i64) -> ()
  // arith.minimumf
  %b7_x0 = arith.constant 1.5 : f64
  %b7_x1 = arith.constant 0.7 : f64
  %b7_v, %b7_g0, %b7_g1 = ct.gradient @b7(%b7_x0, %b7_x1) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %b7_p0 = arith.addf %b7_x0, %h : f64
  %b7_m0 = arith.subf %b7_x0, %h : f64
  %b7_fp0 = func.call @b7(%b7_p0, %b7_x1) : (f64, f64) -> f64
  %b7_fm0 = func.call @b7(%b7_m0, %b7_x1) : (f64, f64) -> f64
  %b7_d0 = arith.subf %b7_fp0, %b7_fm0 : f64
  %b7_fd0 = arith.divf %b7_d0, %two_h : f64
  %c91 = arith.constant 91 : i64
  func.call @ctExpectNear(%b7_g0, %b7_fd0, %tol, %c91) : (f64, f64, f64, i64) -> ()
  %b7_jv0, %b7_jt0 = ct.jvp @b7(%b7_x0, %b7_x1) tangents(%one, %zero) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c92 = arith.constant 92 : i64
  func.call @ctExpectNear(%b7_jt0, %b7_fd0, %tol, %c92) : (f64, f64, f64, i64) -> ()
  %b7_p1 = arith.addf %b7_x1, %h : f64
  %b7_m1 = arith.subf %b7_x1, %h : f64
  %b7_fp1 = func.call @b7(%b7_x0, %b7_p1) : (f64, f64) -> f64
  %b7_fm1 = func.call @b7(%b7_x0, %b7_m1) : (f64, f64) -> f64
  %b7_d1 = arith.subf %b7_fp1, %b7_fm1 : f64
  %b7_fd1 = arith.divf %b7_d1, %two_h : f64
  %c93 = arith.constant 93 : i64
  func.call @ctExpectNear(%b7_g1, %b7_fd1, %tol, %c93) : (f64, f64, f64, i64) -> ()
  %b7_jv1, %b7_jt1 = ct.jvp @b7(%b7_x0, %b7_x1) tangents(%zero, %one) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c94 = arith.constant 94 : i64
  func.call @ctExpectNear(%b7_jt1, %b7_fd1, %tol, %c94) : (f64, f64, f64, i64) -> ()
  // arith.minnumf
  %b8_x0 = arith.constant 0.5 : f64
  %b8_x1 = arith.constant 0.7 : f64
  %b8_v, %b8_g0, %b8_g1 = ct.gradient @b8(%b8_x0, %b8_x1) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %b8_p0 = arith.addf %b8_x0, %h : f64
  %b8_m0 = arith.subf %b8_x0, %h : f64
  %b8_fp0 = func.call @b8(%b8_p0, %b8_x1) : (f64, f64) -> f64
  %b8_fm0 = func.call @b8(%b8_m0, %b8_x1) : (f64, f64) -> f64
  %b8_d0 = arith.subf %b8_fp0, %b8_fm0 : f64
  %b8_fd0 = arith.divf %b8_d0, %two_h : f64
  %c95 = arith.constant 95 : i64
  func.call @ctExpectNear(%b8_g0, %b8_fd0, %tol, %c95) : (f64, f64, f64, i64) -> ()
  %b8_jv0, %b8_jt0 = ct.jvp @b8(%b8_x0, %b8_x1) tangents(%one, %zero) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c96 = arith.constant 96 : i64
  func.call @ctExpectNear(%b8_jt0, %b8_fd0, %tol, %c96) : (f64, f64, f64, i64) -> ()
  %b8_p1 = arith.addf %b8_x1, %h : f64
  %b8_m1 = arith.subf %b8_x1, %h : f64
  %b8_fp1 = func.call @b8(%b8_x0, %b8_p1) : (f64, f64) -> f64
  %b8_fm1 = func.call @b8(%b8_x0, %b8_m1) : (f64, f64) -> f64
  %b8_d1 = arith.subf %b8_fp1, %b8_fm1 : f64
  %b8_fd1 = arith.divf %b8_d1, %two_h : f64
  %c97 = arith.constant 97 : i64
  func.call @ctExpectNear(%b8_g1, %b8_fd1, %tol, %c97) : (f64, f64, f64, i64) -> ()
  %b8_jv1, %b8_jt1 = ct.jvp @b8(%b8_x0, %b8_x1) tangents(%zero, %one) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c98 = arith.constant 98 : i64
  func.call @ctExpectNear(%b8_jt1, %b8_fd1, %tol, %c98) : (f64, f64, f64, i64) -> ()
  // math.powf
  %b9_x0 = arith.constant 1.5 : f64
  %b9_x1 = arith.constant 0.7 : f64
  %b9_v, %b9_g0, %b9_g1 = ct.gradient @b9(%b9_x0, %b9_x1) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %b9_p0 = arith.addf %b9_x0, %h : f64
  %b9_m0 = arith.subf %b9_x0, %h : f64
  %b9_fp0 = func.call @b9(%b9_p0, %b9_x1) : (f64, f64) -> f64
  %b9_fm0 = func.call @b9(%b9_m0, %b9_x1) : (f64, f64) -> f64
  %b9_d0 = arith.subf %b9_fp0, %b9_fm0 : f64
  %b9_fd0 = arith.divf %b9_d0, %two_h : f64
  %c99 = arith.constant 99 : i64
  func.call @ctExpectNear(%b9_g0, %b9_fd0, %tol, %c99) : (f64, f64, f64, i64) -> ()
  %b9_jv0, %b9_jt0 = ct.jvp @b9(%b9_x0, %b9_x1) tangents(%one, %zero) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c100 = arith.constant 100 : i64
  func.call @ctExpectNear(%b9_jt0, %b9_fd0, %tol, %c100) : (f64, f64, f64, i64) -> ()
  %b9_p1 = arith.addf %b9_x1, %h : f64
  %b9_m1 = arith.subf %b9_x1, %h : f64
  %b9_fp1 = func.call @b9(%b9_x0, %b9_p1) : (f64, f64) -> f64
  %b9_fm1 = func.call @b9(%b9_x0, %b9_m1) : (f64, f64) -> f64
  %b9_d1 = arith.subf %b9_fp1, %b9_fm1 : f64
  %b9_fd1 = arith.divf %b9_d1, %two_h : f64
  %c101 = arith.constant 101 : i64
  func.call @ctExpectNear(%b9_g1, %b9_fd1, %tol, %c101) : (f64, f64, f64, i64) -> ()
  %b9_jv1, %b9_jt1 = ct.jvp @b9(%b9_x0, %b9_x1) tangents(%zero, %one) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c102 = arith.constant 102 : i64
  func.call @ctExpectNear(%b9_jt1, %b9_fd1, %tol, %c102) : (f64, f64, f64, i64) -> ()
  // math.atan2
  %b10_x0 = arith.constant 0.5 : f64
  %b10_x1 = arith.constant 0.7 : f64
  %b10_v, %b10_g0, %b10_g1 = ct.gradient @b10(%b10_x0, %b10_x1) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %b10_p0 = arith.addf %b10_x0, %h : f64
  %b10_m0 = arith.subf %b10_x0, %h : f64
  %b10_fp0 = func.call @b10(%b10_p0, %b10_x1) : (f64, f64) -> f64
  %b10_fm0 = func.call @b10(%b10_m0, %b10_x1) : (f64, f64) -> f64
  %b10_d0 = arith.subf %b10_fp0, %b10_fm0 : f64
  %b10_fd0 = arith.divf %b10_d0, %two_h : f64
  %c103 = arith.constant 103 : i64
  func.call @ctExpectNear(%b10_g0, %b10_fd0, %tol, %c103) : (f64, f64, f64, i64) -> ()
  %b10_jv0, %b10_jt0 = ct.jvp @b10(%b10_x0, %b10_x1) tangents(%one, %zero) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c104 = arith.constant 104 : i64
  func.call @ctExpectNear(%b10_jt0, %b10_fd0, %tol, %c104) : (f64, f64, f64, i64) -> ()
  %b10_p1 = arith.addf %b10_x1, %h : f64
  %b10_m1 = arith.subf %b10_x1, %h : f64
  %b10_fp1 = func.call @b10(%b10_x0, %b10_p1) : (f64, f64) -> f64
  %b10_fm1 = func.call @b10(%b10_x0, %b10_m1) : (f64, f64) -> f64
  %b10_d1 = arith.subf %b10_fp1, %b10_fm1 : f64
  %b10_fd1 = arith.divf %b10_d1, %two_h : f64
  %c105 = arith.constant 105 : i64
  func.call @ctExpectNear(%b10_g1, %b10_fd1, %tol, %c105) : (f64, f64, f64, i64) -> ()
  %b10_jv1, %b10_jt1 = ct.jvp @b10(%b10_x0, %b10_x1) tangents(%zero, %one) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c106 = arith.constant 106 : i64
  func.call @ctExpectNear(%b10_jt1, %b10_fd1, %tol, %c106) : (f64, f64, f64, i64) -> ()
  // math.copysign
  %b11_x0 = arith.constant 1.5 : f64
  %b11_x1 = arith.constant -0.7 : f64
  %b11_v, %b11_g0, %b11_g1 = ct.gradient @b11(%b11_x0, %b11_x1) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %b11_p0 = arith.addf %b11_x0, %h : f64
  %b11_m0 = arith.subf %b11_x0, %h : f64
  %b11_fp0 = func.call @b11(%b11_p0, %b11_x1) : (f64, f64) -> f64
  %b11_fm0 = func.call @b11(%b11_m0, %b11_x1) : (f64, f64) -> f64
  %b11_d0 = arith.subf %b11_fp0, %b11_fm0 : f64
  %b11_fd0 = arith.divf %b11_d0, %two_h : f64
  %c107 = arith.constant 107 : i64
  func.call @ctExpectNear(%b11_g0, %b11_fd0, %tol, %c107) : (f64, f64, f64, i64) -> ()
  %b11_jv0, %b11_jt0 = ct.jvp @b11(%b11_x0, %b11_x1) tangents(%one, %zero) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c108 = arith.constant 108 : i64
  func.call @ctExpectNear(%b11_jt0, %b11_fd0, %tol, %c108) : (f64, f64, f64, i64) -> ()
  %b11_p1 = arith.addf %b11_x1, %h : f64
  %b11_m1 = arith.subf %b11_x1, %h : f64
  %b11_fp1 = func.call @b11(%b11_x0, %b11_p1) : (f64, f64) -> f64
  %b11_fm1 = func.call @b11(%b11_x0, %b11_m1) : (f64, f64) -> f64
  %b11_d1 = arith.subf %b11_fp1, %b11_fm1 : f64
  %b11_fd1 = arith.divf %b11_d1, %two_h : f64
  %c109 = arith.constant 109 : i64
  func.call @ctExpectNear(%b11_g1, %b11_fd1, %tol, %c109) : (f64, f64, f64, i64) -> ()
  %b11_jv1, %b11_jt1 = ct.jvp @b11(%b11_x0, %b11_x1) tangents(%zero, %one) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c110 = arith.constant 110 : i64
  func.call @ctExpectNear(%b11_jt1, %b11_fd1, %tol, %c110) : (f64, f64, f64, i64) -> ()
  // math.fpowi
  %fpowi_x0 = arith.constant 1.3 : f64
  %fpowi_v, %fpowi_g0 = ct.gradient @fpowi(%fpowi_x0) activity [active] : (f64) -> (f64, f64)
  %fpowi_p0 = arith.addf %fpowi_x0, %h : f64
  %fpowi_m0 = arith.subf %fpowi_x0, %h : f64
  %fpowi_fp0 = func.call @fpowi(%fpowi_p0) : (f64) -> f64
  %fpowi_fm0 = func.call @fpowi(%fpowi_m0) : (f64) -> f64
  %fpowi_d0 = arith.subf %fpowi_fp0, %fpowi_fm0 : f64
  %fpowi_fd0 = arith.divf %fpowi_d0, %two_h : f64
  %c111 = arith.constant 111 : i64
  func.call @ctExpectNear(%fpowi_g0, %fpowi_fd0, %tol, %c111) : (f64, f64, f64, i64) -> ()
  %fpowi_jv0, %fpowi_jt0 = ct.jvp @fpowi(%fpowi_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c112 = arith.constant 112 : i64
  func.call @ctExpectNear(%fpowi_jt0, %fpowi_fd0, %tol, %c112) : (f64, f64, f64, i64) -> ()
  // math.fma
  %fma_x0 = arith.constant 1.3 : f64
  %fma_x1 = arith.constant 0.4 : f64
  %fma_x2 = arith.constant 2.0 : f64
  %fma_v, %fma_g0, %fma_g1, %fma_g2 = ct.gradient @fma(%fma_x0, %fma_x1, %fma_x2) activity [active, active, active] : (f64, f64, f64) -> (f64, f64, f64, f64)
  %fma_p0 = arith.addf %fma_x0, %h : f64
  %fma_m0 = arith.subf %fma_x0, %h : f64
  %fma_fp0 = func.call @fma(%fma_p0, %fma_x1, %fma_x2) : (f64, f64, f64) -> f64
  %fma_fm0 = func.call @fma(%fma_m0, %fma_x1, %fma_x2) : (f64, f64, f64) -> f64
  %fma_d0 = arith.subf %fma_fp0, %fma_fm0 : f64
  %fma_fd0 = arith.divf %fma_d0, %two_h : f64
  %c113 = arith.constant 113 : i64
  func.call @ctExpectNear(%fma_g0, %fma_fd0, %tol, %c113) : (f64, f64, f64, i64) -> ()
  %fma_jv0, %fma_jt0 = ct.jvp @fma(%fma_x0, %fma_x1, %fma_x2) tangents(%one, %zero, %zero) activity [active, active, active] : (f64, f64, f64, f64, f64, f64) -> (f64, f64)
  %c114 = arith.constant 114 : i64
  func.call @ctExpectNear(%fma_jt0, %fma_fd0, %tol, %c114) : (f64, f64, f64, i64) -> ()
  %fma_p1 = arith.addf %fma_x1, %h : f64
  %fma_m1 = arith.subf %fma_x1, %h : f64
  %fma_fp1 = func.call @fma(%fma_x0, %fma_p1, %fma_x2) : (f64, f64, f64) -> f64
  %fma_fm1 = func.call @fma(%fma_x0, %fma_m1, %fma_x2) : (f64, f64, f64) -> f64
  %fma_d1 = arith.subf %fma_fp1, %fma_fm1 : f64
  %fma_fd1 = arith.divf %fma_d1, %two_h : f64
  %c115 = arith.constant 115 : i64
  func.call @ctExpectNear(%fma_g1, %fma_fd1, %tol, %c115) : (f64, f64, f64, i64) -> ()
  %fma_jv1, %fma_jt1 = ct.jvp @fma(%fma_x0, %fma_x1, %fma_x2) tangents(%zero, %one, %zero) activity [active, active, active] : (f64, f64, f64, f64, f64, f64) -> (f64, f64)
  %c116 = arith.constant 116 : i64
  func.call @ctExpectNear(%fma_jt1, %fma_fd1, %tol, %c116) : (f64, f64, f64, i64) -> ()
  %fma_p2 = arith.addf %fma_x2, %h : f64
  %fma_m2 = arith.subf %fma_x2, %h : f64
  %fma_fp2 = func.call @fma(%fma_x0, %fma_x1, %fma_p2) : (f64, f64, f64) -> f64
  %fma_fm2 = func.call @fma(%fma_x0, %fma_x1, %fma_m2) : (f64, f64, f64) -> f64
  %fma_d2 = arith.subf %fma_fp2, %fma_fm2 : f64
  %fma_fd2 = arith.divf %fma_d2, %two_h : f64
  %c117 = arith.constant 117 : i64
  func.call @ctExpectNear(%fma_g2, %fma_fd2, %tol, %c117) : (f64, f64, f64, i64) -> ()
  %fma_jv2, %fma_jt2 = ct.jvp @fma(%fma_x0, %fma_x1, %fma_x2) tangents(%zero, %zero, %one) activity [active, active, active] : (f64, f64, f64, f64, f64, f64) -> (f64, f64)
  %c118 = arith.constant 118 : i64
  func.call @ctExpectNear(%fma_jt2, %fma_fd2, %tol, %c118) : (f64, f64, f64, i64) -> ()
  // arith.select
  %select_x0 = arith.constant 0.3 : f64
  %select_x1 = arith.constant 0.9 : f64
  %select_v, %select_g0, %select_g1 = ct.gradient @select(%select_x0, %select_x1) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %select_p0 = arith.addf %select_x0, %h : f64
  %select_m0 = arith.subf %select_x0, %h : f64
  %select_fp0 = func.call @select(%select_p0, %select_x1) : (f64, f64) -> f64
  %select_fm0 = func.call @select(%select_m0, %select_x1) : (f64, f64) -> f64
  %select_d0 = arith.subf %select_fp0, %select_fm0 : f64
  %select_fd0 = arith.divf %select_d0, %two_h : f64
  %c119 = arith.constant 119 : i64
  func.call @ctExpectNear(%select_g0, %select_fd0, %tol, %c119) : (f64, f64, f64, i64) -> ()
  %select_jv0, %select_jt0 = ct.jvp @select(%select_x0, %select_x1) tangents(%one, %zero) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c120 = arith.constant 120 : i64
  func.call @ctExpectNear(%select_jt0, %select_fd0, %tol, %c120) : (f64, f64, f64, i64) -> ()
  %select_p1 = arith.addf %select_x1, %h : f64
  %select_m1 = arith.subf %select_x1, %h : f64
  %select_fp1 = func.call @select(%select_x0, %select_p1) : (f64, f64) -> f64
  %select_fm1 = func.call @select(%select_x0, %select_m1) : (f64, f64) -> f64
  %select_d1 = arith.subf %select_fp1, %select_fm1 : f64
  %select_fd1 = arith.divf %select_d1, %two_h : f64
  %c121 = arith.constant 121 : i64
  func.call @ctExpectNear(%select_g1, %select_fd1, %tol, %c121) : (f64, f64, f64, i64) -> ()
  %select_jv1, %select_jt1 = ct.jvp @select(%select_x0, %select_x1) tangents(%zero, %one) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c122 = arith.constant 122 : i64
  func.call @ctExpectNear(%select_jt1, %select_fd1, %tol, %c122) : (f64, f64, f64, i64) -> ()
  // arith.truncf
  %widths_x0 = arith.constant 1.25 : f64
  %widths_v, %widths_g0 = ct.gradient @widths(%widths_x0) activity [active] : (f64) -> (f64, f64)
  %widths_p0 = arith.addf %widths_x0, %h : f64
  %widths_m0 = arith.subf %widths_x0, %h : f64
  %widths_fp0 = func.call @widths(%widths_p0) : (f64) -> f64
  %widths_fm0 = func.call @widths(%widths_m0) : (f64) -> f64
  %widths_d0 = arith.subf %widths_fp0, %widths_fm0 : f64
  %widths_fd0 = arith.divf %widths_d0, %two_h : f64
  // f32 is too coarse for finite differences: d/dx x^2 = 2x = 2.5 exactly.
  %widths_exact = arith.constant 2.5 : f64
  %c123 = arith.constant 123 : i64
  func.call @ctExpectNear(%widths_g0, %widths_exact, %tol, %c123) : (f64, f64, f64, i64) -> ()
  %widths_jv0, %widths_jt0 = ct.jvp @widths(%widths_x0) tangents(%one) activity [active] : (f64, f64) -> (f64, f64)
  %c124 = arith.constant 124 : i64
  func.call @ctExpectNear(%widths_jt0, %widths_exact, %tol, %c124) : (f64, f64, f64, i64) -> ()
  // ct.hypot
  %hyp_x0 = arith.constant 0.5 : f64
  %hyp_x1 = arith.constant -0.7 : f64
  %hyp_v, %hyp_g0, %hyp_g1 = ct.gradient @hyp(%hyp_x0, %hyp_x1) activity [active, active] : (f64, f64) -> (f64, f64, f64)
  %hyp_p0 = arith.addf %hyp_x0, %h : f64
  %hyp_m0 = arith.subf %hyp_x0, %h : f64
  %hyp_fp0 = func.call @hyp(%hyp_p0, %hyp_x1) : (f64, f64) -> f64
  %hyp_fm0 = func.call @hyp(%hyp_m0, %hyp_x1) : (f64, f64) -> f64
  %hyp_d0 = arith.subf %hyp_fp0, %hyp_fm0 : f64
  %hyp_fd0 = arith.divf %hyp_d0, %two_h : f64
  %c125 = arith.constant 125 : i64
  func.call @ctExpectNear(%hyp_g0, %hyp_fd0, %tol, %c125) : (f64, f64, f64, i64) -> ()
  %hyp_jv0, %hyp_jt0 = ct.jvp @hyp(%hyp_x0, %hyp_x1) tangents(%one, %zero) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c126 = arith.constant 126 : i64
  func.call @ctExpectNear(%hyp_jt0, %hyp_fd0, %tol, %c126) : (f64, f64, f64, i64) -> ()
  %hyp_p1 = arith.addf %hyp_x1, %h : f64
  %hyp_m1 = arith.subf %hyp_x1, %h : f64
  %hyp_fp1 = func.call @hyp(%hyp_x0, %hyp_p1) : (f64, f64) -> f64
  %hyp_fm1 = func.call @hyp(%hyp_x0, %hyp_m1) : (f64, f64) -> f64
  %hyp_d1 = arith.subf %hyp_fp1, %hyp_fm1 : f64
  %hyp_fd1 = arith.divf %hyp_d1, %two_h : f64
  %c127 = arith.constant 127 : i64
  func.call @ctExpectNear(%hyp_g1, %hyp_fd1, %tol, %c127) : (f64, f64, f64, i64) -> ()
  %hyp_jv1, %hyp_jt1 = ct.jvp @hyp(%hyp_x0, %hyp_x1) tangents(%zero, %one) activity [active, active] : (f64, f64, f64, f64) -> (f64, f64)
  %c128 = arith.constant 128 : i64
  func.call @ctExpectNear(%hyp_jt1, %hyp_fd1, %tol, %c128) : (f64, f64, f64, i64) -> ()
  return
}
// CHECK: check 128: ok
