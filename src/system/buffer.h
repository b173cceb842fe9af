// SPDX-License-Identifier: GPL-3.0-or-later
// buffer — owned, aligned byte buffers, allocated once before the copy and
// never resized. Allocation failure is a value, so the caller can word it
// as GNU does ("memory exhausted by input buffer of size ...").
#pragma once

#include <cstddef>
#include <span>

namespace ddtime {

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  AlignedBuffer(AlignedBuffer&& other) noexcept;
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept;
  ~AlignedBuffer();

  // Requires: alignment is a power of two, multiple of sizeof(void*).
  // False when the memory is not available; the buffer stays empty.
  bool allocate(std::size_t size, std::size_t alignment) noexcept;

  bool empty() const noexcept { return data_ == nullptr; }
  unsigned char* data() noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::span<unsigned char> span() noexcept { return {data_, size_}; }

 private:
  void release() noexcept;

  unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

// The system page size: the default alignment for every buffer.
std::size_t page_size() noexcept;

}  // namespace ddtime
