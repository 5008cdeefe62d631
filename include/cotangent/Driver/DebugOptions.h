//===- DebugOptions.h - -debug-only for our tools ---------------*- C++ -*-===//
//
// Packaged LLVM is built without assertions, so it registers no `-debug`
// and `-debug-only` options, although LLVM_DEBUG output in our own code
// (built with assertions) works. Tools call this before parsing their
// command line to get them.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_DRIVER_DEBUGOPTIONS_H
#define COTANGENT_DRIVER_DEBUGOPTIONS_H

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#include <string>
#include <vector>

namespace cotangent {

/// Registers `-debug` and `-debug-only=<type,...>` unless LLVM has them.
inline void registerDebugOptions() {
  if (llvm::cl::getRegisteredOptions().count("debug-only"))
    return;
  static llvm::cl::opt<bool> debug(
      "debug", llvm::cl::desc("Print all debug output"), llvm::cl::Hidden,
      llvm::cl::callback([](const bool &on) { llvm::DebugFlag = on; }));
  static std::vector<std::string> types;
  static llvm::cl::list<std::string> debugOnly(
      "debug-only",
      llvm::cl::desc("Print the debug output of these types only (for "
                     "example ct-reverse)"),
      llvm::cl::value_desc("type,..."), llvm::cl::CommaSeparated,
      llvm::cl::callback([](const std::string &type) {
        types.push_back(type);
        std::vector<const char *> names;
        for (const std::string &name : types)
          names.push_back(name.c_str());
        llvm::DebugFlag = true;
        llvm::setCurrentDebugTypes(names.data(), names.size());
      }));
}

} // namespace cotangent

#endif // COTANGENT_DRIVER_DEBUGOPTIONS_H
