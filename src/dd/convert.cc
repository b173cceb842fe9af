// SPDX-License-Identifier: GPL-3.0-or-later
// convert — the byte-level conversions of dd's reblocking copy. The tables
// below are data recorded from GNU dd 9.1 (`dd conv=ascii` over all 256
// byte values); the rest is derived from them at compile time.
#include "dd/convert.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace ddtime {
namespace {

// EBCDIC -> ASCII as conv=ascii maps it. It is a permutation: conv=ebcdic is
// exactly its inverse.
constexpr std::array<unsigned char, 256> kEbcdicToAscii = {
    0x00, 0x01, 0x02, 0x03, 0x9c, 0x09, 0x86, 0x7f, 0x97, 0x8d, 0x8e, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12,
    0x13, 0x9d, 0x85, 0x08, 0x87, 0x18, 0x19, 0x92, 0x8f, 0x1c, 0x1d, 0x1e, 0x1f, 0x80, 0x81, 0x82, 0x83, 0x84, 0x0a,
    0x17, 0x1b, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x05, 0x06, 0x07, 0x90, 0x91, 0x16, 0x93, 0x94, 0x95, 0x96, 0x04, 0x98,
    0x99, 0x9a, 0x9b, 0x14, 0x15, 0x9e, 0x1a, 0x20, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xd5, 0x2e,
    0x3c, 0x28, 0x2b, 0x7c, 0x26, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf, 0xb0, 0xb1, 0x21, 0x24, 0x2a, 0x29, 0x3b,
    0x7e, 0x2d, 0x2f, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xcb, 0x2c, 0x25, 0x5f, 0x3e, 0x3f, 0xba, 0xbb,
    0xbc, 0xbd, 0xbe, 0xbf, 0xc0, 0xc1, 0xc2, 0x60, 0x3a, 0x23, 0x40, 0x27, 0x3d, 0x22, 0xc3, 0x61, 0x62, 0x63, 0x64,
    0x65, 0x66, 0x67, 0x68, 0x69, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f, 0x70,
    0x71, 0x72, 0x5e, 0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd1, 0xe5, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0xd2,
    0xd3, 0xd4, 0x5b, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0x5d,
    0xe6, 0xe7, 0x7b, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0xe8, 0xe9, 0xea, 0xeb, 0xec, 0xed, 0x7d,
    0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50, 0x51, 0x52, 0xee, 0xef, 0xf0, 0xf1, 0xf2, 0xf3, 0x5c, 0x9f, 0x53, 0x54,
    0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36,
    0x37, 0x38, 0x39, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
};

constexpr std::array<unsigned char, 256> invert(const std::array<unsigned char, 256>& table) {
  std::array<unsigned char, 256> inverse{};
  for (unsigned i = 0; i < 256; ++i) inverse[table[i]] = static_cast<unsigned char>(i);
  return inverse;
}

constexpr std::array<unsigned char, 256> kAsciiToEbcdic = invert(kEbcdicToAscii);

// conv=ibm is conv=ebcdic except for five code points (recorded from GNU dd
// 9.1). It is not a permutation: 0x4a and 0x6a are never produced.
constexpr std::array<unsigned char, 256> make_ascii_to_ibm() {
  std::array<unsigned char, 256> table = kAsciiToEbcdic;
  table['^'] = 0x5f;
  table['~'] = 0xa1;
  table[0xcb] = 0x9a;
  table[0xd5] = 0xad;
  table[0xe5] = 0xbd;
  return table;
}

constexpr std::array<unsigned char, 256> kAsciiToIbm = make_ascii_to_ibm();

static_assert(kAsciiToEbcdic[' '] == 0x40 && kAsciiToEbcdic['\n'] == 0x25);
static_assert(kAsciiToIbm[' '] == 0x40 && kAsciiToIbm['\n'] == 0x25);

// lcase/ucase follow the C locale whatever the environment says, as GNU dd
// does: only A-Z and a-z change.
constexpr unsigned char to_lower(unsigned char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<unsigned char>(c - 'A' + 'a') : c;
}
constexpr unsigned char to_upper(unsigned char c) {
  return c >= 'a' && c <= 'z' ? static_cast<unsigned char>(c - 'a' + 'A') : c;
}

// Keeps cbs + 1 (block's "already truncated" marker) representable; no
// record can come near this size anyway.
constexpr std::int64_t kMaxCbs = std::numeric_limits<std::int64_t>::max() - 1;

// Swaps bytes 0<->1, 2<->3, ... Requires: bytes.size() is even.
void swap_pairs(std::span<unsigned char> bytes) noexcept {
  unsigned char* p = bytes.data();
  std::size_t n = bytes.size();
  // Eight bytes at a time: swapping the two halves of each 16-bit lane is
  // the same operation on either byte order.
  constexpr std::uint64_t kLow = 0x00ff00ff00ff00ffULL;
  for (; n >= 8; n -= 8, p += 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    word = ((word & kLow) << 8) | ((word >> 8) & kLow);
    std::memcpy(p, &word, 8);
  }
  for (; n >= 2; n -= 2, p += 2) std::swap(p[0], p[1]);
}

}  // namespace

