// A library header, included as a system header by system-header-notes.cpp.
#pragma once

namespace library {
inline double jumpy(double x) {
  if (x > 0)
    goto *&&done;
  x = -x;
done:
  return x;
}
template <class T> T twice(T x) { return jumpy(x) + jumpy(x); }
inline double viaLambda(double x) {
  auto f = [](double y) {
    goto *&&out;
  out:
    return y;
  };
  return f(x);
}
// Two problems: the user hears of the first only, at the call.
inline double twoProblems(double x) {
  goto *&&first;
first:
  goto *&&second;
second:
  return x;
}
} // namespace library
