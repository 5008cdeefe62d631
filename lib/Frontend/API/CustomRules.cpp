//===- CustomRules.cpp - CT_CUSTOM_GRADIENT, _JVP and _VJP ----------------===//
//
// The macros declare a variable of type
// `ct::detail::custom_rule<kind, Fn, &f, RuleFn, &rule>`; the header has
// already checked the rule's signature. The rule is bound to f
// (ct.custom_gradient / ct.custom_jvp) through a small adapter from the C++
// convention (adjoints accumulated through pointers, a ct::dual result,
// residuals in a struct filled through a pointer) to the engine's
// (adjoints, tangents and residuals as results).
//
// A rule is ordinary C++. Where differentiable code can express it (with
// what it calls), it is lowered, so that a higher derivative can go through
// it; otherwise (it calls a library, counts its calls in a variable, ...)
// the adapter calls it as Clang compiled it, and so does the primal call a
// function bound to a rule that differentiable code cannot express. The
// macros keep those functions in the object file; a forward rule is called
// through `ct::detail::jvp_trampoline<RuleFn, &rule>::apply`, which returns
// the ct::dual through a pointer as lowered code does.
//
//===----------------------------------------------------------------------===//

#include "ModuleLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"
#include "cotangent/Frontend/DifferentiableAttr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

using namespace mlir;

namespace cotangent::frontend {

/// A private function `<rule>.rule` of type `type`, with an empty entry
/// block: the adapter that binds a C++ rule to the engine's convention.
static func::FuncOp createAdapter(OpBuilder &b, Location loc, func::FuncOp rule,
                                  FunctionType type) {
  auto adapter =
      func::FuncOp::create(b, loc, (rule.getSymName() + ".rule").str(), type);
  adapter.setPrivate();
  adapter.addEntryBlock();
  return adapter;
}

/// Appends the C++ rule's `d_args...` for `f`'s arguments to `operands`:
/// the shadow of each `dup` argument (taken from `shadows`) and, for each
/// `active` one, a zeroed slot the rule accumulates into (appended to
/// `slots`; their contents after the call are the adjoints).
static void appendAdjointOperands(OpBuilder &b, Location loc, func::FuncOp f,
                                  ValueRange shadows,
                                  SmallVectorImpl<Value> &operands,
                                  SmallVectorImpl<Value> &slots) {
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
      Value slot =
          memref::AllocaOp::create(b, loc, MemRefType::get({1}, argType));
      Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(argType));
      memref::StoreOp::create(b, loc, zero, slot, zeroIndex);
      slots.push_back(slot);
      operands.push_back(
          memref::CastOp::create(b, loc, getPointerType(argType), slot));
      break;
    }
    }
  }
}

/// Calls `rule` with `operands` and returns the contents of `slots`.
static void callAndReturnAdjoints(OpBuilder &b, Location loc, func::FuncOp rule,
                                  ValueRange operands, ValueRange slots) {
  func::CallOp::create(b, loc, rule, operands);
  Value zeroIndex = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> adjoints = llvm::map_to_vector(slots, [&](Value slot) {
    return Value(memref::LoadOp::create(b, loc, slot, zeroIndex));
  });
  func::ReturnOp::create(b, loc, adjoints);
}

/// The number of seeds `f`'s pullback takes (one per floating result).
static unsigned numSeeds(func::FuncOp f) {
  return ct::getReverseSignature(f.getFunctionType(),
                                 ct::getDefaultActivities(f.getFunctionType()))
      .seeds.size();
}

/// `void pb(args..., dret, d_args...)` as
/// `(args..., seeds..., shadows...) -> adjoints`.
static func::FuncOp buildPullbackAdapter(OpBuilder &b, Location loc,
                                         func::FuncOp f, func::FuncOp rule) {
  func::FuncOp adapter =
      createAdapter(b, loc, rule, ct::getPullbackRuleType(f.getFunctionType()));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&adapter.front());
  unsigned n = f.getNumArguments() + numSeeds(f);
  ValueRange args = adapter.getArguments();
  SmallVector<Value> operands(args.take_front(n));
  SmallVector<Value> slots;
  appendAdjointOperands(b, loc, f, args.drop_front(n), operands, slots);
  callAndReturnAdjoints(b, loc, rule, operands, slots);
  return adapter;
}

