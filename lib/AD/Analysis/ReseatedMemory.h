//===- ReseatedMemory.h - Caller memory a function re-points ----*- C++ -*-===//
//
// Reverse mode's contract for memory parameters: the derivative argument
// holds, when called, the seeds of the final contents of the memory the
// parameter designates, and on return the cotangents of its initial
// contents. A function that stores into the caller's objects the address
// of other memory (a std::unique_ptr given a new object, a pointer field
// re-pointed, a class that owns memory resizing it) changes which memory
// those objects designate: the seeds the caller placed beside the initial
// memory belong to memory that is no longer there. The requests that
// differentiate such a function find those stores here.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_ANALYSIS_RESEATEDMEMORY_H
#define COTANGENT_LIB_AD_ANALYSIS_RESEATEDMEMORY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace cotangent::ad {

/// A store of the address of memory with floating-point contents, not the
/// caller's, into the memory argument `i` of `function` designates (through
/// pointer fields and the functions it passes that memory to), or null.
/// Arguments marked ct.final_seeds_taken (their seeds taken out) or
/// ct.by_value (the function's own copies) are left out.
mlir::Operation *findReseatingStore(mlir::func::FuncOp function, unsigned i,
                                    mlir::SymbolTableCollection &symbols);

} // namespace cotangent::ad

#endif // COTANGENT_LIB_AD_ANALYSIS_RESEATEDMEMORY_H
