//===- OpenMP.cpp - Parallel loops and atomic updates ---------------------===//
//
// With -fopenmp, `#pragma omp parallel for` in a differentiable function
// marks its loop: the loop is lowered as usual, and a `ct.parallel_loop`
// marker at the start of its body records the reduction variables (their
// values as an iteration starts) and the `collapse` count; ct-structure
// turns the marked loop into an scf.parallel. `#pragma omp atomic` on an
// update (`x += e`, `x -= e`) is lowered as the update: reverse and forward
// mode find such updates and make the derivative loops' ones atomic.
// `#pragma omp target teams distribute parallel for` (and the other
// combined target loop forms) marks the loop for a GPU as well; a map
// clause's section of a pointer (`x[lo:len]`) makes the loop use a view of
// the pointer's memory with that extent, which the derivative loops take of
// the shadows too, and ct-offload-loops copies. Without -fopenmp Clang
// ignores the pragmas and the loops stay serial.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "cotangent/Dialect/CT/IR/CTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "clang/AST/OpenMPClause.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/Frontend/OpenMP/OMP.h"

using namespace mlir;
using namespace cotangent;
using namespace cotangent::frontend;

/// The spelling of `directive` after `#pragma omp`.
static std::string directiveName(const clang::OMPExecutableDirective *d) {
  return llvm::omp::getOpenMPDirectiveName(d->getDirectiveKind()).str();
}

/// The kind ("add", "mul", "max", "min") of a reduction identifier, or
/// empty for one differentiable code cannot use.
static StringRef reductionKind(const clang::DeclarationName &name) {
  switch (name.getNameKind()) {
  case clang::DeclarationName::CXXOperatorName:
    switch (name.getCXXOverloadedOperator()) {
    case clang::OO_Plus:
    case clang::OO_Minus: // OpenMP sums the private copies for `-` too
      return "add";
    case clang::OO_Star:
      return "mul";
    default:
      return "";
    }
  case clang::DeclarationName::Identifier:
    if (name.getAsString() == "max")
      return "max";
    if (name.getAsString() == "min")
      return "min";
    return "";
  default:
    return "";
  }
}

void FunctionLowering::lowerOpenMPAtomic(
    const clang::OMPAtomicDirective *atomic) {
  for (const clang::OMPClause *clause : atomic->clauses())
    if (!isa<clang::OMPUpdateClause, clang::OMPSeqCstClause,
             clang::OMPRelaxedClause, clang::OMPAcqRelClause,
             clang::OMPReleaseClause, clang::OMPAcquireClause>(clause))
      return (void)unsupported(
          atomic,
          "'#pragma omp atomic " +
              llvm::omp::getOpenMPClauseName(clause->getClauseKind()) +
              "' cannot be differentiated; only atomic updates ('x += e', "
              "'x -= e') can");
  const auto *statement =
      dyn_cast_or_null<clang::Expr>(atomic->getStructuredBlock());
  const auto *update =
      statement
          ? dyn_cast<clang::CompoundAssignOperator>(statement->IgnoreParens())
          : nullptr;
  if (!update ||
      (update->getOpcode() != clang::BO_AddAssign &&
       update->getOpcode() != clang::BO_SubAssign) ||
      !update->getType()->isRealFloatingType())
    return (void)unsupported(atomic,
                             "'#pragma omp atomic' can be differentiated "
                             "on updates of floating-point values with "
                             "'+=' or '-=' only");
  return lowerDiscarded(update);
}