/// `R f_fwd(args..., Res*)` as `(args...) -> (results..., residuals...)`,
/// the residuals being the `layout.size` scalars of the `Res` it filled.
static func::FuncOp buildVjpForwardAdapter(OpBuilder &b, Location loc,
                                           func::FuncOp f, func::FuncOp forward,
                                           const Layout &residuals) {
  SmallVector<Type> results(f.getResultTypes());
  results.append(residuals.size, residuals.scalar);
  func::FuncOp adapter = createAdapter(
      b, loc, forward,
      FunctionType::get(b.getContext(), f.getArgumentTypes(), results));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&adapter.front());
  Value res = memref::AllocaOp::create(
      b, loc, MemRefType::get({residuals.size}, residuals.scalar));
  SmallVector<Value> operands(adapter.getArguments());
  operands.push_back(
      memref::CastOp::create(b, loc, getPointerType(residuals.scalar), res));
  auto call = func::CallOp::create(b, loc, forward, operands);
  SmallVector<Value> returned(call.getResults());
  for (int64_t i = 0; i < residuals.size; ++i)
    returned.push_back(memref::LoadOp::create(
        b, loc, res, ValueRange{arith::ConstantIndexOp::create(b, loc, i)}));
  func::ReturnOp::create(b, loc, returned);
  return adapter;
}

/// `void f_bwd(const Res*, args..., dret, d_args...)` as
/// `(residuals..., args..., seeds..., shadows...) -> adjoints`.
static func::FuncOp buildVjpBackwardAdapter(OpBuilder &b, Location loc,
                                            func::FuncOp f,
                                            func::FuncOp backward,
                                            const Layout &residuals) {
  FunctionType pullbackType = ct::getPullbackRuleType(f.getFunctionType());
  SmallVector<Type> inputs(residuals.size, residuals.scalar);
  llvm::append_range(inputs, pullbackType.getInputs());
  func::FuncOp adapter = createAdapter(
      b, loc, backward,
      FunctionType::get(b.getContext(), inputs, pullbackType.getResults()));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&adapter.front());
  ValueRange args = adapter.getArguments();
  Value res = memref::AllocaOp::create(
      b, loc, MemRefType::get({residuals.size}, residuals.scalar));
  for (int64_t i = 0; i < residuals.size; ++i)
    memref::StoreOp::create(
        b, loc, args[i], res,
        ValueRange{arith::ConstantIndexOp::create(b, loc, i)});
  args = args.drop_front(residuals.size);
  SmallVector<Value> operands{
      memref::CastOp::create(b, loc, getPointerType(residuals.scalar), res)};
  unsigned n = f.getNumArguments() + numSeeds(f);
  llvm::append_range(operands, args.take_front(n));
  SmallVector<Value> slots;
  appendAdjointOperands(b, loc, f, args.drop_front(n), operands, slots);
  callAndReturnAdjoints(b, loc, backward, operands, slots);
  return adapter;
}

