// Recursion over linked nodes: a function taking nodes whose pointer
// fields keep addresses is lowered in place where it is called, and its
// call of itself (directly, or through another function) is a call of the
// function, lowered once on its own: in its body a call of itself stays a
// call too, and the function it calls mutually is lowered in place there.
// Such a function may free the nodes it is given (a tree destroyed
// recursively); nodes owning their children through std::unique_ptr are
// destroyed by their destructor's function, which calls itself.
// RUN: %cotangent-cc %s -- -std=c++20 | FileCheck %s
// RUN: %cotangent-cc %s -- -std=c++20 | %cotangent-opt > /dev/null

#include <memory>

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

// Nodes owning their children: destroying the root destroys its parts in
// place, and each child by a call of the node's destructor, whose function
// destroys its own children by calls of itself, then frees them.
struct Owner {
  double value;
  std::unique_ptr<Owner> left, right;
};

// CHECK-LABEL: func.func @_Z9ownedTreePKd(
// CHECK: call @_ZN5OwnerD2Ev
// CHECK: memref.dealloc
// CHECK: call @_ZN5OwnerD2Ev
// CHECK: memref.dealloc
// CHECK: return
[[ct::differentiable]] double ownedTree(const double *x) {
  Owner root{x[0], std::make_unique<Owner>(), nullptr};
  root.left->value = x[1];
  return root.value * root.left->value;
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

// CHECK-LABEL: func.func @_ZN5OwnerD2Ev(
// CHECK-SAME: %[[SELF:.*]]: memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[RIGHT:.*]] = ct.load_address %[[SELF]]
// CHECK: call @_ZN5OwnerD2Ev(%[[RIGHT]])
// CHECK: memref.dealloc %[[RIGHT]]
// CHECK: %[[LEFT:.*]] = ct.load_address %[[SELF]]
// CHECK: call @_ZN5OwnerD2Ev(%[[LEFT]])
// CHECK: memref.dealloc %[[LEFT]]
