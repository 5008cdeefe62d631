//===- ModuleLowering.cpp - One translation unit's lowering ---------------===//

#include "ModuleLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"
#include "cotangent/Frontend/DifferentiableAttr.h"
#include "cotangent/Frontend/Lowering.h"

#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace cotangent::frontend {

ModuleLowering::ModuleLowering(clang::ASTContext &ast, ModuleOp module)
    : ast(ast), module(module), mangler(ast.createMangleContext()) {}

Location ModuleLowering::getLoc(clang::SourceLocation loc) {
  clang::PresumedLoc presumed =
      ast.getSourceManager().getPresumedLoc(ast.getSourceManager().getSpellingLoc(loc));
  if (presumed.isInvalid())
    return UnknownLoc::get(getContext());
  return FileLineColLoc::get(getContext(), presumed.getFilename(),
                             presumed.getLine(), presumed.getColumn());
}

void ModuleLowering::error(clang::SourceRange range, const Twine &message) {
  clang::DiagnosticsEngine &diags = ast.getDiagnostics();
  unsigned id = diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0");
  diags.Report(range.getBegin(), id) << message.str() << range;
  ++errors;
}

Type ModuleLowering::lowerType(clang::QualType type, clang::SourceRange range,
                               StringRef what) {
  MLIRContext *context = getContext();
  type = type.getCanonicalType();
  if (const auto *builtin = type->getAs<clang::BuiltinType>()) {
    switch (builtin->getKind()) {
    case clang::BuiltinType::Float:
      return Float32Type::get(context);
    case clang::BuiltinType::Double:
      return Float64Type::get(context);
    case clang::BuiltinType::Bool:
      return IntegerType::get(context, 1);
    default:
      if (builtin->isInteger())
        return IntegerType::get(context, ast.getTypeSize(type));
      break;
    }
  } else if (const auto *enumType = type->getAs<clang::EnumType>()) {
    return IntegerType::get(context, ast.getTypeSize(type));
  } else if (type->isPointerType() || type->isReferenceType()) {
    // Pointers and references to scalars are 1-D memrefs of unknown size;
    // a reference is element 0.
    clang::QualType pointee = type->getPointeeType();
    if (pointee->isArithmeticType() && !pointee->isPointerType()) {
      Type element = lowerType(pointee, range, what);
      if (!element)
        return nullptr;
      return MemRefType::get({ShapedType::kDynamic}, element);
    }
  }
  error(range, what + " has type '" + type.getAsString() +
                   "', which differentiable code does not support yet; use "
                   "float or double scalars, integers, or pointers and "
                   "references to them");
  return nullptr;
}

func::FuncOp ModuleLowering::getFunction(const clang::FunctionDecl *decl) {
  decl = decl->getCanonicalDecl();
  if (auto known = functions.lookup(decl))
    return known;
  const clang::FunctionDecl *definition = nullptr;
  decl->hasBody(definition);
  SmallVector<Type> inputs, results;
  for (const clang::ParmVarDecl *param : decl->parameters()) {
    Type type = lowerType(param->getType(), param->getSourceRange(),
                          "parameter '" + param->getName().str() + "'");
    if (!type)
      return nullptr;
    inputs.push_back(type);
  }
  if (!decl->getReturnType()->isVoidType()) {
    Type type = lowerType(decl->getReturnType(), decl->getReturnTypeSourceRange(),
                          "the result of '" + decl->getNameAsString() + "'");
    if (!type)
      return nullptr;
    results.push_back(type);
  }
  // Itanium-mangled names: what the C++ side calls and links against.
  std::string name;
  llvm::raw_string_ostream stream(name);
  if (mangler->shouldMangleDeclName(decl))
    mangler->mangleName(clang::GlobalDecl(decl), stream);
  else
    stream << decl->getName();
  OpBuilder builder(getContext());
  builder.setInsertionPointToEnd(module.getBody());
  auto function = func::FuncOp::create(builder, getLoc(decl->getLocation()),
                                       name,
                                       builder.getFunctionType(inputs, results));
  function->setAttr("ct.source_name",
                    builder.getStringAttr(decl->getQualifiedNameAsString()));
  functions[decl] = function;
  if (definition)
    pending.push_back(definition);
  else
    function.setPrivate();
  return function;
}

void ModuleLowering::lowerPending() {
  // In order of first use, so that diagnostics follow the source.
  for (size_t i = 0; i < pending.size(); ++i) {
    const clang::FunctionDecl *decl = pending[i];
    lowerFunctionBody(*this, decl, functions.lookup(decl->getCanonicalDecl()));
  }
  pending.clear();
}

void loadFrontendDialects(MLIRContext &context) {
  context.loadDialect<ct::CTDialect, arith::ArithDialect,
                      cf::ControlFlowDialect, func::FuncDialect,
                      math::MathDialect, memref::MemRefDialect,
                      scf::SCFDialect, ub::UBDialect>();
}

namespace {
/// Finds the functions marked [[ct::differentiable]] that have a body.
struct DifferentiableFinder
    : public clang::RecursiveASTVisitor<DifferentiableFinder> {
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(clang::FunctionDecl *decl) {
    if (decl->doesThisDeclarationHaveABody() && !decl->isDependentContext() &&
        isDifferentiable(decl))
      found.push_back(decl);
    return true;
  }
  SmallVector<const clang::FunctionDecl *> found;
};
} // namespace

/// Turns the lowering's output (stack slots, cf branches) into SSA values
/// and structured control flow: mem2reg while the control flow is still a
/// graph (it does not promote across scf regions), then CFG-to-SCF, then
/// while loops with a counter become scf.for.
static LogicalResult structure(ModuleOp module) {
  MLIRContext *context = module.getContext();
  PassManager promote(context);
  promote.addPass(createCanonicalizerPass());
  promote.addPass(createMem2Reg());
  promote.addPass(createCanonicalizerPass());
  if (failed(promote.run(module)))
    return failure();
  IRRewriter rewriter(context);
  for (auto function : module.getOps<func::FuncOp>()) {
    if (function.isExternal())
      continue;
    (void)eraseUnreachableBlocks(rewriter, function.getBody());
    if (function.getBody().hasOneBlock())
      continue;
    ControlFlowToSCFTransformation transformation;
    DominanceInfo dominance;
    if (failed(transformCFGToSCF(function.getBody(), transformation,
                                 dominance)))
      return function.emitError("internal error: cannot structure the "
                                "control flow of this function");
  }
  PassManager simplify(context);
  simplify.addPass(createCanonicalizerPass());
  simplify.addPass(createCSEPass());
  if (failed(simplify.run(module)))
    return failure();
  RewritePatternSet patterns(context);
  scf::populateUpliftWhileToForPatterns(patterns);
  if (failed(applyPatternsGreedily(module, std::move(patterns))))
    return failure();
  return simplify.run(module);
}

LogicalResult lowerTranslationUnit(clang::ASTContext &ast, ModuleOp module) {
  ModuleLowering lowering(ast, module);
  DifferentiableFinder finder;
  finder.TraverseDecl(ast.getTranslationUnitDecl());
  for (const clang::FunctionDecl *decl : finder.found)
    lowering.getFunction(decl);
  lowering.lowerPending();
  if (lowering.hadError())
    return failure();
  // What the lowering emitted must verify before any pass touches it.
  if (failed(verify(module)))
    return failure();
  return structure(module);
}

} // namespace cotangent::frontend