/// `ct::dual<R> t(args..., t_args...)` (lowered with the dual's address
/// last) as `(args..., tangents...) -> (value, tangent)`.
static func::FuncOp buildJvpAdapter(OpBuilder &b, Location loc, func::FuncOp f,
                                    func::FuncOp rule) {
  func::FuncOp adapter =
      createAdapter(b, loc, rule, ct::getJvpRuleType(f.getFunctionType()));
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

/// The function template argument `i` of a rule names, or null.
static const clang::FunctionDecl *
functionArgument(const clang::TemplateArgumentList &args, unsigned i) {
  if (i >= args.size() ||
      args[i].getKind() != clang::TemplateArgument::Declaration)
    return nullptr;
  return dyn_cast<clang::FunctionDecl>(args[i].getAsDecl());
}

/// Decides how `function`, a rule's function or a function bound to a
/// rule, is called: lowered like differentiable code where it can be,
/// otherwise as Clang compiled it (through `calledAs` when given: a
/// trampoline with a C-ABI form). False after reporting at `at` that it
/// can be neither.
static bool chooseHowToCall(ModuleLowering &module,
                            const clang::FunctionDecl *function,
                            clang::SourceLocation at,
                            const clang::FunctionDecl *calledAs = nullptr) {
  if (module.isCalledAsCompiled(function) ||
      module.getFunctions().contains(function->getCanonicalDecl()) ||
      isDifferentiable(function))
    return true;
  const clang::FunctionDecl *definition = nullptr;
  std::string why = function->hasBody(definition)
                        ? whyNotLowerable(module.getAST(), function)
                        : "it has no visible body";
  if (why.empty())
    return true;
  if (std::string notCallable =
          whyNotCallable(module, calledAs ? calledAs : function);
      !notCallable.empty()) {
    if (!definition)
      return true; // (reported where it is called, as before rules)
    module.error(at, "'" + function->getQualifiedNameAsString() +
                         "' cannot be compiled as differentiable code (" + why +
                         ") nor called as C++ compiled as written: it " +
                         notCallable +
                         "; pass numbers, and pointers or references to "
                         "numbers or to structs of numbers");
    return false;
  }
  module.callAsCompiled(function, why);
  return true;
}

/// `ct::detail::jvp_trampoline<RuleFn, &rule>::apply` of cotangent.h,
/// which calls a forward rule compiled as written and stores its ct::dual
/// through a pointer; null if the header did not instantiate it.
static const clang::FunctionDecl *
findJvpTrampoline(ModuleLowering &module, const clang::FunctionDecl *rule) {
  const clang::ClassTemplateDecl *trampoline =
      findCotangentTemplate(module.getAST(), "jvp_trampoline");
  if (!trampoline)
    return nullptr;
  for (clang::ClassTemplateSpecializationDecl *spec :
       trampoline->specializations()) {
    const clang::TemplateArgumentList &args = spec->getTemplateArgs();
    if (args.size() != 2 ||
        args[1].getKind() != clang::TemplateArgument::Declaration ||
        args[1].getAsDecl()->getCanonicalDecl() != rule->getCanonicalDecl())
      continue;
    for (const clang::CXXMethodDecl *method : spec->methods())
      if (method->getName() == "apply" && method->isStatic())
        return method;
  }
  return nullptr;
}

/// The line of the rule's macro, where errors about the rule belong.
static Location getRuleLoc(ModuleLowering &module, clang::SourceLocation at) {
  return module.getLoc(module.getAST().getSourceManager().getExpansionLoc(at));
}

/// CT_CUSTOM_VJP(f, f_fwd, f_bwd): `ct::detail::custom_vjp_rule<Fn, &f,
/// FwdFn, &f_fwd, BwdFn, &f_bwd>`, signatures checked by the header.
static void lowerCustomVjps(ModuleLowering &module) {
  const clang::ClassTemplateDecl *vjpTemplate =
      findCotangentTemplate(module.getAST(), "custom_vjp_rule");
  if (!vjpTemplate)
    return;
  for (clang::ClassTemplateSpecializationDecl *spec :
       vjpTemplate->specializations()) {
    const clang::TemplateArgumentList &args = spec->getTemplateArgs();
    const clang::FunctionDecl *function = functionArgument(args, 1);
    const clang::FunctionDecl *forwardDecl = functionArgument(args, 3);
    const clang::FunctionDecl *backwardDecl = functionArgument(args, 5);
    if (args.size() != 6 || !function || !forwardDecl || !backwardDecl ||
        forwardDecl->getNumParams() == 0)
      continue;
    clang::SourceLocation at = spec->getPointOfInstantiation();
    clang::QualType residualType =
        forwardDecl->getParamDecl(forwardDecl->getNumParams() - 1)
            ->getType()
            ->getPointeeType();
    std::optional<Layout> residuals = module.getLayout(
        residualType, at, "the residual type of CT_CUSTOM_VJP");
    if (!residuals)
      continue;
    if (!residuals->indirect.empty()) {
      module.error(at, "the residuals of CT_CUSTOM_VJP cannot hold pointers, "
                       "references or containers: the reverse sweep may run "
                       "when what they designate has changed; save the "
                       "values");
      continue;
    }
    module.addCustomRule(function);
    if (!chooseHowToCall(module, function, at) ||
        !chooseHowToCall(module, forwardDecl, at) ||
        !chooseHowToCall(module, backwardDecl, at))
      continue;
    func::FuncOp f = module.getFunction(function);
    func::FuncOp forward = module.getFunction(forwardDecl);
    func::FuncOp backward = module.getFunction(backwardDecl);
    if (!f || !forward || !backward)
      continue;
    Location loc = getRuleLoc(module, at);
    OpBuilder b(module.getContext());
    b.setInsertionPointToEnd(module.getModule().getBody());
    func::FuncOp forwardAdapter =
        buildVjpForwardAdapter(b, loc, f, forward, *residuals);
    func::FuncOp backwardAdapter =
        buildVjpBackwardAdapter(b, loc, f, backward, *residuals);
    ct::CustomVjpOp::create(b, loc, f.getSymName(), forwardAdapter.getSymName(),
                            backwardAdapter.getSymName());
  }
}

void lowerCustomRules(ModuleLowering &module) {
  lowerCustomVjps(module);
  const clang::ClassTemplateDecl *ruleTemplate =
      findCotangentTemplate(module.getAST(), "custom_rule");
  if (!ruleTemplate)
    return;
  for (clang::ClassTemplateSpecializationDecl *spec :
       ruleTemplate->specializations()) {
    const clang::TemplateArgumentList &args = spec->getTemplateArgs();
    const clang::FunctionDecl *function = functionArgument(args, 2);
    const clang::FunctionDecl *ruleDecl = functionArgument(args, 4);
    if (args.size() != 5 || !function || !ruleDecl)
      continue;
    // kind::pullback is 1, kind::jvp is 2 (cotangent.h).
    bool reverse = args[0].getAsIntegral() == 1;
    clang::SourceLocation at = spec->getPointOfInstantiation();
    Location loc = getRuleLoc(module, at);
    module.addCustomRule(function);
    // A forward rule compiled as written returns its ct::dual through a
    // pointer by way of the header's trampoline.
    const clang::FunctionDecl *trampoline =
        reverse ? nullptr : findJvpTrampoline(module, ruleDecl);
    if (!chooseHowToCall(module, function, at) ||
        !chooseHowToCall(module, ruleDecl, at, trampoline))
      continue;
    const clang::FunctionDecl *called = ruleDecl;
    if (trampoline && module.isCalledAsCompiled(ruleDecl)) {
      called = trampoline;
      module.callAsCompiled(called, module.whyNotLowered(ruleDecl));
    }
    func::FuncOp f = module.getFunction(function);
    func::FuncOp rule = module.getFunction(called);
    if (!f || !rule)
      continue;
    if (called != ruleDecl)
      rule->setAttr("ct.source_name",
                    StringAttr::get(module.getContext(),
                                    ruleDecl->getQualifiedNameAsString()));
    if (!reverse && f.getNumResults() != 1) {
      module.error(at, "CT_CUSTOM_JVP needs '" +
                           function->getQualifiedNameAsString() +
                           "' to return a floating-point value");
      continue;
    }
    OpBuilder b(module.getContext());
    b.setInsertionPointToEnd(module.getModule().getBody());
    if (reverse)
      ct::CustomGradientOp::create(
          b, loc, f.getSymName(),
          buildPullbackAdapter(b, loc, f, rule).getSymName());
    else
      ct::CustomJvpOp::create(b, loc, f.getSymName(),
                              buildJvpAdapter(b, loc, f, rule).getSymName());
  }
}

} // namespace cotangent::frontend
