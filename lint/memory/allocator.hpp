// A model of PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp, torch 2.11) for the large blocks
// of a training step: segments are never given back (the peak reserved is the largest the pools ever grew), a
// request takes the smallest cached free block that fits (splitting it), and freed blocks merge with free
// neighbours of the same segment. Only the blocks that decide the reserved peak are replayed (docs/memory.md).
#pragma once

#include <cstddef>
#include <vector>

namespace lint::memory {

class CachingAllocatorModel {
 public:
  /// Allocates `bytes`; returns a handle for `release`.
  std::size_t allocate(double bytes);
  /// Frees a block: it stays reserved, cached for later requests.
  void release(std::size_t handle);
  /// Many small tensors of mixed sizes (saved activations): they fill cached free blocks first (any block can be
  /// split for them) and take new segments of their own size for the rest. Returns the handles.
  std::vector<std::size_t> allocate_spread(double bytes);
  [[nodiscard]] double reserved() const { return reserved_; }
  [[nodiscard]] double allocated() const { return allocated_; }
  [[nodiscard]] double peak_allocated() const { return peak_allocated_; }

  /// Bytes of the segment a request of `bytes` gets when no cached block fits: requests round up to 512 B; up to
  /// 1 MiB they share 2 MiB segments, up to 10 MiB 20 MiB segments, larger ones get a segment of their own rounded
  /// up to 2 MiB.
  static double segment_size(double bytes);
  static double round_request(double bytes);

 private:
  struct Block {
    double size = 0;
    bool used = false;
    std::size_t handle = 0;
  };
  std::vector<std::vector<Block>> segments_;  ///< each segment's blocks in address order
  std::size_t next_ = 1;
  double reserved_ = 0, allocated_ = 0, peak_allocated_ = 0;
  void take(std::vector<Block>& seg, std::size_t i, double size, std::size_t handle);
};

}  // namespace lint::memory
