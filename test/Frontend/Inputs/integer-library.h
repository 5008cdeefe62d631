// A library header (as -isystem includes it) with a function on integers
// only that reads a thread-local variable another file defines.
#pragma clang system_header

extern thread_local long cachedCacheSize;

inline void cachedSize(long *size) { *size = cachedCacheSize; }
