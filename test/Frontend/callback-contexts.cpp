// A `void *` kept in a struct field (a callback's context, as GSL's
// gsl_function keeps it) is an address in the struct's slot: stored by
// ct.store_address, read back as bytes (ct.load_address of i8), and read
// again as the address of the type the cast names (the bytes' read is then
// dead, and canonicalization drops it). A virtual call through
// an interface that is a second base views the object from before the
// interface's part: ct.retype_view at a negative index.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | %cotangent-opt > /dev/null

struct Callback {
  double (*function)(double, void *);
  void *params;
};
struct Wave {
  double amplitude, frequency;
};

// CHECK-LABEL: func.func @_Z5applyRK8Callbackd
// CHECK: ct.load_address %arg0[%c1] : memref<?xf64, strided<[1], offset: ?>> -> memref<?xf64
double wave(double t, void *p) {
  auto *w = static_cast<Wave *>(p);
  return w->amplitude * w->frequency * t;
}
[[ct::differentiable]] double apply(const Callback &f, double t) {
  return f.function(t, f.params);
}

// CHECK-LABEL: func.func @_Z4makedd
// CHECK: ct.store_address
[[ct::differentiable]] double make(double a, double t) {
  Wave w{a, 2.0};
  Callback f{&wave, &w};
  return apply(f, t);
}

struct Tagged {
  virtual ~Tagged() = default;
  double tag = 1.0;
};
struct Energy {
  virtual ~Energy() = default;
  virtual double energy() const = 0;
};
struct Spring : Tagged, Energy {
  double k = 2.0;
  double energy() const override { return k * tag; }
};

// The dispatch: Spring's address point for its Energy part (in its table
// group's second table), then the object from two slots before.
// CHECK-LABEL: func.func private @_ZNK6Energy6energyEv.virtual
// CHECK: %[[BACK:.*]] = arith.constant -2 : index
// CHECK: ct.vtable_address "_ZTV6Spring" + 56
// CHECK: %[[SELF:.*]] = ct.retype_view %arg0[%[[BACK]]]
// CHECK: func.call @_ZNK6Spring6energyEv(%[[SELF]])
[[ct::differentiable]] double total(const Energy &e) { return e.energy(); }

double use() { Spring s; return total(s); }