bool OutputBlocker::put(std::span<const unsigned char> bytes) {
  while (!bytes.empty()) {
    const std::size_t n = std::min(buffer_.size() - fill_, bytes.size());
    std::memcpy(buffer_.data() + fill_, bytes.data(), n);
    fill_ += n;
    bytes = bytes.subspan(n);
    if (fill_ == buffer_.size()) {
      if (!sink_->write_full_block(buffer_)) return false;
      fill_ = 0;
    }
  }
  return true;
}

bool OutputBlocker::put_byte(unsigned char byte) {
  buffer_[fill_++] = byte;
  if (fill_ == buffer_.size()) {
    if (!sink_->write_full_block(buffer_)) return false;
    fill_ = 0;
  }
  return true;
}

bool OutputBlocker::put_repeated(unsigned char byte, std::size_t count) {
  while (count > 0) {
    const std::size_t n = std::min(buffer_.size() - fill_, count);
    std::memset(buffer_.data() + fill_, byte, n);
    fill_ += n;
    count -= n;
    if (fill_ == buffer_.size()) {
      if (!sink_->write_full_block(buffer_)) return false;
      fill_ = 0;
    }
  }
  return true;
}

Converter::Converter(const Conversions& conv, std::int64_t cbs) noexcept {
  // GNU's order: EBCDIC is read as ASCII first, case is changed on the
  // ASCII result, and only then is it written as EBCDIC/IBM. So
  // conv=ascii,ucase upper-cases the output, conv=ebcdic,ucase the input.
  if (conv.ascii) {
    table_ = kEbcdicToAscii;
  } else {
    for (unsigned i = 0; i < 256; ++i) table_[i] = static_cast<unsigned char>(i);
  }
  if (conv.lcase) {
    for (unsigned char& c : table_) c = to_lower(c);
  } else if (conv.ucase) {
    for (unsigned char& c : table_) c = to_upper(c);
  }
  if (conv.ebcdic) {
    for (unsigned char& c : table_) c = kAsciiToEbcdic[c];
  } else if (conv.ibm) {
    for (unsigned char& c : table_) c = kAsciiToIbm[c];
  }
  translates_ = conv.ascii || conv.ebcdic || conv.ibm || conv.lcase || conv.ucase;
  find_shifted_range();

  swab_ = conv.swab;
  cbs_ = cbs > 0 ? std::min(cbs, kMaxCbs) : 0;
  block_ = cbs_ > 0 && conv.block;
  unblock_ = cbs_ > 0 && conv.unblock && !block_;

  // block runs after translation, so with ebcdic/ibm it looks for the
  // translated newline and pads with the translated space. conv=ascii's
  // unblock works on ASCII output and uses plain ' ' and '\n'.
  if (conv.ebcdic || conv.ibm) {
    newline_ = table_['\n'];
    space_ = table_[' '];
  }
  // GNU pads with an ASCII space whenever a record conversion is active,
  // before translation (so conv=ascii,sync pads with what 0x20 becomes).
  sync_pad_ = block_ || unblock_ ? ' ' : 0;
}

void Converter::find_shifted_range() noexcept {
  int first = -1;
  int last = -1;
  unsigned char delta = 0;
  for (int byte = 0; byte < 256; ++byte) {
    const auto moved_by = static_cast<unsigned char>(table_[byte] - byte);
    if (moved_by == 0) continue;
    if (first < 0) {
      first = byte;
      delta = moved_by;
    } else if (byte != last + 1 || moved_by != delta) {
      return;  // a second run, or a different move: keep the table
    }
    last = byte;
  }
  if (first < 0) return;
  shifts_one_range_ = true;
  range_first_ = static_cast<unsigned char>(first);
  range_size_ = static_cast<unsigned char>(last - first + 1);
  range_delta_ = delta;
}

