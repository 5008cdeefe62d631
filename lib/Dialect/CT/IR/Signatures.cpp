//===- Signatures.cpp - Types of derivative functions ---------------------===//

#include "cotangent/Dialect/CT/IR/Signatures.h"

using namespace mlir;

namespace cotangent::ct {

bool isDifferentiableScalar(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return !vector.isScalable() && isa<FloatType>(vector.getElementType());
  return isa<FloatType>(type);
}

bool isDifferentiableMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && isDifferentiableScalar(memref.getElementType());
}

bool activityFitsType(Activity activity, Type type) {
  switch (activity) {
  case Activity::Constant:
    return true;
  case Activity::Active:
    return isDifferentiableScalar(type);
  case Activity::Duplicated:
    return isDifferentiableMemRef(type);
  }
  llvm_unreachable("unknown activity");
}

StringRef describeActivityRequirement(Activity activity) {
  switch (activity) {
  case Activity::Constant:
    return "any type";
  case Activity::Active:
    return "a floating-point scalar";
  case Activity::Duplicated:
    return "a memref of floating-point elements";
  }
  llvm_unreachable("unknown activity");
}

Activity getDefaultActivity(Type type) {
  if (isDifferentiableScalar(type))
    return Activity::Active;
  if (isDifferentiableMemRef(type))
    return Activity::Duplicated;
  return Activity::Constant;
}

SmallVector<Activity> getDefaultActivities(FunctionType type) {
  return llvm::map_to_vector(type.getInputs(), getDefaultActivity);
}

Type getLaneType(Type type, int64_t lanes) {
  if (lanes == 1)
    return type;
  if (isa<FloatType>(type))
    return VectorType::get({lanes}, type);
  // Lanes of lanes: the new lanes innermost.
  if (auto vector = dyn_cast<VectorType>(type);
      vector && isDifferentiableScalar(vector)) {
    SmallVector<int64_t> shape(vector.getShape());
    shape.push_back(lanes);
    return VectorType::get(shape, vector.getElementType());
  }
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !isDifferentiableScalar(memref.getElementType()))
    return {};
  if (memref.getRank() == 0)
    return MemRefType::get({}, getLaneType(memref.getElementType(), lanes),
                           memref.getLayout(), memref.getMemorySpace());
  if (!isa<FloatType>(memref.getElementType()))
    return {};
  SmallVector<int64_t> shape(memref.getShape());
  shape.push_back(lanes);
  if (memref.getLayout().isIdentity())
    return MemRefType::get(shape, memref.getElementType(),
                           MemRefLayoutAttrInterface(),
                           memref.getMemorySpace());
  auto strided = dyn_cast<StridedLayoutAttr>(memref.getLayout());
  if (!strided)
    return {};
  // Element i, lane k lies at i * lanes + k.
  auto times = [&](int64_t x) {
    return ShapedType::isDynamic(x) ? x : x * lanes;
  };
  SmallVector<int64_t> strides =
      llvm::map_to_vector(strided.getStrides(), times);
  strides.push_back(1);
  return MemRefType::get(shape, memref.getElementType(),
                         StridedLayoutAttr::get(type.getContext(),
                                                times(strided.getOffset()),
                                                strides),
                         memref.getMemorySpace());
}

ReverseSignature getReverseSignature(FunctionType type,
                                     ArrayRef<Activity> activities,
                                     int64_t lanes) {
  assert(activities.size() == type.getNumInputs() && "one activity per arg");
  ReverseSignature sig;
  for (auto [i, result] : llvm::enumerate(type.getResults())) {
    if (!isDifferentiableScalar(result))
      continue;
    sig.seeds.push_back(getLaneType(result, lanes));
    sig.seedResults.push_back(i);
  }
  for (auto [i, arg] : llvm::enumerate(type.getInputs())) {
    if (activities[i] == Activity::Duplicated) {
      sig.shadows.push_back(getLaneType(arg, lanes));
      sig.shadowArgs.push_back(i);
    } else if (activities[i] == Activity::Active) {
      sig.adjoints.push_back(getLaneType(arg, lanes));
      sig.adjointArgs.push_back(i);
    }
  }
  return sig;
}

ForwardSignature getForwardSignature(FunctionType type,
                                     ArrayRef<Activity> activities,
                                     int64_t lanes) {
  assert(activities.size() == type.getNumInputs() && "one activity per arg");
  ForwardSignature sig;
  for (auto [i, arg] : llvm::enumerate(type.getInputs())) {
    if (activities[i] == Activity::Constant)
      continue;
    sig.tangents.push_back(getLaneType(arg, lanes));
    sig.tangentArgs.push_back(i);
  }
  for (auto [i, result] : llvm::enumerate(type.getResults())) {
    if (!isDifferentiableScalar(result))
      continue;
    sig.resultTangents.push_back(getLaneType(result, lanes));
    sig.tangentResults.push_back(i);
  }
  return sig;
}

ArrayAttr getActivityArrayAttr(MLIRContext *context,
                               ArrayRef<Activity> activities) {
  return ArrayAttr::get(
      context, llvm::map_to_vector(activities, [&](Activity a) -> Attribute {
        return ActivityAttr::get(context, a);
      }));
}

FunctionType getPullbackRuleType(FunctionType type) {
  ReverseSignature sig = getReverseSignature(type, getDefaultActivities(type));
  SmallVector<Type> inputs(type.getInputs());
  llvm::append_range(inputs, sig.seeds);
  llvm::append_range(inputs, sig.shadows);
  return FunctionType::get(type.getContext(), inputs, sig.adjoints);
}

FunctionType getJvpRuleType(FunctionType type) {
  ForwardSignature sig = getForwardSignature(type, getDefaultActivities(type));
  SmallVector<Type> inputs(type.getInputs());
  llvm::append_range(inputs, sig.tangents);
  SmallVector<Type> results(type.getResults());
  llvm::append_range(results, sig.resultTangents);
  return FunctionType::get(type.getContext(), inputs, results);
}

} // namespace cotangent::ct
