// A table of pointers keeps the addresses it is given (docs/Memory.md,
// item 30): rows made by `new[]` in a loop are stored into the table made
// by `new double *[n]` with ct.store_address and read back with
// ct.load_address (each row a memory of its own, which no memref known
// beside the table could be); a local array of row pointers whose address
// a struct's `double **` field keeps stores addresses too, and the field is
// read back as an address, then the row in it.
// RUN: %cotangent-cc %s --emit=mlir -- -std=c++20 | FileCheck %s

[[ct::differentiable]] double rows(const double *x, int n) {
  double **a = new double *[n];
  for (int i = 0; i < n; ++i)
    a[i] = new double[n];
  for (int i = 0; i < n; ++i)
    a[i][0] = x[i];
  double s = a[n - 1][0];
  for (int i = 0; i < n; ++i)
    delete[] a[i];
  delete[] a;
  return s;
}

// CHECK-LABEL: func.func @_Z4rowsPKdi(
// CHECK: %[[TABLE:.*]] = memref.alloc(%{{.*}}) {ct.heap_function = "operator new[]"} : memref<?xf64>
// CHECK: scf.for
// CHECK-NEXT: %[[ROW:.*]] = memref.alloc(%{{.*}}) {ct.heap_function = "operator new[]"} : memref<?xf64>
// CHECK: %[[VIEW:.*]] = memref.cast %[[ROW]]
// CHECK-NEXT: ct.store_address %[[VIEW]], %[[TABLE]][%{{.*}}]
// CHECK: scf.for
// CHECK: %[[READ:.*]] = ct.load_address %[[TABLE]][%{{.*}}]
// CHECK-NEXT: memref.store %{{.*}}, %[[READ]][%c0]
// CHECK: %[[LAST:.*]] = ct.load_address %[[TABLE]][%{{.*}}]
// CHECK-NEXT: memref.load %[[LAST]][%c0]
// CHECK: scf.for
// CHECK: %[[FREED:.*]] = ct.load_address %[[TABLE]]
// CHECK-NEXT: memref.dealloc %[[FREED]]
// CHECK: memref.dealloc %[[TABLE]] {ct.heap_function = "operator delete[]"}

struct Matrix {
  int n;
  double **rows;
};

[[ct::differentiable]] double table(const double *x, int n) {
  double *r[2] = {const_cast<double *>(x), const_cast<double *>(x) + 1};
  Matrix m{2, r};
  return m.rows[n][0];
}

// CHECK-LABEL: func.func @_Z5tablePKdi(
// CHECK: %[[M:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[R:.*]] = memref.alloca() : memref<2xf64>
// CHECK: ct.store_address %{{.*}}, %[[R]][%c0]
// CHECK: ct.store_address %{{.*}}, %[[R]][%c1]
// CHECK: %[[RVIEW:.*]] = memref.cast %[[R]]
// CHECK-NEXT: ct.store_address %[[RVIEW]], %[[M]][%c1]
// CHECK-NEXT: %[[FIELD:.*]] = ct.load_address %[[M]][%c1]
// CHECK: %[[ROW:.*]] = ct.load_address %[[FIELD]][%{{.*}}]
// CHECK-NEXT: memref.load %[[ROW]][%c0]
