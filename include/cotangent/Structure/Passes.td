//===- Passes.td - Structuring the lowered C++ --------------*- tablegen -*-===//

#ifndef COTANGENT_STRUCTURE_PASSES_TD
#define COTANGENT_STRUCTURE_PASSES_TD

include "mlir/Pass/PassBase.td"

def Structure : Pass<"ct-structure", "::mlir::ModuleOp"> {
  let summary = "Turn the C++ frontend's output into SSA values and scf";
  let description = [{
    The frontend lowers C++ the way Clang's code generation does: every
    local in a stack slot, control flow as cf branches, accessors returning
    references as calls. This pass makes it what the AD engine works on:
    SROA and mem2reg (while the control flow is still a graph: mem2reg does
    not promote across scf regions), inlining of calls that return memrefs
    (accessors, so that the engine sees views), promotion again, CFG-to-SCF,
    canonicalisation and CSE, then `while` loops with a counter as scf.for,
    loop-carried running indices in closed form, and choices between places
    as selects of memrefs. The C++ plugin runs it right after lowering;
    `cotangent-cc --emit=mlir` prints its result.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::ub::UBDialect"
  ];
}

#endif // COTANGENT_STRUCTURE_PASSES_TD
