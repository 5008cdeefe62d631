//===- ChosenPlaces.h - Reads of a chosen place choose values ----*- C++
//-*-===//

#ifndef COTANGENT_LIB_STRUCTURE_CHOSENPLACES_H
#define COTANGENT_LIB_STRUCTURE_CHOSENPLACES_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace cotangent::structure {

/// Rewrites `load (select c, A, B)[k]`, k constant, into
/// `select c, A[k], B[k]`.
void populateChosenPlacePatterns(mlir::RewritePatternSet &patterns);
/// Writes and reads through places chosen among local slots, as writes and
/// reads of each slot (run before slots are promoted).
void populateChosenSlotPatterns(mlir::RewritePatternSet &patterns);

} // namespace cotangent::structure

#endif // COTANGENT_LIB_STRUCTURE_CHOSENPLACES_H
