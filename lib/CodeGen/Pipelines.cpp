//===- Pipelines.cpp - From differentiated MLIR to machine code -----------===//

#include "cotangent/CodeGen/Pipelines.h"
#include "cotangent/CodeGen/Conversion/AllocaScopes.h"
#include "cotangent/CodeGen/Conversion/TapeToLLVM.h"
#include "cotangent/CodeGen/Passes.h"
#include "cotangent/CodeGen/Transforms/LoopAnnotations.h"
#include "cotangent/CodeGen/Transforms/TapeAliasScopes.h"
#include "cotangent/Dialect/CT/IR/Signatures.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;

namespace cotangent::codegen {

void registerCodeGenInterfaces(DialectRegistry &registry) {
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  // Vector mode (ct::lanes) carries derivatives as vectors.
  vector::registerConvertVectorToLLVMInterface(registry);
  registerConvertCTToLLVMInterface(registry);
  // Parallel loops on OpenMP threads (-fopenmp).
  registerConvertOpenMPToLLVMInterface(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  // GPU kernels (-fplugin-arg-cotangent-target=cuda:...): PTX from NVVM,
  // embedded in the object with its loading code.
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

/// Kernels of the loops ct-offload-loops maps to the GPU, lowered to NVVM
/// inside their gpu.module; the host side goes on with the CPU pipeline.
static void buildKernelPipeline(OpPassManager &pm, StringRef chip) {
  pm.addPass(createOffloadLoops());
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createNameKernels());
  GpuNVVMAttachTargetOptions target;
  target.chip = chip.str();
  // PTX 8.0 (CUDA 12.0): the oldest ISA that knows sm_90.
  target.features = "+ptx80";
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createExpandDeviceMath());
  kernels.addPass(memref::createExpandStridedMetadataPass());
  kernels.addPass(createLowerAffinePass());
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  // Intrinsics NVPTX selects natively (sqrt, fma, floor...), not the
  // libdevice calls convert-gpu-to-nvvm made of them.
  kernels.addPass(createNativeDeviceMath());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
}

void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMOptions &options) {
  bool gpu = !options.gpuChip.empty();
  if (gpu)
    buildKernelPipeline(pm, options.gpuChip);
  // Library calls in the C ABI, before anything lowers their memrefs (and
  // after the kernels, which do not call them, are made).
  pm.addPass(createLowerExternalCalls());
  // Parallel loops become OpenMP worksharing loops, which LLVM's OpenMP
  // builder outlines into calls to the OpenMP runtime; without OpenMP,
  // scf-to-cf runs them serially.
  pm.addPass(createLowerThreadCount(LowerThreadCountOptions{options.openmp}));
  if (options.openmp)
    pm.addPass(createConvertSCFToOpenMPPass());
  // Iterations of parallel loops release their stack when they end (scopes
  // made by ct-parallelize-loops and by scf-to-openmp).
  pm.addPass(createInlineAllocaScopes());
  // Polynomial expansions for what has no LLVM intrinsic (integer powers),
  // intrinsics where LLVM has them, libm for the rest.
  pm.addPass(createExpandSpecialFunctions());
  // Vectors of long doubles are padded in memory, not in LLVM's vectors.
  pm.addPass(createPaddedLaneAccesses());
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createConvertMathToLLVMPass());
  // (math-to-libm refuses long double: the `l` functions first.)
  pm.addPass(createLongDoubleMathToLibm());
  pm.addPass(createConvertMathToLibmPass());
  // Ours first (linear); upstream's converts what it leaves.
  pm.addPass(createStructuredToBranches());
  pm.addPass(createSCFToControlFlowPass());
  // Strided views become affine index arithmetic, then plain arith.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // The program's heap memory through the functions its source names;
  // the rest through C++'s allocation functions (ct-cxx-heap-functions).
  pm.addPass(createNamedHeapFunctions());
  FinalizeMemRefToLLVMConversionPassOptions heap;
  heap.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(heap));
  pm.addPass(createCxxHeapFunctions());
  // Launches, device memory and streams: calls of the mgpu* functions our
  // runtime defines.
  if (gpu)
    pm.addPass(createGpuToLLVMConversionPass());
  // Vectors of more than one dimension (vector mode over vector-mode
  // code) need the vector dialect's own lowering first; modules without
  // them, none.
  pm.addPass(createLowerVectorsToLLVM());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createTapeAliasScopes());
  // PTX text (no CUDA toolkit needed), JIT-compiled by the driver.
  if (gpu) {
    GpuModuleToBinaryPassOptions binary;
    binary.compilationTarget = "isa";
    pm.addPass(createGpuModuleToBinaryPass(binary));
  }
}

