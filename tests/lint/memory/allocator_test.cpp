#include "lint/memory/allocator.hpp"

#include <catch2/catch.hpp>

using lint::memory::CachingAllocatorModel;

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
}

TEST_CASE("caching allocator model: segment sizes follow PyTorch's rounding", "[memory]") {
  CHECK(CachingAllocatorModel::round_request(1) == 512);
  CHECK(CachingAllocatorModel::round_request(513) == 1024);
  CHECK(CachingAllocatorModel::segment_size(4096) == 2 * kMiB);        // small pool
  CHECK(CachingAllocatorModel::segment_size(3 * kMiB) == 20 * kMiB);   // shares a 20 MiB segment
  CHECK(CachingAllocatorModel::segment_size(11 * kMiB) == 12 * kMiB);  // own segment, 2 MiB multiple
  CHECK(CachingAllocatorModel::segment_size(16 * kMiB) == 16 * kMiB);
}

TEST_CASE("caching allocator model: freed blocks stay reserved and serve requests that fit", "[memory]") {
  CachingAllocatorModel a;
  const auto x = a.allocate(100 * kMiB);
  a.release(x);
  CHECK(a.reserved() == 100 * kMiB);
  CHECK(a.allocated() == 0);
  // A smaller request splits the cached block: nothing new is reserved.
  const auto y = a.allocate(60 * kMiB);
  CHECK(a.reserved() == 100 * kMiB);
  // The 40 MiB remainder cannot hold 50 MiB: a new segment.
  const auto z = a.allocate(50 * kMiB);
  CHECK(a.reserved() == 150 * kMiB);
  // Freed neighbours merge: the first segment is whole again and serves 100 MiB.
  a.release(y);
  a.allocate(100 * kMiB);
  CHECK(a.reserved() == 150 * kMiB);
  a.release(z);
  CHECK(a.peak_allocated() == 150 * kMiB);
}

TEST_CASE("caching allocator model: best fit takes the smallest cached block", "[memory]") {
  CachingAllocatorModel a;
  const auto big = a.allocate(200 * kMiB);
  const auto small = a.allocate(40 * kMiB);
  a.release(big);
  a.release(small);
  a.allocate(30 * kMiB);   // from the 40 MiB block
  a.allocate(150 * kMiB);  // the 200 MiB block is still whole
  CHECK(a.reserved() == 240 * kMiB);
}

TEST_CASE("caching allocator model: the loss leaves the 16-bit logits' block unused", "[memory]") {
  // transformers' ForCausalLMLoss on L logits: bf16 logits (2L), fp32 copy (4L), log-softmax (4L); backward: two
  // fp32 gradients. The second gradient does not fit in the freed 2L block: 14L reserved for 12L allocated.
  CachingAllocatorModel a;
  const double L = 64 * kMiB;
  const auto logits = a.allocate(2 * L);
  const auto upcast = a.allocate(4 * L);
  const auto logp = a.allocate(4 * L);
  a.release(upcast);
  a.release(logits);
  a.allocate(4 * L);
  a.allocate(4 * L);
  CHECK(a.allocated() == 12 * L);
  CHECK(a.reserved() == 14 * L);
  a.release(logp);
}

TEST_CASE("caching allocator model: spread allocations fill cached blocks first", "[memory]") {
  CachingAllocatorModel a;
  a.release(a.allocate(100 * kMiB));
  a.allocate_spread(150 * kMiB);
  CHECK(a.reserved() == 150 * kMiB);
  CHECK(a.allocated() == 150 * kMiB);
}
