//===- cotangent/checkpoint_schedule.h - Binomial checkpointing -*- C++ -*-===//
//
// The schedule the reverse sweep of a `#pragma ct checkpoint` loop follows:
// binomial checkpointing (Griewank and Walther's Revolve), which for n
// iterations and S snapshots of the loop's state reruns the fewest
// iterations any schedule can.
//
// The derivative code the plugin generates drives it, one action at a
// time, through the two `ct_checkpoint_*_next` functions (defined here, weak,
// so that every translation unit including cotangent.h has them and the
// linker keeps one). Their state is an array of int64_t the generated code
// allocates (ct::detail::schedule::size(S) elements) and reads the
// action's operands from.
//
// The reversal of iterations [lo, hi) with the state at `lo` in snapshot
// `slot` and `c` snapshots usable (that one included) is:
//   hi - lo == 1:  restore `slot`, rerun nothing, reverse iteration lo;
//   c == 1:        restore, advance to hi - 1, reverse hi - 1, then [lo, hi-1);
//   otherwise:     restore, advance to m, snapshot m in slot + 1,
//                  reverse [m, hi) with c - 1 snapshots, then [lo, m) with c.
// With t the least integer with binom(c + t, c) >= hi - lo, the split
// m = lo + min(binom(c + t - 1, c), (hi - lo) - binom(c + t - 2, c - 1))
// attains Griewank's bound on advanced iterations,
// t (hi - lo) - binom(c + t, t - 1); the unit test checks it against a
// dynamic program over every split for small n and S.
//
// The forward sweep runs the loop once on its own state, taking the
// snapshots of the recursion's first descent (0, then each split point)
// and handing the state before the last iteration over to a working copy;
// the reverse sweep continues from there, on that copy, so that the loop's
// own state keeps what the code after the loop left in it.
//
//===----------------------------------------------------------------------===//

#ifndef COTANGENT_CHECKPOINT_SCHEDULE_H
#define COTANGENT_CHECKPOINT_SCHEDULE_H

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