void registerLowerToLLVMPipeline() {
  PassPipelineRegistration<LowerToLLVMOptions>(
      "ct-lower-to-llvm",
      "Lower differentiated code (math, scf, memref, ct, func) to the LLVM "
      "dialect",
      [](OpPassManager &pm, const LowerToLLVMOptions &options) {
        buildLowerToLLVMPipeline(pm, options);
      });
}

/// Each placeholder of a `ct.function_address` becomes the function it
/// names: a declaration of the C++ symbol, which the unit's definition
/// resolves when the derivatives are linked with it. The module's own
/// copy of the function (what differentiated code calls) takes another
/// name, so that the address is the one C++ code compares with.
static void resolveFunctionAddresses(llvm::Module &module) {
  SmallVector<llvm::GlobalVariable *> placeholders;
  for (llvm::GlobalVariable &global : module.globals())
    if (global.getName().starts_with(ct::kFunctionAddressPrefix))
      placeholders.push_back(&global);
  for (llvm::GlobalVariable *placeholder : placeholders) {
    std::string symbol = placeholder->getName()
                             .drop_front(ct::kFunctionAddressPrefix.size())
                             .str();
    if (llvm::GlobalValue *copy = module.getNamedValue(symbol);
        copy && !copy->isDeclaration())
      copy->setName(symbol + ".ct"); // (made unique by LLVM if need be)
    llvm::GlobalValue *function = module.getNamedValue(symbol);
    if (!function)
      function = llvm::Function::Create(
          llvm::FunctionType::get(llvm::Type::getVoidTy(module.getContext()),
                                  /*isVarArg=*/false),
          llvm::GlobalValue::ExternalLinkage, symbol, module);
    placeholder->replaceAllUsesWith(function);
    placeholder->eraseFromParent();
  }
}

/// The module's thread-local variables (ct::kThreadLocalGlobalsAttr) are
/// each thread's own in LLVM IR too, so that the object file reaches them
/// as such.
static void markThreadLocals(ModuleOp source, llvm::Module &module) {
  auto names = source->getAttrOfType<ArrayAttr>(ct::kThreadLocalGlobalsAttr);
  if (!names)
    return;
  for (auto name : names.getAsRange<StringAttr>())
    if (llvm::GlobalVariable *global =
            module.getGlobalVariable(name.getValue(), /*AllowInternal=*/true))
      global->setThreadLocal(true);
}

std::unique_ptr<llvm::Module> translateToLLVMIR(ModuleOp module,
                                                llvm::LLVMContext &context,
                                                StringRef triple,
                                                StringRef dataLayout) {
  std::unique_ptr<llvm::Module> result =
      translateModuleToLLVMIR(module, context, "cotangent");
  if (!result)
    return nullptr;
  result->setTargetTriple(llvm::Triple(triple));
  result->setDataLayout(dataLayout);
  resolveFunctionAddresses(*result);
  markThreadLocals(module, *result);
  disableRuntimeUnrolling(*result);
  return result;
}

LogicalResult emitMachineCode(llvm::Module &module,
                              llvm::raw_pwrite_stream &out, bool assembly,
                              unsigned optLevel, std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  const llvm::Triple &triple = module.getTargetTriple();
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return failure();
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "generic", "", options, llvm::Reloc::PIC_));
  if (!machine) {
    error = "no target machine for " + triple.str();
    return failure();
  }
  module.setDataLayout(machine->createDataLayout());

  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(machine.get());
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  llvm::ModulePassManager pipeline =
      optLevel == 0 ? builder.buildO0DefaultPipeline(levels[0])
                    : builder.buildPerModuleDefaultPipeline(
                          levels[std::min(optLevel, 3u)]);
  pipeline.run(module, modules);

  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, out, nullptr,
                                   assembly
                                       ? llvm::CodeGenFileType::AssemblyFile
                                       : llvm::CodeGenFileType::ObjectFile)) {
    error = "the target cannot emit this file type";
    return failure();
  }
  codegen.run(module);
  return success();
}

} // namespace cotangent::codegen
