// A library header (as -isystem includes it) with a function on integers
// only whose static is thread-local (each thread has its own).
#pragma clang system_header

long queryCacheSize();

inline void cachedSize(long *size) {
  thread_local long cached = queryCacheSize();
  *size = cached;
}
