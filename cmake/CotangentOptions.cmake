# Compiler flags shared by every Cotangent target.

# The installed LLVM is built without RTTI and exceptions; match it.
add_compile_options(-fno-rtti -fno-exceptions)

if(COTANGENT_ENABLE_ASSERTIONS)
  # Debian's LLVM is a release build; asserts in our own code (and in the
  # header-only parts of LLVM/MLIR we instantiate) still catch our bugs early.
  # ABI-breaking checks are fixed by llvm/Config/abi-breaking.h, so this is safe.
  add_compile_options(-UNDEBUG)
endif()

if(COTANGENT_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  # UBSan's vptr check needs RTTI, which LLVM is built without.
  add_compile_options(-fno-sanitize=vptr)
endif()

# lld links the large MLIR binaries several times faster than ld.bfd.
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  add_link_options(-fuse-ld=lld)
endif()

# ccache, when installed, makes rebuilds and CI from a warm cache cheap.
find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_C_COMPILER_LAUNCHER ${CCACHE_PROGRAM})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CCACHE_PROGRAM})
endif()

# Link helper: every Cotangent binary uses the shared libMLIR.so / libLLVM.so,
# never static copies (the plugin must not bring a second LLVM into clang).
function(cotangent_link_mlir target)
  target_link_libraries(${target} PUBLIC MLIR LLVM)
endfunction()
