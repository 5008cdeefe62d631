// What structs mixing `float` and `double` still cannot do, each refused
// where it happens: vector mode carrying lanes through a float part (lanes
// lie slot by slot, and a float is half a slot), and memcpy of part of such
// an object (whole objects are copied part by part, each in its type).
// (The memcpy is a frontend error, which stops before differentiation: it
// has a run of its own.)
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 | FileCheck %s --check-prefix=LANES --implicit-check-not=error:
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include -DBYTES 2>&1 | FileCheck %s --check-prefix=BYTES --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <cstring>

struct Sample {
  float weight;
  double value;
};

[[ct::differentiable]] double weighted(const Sample *s, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    // LANES: float-and-double-structs-unsupported.cpp:[[@LINE+1]]:10: error: vector mode (ct::lanes) cannot differentiate this construct yet: a 'float' part of an object of 'double's carries derivatives; use one lane (ct::pullback or ct::jvp without ct::lanes)
    e += s[i].weight * s[i].value;
  return e;
}

#ifdef BYTES
[[ct::differentiable]] double copiedBytes(const Sample *s) {
  Sample t;
  // BYTES: float-and-double-structs-unsupported.cpp:[[@LINE+1]]:3: error: copying part of an object that mixes floating-point types cannot be differentiated; copy whole objects, or assign the parts
  std::memcpy(&t, s, sizeof(float));
  return t.weight * t.value;
}
#endif

double lanes(const Sample *s, int n, Sample *ds) {
  double seeds[2] = {1, 2};
  return ct::pullback<weighted, ct::lanes<2>>(s, n, seeds, ds);
}
