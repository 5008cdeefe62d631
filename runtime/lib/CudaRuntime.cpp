//===- CudaRuntime.cpp - GPU kernels of parallel loops, over libcuda ------===//
//
// The host side of a GPU loop (ct-offload-loops, then MLIR's gpu-to-llvm)
// calls the mgpu* functions below and our ct_gpu_* ones. They drive the
// CUDA driver API, loaded with dlopen("libcuda.so.1") at the first GPU
// loop, so that programs link and run without a CUDA toolkit or driver:
// where none answers, ct_gpu_begin says no and the loop runs on the CPU.
// A driver error is reported with its CUDA name; the loop then runs on the
// CPU too (the host's memory is only written after the kernel succeeded)
// and later loops do not try the GPU again. CT_VERBOSE=1 reports which path
// each loop takes; CT_GPU=off keeps every loop on the CPU.
//
//===----------------------------------------------------------------------===//

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <mutex>
#include <string>

namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;

constexpr int kJitErrorLogBuffer = 5;     // CU_JIT_ERROR_LOG_BUFFER
constexpr int kJitErrorLogBufferSize = 6; // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES

/// The driver entry points we use, resolved from libcuda.so.1.
struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuGetErrorName)(CUresult, const char **);
};

struct State {
  std::mutex mutex;
  bool tried = false;
  bool usable = false;
  /// Set by a failed driver call until the loop's ct_gpu_end.
  bool failed = false;
  /// When the kernel being waited for was launched (CT_VERBOSE=2), or 0,
  /// and its name.
  double launched = 0;
  const char *launchedName = "";
  /// Kernels' names, for messages.
  std::map<CUfunction, std::string> names;
  Driver driver{};
  CUcontext context = nullptr;
};

State &state() {
  static State s;
  return s;
}

/// CT_VERBOSE: 1 says which path loops take, 2 also times each kernel.
int verbosity() {
  static const int level = [] {
    const char *v = std::getenv("CT_VERBOSE");
    return v && *v ? std::atoi(v) : 0;
  }();
  return level;
}
bool verbose() { return verbosity() > 0; }

double now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

template <typename Fn> bool resolve(void *library, const char *name, Fn &fn) {
  fn = reinterpret_cast<Fn>(dlsym(library, name));
  return fn != nullptr;
}

/// Loads the driver and makes the first device's primary context; false,
/// with the reason in `why`, where there is none.
bool initialize(State &s, std::string &why) {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    why = "no CUDA driver (libcuda.so.1 not found)";
    return false;
  }
  Driver &d = s.driver;
  bool all = resolve(library, "cuInit", d.cuInit) &&
             resolve(library, "cuDeviceGetCount", d.cuDeviceGetCount) &&
             resolve(library, "cuDeviceGet", d.cuDeviceGet) &&
             resolve(library, "cuDeviceGetName", d.cuDeviceGetName) &&
             resolve(library, "cuDevicePrimaryCtxRetain",
                     d.cuDevicePrimaryCtxRetain) &&
             resolve(library, "cuCtxSetCurrent", d.cuCtxSetCurrent) &&
             resolve(library, "cuModuleLoadDataEx", d.cuModuleLoadDataEx) &&
             resolve(library, "cuModuleUnload", d.cuModuleUnload) &&
             resolve(library, "cuModuleGetFunction", d.cuModuleGetFunction) &&
             resolve(library, "cuLaunchKernel", d.cuLaunchKernel) &&
             resolve(library, "cuStreamSynchronize", d.cuStreamSynchronize) &&
             resolve(library, "cuMemAlloc_v2", d.cuMemAlloc) &&
             resolve(library, "cuMemFree_v2", d.cuMemFree) &&
             resolve(library, "cuMemcpyHtoD_v2", d.cuMemcpyHtoD) &&
             resolve(library, "cuMemcpyDtoH_v2", d.cuMemcpyDtoH) &&
             resolve(library, "cuGetErrorName", d.cuGetErrorName);
  if (!all) {
    why = "the CUDA driver lacks an entry point Cotangent uses";
    return false;
  }
  const char *name = nullptr;
  auto failedWith = [&](CUresult result, const char *call) {
    if (result == 0)
      return false;
    d.cuGetErrorName(result, &name);
    why = std::string(call) + " failed: " + (name ? name : "unknown error");
    return true;
  };
  int count = 0;
  CUdevice device = 0;
  if (failedWith(d.cuInit(0), "cuInit") ||
      failedWith(d.cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return false;
  if (count == 0) {
    why = "no CUDA device";
    return false;
  }
  if (failedWith(d.cuDeviceGet(&device, 0), "cuDeviceGet") ||
      failedWith(d.cuDevicePrimaryCtxRetain(&s.context, device),
                 "cuDevicePrimaryCtxRetain"))
    return false;
  if (verbose()) {
    char deviceName[256] = {};
    d.cuDeviceGetName(deviceName, sizeof deviceName, device);
    std::fprintf(stderr, "cotangent: GPU loops run on %s\n", deviceName);
  }
  return true;
}

/// Records a failed driver call (reported by ct_gpu_end); true if it failed.
bool check(CUresult result, const char *call) {
  if (result == 0)
    return false;
  State &s = state();
  const char *name = nullptr;
  if (s.driver.cuGetErrorName)
    s.driver.cuGetErrorName(result, &name);
  if (!s.failed)
    std::fprintf(stderr,
                 "cotangent: %s failed: %s; the loop runs on the CPU, and "
                 "later GPU loops too\n",
                 call, name ? name : "unknown CUDA error");
  s.failed = true;
  return true;
}

/// A kernel module: its PTX, loaded by the driver at its first use.
struct Module {
  const char *ptx;
  CUmodule loaded = nullptr;
};

} // namespace

