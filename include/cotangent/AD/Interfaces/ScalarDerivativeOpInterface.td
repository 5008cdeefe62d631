//===- ScalarDerivativeOpInterface.td - Per-op derivative rules -*- tablegen -*-===//

#ifndef COTANGENT_AD_SCALARDERIVATIVEOPINTERFACE_TD
#define COTANGENT_AD_SCALARDERIVATIVEOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def ScalarDerivativeOpInterface : OpInterface<"ScalarDerivativeOpInterface"> {
  let cppNamespace = "::cotangent::ad";
  let description = [{
    An op with one floating-point result that is a differentiable function of
    its operands, described by the partial derivative of the result with
    respect to each operand. Forward mode multiplies partials by operand
    tangents and sums; reverse mode multiplies the result's adjoint by each
    partial and accumulates into the operands. One rule serves both modes,
    and, because partials are built from ordinary ops, every higher order.

    Upstream ops get this interface as external models (lib/AD/Rules).
  }];
  let methods = [
    InterfaceMethod<[{
        Builds the partial derivative of the result with respect to each
        operand, in the result's type, at the primal point `primals` (the
        op's operands and result as seen where the derivative is built).
        A null entry means the partial is zero or the operand carries no
        derivative (an integer, a condition).
      }],
      "::llvm::SmallVector<::mlir::Value>", "buildPartials",
      (ins "::mlir::OpBuilder &":$builder,
           "::cotangent::ad::PrimalValues &":$primals)>,
    InterfaceMethod<[{
        If the result is linear in operand `index` (a sum, a difference, a
        negation, a product or a quotient by another operand), how it
        scales with it; else nothing. The reverse-mode strategies use it to
        find running sums and results whose adjoints are known early.
      }],
      "std::optional<::cotangent::ad::LinearTerm>", "getLinearTerm",
      (ins "unsigned":$index), [{}], [{ return std::nullopt; }]>,
  ];
}

#endif // COTANGENT_AD_SCALARDERIVATIVEOPINTERFACE_TD