void Converter::translate(std::span<unsigned char> bytes) const noexcept {
  if (shifts_one_range_) {
    const unsigned char first = range_first_;
    const unsigned char size = range_size_;
    const unsigned char delta = range_delta_;
    for (unsigned char& c : bytes) {
      const auto offset = static_cast<unsigned char>(c - first);
      c = offset < size ? static_cast<unsigned char>(c + delta) : c;
    }
    return;
  }
  const unsigned char* const table = table_.data();
  for (unsigned char& c : bytes) c = table[c];
}

bool Converter::convert(std::span<unsigned char> bytes, OutputBlocker& out) {
  if (!swab_) return emit(bytes, out);
  if (bytes.empty()) return true;
  // swab pairs bytes across the whole stream, not within each read: a byte
  // left over from an odd read pairs with the first byte of the next.
  if (saved_byte_ >= 0) {
    const unsigned char pair[2] = {bytes[0], static_cast<unsigned char>(saved_byte_)};
    saved_byte_ = -1;
    if (!emit(pair, out)) return false;
    bytes = bytes.subspan(1);
  }
  if (bytes.size() % 2 != 0) {
    saved_byte_ = bytes.back();
    bytes = bytes.first(bytes.size() - 1);
  }
  swap_pairs(bytes);
  return emit(bytes, out);
}

bool Converter::finish(OutputBlocker& out) {
  // An odd final byte goes out unswapped, and still through block/unblock.
  if (saved_byte_ >= 0) {
    const unsigned char last = static_cast<unsigned char>(saved_byte_);
    saved_byte_ = -1;
    if (!emit({&last, 1}, out)) return false;
  }
  const std::int64_t column = column_;
  column_ = 0;
  pending_spaces_ = 0;
  // A last line without newline is padded like any other; one already cut
  // at cbs (column == cbs + 1) needs nothing.
  if (block_ && column > 0 && column < cbs_) {
    return out.put_repeated(space_, static_cast<std::size_t>(cbs_ - column));
  }
  // A last short record loses its trailing spaces and gains a newline.
  if (unblock_ && column > 0) return out.put_byte(newline_);
  return true;
}

bool Converter::emit(std::span<const unsigned char> bytes, OutputBlocker& out) {
  if (block_) return block_bytes(bytes, out);
  if (unblock_) return unblock_bytes(bytes, out);
  return out.put(bytes);
}

bool Converter::block_bytes(std::span<const unsigned char> bytes, OutputBlocker& out) {
  const unsigned char* p = bytes.data();
  const unsigned char* const end = p + bytes.size();
  while (p != end) {
    const auto* newline =
        static_cast<const unsigned char*>(std::memchr(p, newline_, static_cast<std::size_t>(end - p)));
    const std::size_t length = static_cast<std::size_t>((newline ? newline : end) - p);
    const std::size_t room = column_ < cbs_ ? static_cast<std::size_t>(cbs_ - column_) : 0;
    if (length <= room) {
      if (!out.put({p, length})) return false;
      column_ += static_cast<std::int64_t>(length);
    } else {
      if (!out.put({p, room})) return false;
      // Counted once per line, when its first excess byte shows up.
      if (column_ <= cbs_) ++truncated_records_;
      column_ = cbs_ + 1;
    }
    if (newline == nullptr) break;
    if (column_ < cbs_ && !out.put_repeated(space_, static_cast<std::size_t>(cbs_ - column_))) {
      return false;
    }
    column_ = 0;
    p = newline + 1;
  }
  return true;
}

bool Converter::unblock_bytes(std::span<const unsigned char> bytes, OutputBlocker& out) {
  const unsigned char* p = bytes.data();
  const unsigned char* const end = p + bytes.size();
  while (p != end) {
    const std::size_t take = std::min(static_cast<std::size_t>(end - p), static_cast<std::size_t>(cbs_ - column_));
    const unsigned char* const record_end = p + take;
    // Spaces are only dropped at the end of a record, so a run of them is
    // held back until a later byte of the same record shows it was inside.
    const unsigned char* last = record_end;
    while (last != p && last[-1] == space_) --last;
    if (last == p) {
      pending_spaces_ += static_cast<std::int64_t>(take);
    } else {
      if (pending_spaces_ > 0 && !out.put_repeated(space_, static_cast<std::size_t>(pending_spaces_))) {
        return false;
      }
      if (!out.put({p, static_cast<std::size_t>(last - p)})) return false;
      pending_spaces_ = record_end - last;
    }
    column_ += static_cast<std::int64_t>(take);
    p = record_end;
    if (column_ == cbs_) {
      column_ = 0;
      pending_spaces_ = 0;
      if (!out.put_byte(newline_)) return false;
    }
  }
  return true;
}

}  // namespace ddtime
