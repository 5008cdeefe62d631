//===- CrashReport.h - Cotangent's line in a crash report ------*- C++ -*-===//

#ifndef COTANGENT_DRIVER_CRASHREPORT_H
#define COTANGENT_DRIVER_CRASHREPORT_H

#include "llvm/Support/PrettyStackTrace.h"

namespace cotangent {

/// While alive, a crash (in clang with the plugin, or in cotangent-cc)
/// ends with a line naming Cotangent and how to report it, instead of
/// LLVM's request to report a bug to the LLVM project.
class CrashReportScope {
public:
  CrashReportScope() : saved(llvm::getBugReportMsg()) {
    llvm::setBugReportMsg(
        "Cotangent crashed while differentiating this translation unit. "
        "Please report it to the Cotangent project's issue tracker with the "
        "preprocessed source (-E), the command line, and the stages that "
        "-fplugin-arg-cotangent-dump-dir=DIR writes.\n");
  }
  ~CrashReportScope() { llvm::setBugReportMsg(saved); }
  CrashReportScope(const CrashReportScope &) = delete;
  CrashReportScope &operator=(const CrashReportScope &) = delete;

private:
  const char *saved;
};

} // namespace cotangent

#endif // COTANGENT_DRIVER_CRASHREPORT_H
