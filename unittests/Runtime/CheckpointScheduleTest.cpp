//===- CheckpointScheduleTest.cpp - The binomial checkpointing schedule ---===//
//
// Runs the schedule of cotangent/checkpoint_schedule.h on a simulated loop
// whose state is its iteration number: every action must find the state it
// expects, every iteration must be reversed once, last first, and the
// iterations rerun must be the fewest possible (Griewank's closed form, and
// a dynamic program over every schedule of this recursive shape).
//
//===----------------------------------------------------------------------===//

#include "cotangent/checkpoint_schedule.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace sched = ct::detail::schedule;

namespace {

/// binom(c + t, c).
int64_t beta(int64_t c, int64_t t) { return sched::binomial(c, t); }

/// Griewank's minimal number of advanced iterations to reverse `n`
/// iterations with `c` snapshots: t n - binom(c + t, t - 1), with t the
/// least integer with binom(c + t, c) >= n.
int64_t closedForm(int64_t n, int64_t c) {
  int64_t t = 0;
  while (beta(c, t) < n)
    ++t;
  return t == 0 ? 0 : t * n - beta(c + 1, t - 1);
}

/// The same minimum by exhaustive search over the split points.
int64_t optimum(int64_t n, int64_t c,
                std::map<std::pair<int64_t, int64_t>, int64_t> &memo) {
  if (n <= 1)
    return 0;
  auto key = std::make_pair(n, c);
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  int64_t best;
  if (c == 1) {
    best = (n - 1) + optimum(n - 1, 1, memo);
  } else {
    best = INT64_MAX;
    for (int64_t m = 1; m < n; ++m)
      best =
          std::min(best, m + optimum(n - m, c - 1, memo) + optimum(m, c, memo));
  }
  return memo[key] = best;
}

struct ScheduleRun {
  int64_t advanced = 0; // iterations run without recording
  int64_t peakSnapshots = 0;
  std::vector<int64_t> reversed;
};

/// Runs the schedule; the working state is an iteration number (-1: none).
ScheduleRun simulate(int64_t n, int64_t snapshots) {
  std::vector<int64_t> state(sched::size(snapshots));
  int64_t *s = state.data();
  sched::init(s, n, snapshots);
  std::vector<int64_t> slots(snapshots, -1);
  ScheduleRun run;
  int64_t working = 0, handedOver = -1;
  auto track = [&] {
    run.peakSnapshots = std::max<int64_t>(
        run.peakSnapshots, std::count_if(slots.begin(), slots.end(),
                                         [](int64_t v) { return v >= 0; }));
  };
  for (int64_t a; (a = sched::forward_next(s)) != sched::done;) {
    int64_t x = s[sched::kArg0], y = s[sched::kArg1];
    if (a == sched::take_snapshot) {
      EXPECT_EQ(working, y);
      EXPECT_LT(x, snapshots);
      slots[x] = working;
      track();
    } else if (a == sched::advance) {
      EXPECT_EQ(working, x);
      run.advanced += y - x;
      working = y;
    } else if (a == sched::hand_over) {
      EXPECT_EQ(working, x);
      handedOver = x;
    } else {
      EXPECT_EQ(a, sched::finish);
      EXPECT_EQ(working, x);
      EXPECT_EQ(handedOver, x);
      EXPECT_EQ(y, n);
      // The forward sweep also runs the last iteration, which the
      // classical count leaves to the first reversal.
      run.advanced += y - x - 1;
      break;
    }
  }
  working = handedOver;
  for (int64_t a; (a = sched::reverse_next(s)) != sched::done;) {
    int64_t x = s[sched::kArg0], y = s[sched::kArg1];
    switch (a) {
    case sched::restore:
      EXPECT_EQ(slots[x], y);
      working = y;
      break;
    case sched::take_snapshot:
      EXPECT_EQ(working, y);
      slots[x] = working;
      track();
      break;
    case sched::advance:
      EXPECT_EQ(working, x);
      run.advanced += y - x;
      working = y;
      break;
    case sched::reverse:
      EXPECT_EQ(working, x);
      run.reversed.push_back(x);
      working = -1;
      // Slots above the one holding the latest earlier state are free now.
      for (int64_t &v : slots)
        if (v >= x)
          v = -1;
      break;
    default:
      ADD_FAILURE() << "unexpected action " << a;
      return run;
    }
  }
  return run;
}

TEST(CheckpointSchedule, ReversesEveryIterationOnceLastFirst) {
  for (int64_t n : {1, 2, 3, 7, 10, 64, 100}) {
    for (int64_t c : {1, 2, 3, 5, 9}) {
      ScheduleRun run = simulate(n, c);
      ASSERT_EQ(int64_t(run.reversed.size()), n) << n << " " << c;
      for (int64_t i = 0; i < n; ++i)
        EXPECT_EQ(run.reversed[i], n - 1 - i);
      EXPECT_LE(run.peakSnapshots, c);
    }
  }
}

TEST(CheckpointSchedule, RerunsTheFewestIterations) {
  std::map<std::pair<int64_t, int64_t>, int64_t> memo;
  for (int64_t c = 1; c <= 6; ++c)
    for (int64_t n = 1; n <= 60; ++n) {
      int64_t best = optimum(n, c, memo);
      EXPECT_EQ(best, closedForm(n, c)) << "n=" << n << " c=" << c;
      EXPECT_EQ(simulate(n, c).advanced, best) << "n=" << n << " c=" << c;
    }
}

TEST(CheckpointSchedule, PublishedSmallCases) {
  // One snapshot: every reversal reruns from the start, n(n-1)/2.
  EXPECT_EQ(simulate(10, 1).advanced, 45);
  // As many snapshots as iterations: each is run once before the last.
  EXPECT_EQ(simulate(10, 10).advanced, 9);
  // binom(c + t, c) iterations with c snapshots take exactly t sweeps'
  // worth: 2 snapshots, 10 = binom(5, 2) iterations, t = 3: 3*10 - 10.
  EXPECT_EQ(simulate(10, 2).advanced, 20);
}

/// Runs the online schedule for a loop that turns out to run `n`
/// iterations, then the reverse sweep.
ScheduleRun simulateOnline(int64_t n, int64_t snapshots) {
  std::vector<int64_t> state(sched::size(snapshots));
  int64_t *s = state.data();
  sched::online_init(s, snapshots);
  std::vector<int64_t> slots(snapshots, -1);
  ScheduleRun run;
  auto track = [&] {
    run.peakSnapshots = std::max<int64_t>(
        run.peakSnapshots, std::count_if(slots.begin(), slots.end(),
                                         [](int64_t v) { return v >= 0; }));
  };
  for (int64_t k = 0; k < n; ++k) {
    for (int guard = 0;; ++guard) {
      EXPECT_LT(guard, 4 * snapshots + 4);
      int64_t a = sched::online_next(s, k);
      int64_t x = s[sched::kArg0], y = s[sched::kArg1];
      if (a == sched::advance) {
        EXPECT_EQ(x, k);
        break;
      }
      if (a == sched::take_snapshot) {
        EXPECT_EQ(y, k);
        EXPECT_LT(x, snapshots);
        slots[x] = k;
        track();
      } else {
        EXPECT_EQ(a, sched::move_snapshot);
        EXPECT_LT(y, x);
        slots[y] = slots[x];
        slots[x] = -1;
      }
    }
  }
  sched::online_finish(s, n);
  int64_t working = -1;
  for (int64_t a; (a = sched::reverse_next(s)) != sched::done;) {
    int64_t x = s[sched::kArg0], y = s[sched::kArg1];
    switch (a) {
    case sched::restore:
      EXPECT_EQ(slots[x], y);
      working = y;
      break;
    case sched::take_snapshot:
      EXPECT_EQ(working, y);
      slots[x] = working;
      track();
      break;
    case sched::advance:
      EXPECT_EQ(working, x);
      run.advanced += y - x;
      working = y;
      break;
    case sched::reverse:
      EXPECT_EQ(working, x);
      run.reversed.push_back(x);
      working = -1;
      for (int64_t &v : slots)
        if (v >= x)
          v = -1;
      break;
    default:
      ADD_FAILURE() << "unexpected action " << a;
      return run;
    }
  }
  return run;
}

TEST(CheckpointSchedule, OnlineReversesEveryIterationOnceLastFirst) {
  for (int64_t n : {1, 2, 3, 5, 8, 17, 64, 100, 1000}) {
    for (int64_t c : {1, 2, 3, 4, 7, 32}) {
      ScheduleRun run = simulateOnline(n, c);
      ASSERT_EQ(int64_t(run.reversed.size()), n) << n << " " << c;
      for (int64_t i = 0; i < n; ++i)
        EXPECT_EQ(run.reversed[i], n - 1 - i) << n << " " << c;
      EXPECT_LE(run.peakSnapshots, c);
    }
  }
}

TEST(CheckpointSchedule, OnlineCostStaysNearTheOptimum) {
  // With snapshots spread evenly and each segment reversed optimally, the
  // reruns stay within a small factor of the offline optimum (which knows
  // n from the start); at most n more than it for S*S >= n.
  for (int64_t n : {10, 50, 200, 1000}) {
    int64_t c = 1;
    while (c * c < n)
      ++c;
    int64_t offline = closedForm(n, c);
    int64_t online = simulateOnline(n, c).advanced;
    EXPECT_LE(online, offline + n) << "n=" << n << " c=" << c;
  }
}

TEST(CheckpointSchedule, EmptyLoop) {
  std::vector<int64_t> state(sched::size(4));
  sched::init(state.data(), 0, 4);
  EXPECT_EQ(sched::forward_next(state.data()), sched::done);
  EXPECT_EQ(sched::reverse_next(state.data()), sched::done);
}

/// Sets (or, given null, unsets) an environment variable for one scope.
class ScopedVariable {
public:
  ScopedVariable(const char *name, const char *value) : name(name) {
    if (const char *old = getenv(name))
      saved = old, hadValue = true;
    set(value);
  }
  ~ScopedVariable() { set(hadValue ? saved.c_str() : nullptr); }

private:
  void set(const char *value) {
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  const char *name;
  std::string saved;
  bool hadValue = false;
};

/// The largest the last-level cache part of the limit can be.
constexpr int64_t kCacheCap = int64_t(32) << 20;

TEST(CheckpointTapeLimit, HalfTheKeptTapeMemoryByDefault) {
  ScopedVariable limit("COTANGENT_CHECKPOINT_TAPE_BYTES", nullptr);
  {
    ScopedVariable kept("COTANGENT_TAPE_CACHE_BYTES", nullptr);
    EXPECT_EQ(sched::kept_tape_bytes(), int64_t(1) << 30);
    EXPECT_EQ(sched::tape_limit(), int64_t(1) << 29);
  }
  {
    ScopedVariable kept("COTANGENT_TAPE_CACHE_BYTES", "");
    EXPECT_EQ(sched::tape_limit(), int64_t(1) << 29);
  }
  {
    ScopedVariable kept("COTANGENT_TAPE_CACHE_BYTES", "4000000000");
    EXPECT_EQ(sched::tape_limit(), 2000000000);
  }
}

TEST(CheckpointTapeLimit, TheLastLevelCacheWithoutKeptMemory) {
  ScopedVariable limit("COTANGENT_CHECKPOINT_TAPE_BYTES", nullptr);
  ScopedVariable kept("COTANGENT_TAPE_CACHE_BYTES", "0");
  EXPECT_EQ(sched::kept_tape_bytes(), 0);
  int64_t cache = sched::tape_limit();
  EXPECT_GT(cache, 0);
  EXPECT_LE(cache, kCacheCap);
}

TEST(CheckpointTapeLimit, SetExplicitly) {
  ScopedVariable kept("COTANGENT_TAPE_CACHE_BYTES", nullptr);
  {
    ScopedVariable limit("COTANGENT_CHECKPOINT_TAPE_BYTES", "12345");
    EXPECT_EQ(sched::tape_limit(), 12345);
  }
  {
    ScopedVariable limit("COTANGENT_CHECKPOINT_TAPE_BYTES", "0");
    EXPECT_EQ(sched::tape_limit(), 0);
  }
  {
    // Not a number: the default.
    ScopedVariable limit("COTANGENT_CHECKPOINT_TAPE_BYTES", "lots");
    EXPECT_EQ(sched::tape_limit(), int64_t(1) << 29);
  }
}

} // namespace
