// Linked nodes the function makes: a field designating nodes of its own
// type keeps its address (docs/Memory.md), so the `new` node's `next`
// slot gets the address of the head (ct.store_address), and the walk
// reads it back (ct.load_address) from each node it reaches through the
// address kept in `p`'s slot.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null

struct Node {
  double value;
  Node *next;
};

// CHECK-LABEL: func.func @_Z4walkPKd(
// CHECK: %[[FIRST:.*]] = memref.alloc() {ct.heap_function = "operator new"} : memref<2xf64>
// CHECK: %[[FIRSTV:.*]] = memref.cast %[[FIRST]] : memref<2xf64> to memref<?xf64>
// CHECK: %[[NULL:.*]] = ct.pointer_view
// CHECK: ct.store_address %[[NULL]], %[[FIRSTV]][%[[C1:[a-z0-9_]+]]]
// CHECK: ct.store_address %{{.*}}, %[[HEAD:alloca[_0-9]*]][%[[C0:[a-z0-9_]+]]]
// CHECK: %[[SECOND:.*]] = memref.alloc() {ct.heap_function = "operator new"} : memref<2xf64>
// CHECK: %[[SECONDV:.*]] = memref.cast %[[SECOND]] : memref<2xf64> to memref<?xf64>
// CHECK: %[[OLD:.*]] = ct.load_address %[[HEAD]][%[[C0]]]
// CHECK: %[[OLDV:.*]] = memref.subview %[[OLD]]
// CHECK: ct.store_address %[[OLDV]], %[[SECONDV]][%[[C1]]]
// CHECK: scf.while
// CHECK: } do {
// CHECK: %[[P:.*]] = ct.load_address %{{.*}}[%[[C0]]]
// CHECK: %[[NEXT:.*]] = ct.load_address %[[P]][%[[C1]]]
// CHECK: ct.store_address %[[NEXT]],
[[ct::differentiable]] double walk(const double *x) {
  Node *head = new Node{x[0], nullptr};
  head = new Node{x[1], head};
  double s = 0;
  for (const Node *p = head; p; p = p->next)
    s += p->value;
  while (head) {
    Node *next = head->next;
    delete head;
    head = next;
  }
  return s;
}

// A function building nodes by recursion and returning them is a call of its
// own, even where the differentiated function calls it: it returns the node's
// address through a slot its caller passes after the parameters
// (ct.store_address there), which the caller reads back (ct.load_address).
struct Cell {
  double value;
  Cell *next;
};

static Cell *cells(const double *x, int i, int n) {
  if (i == n)
    return nullptr;
  return new Cell{x[i], cells(x, i + 1, n)};
}

// CHECK-LABEL: func.func @_Z10firstCellsPKdi(
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<1xf64>
// CHECK: %[[ARG:.*]] = memref.cast %[[SLOT]]
// CHECK: call @_ZL5cellsPKdii(%{{.*}}, %{{.*}}, %{{.*}}, %[[ARG]])
// CHECK: %[[HEAD:.*]] = ct.load_address %[[SLOT]][%{{.*}}]
// CHECK: memref.load %[[HEAD]]
// CHECK-LABEL: func.func @_ZL5cellsPKdii(
// CHECK-SAME: %{{.*}}: i32, %{{.*}}: i32, %[[OUT:[a-z0-9_]+]]: memref<?xf64{{.*}}>)
// CHECK: ct.store_address %{{.*}}, %[[OUT]]
// CHECK: call @_ZL5cellsPKdii(
// CHECK: ct.store_address %{{.*}}, %[[OUT]]
// CHECK: return
[[ct::differentiable]] double firstCells(const double *x, int n) {
  Cell *head = cells(x, 0, n);
  double s = head->value;
  while (head) {
    Cell *next = head->next;
    delete head;
    head = next;
  }
  return s;
}
