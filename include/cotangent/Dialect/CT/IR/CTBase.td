//===- CTBase.td - The ct dialect and its attributes ------*- tablegen -*-===//
//
// The `ct` dialect carries what C++ says about differentiation into MLIR:
// derivative requests on function symbols, markers that change how values are
// differentiated, and bindings of user-written derivative rules.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_DIALECT_CT_IR_CTBASE_TD
#define COTANGENT_DIALECT_CT_IR_CTBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def CT_Dialect : Dialect {
  let name = "ct";
  let cppNamespace = "::cotangent::ct";
  // Entry points take C pointers (ct.pointer_view).
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
  // (Folded ct.bit_cast constants are arith constants.)
  let hasConstantMaterializer = 1;
  // Patterns every canonicalization runs, whatever ops it meets (see
  // PoisonOperands.cpp).
  let hasCanonicalizer = 1;
  let summary = "Automatic differentiation requests, markers and rules";
  let description = [{
    The `ct` dialect is Cotangent's interface between the C++ frontend and the
    AD engine. A *derivative request* (`ct.gradient`, `ct.pullback`, `ct.jvp`)
    names a `func.func` by symbol and gives every argument an *activity*; the
    AD passes replace each request by a call to a generated derivative
    function. *Markers* (`ct.stop_gradient`, `ct.pass_through`) change how a
    value is differentiated without changing its value. *Rule bindings*
    (`ct.custom_gradient`, `ct.custom_vjp`, `ct.custom_jvp`) tell the engine
    to call user code instead of differentiating a function's body.

    Derivative signatures follow one convention, shared by requests and rules:

    * reverse mode: operands are the primal arguments, then one seed per
      floating-point result of the callee (`ct.pullback` only), then one
      shadow memref per `dup` argument. Results are the callee's results,
      then the adjoint of every `active` argument. Shadows are updated in
      place: on entry they hold the cotangent of the memory's final contents,
      on exit they have received (`+=`) the cotangent of its initial contents.
    * forward mode: operands are the primal arguments, then one tangent per
      non-`const` argument (a scalar for `active`, a memref for `dup`).
      Results are the callee's results, then the tangent of every
      floating-point result. A `dup` tangent memref of in/out memory receives
      the tangent of the memory's final contents.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
}

def CT_Activity : I32EnumAttr<"Activity",
    "how an argument takes part in differentiation", [
      I32EnumAttrCase<"Constant", 0, "const">,
      I32EnumAttrCase<"Active", 1, "active">,
      I32EnumAttrCase<"Duplicated", 2, "dup">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::cotangent::ct";
  let description = [{
    * `const`: not differentiated; gets no derivative operand or result.
    * `active`: a floating-point scalar passed by value; its adjoint is a
      result (reverse mode), its tangent an operand (forward mode).
    * `dup`: a memref of floating-point elements, paired with a shadow memref
      of the same type that carries its derivative in place.
  }];
}

def CT_ActivityAttr : EnumAttr<CT_Dialect, CT_Activity, "activity"> {
  let assemblyFormat = "`<` $value `>`";
}

def CT_ActivityArrayAttr
    : TypedArrayAttrBase<CT_ActivityAttr, "array of argument activities">;

def CT_TapeType : TypeDef<CT_Dialect, "Tape"> {
  let mnemonic = "tape";
  let summary = "a last-in first-out stack of values for the reverse sweep";
  let description = [{
    The reverse sweep of a loop, a branch or a called function needs primal
    values that were computed in the forward sweep but are not in scope any
    more. The forward sweep pushes them onto a tape and the reverse sweep,
    which runs in the opposite order, pops them. A tape is a handle to mutable
    state: it is created once per derivative call and passed to the forward
    and reverse halves of callees. It lowers to a growing heap buffer.
  }];
}

#endif // COTANGENT_DIALECT_CT_IR_CTBASE_TD