namespace ct::detail::schedule {

/// Actions, returned by the `next` functions; their operands are in
/// state[kArg0] and state[kArg1].
enum action : int64_t {
  /// The schedule is over.
  done = 0,
  /// Run iterations [arg0, arg1) on the working state, recording nothing.
  advance = 1,
  /// Copy the working state (at iteration arg1) into snapshot arg0.
  take_snapshot = 2,
  /// Copy snapshot arg0 (taken at iteration arg1) into the working state.
  restore = 3,
  /// Reverse iteration arg0 from the working state (which is at it).
  reverse = 4,
  /// Forward sweep only: run the rest of the loop, [arg0, n).
  finish = 5,
  /// Forward sweep only: copy the loop's state (at iteration arg0) into
  /// the working state, where the reverse sweep starts.
  hand_over = 6,
  /// Online forward sweep only: copy snapshot arg0 into snapshot arg1.
  move_snapshot = 7,
};

/// Fields of the state array.
enum field : int64_t {
  kIterations = 0,
  kSnapshots = 1,
  kDepth = 2,
  kPosition = 3,
  kArg0 = 4,
  kArg1 = 5,
  kHandedOver = 6,
  /// Online schedules: the distance between snapshots, how many are
  /// taken, and the next to move when thinning them.
  kStride = 7,
  kTaken = 8,
  kMoved = 9,
  kFrames = 10,
  kFrameSize = 4
};

/// Elements of the state array for `snapshots` snapshots.
constexpr int64_t size(int64_t snapshots) {
  return kFrames + kFrameSize * (snapshots + 1);
}

/// binom(a + b, a), saturated far above any trip count.
inline int64_t binomial(int64_t a, int64_t b) {
  if (a < 0 || b < 0)
    return 0;
  int64_t small = a < b ? a : b, result = 1;
  for (int64_t i = 1; i <= small; ++i) {
    // result * (a + b - small + i) / i stays exact (a binomial at each step).
    int64_t factor = a + b - small + i;
    if (result > (int64_t(1) << 62) / factor)
      return int64_t(1) << 62;
    result = result * factor / i;
  }
  return result;
}

/// Where the reversal of `steps` iterations with `c` >= 2 snapshots puts
/// its next snapshot, counted from its first iteration.
inline int64_t split(int64_t steps, int64_t c) {
  int64_t t = 0;
  while (binomial(c, t) < steps)
    ++t;
  int64_t left = binomial(c, t - 1);
  int64_t bound = steps - binomial(c - 1, t - 1);
  int64_t m = left < bound ? left : bound;
  return m < 1 ? 1 : (m > steps - 1 ? steps - 1 : m);
}

inline int64_t set(int64_t *s, action a, int64_t arg0, int64_t arg1) {
  s[kArg0] = arg0;
  s[kArg1] = arg1;
  return a;
}

/// Starts a schedule of `iterations` iterations with `snapshots` >= 1.
inline void init(int64_t *s, int64_t iterations, int64_t snapshots) {
  s[kIterations] = iterations;
  s[kSnapshots] = snapshots < 1 ? 1 : snapshots;
  s[kDepth] = 0;
  s[kPosition] = 0;
  s[kHandedOver] = 0;
  // Where the rest of an empty loop starts.
  s[kArg0] = iterations > 0 ? iterations : 0;
}

/// The next action of the forward sweep: snapshots and advances on the
/// loop's own state, the hand-over to the working copy, then `finish` (or
/// `done` for an empty loop).
inline int64_t forward_next(int64_t *s) {
  if (s[kIterations] <= 0)
    return done;
  if (s[kDepth] == 0) {
    int64_t *f = s + kFrames;
    f[0] = 0, f[1] = s[kIterations], f[2] = s[kSnapshots], f[3] = 0;
    s[kDepth] = 1;
    return set(s, take_snapshot, 0, 0);
  }
  int64_t *f = s + kFrames + kFrameSize * (s[kDepth] - 1);
  int64_t lo = f[0], hi = f[1], c = f[2], slot = f[3];
  if (c >= 2 && hi - lo >= 2) {
    int64_t m = lo + split(hi - lo, c);
    if (s[kPosition] == lo) {
      s[kPosition] = m;
      return set(s, advance, lo, m);
    }
    int64_t *child = f + kFrameSize;
    child[0] = m, child[1] = hi, child[2] = c - 1, child[3] = slot + 1;
    f[1] = m;
    ++s[kDepth];
    return set(s, take_snapshot, slot + 1, m);
  }
  // The last iteration the recursion reverses first: run up to it, hand
  // the state over to the working copy, and run the rest.
  int64_t last = hi - 1;
  if (s[kPosition] < last) {
    int64_t from = s[kPosition];
    s[kPosition] = last;
    return set(s, advance, from, last);
  }
  if (!s[kHandedOver]) {
    s[kHandedOver] = 1;
    return set(s, hand_over, last, 0);
  }
  return set(s, finish, last, s[kIterations]);
}

/// The next action of the reverse sweep, after forward_next's `finish`.
inline int64_t reverse_next(int64_t *s) {
  while (s[kDepth] > 0) {
    int64_t *f = s + kFrames + kFrameSize * (s[kDepth] - 1);
    int64_t lo = f[0], hi = f[1], c = f[2], slot = f[3];
    if (hi <= lo) {
      --s[kDepth];
      continue;
    }
    if (c >= 2 && hi - lo >= 2) {
      int64_t m = lo + split(hi - lo, c);
      if (s[kPosition] == m) {
        int64_t *child = f + kFrameSize;
        child[0] = m, child[1] = hi, child[2] = c - 1, child[3] = slot + 1;
        f[1] = m;
        ++s[kDepth];
        return set(s, take_snapshot, slot + 1, m);
      }
      if (s[kPosition] == lo) {
        s[kPosition] = m;
        return set(s, advance, lo, m);
      }
      s[kPosition] = lo;
      return set(s, restore, slot, lo);
    }
    int64_t last = hi - 1;
    if (s[kPosition] == last) {
      f[1] = last;
      // Reversing reran the iteration on the working state: it is past it.
      s[kPosition] = -1;
      return set(s, reverse, last, 0);
    }
    if (s[kPosition] == lo) {
      s[kPosition] = last;
      return set(s, advance, lo, last);
    }
    s[kPosition] = lo;
    return set(s, restore, slot, lo);
  }
  return done;
}

//===----------------------------------------------------------------------===//
// Online schedule, for loops whose trip count is known only when they end
//===----------------------------------------------------------------------===//
//
// The forward sweep keeps snapshots every `stride` iterations, starting
// with 1; when all S are taken, it keeps every other one (moving them down)
// and doubles the stride, so the snapshots always cover the iterations run
// so far evenly. When the loop ends after n iterations, segment j (between
// snapshots j and j + 1, or the end) is reversed by the binomial schedule
// with the S - j snapshots not holding earlier segments, last segment
// first: reverse_next with one frame per segment.

/// Starts an online schedule with `snapshots` >= 1.
inline void online_init(int64_t *s, int64_t snapshots) {
  init(s, 0, snapshots);
  s[kIterations] = -1;
  s[kStride] = 1;
  s[kTaken] = 0;
  s[kMoved] = 0;
}

/// The next action before iteration `k` runs (k = 0, 1, ...): snapshots to
/// take or move, then `advance` (run iteration k).
inline int64_t online_next(int64_t *s, int64_t k) {
  int64_t stride = s[kStride], taken = s[kTaken];
  if (k % stride != 0 || (taken > 0 && s[kPosition] == k))
    return set(s, advance, k, k + 1);
  if (taken < s[kSnapshots]) {
    s[kTaken] = taken + 1;
    s[kPosition] = k; // the snapshot of iteration k is taken
    return set(s, take_snapshot, taken, k);
  }
  // All taken: keep snapshots 0, 2, 4, ... as 0, 1, 2, ...
  int64_t &moved = s[kMoved]; // the next one to move, from 1
  if (moved == 0)
    moved = 1;
  if (2 * moved < taken) {
    int64_t to = moved++;
    return set(s, move_snapshot, 2 * to, to);
  }
  s[kTaken] = (taken + 1) / 2;
  s[kStride] = 2 * stride;
  moved = 0;
  return online_next(s, k);
}

/// Ends the online forward sweep after `iterations` iterations: the
/// reverse sweep then follows reverse_next.
inline void online_finish(int64_t *s, int64_t iterations) {
  int64_t stride = s[kStride], taken = s[kTaken], c = s[kSnapshots];
  s[kIterations] = iterations;
  s[kDepth] = 0;
  for (int64_t j = 0; j < taken && j * stride < iterations; ++j) {
    int64_t *f = s + kFrames + kFrameSize * j;
    int64_t hi = (j + 1) * stride;
    f[0] = j * stride, f[1] = hi < iterations ? hi : iterations;
    f[2] = c - j, f[3] = j;
    s[kDepth] = j + 1;
  }
  s[kPosition] = -1;
}

/// The bytes of freed tapes' memory kept for the next tapes made at the
/// same places (COTANGENT_TAPE_CACHE_BYTES, else, unset or empty, 1 GiB):
/// the generated tape helpers read the same variable the same way.
inline int64_t kept_tape_bytes() {
  const char *text = getenv("COTANGENT_TAPE_CACHE_BYTES");
  if (!text || !*text)
    return int64_t(1) << 30;
  long long bytes = strtoll(text, nullptr, 10);
  return bytes > 0 ? bytes : 0;
}

/// The tape, in bytes, above which a loop the compiler may checkpoint on
/// its own is checkpointed (when its snapshots are small beside that tape):
/// COTANGENT_CHECKPOINT_TAPE_BYTES if set; else half the tape memory kept
/// between calls (a tape's block is up to twice its contents), so that a
/// recorded tape is written into memory its previous call touched: fresh
/// pages, which the kernel faults in and zeroes on every call, are what
/// made large recorded tapes slow, not streaming them; but at least the
/// last-level cache the C library reports, at most 32 MiB (one core
/// complex's share on current processors; virtual machines often report a
/// whole socket's), which is the limit when no memory is kept.
inline int64_t tape_limit() {
  if (const char *text = getenv("COTANGENT_CHECKPOINT_TAPE_BYTES")) {
    char *end = nullptr;
    long long bytes = strtoll(text, &end, 10);
    if (end != text && *end == 0 && bytes >= 0)
      return bytes;
  }
  int64_t cache = int64_t(32) << 20;
#ifdef _SC_LEVEL3_CACHE_SIZE
  long reported = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (reported > 0 && reported < cache)
    cache = reported;
#endif
  int64_t kept = kept_tape_bytes() / 2;
  return kept > cache ? kept : cache;
}

/// The C interface of a 1-D memref of int64_t, as the generated code passes
/// the state.
struct state_view {
  int64_t *allocated, *aligned;
  int64_t offset, size, stride;
};

} // namespace ct::detail::schedule