bool FunctionLowering::readParallelLoopClauses(
    const clang::OMPExecutableDirective *directive, ParallelLoopMarker &marker,
    SmallVectorImpl<const clang::ArraySectionExpr *> &sections) {
  std::string name = directiveName(directive);
  bool device = marker.device;
  for (const clang::OMPClause *clause : directive->clauses()) {
    // Clang's own (firstprivate scalars and maps of a target region).
    if (clause->isImplicit())
      continue;
    if (device) {
      if (const auto *map = dyn_cast<clang::OMPMapClause>(clause)) {
        for (const clang::Expr *item : map->varlist())
          if (const auto *section = dyn_cast<clang::ArraySectionExpr>(
                  item->IgnoreParenImpCasts()))
            sections.push_back(section);
        // The copies are derived from what the loop reads and writes (and
        // for derivative loops, their shadows too): the map types only
        // need to be ones that copy.
        clang::OpenMPMapClauseKind kind = map->getMapType();
        if (kind != clang::OMPC_MAP_to && kind != clang::OMPC_MAP_from &&
            kind != clang::OMPC_MAP_tofrom && kind != clang::OMPC_MAP_unknown) {
          module.error(
              clang::SourceRange(map->getBeginLoc(), map->getEndLoc()),
              "this map type cannot be differentiated; use 'to', 'from' or "
              "'tofrom'");
          return false;
        }
        continue;
      }
      // Launch shapes: the kernel picks its own. Scalars are copied to the
      // device anyway.
      if (isa<clang::OMPNumTeamsClause, clang::OMPThreadLimitClause,
              clang::OMPDistScheduleClause, clang::OMPFirstprivateClause>(
              clause))
        continue;
    }
    if (const auto *reduction = dyn_cast<clang::OMPReductionClause>(clause)) {
      StringRef kind = reductionKind(reduction->getNameInfo().getName());
      if (kind.empty() ||
          reduction->getModifier() != clang::OMPC_REDUCTION_unknown)
        return unsupported<bool>(
            directive, "this reduction cannot be differentiated; reductions "
                       "are '+', '*', 'max' and 'min' on numbers");
      for (const clang::Expr *var : reduction->varlist()) {
        clang::QualType type = var->getType();
        if (!type->isRealFloatingType() && !type->isIntegerType())
          return unsupported<bool>(var, "a reduction variable must be a "
                                        "floating-point or integer number");
        marker.reduced.push_back({var, kind});
      }
      continue;
    }
    if (const auto *collapse = dyn_cast<clang::OMPCollapseClause>(clause)) {
      std::optional<llvm::APSInt> count =
          collapse->getNumForLoops()->getIntegerConstantExpr(ast);
      marker.collapse = count ? count->getExtValue() : 1;
      continue;
    }
    // Clauses that change nothing in what the loop computes: the loop
    // variable and locals are private anyway, and derivative loops
    // schedule their iterations statically.
    if (isa<clang::OMPScheduleClause, clang::OMPPrivateClause,
            clang::OMPSharedClause, clang::OMPDefaultClause,
            clang::OMPNumThreadsClause, clang::OMPProcBindClause>(clause))
      continue;
    return unsupported<bool>(
        directive,
        "the '" + llvm::omp::getOpenMPClauseName(clause->getClauseKind()) +
            "' clause of '#pragma omp " + name +
            "' cannot be differentiated; supported clauses are reduction, "
            "collapse, schedule, private, shared, default, num_threads and "
            "proc_bind" +
            (device ? ", and map, firstprivate, num_teams, thread_limit and "
                      "dist_schedule on a target loop"
                    : ""));
  }
  return true;
}

