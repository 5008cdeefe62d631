// A library header (as -isystem includes it) with a function on integers
// only whose static is initialized when it first runs.
#pragma clang system_header

long queryCacheSize();

inline void cachedSize(long *size) {
  static long cached = queryCacheSize();
  *size = cached;
}
