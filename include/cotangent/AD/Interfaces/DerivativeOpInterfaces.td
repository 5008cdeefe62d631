//===- DerivativeOpInterfaces.td - How ops are differentiated -*- tablegen -*-===//

#ifndef COTANGENT_AD_DERIVATIVEOPINTERFACES_TD
#define COTANGENT_AD_DERIVATIVEOPINTERFACES_TD

include "mlir/IR/OpBase.td"

def ActivityOpInterface : OpInterface<"ActivityOpInterface"> {
  let cppNamespace = "::cotangent::ad";
  let description = [{
    Where derivatives flow through an op, for activity analysis: pairs
    (from, to) of values such that `to` depends differentiably on `from`
    (an operand or a value yielded by a region, to a result, a region
    argument or memory written). Memory values stand for their contents.
    Ops without this interface are analysed conservatively: everything they
    read flows to their results and to the memory they may write.
  }];
  let methods = [
    InterfaceMethod<[{
        Appends the op's derivative flow edges to `flow`.
      }],
      "void", "getDerivativeFlow",
      (ins "::llvm::SmallVectorImpl<::cotangent::ad::DerivativeFlow> &":$flow)>,
  ];
}

def ForwardModeOpInterface : OpInterface<"ForwardModeOpInterface"> {
  let cppNamespace = "::cotangent::ad";
  let description = [{
    Forward-mode differentiation of an op: emits the op's clone and the
    tangents of its active results (or the shadows of memory it creates)
    through the emitter's services. Ops without this interface are cloned,
    and rejected with a located error if a result carries a derivative.
  }];
  let methods = [
    InterfaceMethod<[{
        Emits the op and its tangent code at `builder`.
      }],
      "::llvm::LogicalResult", "emitTangent",
      (ins "::mlir::OpBuilder &":$builder,
           "::cotangent::ad::ForwardEmitter &":$emitter)>,
  ];
}

def ReverseModeOpInterface : OpInterface<"ReverseModeOpInterface"> {
  let cppNamespace = "::cotangent::ad";
  let description = [{
    Reverse-mode differentiation of an op, in two halves: what the forward
    sweep runs in its place, and the code the reverse sweep runs to
    propagate adjoints from the op's results (and the memory it writes) to
    its operands. Ops without this interface are cloned in the forward
    sweep, and rejected with a located error when the reverse sweep needs
    them.
  }];
  let methods = [
    InterfaceMethod<[{
        Whether the reverse sweep must do something for this op: an active
        result, or memory with a shadow that it writes or creates. By
        default: an active result, or an op in its regions that needs
        reverse.
      }],
      "bool", "needsReverse",
      (ins "::cotangent::ad::reverse::ReverseEmitter &":$emitter), [{}],
      [{ return ::cotangent::ad::needsReverseByDefault($_op, emitter); }]>,
    InterfaceMethod<[{
        Emits what the forward sweep runs for this op at `builder`. By
        default: a clone of the op.
      }],
      "::llvm::LogicalResult", "emitForwardSweep",
      (ins "::mlir::OpBuilder &":$builder,
           "::cotangent::ad::reverse::ReverseEmitter &":$emitter), [{}],
      [{ return ::cotangent::ad::emitClonedForward($_op, builder, emitter); }]>,
    InterfaceMethod<[{
        Emits the op's reverse at `builder` (only called when needsReverse).
      }],
      "::llvm::LogicalResult", "emitReverse",
      (ins "::mlir::OpBuilder &":$builder,
           "::cotangent::ad::reverse::ReverseEmitter &":$emitter)>,
  ];
}

#endif // COTANGENT_AD_DERIVATIVEOPINTERFACES_TD
