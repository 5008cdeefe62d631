// Recursion over linked nodes: a function taking nodes whose pointer
// fields keep addresses is lowered in place where it is called, and its
// call of itself (directly, or through another function) is a call of the
// function, lowered once on its own: in its body a call of itself stays a
// call too, and the function it calls mutually is lowered in place there.
// Such a function may free the nodes it is given (a tree destroyed
// recursively).
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null

struct Node {
  double value;
  Node *left, *right;
};

double total(const Node *n) {
  return n ? n->value + total(n->left) + total(n->right) : 0.0;
}

double product(const Node *n);
double sum(const Node *n) {
  return n->left ? product(n->left) + product(n->right) : n->value;
}
double product(const Node *n) {
  return n->left ? sum(n->left) * sum(n->right) : n->value;
}

void destroy(Node *n) {
  if (!n)
    return;
  destroy(n->left);
  destroy(n->right);
  delete n;
}

// The first level in place, its recursive calls calls.
// CHECK-LABEL: func.func @_Z4treePKd(
// CHECK: %[[LEFT:.*]] = ct.load_address
// CHECK: call @_Z5totalPK4Node(%[[LEFT]])
// CHECK: call @_Z5totalPK4Node
// CHECK: call @_Z3sumPK4Node
// CHECK: call @_Z7destroyP4Node
// CHECK: return
[[ct::differentiable]] double tree(const double *x) {
  Node *root = new Node{x[0], new Node{x[1], nullptr, nullptr},
                        new Node{x[2], nullptr, nullptr}};
  double v = total(root) + sum(root);
  destroy(root);
  return v;
}

// CHECK-LABEL: func.func @_Z5totalPK4Node(
// CHECK-SAME: %[[N:.*]]: memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[L:.*]] = ct.load_address %[[N]]
// CHECK: call @_Z5totalPK4Node(%[[L]])
// CHECK: %[[R:.*]] = ct.load_address %[[N]]
// CHECK: call @_Z5totalPK4Node(%[[R]])

// `sum` calls `product`, lowered in place, which calls `sum`.
// CHECK-LABEL: func.func @_Z3sumPK4Node(
// CHECK-NOT: call @_Z7productPK4Node
// CHECK: call @_Z3sumPK4Node
// CHECK-NOT: call @_Z7productPK4Node
// CHECK: return

// CHECK-LABEL: func.func @_Z7destroyP4Node(
// CHECK-SAME: %[[D:.*]]: memref<?xf64, strided<[1], offset: ?>>
// CHECK: call @_Z7destroyP4Node
// CHECK: call @_Z7destroyP4Node
// CHECK: memref.dealloc %[[D]]
