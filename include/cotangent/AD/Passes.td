//===- Passes.td - Cotangent AD passes ----------------------*- tablegen -*-===//

#ifndef COTANGENT_AD_PASSES_TD
#define COTANGENT_AD_PASSES_TD

include "mlir/Pass/PassBase.td"

def Differentiate : Pass<"ct-differentiate", "::mlir::ModuleOp"> {
  let summary = "Replace derivative requests with calls to generated derivatives";
  let description = [{
    Replaces every `ct.gradient`, `ct.pullback` and `ct.jvp` with a call to a
    derivative function generated in the module, once per function and
    activity pattern: `<f>.pullback.<acts>` (reverse mode, value and
    adjoints), `<f>.jvp.<acts>` (forward mode), and for functions called
    from reverse-mode code `<f>.fwd.<acts>` / `<f>.rev.<acts>`, the forward
    half that records what the reverse half needs on a tape, and the reverse
    half that reads it back. Custom rules bound with `ct.custom_*` are called
    instead of differentiating a body. Functions with unstructured control
    flow (cf branches, early returns) are differentiated through a copy
    lifted to scf (`<f>.structured`). Derivative functions are ordinary
    code, so they can be differentiated again (`ct.jvp` of a function that
    calls `ct.gradient` is a Hessian-vector product).
  }];
  let dependentDialects = [
    "::cotangent::ct::CTDialect", "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect", "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::ub::UBDialect"
  ];
  let options = [
    Option<"unconnected", "unconnected", "std::string", "\"warn\"",
           "What to do with an active parameter that does not influence "
           "the result: zero, warn or error">,
  ];
}

#endif // COTANGENT_AD_PASSES_TD
