// The "library" of library-calls.cpp: compiled without the plugin, in its
// own translation unit, so that the differentiable code sees declarations
// only.
#include "library-calls-lib.h"

int scaleCalls = 0, randomCalls = 0, recorded = 0, noiseCalls = 0;
double lastRecorded = 0;

int table_size(int n) { return 2 * n + 1; }
double scale_of(int k) {
  ++scaleCalls;
  return 0.5 * k;
}
unsigned next_random(unsigned *state) {
  ++randomCalls;
  *state = *state * 1664525u + 1013904223u;
  return *state;
}
void fill_weights(double *w, int n) {
  for (int i = 0; i < n; ++i)
    w[i] = 0.25 * (i + 1);
}
double mean_of(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s / n;
}
bool is_enabled(short level) { return level > -3; }
double gain_of(const Config &config) { return config.gain + config.bias; }
void Logger::record(double value) const {
  ++recorded;
  lastRecorded = value * scale;
}
double noise_at(int i) {
  ++noiseCalls;
  return 1e-3 * i;
}
