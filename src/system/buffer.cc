// SPDX-License-Identifier: GPL-3.0-or-later
#include "system/buffer.h"

#include <unistd.h>

#include <cstdlib>
#include <utility>

namespace ddtime {

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

AlignedBuffer::~AlignedBuffer() { release(); }

bool AlignedBuffer::allocate(std::size_t size, std::size_t alignment) noexcept {
  release();
  void* memory = nullptr;
  // Memory is not touched here: pages the copy never uses never count
  // towards the resident set, as with GNU dd's malloc'd buffer.
  if (posix_memalign(&memory, alignment, size == 0 ? 1 : size) != 0) return false;
  data_ = static_cast<unsigned char*>(memory);
  size_ = size;
  return true;
}

void AlignedBuffer::release() noexcept {
  std::free(data_);
  data_ = nullptr;
  size_ = 0;
}

std::size_t page_size() noexcept {
  long size = sysconf(_SC_PAGESIZE);
  return size > 0 ? static_cast<std::size_t>(size) : 4096;
}

}  // namespace ddtime