extern "C" {
// Called by generated code (through MLIR's C interface of `func.func`).
__attribute__((weak)) void
_mlir_ciface_ct_checkpoint_init(ct::detail::schedule::state_view *state,
                                int64_t iterations, int64_t snapshots) {
  ct::detail::schedule::init(state->aligned + state->offset, iterations,
                             snapshots);
}
__attribute__((weak)) int64_t _mlir_ciface_ct_checkpoint_forward_next(
    ct::detail::schedule::state_view *state) {
  return ct::detail::schedule::forward_next(state->aligned + state->offset);
}
__attribute__((weak)) int64_t _mlir_ciface_ct_checkpoint_reverse_next(
    ct::detail::schedule::state_view *state) {
  return ct::detail::schedule::reverse_next(state->aligned + state->offset);
}
__attribute__((weak)) void
_mlir_ciface_ct_checkpoint_online_init(ct::detail::schedule::state_view *state,
                                       int64_t snapshots) {
  ct::detail::schedule::online_init(state->aligned + state->offset, snapshots);
}
__attribute__((weak)) int64_t _mlir_ciface_ct_checkpoint_online_next(
    ct::detail::schedule::state_view *state, int64_t k) {
  return ct::detail::schedule::online_next(state->aligned + state->offset, k);
}
__attribute__((weak)) int64_t _mlir_ciface_ct_checkpoint_tape_limit() {
  static const int64_t limit = ct::detail::schedule::tape_limit();
  return limit;
}
__attribute__((weak)) void _mlir_ciface_ct_checkpoint_online_finish(
    ct::detail::schedule::state_view *state, int64_t iterations) {
  ct::detail::schedule::online_finish(state->aligned + state->offset,
                                      iterations);
}
}

#endif // COTANGENT_CHECKPOINT_SCHEDULE_H