bool FunctionLowering::sizeMappedSections(
    ArrayRef<const clang::ArraySectionExpr *> sections,
    SmallVectorImpl<std::pair<PointerVariable *, Value>> &unsized) {
  for (const clang::ArraySectionExpr *section : sections) {
    const auto *ref =
        dyn_cast<clang::DeclRefExpr>(section->getBase()->IgnoreParenImpCasts());
    auto pointer = ref ? pointers.find(ref->getDecl()) : pointers.end();
    if (pointer == pointers.end() || movingPointers.count(ref->getDecl()) ||
        pointer->second.addressSlot || !section->getLength())
      continue;
    std::optional<Layout> layout =
        layoutOf(ref->getType()->getPointeeType(), ref);
    if (!layout)
      continue;
    Location l = this->loc(section);
    Value end = load(pointer->second.offsetSlot, l);
    for (const clang::Expr *part :
         {section->getLowerBound(), section->getLength()}) {
      if (!part)
        continue;
      Value count = lowerRValue(part);
      if (!count)
        return false;
      Value elements = index(count, part->getType(), l);
      if (layout->size != 1)
        elements = arith::MulIOp::create(b, l, elements,
                                         constantIndex(layout->size, l));
      end = arith::AddIOp::create(b, l, end, elements);
    }
    Value memory = pointer->second.memref;
    unsized.push_back({&pointer->second, memory});
    pointer->second.memref = memref::SubViewOp::create(
        b, l, memory, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{end}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  }
  return true;
}

void FunctionLowering::lowerOpenMPDirective(
    const clang::OMPExecutableDirective *directive) {
  std::string name = directiveName(directive);
  if (const auto *atomic = dyn_cast<clang::OMPAtomicDirective>(directive))
    return lowerOpenMPAtomic(atomic);
  // The combined target forms: the loop on a GPU (when compiling for one).
  bool device =
      isa<clang::OMPTargetParallelForDirective,
          clang::OMPTargetParallelForSimdDirective,
          clang::OMPTargetTeamsDistributeParallelForDirective,
          clang::OMPTargetTeamsDistributeParallelForSimdDirective>(directive);
  if (!device &&
      !isa<clang::OMPParallelForDirective, clang::OMPParallelForSimdDirective>(
          directive))
    return (void)unsupported(directive,
                             "'#pragma omp " + name +
                                 "' cannot be differentiated; parallel loops "
                                 "are written '#pragma omp parallel for', or "
                                 "'#pragma omp target teams distribute "
                                 "parallel for' for a GPU");
  const auto *loopDirective = cast<clang::OMPLoopDirective>(directive);
  ParallelLoopMarker marker{nullptr, {}, 1, device};
  SmallVector<const clang::ArraySectionExpr *> sections;
  if (!readParallelLoopClauses(directive, marker, sections))
    return;
  const clang::Stmt *loop =
      loopDirective->getInnermostCapturedStmt()->getCapturedStmt();
  if (!isa<clang::ForStmt>(loop))
    return (void)unsupported(directive, "'#pragma omp " + name +
                                            "' must be followed by a 'for' "
                                            "loop over a counter");
  marker.loop = loop;
  // A mapped section `p[lo:len]` of a pointer variable gives its memory an
  // extent for the loop: the loop uses a view of the first offset + lo +
  // len elements, and so do the derivative loops, of the shadows; the GPU
  // copies are that long.
  SmallVector<std::pair<PointerVariable *, Value>> unsized;
  if (!sizeMappedSections(sections, unsized))
    return;
  std::optional<ParallelLoopMarker> outer = std::move(parallelLoop);
  parallelLoop = std::move(marker);
  lowerStmt(loop);
  parallelLoop = std::move(outer);
  for (auto [pointer, memory] : unsized)
    pointer->memref = memory;
}

bool FunctionLowering::emitParallelLoopMarker(const clang::Stmt *loop) {
  if (!parallelLoop || parallelLoop->loop != loop)
    return false;
  ParallelLoopMarker marker = std::move(*parallelLoop);
  parallelLoop.reset();
  Location l = this->loc(loop);
  SmallVector<Value> reduced;
  SmallVector<StringRef> kinds;
  for (auto [var, kind] : marker.reduced) {
    std::optional<Address> at = lowerLValue(var);
    if (!at)
      return false;
    reduced.push_back(load(*at, l));
    kinds.push_back(kind);
  }
  ct::ParallelLoopOp::create(
      b, l, reduced, b.getStrArrayAttr(kinds), marker.collapse,
      static_cast<int64_t>(loopReadMarks.size()), marker.device);
  return true;
}
