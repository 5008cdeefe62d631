//===- CustomRules.cpp - CT_CUSTOM_GRADIENT and CT_CUSTOM_JVP -------------===//
//
// The macros declare a variable of type
// `ct::detail::custom_rule<kind, Fn, &f, RuleFn, &rule>`; the header has
// already checked the rule's signature. Here the rule is lowered like any
// C++ function and bound to f (ct.custom_gradient / ct.custom_jvp) through a
// small adapter from the C++ convention (adjoints accumulated through
// pointers, a ct::dual result) to the engine's (adjoints and tangents as
// results).
//
//===----------------------------------------------------------------------===//

#include "ModuleLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "clang/AST/DeclTemplate.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace cotangent::frontend {

/// A private function `<rule>.rule` of type `type`, with an empty entry
/// block: the adapter that binds a C++ rule to the engine's convention.
static func::FuncOp createAdapter(OpBuilder &b, Location loc,
                                  func::FuncOp rule, FunctionType type) {
  auto adapter =
      func::FuncOp::create(b, loc, (rule.getSymName() + ".rule").str(), type);
  adapter.setPrivate();
  adapter.addEntryBlock();
  return adapter;
}

/// `void pb(args..., dret, d_args...)` as
/// `(args..., seeds..., shadows...) -> adjoints`.
static func::FuncOp buildPullbackAdapter(OpBuilder &b, Location loc,
                                         func::FuncOp f, func::FuncOp rule) {
  func::FuncOp adapter = createAdapter(
      b, loc, rule, ct::getPullbackRuleType(f.getFunctionType()));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&adapter.front());
  unsigned n = f.getNumArguments();
  ValueRange args = adapter.getArguments();
  unsigned numSeeds =
      ct::getReverseSignature(f.getFunctionType(),
                              ct::getDefaultActivities(f.getFunctionType()))
          .seeds.size();
  SmallVector<Value> operands(args.take_front(n + numSeeds));
  ValueRange shadows = args.drop_front(n + numSeeds);
  SmallVector<Value> slots;
  Value zeroIndex = arith::ConstantIndexOp::create(b, loc, 0);
  for (Type argType : f.getArgumentTypes()) {
    switch (ct::getDefaultActivity(argType)) {
    case ct::Activity::Constant:
      break;
    case ct::Activity::Duplicated:
      operands.push_back(shadows.front());
      shadows = shadows.drop_front();
      break;
    case ct::Activity::Active: {
      // The C++ rule accumulates into a pointer: give it a zeroed slot.
      Value slot = memref::AllocaOp::create(b, loc,
                                            MemRefType::get({1}, argType));
      Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(argType));
      memref::StoreOp::create(b, loc, zero, slot, zeroIndex);
      slots.push_back(slot);
      operands.push_back(
          memref::CastOp::create(b, loc, getPointerType(argType), slot));
      break;
    }
    }
  }
  func::CallOp::create(b, loc, rule, operands);
  SmallVector<Value> adjoints = llvm::map_to_vector(slots, [&](Value slot) {
    return Value(memref::LoadOp::create(b, loc, slot, zeroIndex));
  });
  func::ReturnOp::create(b, loc, adjoints);
  return adapter;
}

/// `ct::dual<R> t(args..., t_args...)` (lowered with the dual's address
/// last) as `(args..., tangents...) -> (value, tangent)`.
static func::FuncOp buildJvpAdapter(OpBuilder &b, Location loc,
                                    func::FuncOp f, func::FuncOp rule) {
  func::FuncOp adapter = createAdapter(
      b, loc, rule, ct::getJvpRuleType(f.getFunctionType()));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&adapter.front());
  Type scalar = f.getResultTypes()[0];
  Value dual = memref::AllocaOp::create(b, loc, MemRefType::get({2}, scalar));
  SmallVector<Value> operands(adapter.getArguments());
  operands.push_back(
      memref::CastOp::create(b, loc, getPointerType(scalar), dual));
  func::CallOp::create(b, loc, rule, operands);
  Value value = memref::LoadOp::create(
      b, loc, dual, ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
  Value tangent = memref::LoadOp::create(
      b, loc, dual, ValueRange{arith::ConstantIndexOp::create(b, loc, 1)});
  func::ReturnOp::create(b, loc, ValueRange{value, tangent});
  return adapter;
}

void lowerCustomRules(ModuleLowering &module) {
  const clang::ClassTemplateDecl *ruleTemplate =
      findCotangentTemplate(module.getAST(), "custom_rule");
  if (!ruleTemplate)
    return;
  for (clang::ClassTemplateSpecializationDecl *spec :
       ruleTemplate->specializations()) {
    const clang::TemplateArgumentList &args = spec->getTemplateArgs();
    if (args.size() != 5 ||
        args[2].getKind() != clang::TemplateArgument::Declaration ||
        args[4].getKind() != clang::TemplateArgument::Declaration)
      continue;
    // kind::pullback is 1, kind::jvp is 2 (cotangent.h).
    bool reverse = args[0].getAsIntegral() == 1;
    const auto *function = dyn_cast<clang::FunctionDecl>(args[2].getAsDecl());
    const auto *ruleDecl = dyn_cast<clang::FunctionDecl>(args[4].getAsDecl());
    if (!function || !ruleDecl)
      continue;
    clang::SourceLocation at = spec->getPointOfInstantiation();
    Location loc = module.getLoc(at);
    module.addCustomRule(function);
    func::FuncOp f = module.getFunction(function);
    func::FuncOp rule = module.getFunction(ruleDecl);
    if (!f || !rule)
      continue;
    if (!reverse && f.getNumResults() != 1) {
      module.error(at, "CT_CUSTOM_JVP needs '" +
                           function->getQualifiedNameAsString() +
                           "' to return a floating-point value");
      continue;
    }
    OpBuilder b(module.getContext());
    b.setInsertionPointToEnd(module.getModule().getBody());
    if (reverse)
      ct::CustomGradientOp::create(b, loc, f.getSymName(),
                                   buildPullbackAdapter(b, loc, f, rule)
                                       .getSymName());
    else
      ct::CustomJvpOp::create(b, loc, f.getSymName(),
                              buildJvpAdapter(b, loc, f, rule).getSymName());
  }
}

} // namespace cotangent::frontend
