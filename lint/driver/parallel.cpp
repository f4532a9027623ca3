#include "lint/driver/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace lint::driver {

[[gnu::noinline]] void parallel_region(std::size_t n, unsigned jobs, const std::function<void(std::size_t)>& fn) {
  if (jobs <= 1 || n <= 1) {
    for (std::size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next.fetch_add(1, std::memory_order_relaxed); i < n;
         i = next.fetch_add(1, std::memory_order_relaxed))
      fn(i);
  };
  const auto count = static_cast<unsigned>(std::min<std::size_t>(jobs, n));
  std::vector<std::thread> threads;
  threads.reserve(count - 1);
  for (unsigned t = 1; t < count; ++t) threads.emplace_back(work);
  work();  // the calling thread is one of the workers
  for (std::thread& t : threads) t.join();
}

}  // namespace lint::driver
