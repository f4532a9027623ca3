// The driver's one way of running work on several threads.
#pragma once

#include <cstddef>
#include <functional>

namespace lint::driver {

/// Runs `fn(i)` for every i in [0, n) on up to `jobs` threads (the calling thread is one of them), each thread
/// taking the next index as it finishes one, and returns when all are done. With one job, or one item, it runs on
/// the calling thread in order.
///
/// Everything a run does in parallel goes through this one function, which is never inlined: with `--jobs 1`, its
/// inclusive instruction count (callgrind) is the parallel part of the run and the rest is the serial part, which
/// is how `bench/run --sections phases` measures the serial fraction that bounds the speed-up of `--jobs N`.
void parallel_region(std::size_t n, unsigned jobs, const std::function<void(std::size_t)>& fn);

}  // namespace lint::driver
