// Declarations of library-calls-lib.cpp (no bodies visible to the plugin).
#pragma once

extern int scaleCalls, randomCalls, recorded, noiseCalls;
extern double lastRecorded;

int table_size(int n);
double scale_of(int k);
unsigned next_random(unsigned *state);
void fill_weights(double *w, int n);
double mean_of(const double *x, int n);
bool is_enabled(short level);
struct Config {
  double gain, bias;
};
double gain_of(const Config &config);
struct Logger {
  double scale;
  void record(double value) const;
};
double noise_at(int i);
