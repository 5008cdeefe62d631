// Declares a differentiable function defined in resized-vector-parameters.cpp.
#include <vector>

[[ct::differentiable]] double appendHalves(const std::vector<double> &x,
                                           std::vector<double> &out);
