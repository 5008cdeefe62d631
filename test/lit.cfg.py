# -*- Python -*-
# lit configuration of Cotangent's regression and integration tests.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "Cotangent"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".cpp", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cotangent_obj_root, "test")
config.excludes = ["Inputs", "lib", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "oracles.h"]

llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# FileCheck, not, count, split-file come from the LLVM package.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.cotangent_tools_dir, append_path=True)

config.substitutions.append(("%cotangent_src", config.cotangent_src_root))
config.substitutions.append(("%cotangent_obj", config.cotangent_obj_root))
config.substitutions.append(
    ("%cotangent-opt", os.path.join(config.cotangent_tools_dir, "cotangent-opt")))
config.substitutions.append(
    ("%cotangent-cc", os.path.join(config.cotangent_tools_dir, "cotangent-cc")))

# The clean-up that follows differentiation, and the lowering to LLVM that
# execution tests use.
config.substitutions.append(
    ("%ad-cleanup", "--mem2reg --canonicalize --cse"))
config.substitutions.append(
    ("%lower-to-llvm", "--ct-lower-to-llvm"))

# Running lowered MLIR: mlir-runner with the runtime support libraries.
runner_libs = ",".join(
    [os.path.join(config.llvm_lib_dir, lib)
     for lib in ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"]] +
    [os.path.join(config.cotangent_lib_dir, "libCotangentTestUtils.so")])
config.substitutions.append(
    ("%mlir-runner",
     os.path.join(config.llvm_tools_dir, "mlir-runner") +
     " -shared-libs=" + runner_libs))

# Our code built with assertions prints LLVM_DEBUG output (-debug-only).
if config.cotangent_asserts:
    config.available_features.add("asserts")

# clang++ with the Cotangent plugin and header, and the same without the
# plugin. The plugin runs inside the installed clang, so a sanitized build
# (whose plugin would need the sanitizer runtime in clang) has none: there
# %clangxx-ct builds through the sanitized cotangent-cc instead, and tests
# of the plugin itself are UNSUPPORTED: sanitizer.
runtime_include = os.path.join(config.cotangent_src_root, "runtime", "include")
check_include = os.path.join(config.cotangent_src_root, "test", "Integration",
                             "CPU", "Inputs")
plugin = os.path.join(config.cotangent_lib_dir, "CotangentPlugin.so")
# `--param ad_optimizations=off` builds every program with the plain
# derivative strategy (no reverse-mode strategy, no pre-AD loop and memory
# passes): the oracle the optimised strategies must agree with.
ad_optimizations = lit_config.params.get("ad_optimizations", "on")
if ad_optimizations not in ("on", "off"):
    lit_config.fatal("ad_optimizations must be on or off")
if ad_optimizations == "off" and config.cotangent_sanitize:
    lit_config.fatal("ad_optimizations=off needs the plugin (not in sanitized "
                     "builds)")
plugin_args = " -fplugin-arg-cotangent-ad-optimizations=off" \
    if ad_optimizations == "off" else ""
# `--param program_flags="-fsanitize=address,undefined"` builds every
# program the tests compile with the plugin with those flags too (the
# generated code under the sanitizers: ASan-clean derivatives).
program_flags = lit_config.params.get("program_flags", "")
plugin_args += " " + program_flags
# (AddressSanitizer reserves terabytes of address space for its shadow: a
# test capping virtual memory cannot run such a program.)
if "-fsanitize=address" in program_flags:
    config.available_features.add("asan-programs")
# `--param checkpoint_tape_bytes=0` runs every program with that limit for
# loops the compiler may checkpoint on its own (COTANGENT_CHECKPOINT_TAPE_BYTES):
# 0 takes the checkpointed version of every such loop whose snapshots are
# small, exercising it on the whole suite.
if "checkpoint_tape_bytes" in lit_config.params:
    config.environment["COTANGENT_CHECKPOINT_TAPE_BYTES"] = \
        lit_config.params["checkpoint_tape_bytes"]
# `--param tape_cache_bytes=N` runs every program with that much tape memory
# kept between calls (COTANGENT_TAPE_CACHE_BYTES; 0 keeps none, as before).
if "tape_cache_bytes" in lit_config.params:
    config.environment["COTANGENT_TAPE_CACHE_BYTES"] = \
        lit_config.params["tape_cache_bytes"]
# What only the optimised strategies do (reverse over reverse through a
# loop needs the loop undone eagerly, with no tape).
if ad_optimizations == "on":
    config.available_features.add("ad-optimizations")
if config.cotangent_sanitize:
    # The same programs, built by the sanitized cotangent-cc (derivatives'
    # object) and clang++ without the plugin: see the script.
    wrapper = os.path.join(config.cotangent_src_root, "test", "Utils",
                           "clangxx-via-cotangent-cc.py")
    config.substitutions.append(
        ("%clangxx-ct",
         "python3 %s %s %s -std=c++20 -I%s -I%s" %
         (wrapper, os.path.join(config.cotangent_tools_dir, "cotangent-cc"),
          config.cotangent_clangxx, runtime_include, check_include)))
    config.available_features.add("plugin")
else:
    config.substitutions.append(
        ("%clangxx-ct",
         "%s -std=c++20 -fplugin=%s%s -I%s -I%s" %
         (config.cotangent_clangxx, plugin, plugin_args, runtime_include,
          check_include)))
config.substitutions.append(
    ("%clangxx-plain",
     "%s -std=c++20 -Wno-unknown-attributes -I%s -I%s" %
     (config.cotangent_clangxx, runtime_include, check_include)))
config.substitutions.append(("%cotangent-include", runtime_include))
# The host side of GPU loops, linked by programs built for a GPU target.
config.substitutions.append(
    ("%cotangent-gpu-runtime",
     os.path.join(config.cotangent_lib_dir, "libcotangent_gpu.a")))
config.substitutions.append(("%clangxx-bin", config.cotangent_clangxx))
config.substitutions.append(("%check-include", check_include))
if os.path.exists(plugin) and not config.cotangent_sanitize:
    config.available_features.add("plugin")
# g++ builds programs against objects from cotangent-cc --emit=obj.
gxx = shutil.which("g++")
if gxx:
    config.available_features.add("gxx")
    config.substitutions.append(
        ("%gxx", "%s -std=c++20 -Wno-attributes -I%s -I%s" %
         (gxx, runtime_include, check_include)))

# LLVM's libc++, when installed, builds the standard-library tests a second
# time (std::vector and <algorithm> are modelled for both libraries).
if os.system("echo 'int main(){}' | %s -stdlib=libc++ -x c++ - -o /dev/null "
             "> /dev/null 2>&1" % config.cotangent_clangxx) == 0:
    config.available_features.add("libcxx")

# Eigen (Debian's libeigen3-dev, which make check installs): its headers.
eigen_include = "/usr/include/eigen3"
if os.path.isfile(os.path.join(eigen_include, "Eigen", "Dense")):
    config.available_features.add("eigen")
# (Also as a program that names Eigen's directory with -I: its headers are
# then not system headers.)
config.substitutions.append(("%eigen-as-user", "-I " + eigen_include))
config.substitutions.append(("%eigen", "-isystem " + eigen_include))

# The processor's own SIMD extensions: programs built with -mavx2 -mfma
# (or -mavx512f...) run only where it has them.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        cpu_flags = set(next((line.split(":", 1)[1].split()
                              for line in cpuinfo if line.startswith("flags")),
                             []))
except OSError:
    cpu_flags = set()
if {"avx2", "fma"} <= cpu_flags:
    config.available_features.add("avx2")
if {"avx512f", "avx512dq", "avx512vl"} <= cpu_flags:
    config.available_features.add("avx512")

# GPU tests run only where a CUDA device answers; PTX tests run everywhere.
nvidia_smi = shutil.which("nvidia-smi")
if nvidia_smi and os.system(nvidia_smi + " -L > /dev/null 2>&1") == 0:
    config.available_features.add("cuda")

if config.cotangent_sanitize:
    config.available_features.add("sanitizer")
    # The sanitized tools share LLVM's bump allocators with the installed,
    # uninstrumented libMLIR: a slab our code poisons (LLVM's allocator does
    # that under ASan) is then written by libMLIR's own allocations, which
    # never unpoison it. Manual poisoning only makes sense in a fully
    # instrumented build, so it is off here; every other check stays on.
    config.environment["ASAN_OPTIONS"] = "allow_user_poisoning=0"
