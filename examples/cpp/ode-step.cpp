// Explicit Euler integration of a damped pendulum over 100 steps; the
// final angle's sensitivity to the initial state and the damping.
#include <cotangent/cotangent.h>

#include "report.h"

#include <cmath>

// state = {angle, velocity}; returns the angle after `steps` steps of dt.
[[ct::differentiable]] double finalAngle(const double *state, double damping,
                                         int steps) {
  double theta = state[0], omega = state[1];
  const double dt = 0.01;
  for (int k = 0; k < steps; ++k) {
    double accel = -9.81 * std::sin(theta) - damping * omega;
    theta += dt * omega;
    omega += dt * accel;
  }
  return theta;
}

int main() {
  double state[2] = {0.8, -0.3}, dstate[2] = {}, ddamping = 0;
  double damping = 0.4;
  std::printf("Pendulum, 100 explicit Euler steps\n");
  double value =
      ct::gradient<finalAngle>(state, damping, 100, dstate, &ddamping);
  report("value", 0, value, finalAngle(state, damping, 100));
  auto f = [&](double *s) { return finalAngle(s, damping, 100); };
  for (int i = 0; i < 2; ++i)
    report("gradient", i, dstate[i], partial(f, state, i));
  double d[1] = {damping};
  report(
      "gradient", 2, ddamping,
      partial([&](double *p) { return finalAngle(state, p[0], 100); }, d, 0));
  double tangent[2] = {1.0, 0.5};
  report("JVP", 0,
         ct::jvp<finalAngle>(state, damping, 100, tangent, 0.0).tangent,
         directional(f, state, tangent, 2));
  double hv[2] = {}, hd = 0;
  ct::hvp<finalAngle>(state, damping, 100, tangent, 0.0, hv, &hd);
  auto gradientAlongV = [&](double t) {
    double s[2] = {state[0] + t, state[1] + 0.5 * t}, g[2] = {}, gd = 0;
    ct::gradient<finalAngle>(s, damping, 100, g, &gd);
    return g[0];
  };
  report("HVP", 0, hv[0],
         (gradientAlongV(1e-6) - gradientAlongV(-1e-6)) / 2e-6);
  return disagreements != 0;
}
