// A virtual function returning a reference is dispatched in place: the
// object's table pointer is compared with each class's (the program stops
// on an object of a class the file does not define), each overrider's
// body is lowered in its branch, and the place returned is a select among
// the places the branches give. The object's own storage is defined
// before the branches: chosen directly, its offset passed out. Memory a
// pointer field designates is read in its branch: where every class the
// call may find has that slot, the read moves before the branches and is
// chosen like the object; otherwise (a class of one slot) the branch keeps
// the place's address in a slot, read back after the branches.
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 -I%cotangent-include | %cotangent-opt > /dev/null

#include <cotangent/cotangent.h>

struct Field {
  virtual ~Field() = default;
  virtual const double &at(int i) const = 0;
};
struct View : Field {
  double *d;
  explicit View(double *d) : d(d) {}
  const double &at(int i) const override { return d[i]; }
};
struct Fixed : Field {
  double v[4];
  explicit Fixed(const double *x) {
    for (int i = 0; i < 4; ++i)
      v[i] = x[i] * x[i];
  }
  const double &at(int i) const override { return v[i]; }
};

// CHECK-LABEL: func.func @_ZL6secondRK5Field(
// CHECK-SAME: %[[OBJECT:.*]]: memref<?xf64, strided<[1], offset: ?>>) -> f64
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[BITS:.*]] = memref.load %[[OBJECT]][%[[C0]]]
// CHECK: %[[TABLE:.*]] = arith.bitcast %[[BITS]] : f64 to i64
// CHECK: %[[VIEW:.*]] = ct.vtable_address "_ZTV4View" + 16
// CHECK: %[[FIXED:.*]] = ct.vtable_address "_ZTV5Fixed" + 16
// CHECK: %[[IS_VIEW:.*]] = arith.cmpi eq, %[[TABLE]], %[[VIEW]] : i64
// CHECK: %[[IS_FIXED:.*]] = arith.cmpi eq, %[[TABLE]], %[[FIXED]] : i64
// CHECK: %[[FOUND:.*]] = arith.ori %[[IS_VIEW]], %[[IS_FIXED]] : i1
// CHECK: %[[MISSING:.*]] = arith.xori %[[FOUND]]
// CHECK: scf.if %[[MISSING]] {
// CHECK-NEXT: ct.abort "{{.*}}virtual-dispatch-in-place.cpp:{{[0-9]+}}: a virtual call of 'Field::at' in differentiated code found an object of a class that its translation unit does not define; define the class there"
// CHECK: }
// CHECK-NEXT: %[[DATA:.*]] = ct.load_address %[[OBJECT]][%[[C1]]]
// CHECK-NEXT: %[[OFFSET:.*]] = arith.select %[[IS_VIEW]], %[[C1]], %[[C2]] : index
// CHECK-NEXT: %[[WHICH:.*]] = arith.select %[[IS_VIEW]], %[[C0]], %[[C1]] : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[WHICH]], %[[C0]] : index
// CHECK-NEXT: %[[CHOSEN:.*]] = arith.select %[[FIRST]], %[[DATA]], %[[OBJECT]]
// CHECK-NEXT: %[[VALUE:.*]] = memref.load %[[CHOSEN]][%[[OFFSET]]]
// CHECK-NEXT: return %[[VALUE]]
static double second(const Field &f) { return f.at(1); }

[[ct::differentiable]] double viaReference(const double *x, int n) {
  double local[8];
  for (int i = 0; i < n; ++i)
    local[i] = x[i];
  View a(local);
  Fixed b(x);
  return second(a) * second(b);
}

double table[4] = {1, 2, 3, 4};
struct Table {
  virtual ~Table() = default;
  virtual const double &entry(int i) const = 0;
};
struct Rows : Table {
  const double *row;
  explicit Rows(const double *row) : row(row) {}
  const double &entry(int i) const override { return row[i]; }
};
// (One slot: a Rows' pointer field cannot be read before the branches.)
struct Globals : Table {
  const double &entry(int i) const override { return table[i]; }
};

// CHECK-LABEL: func.func private @_ZL5thirdRK5Table.with_copies(
// CHECK-SAME: %[[OBJECT:[^:]*]]: memref<?xf64, strided<[1], offset: ?>>, %[[GLOBAL:.*]]: memref<4xf64>)
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[IS_ROWS:.*]] = arith.cmpi eq
// CHECK: scf.if %[[IS_ROWS]] {
// CHECK: %[[ROW:.*]] = ct.load_address %[[OBJECT]]
// CHECK: %[[ENTRY:.*]] = memref.subview %[[ROW]][2]
// CHECK: ct.store_address %[[ENTRY]], %[[SLOT]]
// CHECK: } else {
// CHECK: %[[IN_TABLE:.*]] = memref.subview %[[GLOBAL]][2]
// CHECK: %[[CAST:.*]] = memref.cast %[[IN_TABLE]]
// CHECK: ct.store_address %[[CAST]], %[[SLOT]]
// CHECK: }
// CHECK: %[[KEPT:.*]] = ct.load_address %[[SLOT]]
// CHECK: %[[VALUE:.*]] = memref.load %[[KEPT]]
// CHECK: return %[[VALUE]]
static double third(const Table &t) { return t.entry(2); }

[[ct::differentiable]] double tables(const double *x, int n) {
  Rows r(x);
  Globals g;
  return third(r) * third(g) * x[2];
}

double run(const double *x, double *g) {
  return ct::gradient<viaReference>(x, 4, g) + ct::gradient<tables>(x, 4, g);
}
