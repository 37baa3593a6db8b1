//===- ParallelTests.cpp - the kernels' parallel loops --------------------===//
//
// Part of nnc's runtime tests. nnc_parallel_for, which runs every compiled
// kernel's parallel loop (nnc-cpu-parallel-to-runtime).
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include "nnrt/Parallel.h"

#include <algorithm>
#include <mutex>
#include <omp.h>
#include <string>
#include <utility>
#include <vector>

using nnrt::test::check;

namespace {
/// The chunks nnc_parallel_for ran, as [first, last) pairs.
struct Chunks {
  std::mutex mutex;
  std::vector<std::pair<int64_t, int64_t>> ranges;
  static void record(void *context, int64_t first, int64_t last) {
    auto *chunks = static_cast<Chunks *>(context);
    std::lock_guard<std::mutex> lock(chunks->mutex);
    chunks->ranges.push_back({first, last});
  }
  /// Whether the chunks cover [0, count) once each, none longer than
  /// `longest`.
  bool cover(int64_t count, int64_t longest) {
    std::sort(ranges.begin(), ranges.end());
    int64_t at = 0;
    for (auto [first, last] : ranges) {
      if (first != at || last <= first || last - first > longest)
        return false;
      at = last;
    }
    return at == count;
  }
};

/// The kernels' parallel loops (nnc-cpu-parallel-to-runtime): every
/// iteration runs once, in chunks of at most half of what is left over
/// the threads, and nothing runs for an empty loop.
void testParallelFor() {
  int threads = omp_get_max_threads();
  omp_set_num_threads(4);
  for (int64_t count : {int64_t(0), int64_t(1), int64_t(7), int64_t(1000)}) {
    Chunks chunks;
    nnc_parallel_for(Chunks::record, &chunks, count);
    int64_t longest = std::max<int64_t>(1, count / 8);
    check(chunks.cover(count, count == 1 ? 1 : longest),
          "nnc_parallel_for runs each of " + std::to_string(count) +
              " iterations once, in chunks of at most " +
              std::to_string(longest));
  }
  // Called from a parallel region, the loop runs whole on its thread.
  Chunks nested;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    nnc_parallel_for(Chunks::record, &nested, 100);
  }
  check(nested.ranges.size() == 1 && nested.cover(100, 100),
        "nnc_parallel_for inside a parallel region runs as one chunk");
  omp_set_num_threads(threads);
}
} // namespace

void runParallelTests() { testParallelFor(); }