extern "C" {

/// Whether `loop` (its description), about to run, may use the GPU: a
/// driver and device answer, no driver call failed before, and every array
/// the loop uses has a known extent (`extentsKnown`).
int ct_gpu_begin(int extentsKnown, const char *loop) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.tried) {
    s.tried = true;
    std::string why;
    const char *gpu = std::getenv("CT_GPU");
    if (gpu && std::strcmp(gpu, "off") == 0) {
      why = "CT_GPU=off";
      s.usable = false;
    } else {
      s.usable = initialize(s, why);
    }
    if (!s.usable && verbose())
      std::fprintf(stderr, "cotangent: %s; GPU loops run on the CPU\n",
                   why.c_str());
  }
  if (!s.usable)
    return 0;
  if (!extentsKnown) {
    if (verbose())
      std::fprintf(stderr,
                   "cotangent: %s runs on the CPU: it uses memory through a "
                   "pointer whose extent no map clause gives (map(to: "
                   "p[0:n]))\n",
                   loop);
    return 0;
  }
  s.failed = false;
  if (verbose())
    std::fprintf(stderr, "cotangent: %s runs on the GPU\n", loop);
  return !check(s.driver.cuCtxSetCurrent(s.context), "cuCtxSetCurrent");
}

/// After the GPU path of a loop (`used`): whether it ran without error. If
/// not, the caller runs the loop on the CPU and the GPU is not used again.
int ct_gpu_end(int used) {
  State &s = state();
  if (!used)
    return 0;
  if (s.failed) {
    s.usable = false;
    return 0;
  }
  return 1;
}

/// Copies `bytes` from host to device (`toDevice`) or back, unless a driver
/// call failed already.
void ct_gpu_copy(uintptr_t device, uintptr_t host, uint64_t bytes,
                 int toDevice) {
  State &s = state();
  if (s.failed || bytes == 0)
    return;
  if (toDevice)
    check(s.driver.cuMemcpyHtoD(device, reinterpret_cast<void *>(host), bytes),
          "cuMemcpyHtoD");
  else
    check(s.driver.cuMemcpyDtoH(reinterpret_cast<void *>(host), device, bytes),
          "cuMemcpyDtoH");
}

// The functions MLIR's gpu-to-llvm lowering calls.

void *mgpuModuleLoadJIT(void *ptx, int /*optLevel*/) {
  // Loaded at the first launch: a program whose GPU loops never run (or
  // run on a machine without a GPU) never starts the driver.
  return new Module{static_cast<const char *>(ptx)};
}

void mgpuModuleUnload(void *module) {
  auto *m = static_cast<Module *>(module);
  State &s = state();
  if (m->loaded && s.usable)
    s.driver.cuModuleUnload(m->loaded);
  delete m;
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  State &s = state();
  auto *m = static_cast<Module *>(module);
  if (s.failed)
    return nullptr;
  if (!m->loaded) {
    char log[4096] = {};
    int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize};
    void *values[] = {log, reinterpret_cast<void *>(uintptr_t(sizeof log))};
    if (check(
            s.driver.cuModuleLoadDataEx(&m->loaded, m->ptx, 2, options, values),
            "cuModuleLoadDataEx (JIT compilation of the PTX)")) {
      if (log[0])
        std::fprintf(stderr, "cotangent: %s\n", log);
      return nullptr;
    }
  }
  CUfunction function = nullptr;
  if (check(s.driver.cuModuleGetFunction(&function, m->loaded, name),
            "cuModuleGetFunction"))
    return nullptr;
  if (verbose())
    s.names[function] = name;
  return function;
}

// Every launch, copy and allocation is synchronous on the default stream:
// the streams MLIR's lowering asks for are a token.
void *mgpuStreamCreate() { return &state(); }

void mgpuStreamDestroy(void *) {}

void mgpuStreamSynchronize(void *) {
  State &s = state();
  if (!s.failed && s.usable)
    check(s.driver.cuStreamSynchronize(nullptr),
          "the kernel (cuStreamSynchronize)");
  if (s.launched != 0) {
    std::fprintf(stderr, "cotangent: GPU kernel %s took %.1f us\n",
                 s.launchedName, 1e6 * (now() - s.launched));
    s.launched = 0;
  }
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedBytes, void * /*stream*/,
                      void **params, void ** /*extra*/, size_t /*count*/) {
  State &s = state();
  if (s.failed || !function)
    return;
  if (gridX <= 0 || gridY <= 0 || gridZ <= 0)
    return; // no iterations (an upper bound below the lower one included)
  const char *name = "";
  if (verbose()) {
    name = s.names[static_cast<CUfunction>(function)].c_str();
    std::fprintf(stderr,
                 "cotangent: GPU kernel %s: %ld blocks of %ld threads\n", name,
                 long(gridX * gridY * gridZ), long(blockX * blockY * blockZ));
  }
  check(s.driver.cuLaunchKernel(static_cast<CUfunction>(function), gridX, gridY,
                                gridZ, blockX, blockY, blockZ, sharedBytes,
                                nullptr, params, nullptr),
        "cuLaunchKernel");
  if (verbosity() >= 2) {
    s.launched = now();
    s.launchedName = name;
  }
}

void *mgpuMemAlloc(uint64_t bytes, void * /*stream*/, bool /*hostShared*/) {
  State &s = state();
  CUdeviceptr pointer = 0;
  if (!s.failed && bytes)
    check(s.driver.cuMemAlloc(&pointer, bytes), "cuMemAlloc");
  return reinterpret_cast<void *>(pointer);
}

void mgpuMemFree(void *pointer, void * /*stream*/) {
  State &s = state();
  if (pointer && s.usable)
    s.driver.cuMemFree(reinterpret_cast<CUdeviceptr>(pointer));
}

} // extern "C"
