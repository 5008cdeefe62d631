// Vector mode of a recursive helper (it stays a call: the others are
// inlined), called more than once, that keeps the addresses of memory it
// makes in a loop (a vector of classes that own memory): the reverse sweep
// views that memory again from addresses on the tape, which vector mode
// does not pair with their lanes across the helper's calls yet. Refused at
// the memory's use, with the way out (docs/Memory.md).
// RUN: not %cotangent-cc %s --emit=ad -- -std=c++20 -I%cotangent-include 2>&1 | FileCheck %s --implicit-check-not=error:
#include <cotangent/cotangent.h>

#include <vector>

class Buffer {
public:
  Buffer() : n_(0), data_(nullptr) {}
  explicit Buffer(int n) : n_(n), data_(new double[n]()) {}
  Buffer(const Buffer &o) : n_(o.n_), data_(new double[o.n_]) {
    for (int i = 0; i < n_; ++i)
      data_[i] = o.data_[i];
  }
  ~Buffer() { delete[] data_; }
  // CHECK: lanes-kept-addresses-unsupported.cpp:[[@LINE+1]]:38: error: vector mode (ct::lanes) cannot differentiate this construct yet: a recursive function keeps the address of this memory for its reverse sweep; use one lane (ct::pullback or ct::jvp without ct::lanes)
  double &operator[](int i) { return data_[i]; }

private:
  int n_;
  double *data_;
};

double helper(double x, int depth) {
  if (depth > 0)
    x = helper(x, depth - 1);
  std::vector<Buffer> buffers;
  for (int i = 0; i < 2; ++i) {
    buffers.emplace_back(1);
    buffers.back()[0] = x * (i + 1);
  }
  if (x >= 0.5)
    buffers.resize(1);
  for (size_t k = 0; k < buffers.size(); ++k)
    x += buffers[k][0] * x;
  return x;
}

[[ct::differentiable]] double f(double *out, double x) {
  out[0] = helper(x, 1);
  out[1] = helper(2 * x, 1);
  return x;
}

void lanes(double *out, double x, double *seeds, double *dout, double *dx) {
  ct::pullback<f, ct::lanes<2>>(out, x, seeds, dout, dx);
}
