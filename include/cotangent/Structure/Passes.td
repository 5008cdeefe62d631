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

def PromoteSlots : InterfacePass<"ct-promote-slots",
                                 "::mlir::FunctionOpInterface"> {
  let summary = "Promote the frontend's stack slots to SSA values, all at once";
  let description = [{
    Every `memref.alloca` of at most 64 integers, indices or floats in the
    function's body whose every use is a load or store at a constant index
    in that same region becomes SSA values: one per element, with block
    arguments where control flow merges different stores (pruned SSA:
    only where the value is read afterwards). Reads before any store read
    zero (in C++ they read an indeterminate value).

    One walk promotes every slot, so the cost is linear in the size of the
    function plus, per slot, the blocks where it is live. Upstream mem2reg
    walks the whole region once per slot, which made a function of 16,000
    statements spend seconds here. Slots used inside nested regions, and
    aggregates read through dynamic indices, are left to SROA and mem2reg.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // COTANGENT_STRUCTURE_PASSES_TD
