//===- CountedLoops.h - scf.while loops with a counter become scf.for -*- C++
//-*-===//

#ifndef COTANGENT_LIB_STRUCTURE_COUNTEDLOOPS_H
#define COTANGENT_LIB_STRUCTURE_COUNTEDLOOPS_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace cotangent::structure {

/// Rewrites `while (i < ub) { ...; i += step; }` into scf.for, keeping the
/// counter's value after the loop exact.
void populateCountedLoopPatterns(mlir::RewritePatternSet &patterns);

/// Replaces an scf.for iteration argument advanced by a loop-invariant
/// amount (a running index) with its closed form in the induction variable
/// (ClosedFormCounters.cpp).
void populateClosedFormCounterPatterns(mlir::RewritePatternSet &patterns);

} // namespace cotangent::structure

#endif // COTANGENT_LIB_STRUCTURE_COUNTEDLOOPS_H
