// Declarations of rules-as-written-lib.cpp: a small "solver library"
// compiled without the plugin, whose interface differentiable code cannot
// call (a matrix by value), and which counts its calls.
#pragma once

struct Matrix3 {
  double m[9]; // row-major
};

extern int solverCalls;

/// Solves A x = b for a symmetric positive definite A (Cholesky).
void cholesky_solve(Matrix3 a, const double *b, double *x);
