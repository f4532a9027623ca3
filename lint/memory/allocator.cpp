#include "lint/memory/allocator.hpp"

#include <cmath>
#include <limits>

namespace lint::memory {

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kSmallSize = 1 * kMiB;       // largest small-pool request
constexpr double kSmallBuffer = 2 * kMiB;     // small-pool segment
constexpr double kLargeBuffer = 20 * kMiB;    // segment for requests up to kMinLargeAlloc
constexpr double kMinLargeAlloc = 10 * kMiB;  // larger requests get a segment of their own
constexpr double kRoundLarge = 2 * kMiB;
}  // namespace

double CachingAllocatorModel::round_request(double bytes) {
  return std::max(512.0, std::ceil(bytes / 512.0) * 512.0);
}

double CachingAllocatorModel::segment_size(double bytes) {
  const double b = round_request(bytes);
  if (b <= kSmallSize) return kSmallBuffer;
  if (b < kMinLargeAlloc) return kLargeBuffer;
  return std::ceil(b / kRoundLarge) * kRoundLarge;
}

void CachingAllocatorModel::take(std::vector<Block>& seg, std::size_t i, double size, std::size_t handle) {
  // The allocator splits a cached large block when more than kSmallSize would remain.
  const double rest = seg[i].size - size;
  if (rest > kSmallSize) {
    seg[i].size = size;
    seg.insert(seg.begin() + static_cast<std::ptrdiff_t>(i) + 1, Block{rest, false, 0});
  }
  seg[i].used = true;
  seg[i].handle = handle;
  allocated_ += seg[i].size;
  peak_allocated_ = std::max(peak_allocated_, allocated_);
}

std::size_t CachingAllocatorModel::allocate(double bytes) {
  const double size = round_request(bytes);
  const std::size_t handle = next_++;
  // Best fit: the smallest cached free block that holds the request.
  std::vector<Block>* best_seg = nullptr;
  std::size_t best_i = 0;
  double best = std::numeric_limits<double>::infinity();
  for (auto& seg : segments_)
    for (std::size_t i = 0; i < seg.size(); ++i)
      if (!seg[i].used && seg[i].size >= size && seg[i].size < best) {
        best = seg[i].size;
        best_seg = &seg;
        best_i = i;
      }
  if (best_seg == nullptr) {
    const double s = segment_size(bytes);
    segments_.push_back({Block{s, false, 0}});
    reserved_ += s;
    best_seg = &segments_.back();
    best_i = 0;
  }
  take(*best_seg, best_i, size, handle);
  return handle;
}

std::vector<std::size_t> CachingAllocatorModel::allocate_spread(double bytes) {
  std::vector<std::size_t> out;
  double left = round_request(bytes);
  for (auto& seg : segments_)
    for (std::size_t i = 0; i < seg.size() && left > 0; ++i)
      if (!seg[i].used) {
        const double use = std::min(left, seg[i].size);
        const std::size_t handle = next_++;
        take(seg, i, use, handle);
        out.push_back(handle);
        left -= use;
      }
  if (left > 0) {
    segments_.push_back({Block{left, false, 0}});
    reserved_ += left;
    const std::size_t handle = next_++;
    take(segments_.back(), 0, left, handle);
    out.push_back(handle);
  }
  return out;
}

void CachingAllocatorModel::release(std::size_t handle) {
  for (auto& seg : segments_)
    for (std::size_t i = 0; i < seg.size(); ++i)
      if (seg[i].used && seg[i].handle == handle) {
        seg[i].used = false;
        allocated_ -= seg[i].size;
        // Merge with free neighbours in the same segment.
        if (i + 1 < seg.size() && !seg[i + 1].used) {
          seg[i].size += seg[i + 1].size;
          seg.erase(seg.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        }
        if (i > 0 && !seg[i - 1].used) {
          seg[i - 1].size += seg[i].size;
          seg.erase(seg.begin() + static_cast<std::ptrdiff_t>(i));
        }
        return;
      }
}

}  // namespace lint::memory
