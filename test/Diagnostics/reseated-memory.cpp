// Reverse mode takes, in the derivative argument of a memory parameter,
// the seeds of the final contents of the memory the parameter designates,
// and gives back the cotangents of its initial contents. A function that
// makes the caller's object designate other memory (a std::unique_ptr
// given a new object or reset, a class owning memory that allocates
// again, a pointer field given memory it makes) would
// leave those seeds beside memory that is no longer there: an error at the
// request, with a note where the address is stored; forward mode works
// (Integration/CPU/reseated-memory.cpp). std::vector parameters the
// function resizes are the exception: the entry point takes their seeds
// out (Integration/CPU/resized-vector-parameters.cpp).
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <memory>

struct Pair {
  double a, b;
};

[[ct::differentiable]] void replaced(std::unique_ptr<Pair> &p, double x) {
  // CHECK-DAG: reseated-memory.cpp:[[@LINE+1]]:3: note: the pointer is stored here
  p = std::make_unique<Pair>(Pair{x * x, p->b * x});
}

[[ct::differentiable]] double resetAfter(std::unique_ptr<Pair> &p, double x) {
  double s = p->a * x;
  // CHECK-DAG: reseated-memory.cpp:[[@LINE+1]]:3: note: the pointer is stored here
  p.reset();
  return s;
}

struct Matrix {
  int n = 0;
  double *data = nullptr;
  explicit Matrix(int k) : n(k), data(new double[k]()) {}
  ~Matrix() { delete[] data; }
  void doubled() {
    double *next = new double[n];
    for (int i = 0; i < n; ++i)
      next[i] = 2 * data[i];
    delete[] data;
    // CHECK-DAG: reseated-memory.cpp:[[@LINE+1]]:5: note: the pointer is stored here
    data = next;
  }
};

[[ct::differentiable]] void scaled(Matrix &m, double x) {
  m.doubled();
  m.data[0] *= x;
}

struct View {
  double *d;
};

[[ct::differentiable]] void pointedAtNew(View &v, double x) {
  double *made = new double[2]{v.d[0] * x, x};
  // CHECK-DAG: reseated-memory.cpp:[[@LINE+1]]:3: note: the pointer is stored here
  v.d = made;
}

void requests(std::unique_ptr<Pair> &p, std::unique_ptr<Pair> *dp, Matrix &m,
              Matrix *dm, View &v, View *dv, double *dx) {
  // CHECK-DAG: reseated-memory.cpp:[[@LINE+1]]:7: error: reverse mode: parameter 'p' of 'replaced' is made to designate other memory (a pointer it holds is given a new object, a local, a global or null), so the seeds of its final contents have no place in its derivative argument, which designates the initial memory; write the new contents into the memory it designates, return the new object as the result, or use forward mode (ct::jvp)
  ct::pullback<replaced>(p, 2.0, dp, dx);
  // CHECK-DAG: reseated-memory.cpp:[[@LINE+1]]:7: error: reverse mode: parameter 'p' of 'resetAfter' is made to designate other memory
  ct::gradient<resetAfter>(p, 2.0, dp, dx);
  // CHECK-DAG: reseated-memory.cpp:[[@LINE+1]]:7: error: reverse mode: parameter 'm' of 'scaled' is made to designate other memory
  ct::pullback<scaled>(m, 2.0, dm, dx);
  // CHECK-DAG: reseated-memory.cpp:[[@LINE+1]]:7: error: reverse mode: parameter 'v' of 'pointedAtNew' is made to designate other memory
  ct::pullback<pointedAtNew>(v, 2.0, dv, dx);
  // Forward mode: the tangent objects follow the objects.
  ct::jvp<replaced>(p, 2.0, dp, 1.0);
  ct::jvp<scaled>(m, 2.0, dm, 1.0);
  // Left out of ct::wrt, the object has no derivative argument.
  ct::gradient<resetAfter, ct::wrt<1>>(p, 2.0, dx);
}
