//===- ScheduleCalls.h - Driving the checkpoint schedule from IR -*- C++
//-*-===//
//
// Internal to lib/AD/Checkpointing: the code checkpointed loops emit to call
// the schedule of cotangent/checkpoint_schedule.h (through MLIR's C interface)
// and to act on its answers.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_LIB_AD_CHECKPOINTING_SCHEDULECALLS_H
#define COTANGENT_LIB_AD_CHECKPOINTING_SCHEDULECALLS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace cotangent::ad::schedule {

using mlir::ArrayRef;
using mlir::Block;
using mlir::function_ref;
using mlir::Location;
using mlir::ModuleOp;
using mlir::OpBuilder;
using mlir::SmallVector;
using mlir::StringRef;
using mlir::Type;
using mlir::TypeRange;
using mlir::Value;
using mlir::ValueRange;
namespace arith = mlir::arith;
namespace func = mlir::func;
namespace memref = mlir::memref;
namespace scf = mlir::scf;

/// The schedule's actions and state fields (checkpoint_schedule.h).
enum Action : int64_t {
  kDone = 0,
  kAdvance = 1,
  kTakeSnapshot = 2,
  kRestore = 3,
  kReverse = 4,
  kFinish = 5,
  kHandOver = 6,
  kMoveSnapshot = 7
};
constexpr int64_t kArg0 = 4, kArg1 = 5;
/// State elements for S snapshots: 10 + 4 (S + 1).
constexpr int64_t kStateFixed = 14, kStatePerSnapshot = 4;

inline Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Calls the schedule's entry point `name` (declared on first use, with
/// the C interface), which returns an action unless `returnsAction` is
/// false.
inline Value callSchedule(OpBuilder &b, Location loc, ModuleOp module,
                          StringRef name, ValueRange operands,
                          bool returnsAction = true) {
  SmallVector<mlir::Type> results;
  if (returnsAction)
    results.push_back(b.getI64Type());
  auto function = module.lookupSymbol<func::FuncOp>(name);
  if (!function) {
    OpBuilder top = OpBuilder::atBlockEnd(module.getBody());
    function = func::FuncOp::create(
        top, module.getLoc(), name,
        top.getFunctionType(ValueRange(operands).getTypes(), results));
    function.setPrivate();
    function->setAttr("llvm.emit_c_interface", top.getUnitAttr());
  }
  auto call = func::CallOp::create(b, loc, function, operands);
  return returnsAction ? call.getResult(0) : Value();
}

/// state[field], as an index.
inline Value readField(OpBuilder &b, Location loc, Value state, int64_t field) {
  Value v = memref::LoadOp::create(b, loc, state,
                                   ValueRange{indexConstant(b, loc, field)});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

inline Value toI64(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

/// Whether `action` is not `a`.
inline Value isNot(OpBuilder &b, Location loc, Value action, int64_t a) {
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, action,
      arith::ConstantIntOp::create(b, loc, b.getI64Type(), a));
}

/// An scf.index_switch on `action` with one case per action in `cases`,
/// each built by `build` (which returns the values it yields), and a
/// default yielding `otherwise`.
inline SmallVector<Value> buildActionSwitch(
    OpBuilder &b, Location loc, Value action, TypeRange types,
    ArrayRef<int64_t> cases, ValueRange otherwise,
    function_ref<SmallVector<Value>(OpBuilder &, int64_t)> build) {
  Value selector = arith::IndexCastOp::create(b, loc, b.getIndexType(), action);
  auto switchOp =
      scf::IndexSwitchOp::create(b, loc, types, selector, cases, cases.size());
  for (auto [i, c] : llvm::enumerate(cases)) {
    Block &block = switchOp.getCaseRegions()[i].emplaceBlock();
    OpBuilder inner = OpBuilder::atBlockBegin(&block);
    scf::YieldOp::create(inner, loc, build(inner, c));
  }
  Block &fallback = switchOp.getDefaultRegion().emplaceBlock();
  OpBuilder inner = OpBuilder::atBlockBegin(&fallback);
  scf::YieldOp::create(inner, loc, otherwise);
  return llvm::to_vector(ValueRange(switchOp.getResults()));
}

/// A while loop that asks the schedule's `next` for actions while
/// `keepGoing` answers true, running `body` on each (with the values it
/// carries, starting from `initial`); returns the last action, then the
/// values.
inline SmallVector<Value> buildScheduleLoop(
    OpBuilder &b, Location loc, ModuleOp module, Value state, StringRef next,
    ValueRange initial, function_ref<Value(OpBuilder &, Value)> keepGoing,
    function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)> body) {
  SmallVector<Type> types(initial.getTypes());
  SmallVector<Type> afterTypes{b.getI64Type()};
  llvm::append_range(afterTypes, types);
  SmallVector<Location> locs(types.size(), loc);
  auto loop = scf::WhileOp::create(b, loc, afterTypes, initial);
  Block *before = b.createBlock(&loop.getBefore(), {}, types, locs);
  Value action = callSchedule(b, loc, module, next, state);
  SmallVector<Value> passed{action};
  llvm::append_range(passed, before->getArguments());
  scf::ConditionOp::create(b, loc, keepGoing(b, action), passed);
  SmallVector<Location> afterLocs(afterTypes.size(), loc);
  Block *after = b.createBlock(&loop.getAfter(), {}, afterTypes, afterLocs);
  SmallVector<Value> yielded =
      body(b, after->getArgument(0), after->getArguments().drop_front());
  scf::YieldOp::create(b, loc, yielded);
  b.setInsertionPointAfter(loop);
  return llvm::to_vector(ValueRange(loop.getResults()));
}

} // namespace cotangent::ad::schedule

#endif // COTANGENT_LIB_AD_CHECKPOINTING_SCHEDULECALLS_H
