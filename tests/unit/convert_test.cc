// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for convert: the translate tables against GNU dd 9.1 for every byte
// value, and the stream conversions (swab, block, unblock, sync padding,
// output blocking) against what GNU dd pipelines produce.
#include "dd/convert.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace ddtime {
namespace {

using Bytes = std::vector<unsigned char>;

Bytes bytes_of(std::string_view text) { return Bytes(text.begin(), text.end()); }

std::string text_of(std::span<const unsigned char> bytes) { return std::string(bytes.begin(), bytes.end()); }

// Records every full block it is handed; fails the call numbered fail_at
// (1-based) and every one after it, when fail_at is set.
class RecordingSink : public BlockSink {
 public:
  explicit RecordingSink(std::size_t fail_at = 0) : fail_at_(fail_at) {}

  bool write_full_block(std::span<const unsigned char> block) noexcept override {
    ++calls;
    if (fail_at_ != 0 && calls >= fail_at_) return false;
    blocks.push_back(text_of(block));
    return true;
  }

  std::string joined() const {
    std::string all;
    for (const auto& block : blocks) all += block;
    return all;
  }

  std::vector<std::string> blocks;
  std::size_t calls = 0;

 private:
  std::size_t fail_at_;
};

struct RunResult {
  std::vector<std::string> blocks;  // full obs-sized blocks, in order
  std::string final_block;          // the partial block written at the end
  std::string output;               // everything, as the output file holds it
  std::int64_t truncated = 0;
};

// Drives a Converter the way the engine does for each read: pad to ibs with
// conv=sync, translate, convert; then finish and write what is pending.
// ibs == 0 means no padding.
RunResult run(const Conversions& conv, std::int64_t cbs, std::size_t obs, const std::vector<std::string>& reads,
              std::size_t ibs = 0) {
  Converter converter(conv, cbs);
  RecordingSink sink;
  Bytes obuf(obs);
  OutputBlocker out(obuf, sink);
  for (const auto& read : reads) {
    Bytes ibuf = bytes_of(read);
    if (conv.sync && ibs > ibuf.size()) ibuf.resize(ibs, converter.sync_pad_byte());
    if (converter.translates()) converter.translate(ibuf);
    EXPECT_TRUE(converter.convert(ibuf, out));
  }
  EXPECT_TRUE(converter.finish(out));
  RunResult result;
  result.blocks = sink.blocks;
  result.final_block = text_of(out.pending());
  result.output = sink.joined() + result.final_block;
  result.truncated = converter.truncated_records();
  return result;
}

std::string hex(std::string_view text) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : text) {
    if (!out.empty()) out += ' ';
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::array<unsigned char, 256> parse_table(std::string_view text) {
  std::array<unsigned char, 256> table{};
  std::istringstream in{std::string(text)};
  std::size_t i = 0;
  unsigned value = 0;
  while (in >> std::hex >> value) {
    if (i < table.size()) table[i] = static_cast<unsigned char>(value);
    ++i;
  }
  EXPECT_EQ(i, 256u) << "golden table must list 256 bytes";
  return table;
}

// ---------------------------------------------------------------------------
// Translation tables.
//
// Each golden is GNU dd 9.1's output (Debian coreutils 9.1) for the 256 byte
// values 0x00..0xff in order, generated with:
//   python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)))' > all
//   dd if=all conv=<conversions> 2>/dev/null | od -An -v -tx1
// These are every translation GNU accepts: at most one of ascii/ebcdic/ibm,
// at most one of lcase/ucase.

struct Golden {
  const char* name;
  Conversions conv;
  const char* table;
};

const Golden kGoldens[] = {
    {"ascii",
     {.ascii = true},
     "00 01 02 03 9c 09 86 7f 97 8d 8e 0b 0c 0d 0e 0f\n"
     "10 11 12 13 9d 85 08 87 18 19 92 8f 1c 1d 1e 1f\n"
     "80 81 82 83 84 0a 17 1b 88 89 8a 8b 8c 05 06 07\n"
     "90 91 16 93 94 95 96 04 98 99 9a 9b 14 15 9e 1a\n"
     "20 a0 a1 a2 a3 a4 a5 a6 a7 a8 d5 2e 3c 28 2b 7c\n"
     "26 a9 aa ab ac ad ae af b0 b1 21 24 2a 29 3b 7e\n"
     "2d 2f b2 b3 b4 b5 b6 b7 b8 b9 cb 2c 25 5f 3e 3f\n"
     "ba bb bc bd be bf c0 c1 c2 60 3a 23 40 27 3d 22\n"
     "c3 61 62 63 64 65 66 67 68 69 c4 c5 c6 c7 c8 c9\n"
     "ca 6a 6b 6c 6d 6e 6f 70 71 72 5e cc cd ce cf d0\n"
     "d1 e5 73 74 75 76 77 78 79 7a d2 d3 d4 5b d6 d7\n"
     "d8 d9 da db dc dd de df e0 e1 e2 e3 e4 5d e6 e7\n"
     "7b 41 42 43 44 45 46 47 48 49 e8 e9 ea eb ec ed\n"
     "7d 4a 4b 4c 4d 4e 4f 50 51 52 ee ef f0 f1 f2 f3\n"
     "5c 9f 53 54 55 56 57 58 59 5a f4 f5 f6 f7 f8 f9\n"
     "30 31 32 33 34 35 36 37 38 39 fa fb fc fd fe ff\n"},
    {"ebcdic",
     {.ebcdic = true},
     "00 01 02 03 37 2d 2e 2f 16 05 25 0b 0c 0d 0e 0f\n"
     "10 11 12 13 3c 3d 32 26 18 19 3f 27 1c 1d 1e 1f\n"
     "40 5a 7f 7b 5b 6c 50 7d 4d 5d 5c 4e 6b 60 4b 61\n"
     "f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 7a 5e 4c 7e 6e 6f\n"
     "7c c1 c2 c3 c4 c5 c6 c7 c8 c9 d1 d2 d3 d4 d5 d6\n"
     "d7 d8 d9 e2 e3 e4 e5 e6 e7 e8 e9 ad e0 bd 9a 6d\n"
     "79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96\n"
     "97 98 99 a2 a3 a4 a5 a6 a7 a8 a9 c0 4f d0 5f 07\n"
     "20 21 22 23 24 15 06 17 28 29 2a 2b 2c 09 0a 1b\n"
     "30 31 1a 33 34 35 36 08 38 39 3a 3b 04 14 3e e1\n"
     "41 42 43 44 45 46 47 48 49 51 52 53 54 55 56 57\n"
     "58 59 62 63 64 65 66 67 68 69 70 71 72 73 74 75\n"
     "76 77 78 80 8a 8b 8c 8d 8e 8f 90 6a 9b 9c 9d 9e\n"
     "9f a0 aa ab ac 4a ae af b0 b1 b2 b3 b4 b5 b6 b7\n"
     "b8 b9 ba bb bc a1 be bf ca cb cc cd ce cf da db\n"
     "dc dd de df ea eb ec ed ee ef fa fb fc fd fe ff\n"},
    {"ibm",
     {.ibm = true},
     "00 01 02 03 37 2d 2e 2f 16 05 25 0b 0c 0d 0e 0f\n"
     "10 11 12 13 3c 3d 32 26 18 19 3f 27 1c 1d 1e 1f\n"
     "40 5a 7f 7b 5b 6c 50 7d 4d 5d 5c 4e 6b 60 4b 61\n"
     "f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 7a 5e 4c 7e 6e 6f\n"
     "7c c1 c2 c3 c4 c5 c6 c7 c8 c9 d1 d2 d3 d4 d5 d6\n"
     "d7 d8 d9 e2 e3 e4 e5 e6 e7 e8 e9 ad e0 bd 5f 6d\n"
     "79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96\n"
     "97 98 99 a2 a3 a4 a5 a6 a7 a8 a9 c0 4f d0 a1 07\n"
     "20 21 22 23 24 15 06 17 28 29 2a 2b 2c 09 0a 1b\n"
     "30 31 1a 33 34 35 36 08 38 39 3a 3b 04 14 3e e1\n"
     "41 42 43 44 45 46 47 48 49 51 52 53 54 55 56 57\n"
     "58 59 62 63 64 65 66 67 68 69 70 71 72 73 74 75\n"
     "76 77 78 80 8a 8b 8c 8d 8e 8f 90 9a 9b 9c 9d 9e\n"
     "9f a0 aa ab ac ad ae af b0 b1 b2 b3 b4 b5 b6 b7\n"
     "b8 b9 ba bb bc bd be bf ca cb cc cd ce cf da db\n"
     "dc dd de df ea eb ec ed ee ef fa fb fc fd fe ff\n"},
    {"lcase",
     {.lcase = true},
     "00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n"
     "10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f\n"
     "20 21 22 23 24 25 26 27 28 29 2a 2b 2c 2d 2e 2f\n"
     "30 31 32 33 34 35 36 37 38 39 3a 3b 3c 3d 3e 3f\n"
     "40 61 62 63 64 65 66 67 68 69 6a 6b 6c 6d 6e 6f\n"
     "70 71 72 73 74 75 76 77 78 79 7a 5b 5c 5d 5e 5f\n"
     "60 61 62 63 64 65 66 67 68 69 6a 6b 6c 6d 6e 6f\n"
     "70 71 72 73 74 75 76 77 78 79 7a 7b 7c 7d 7e 7f\n"
     "80 81 82 83 84 85 86 87 88 89 8a 8b 8c 8d 8e 8f\n"
     "90 91 92 93 94 95 96 97 98 99 9a 9b 9c 9d 9e 9f\n"
     "a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 aa ab ac ad ae af\n"
     "b0 b1 b2 b3 b4 b5 b6 b7 b8 b9 ba bb bc bd be bf\n"
     "c0 c1 c2 c3 c4 c5 c6 c7 c8 c9 ca cb cc cd ce cf\n"
     "d0 d1 d2 d3 d4 d5 d6 d7 d8 d9 da db dc dd de df\n"
     "e0 e1 e2 e3 e4 e5 e6 e7 e8 e9 ea eb ec ed ee ef\n"
     "f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 fa fb fc fd fe ff\n"},
    {"ucase",
     {.ucase = true},
     "00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n"
     "10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f\n"
     "20 21 22 23 24 25 26 27 28 29 2a 2b 2c 2d 2e 2f\n"
     "30 31 32 33 34 35 36 37 38 39 3a 3b 3c 3d 3e 3f\n"
     "40 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f\n"
     "50 51 52 53 54 55 56 57 58 59 5a 5b 5c 5d 5e 5f\n"
     "60 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f\n"
     "50 51 52 53 54 55 56 57 58 59 5a 7b 7c 7d 7e 7f\n"
     "80 81 82 83 84 85 86 87 88 89 8a 8b 8c 8d 8e 8f\n"
     "90 91 92 93 94 95 96 97 98 99 9a 9b 9c 9d 9e 9f\n"
     "a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 aa ab ac ad ae af\n"
     "b0 b1 b2 b3 b4 b5 b6 b7 b8 b9 ba bb bc bd be bf\n"
     "c0 c1 c2 c3 c4 c5 c6 c7 c8 c9 ca cb cc cd ce cf\n"
     "d0 d1 d2 d3 d4 d5 d6 d7 d8 d9 da db dc dd de df\n"
     "e0 e1 e2 e3 e4 e5 e6 e7 e8 e9 ea eb ec ed ee ef\n"
     "f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 fa fb fc fd fe ff\n"},
    {"ascii_lcase",
     {.ascii = true, .lcase = true},
     "00 01 02 03 9c 09 86 7f 97 8d 8e 0b 0c 0d 0e 0f\n"
     "10 11 12 13 9d 85 08 87 18 19 92 8f 1c 1d 1e 1f\n"
     "80 81 82 83 84 0a 17 1b 88 89 8a 8b 8c 05 06 07\n"
     "90 91 16 93 94 95 96 04 98 99 9a 9b 14 15 9e 1a\n"
     "20 a0 a1 a2 a3 a4 a5 a6 a7 a8 d5 2e 3c 28 2b 7c\n"
     "26 a9 aa ab ac ad ae af b0 b1 21 24 2a 29 3b 7e\n"
     "2d 2f b2 b3 b4 b5 b6 b7 b8 b9 cb 2c 25 5f 3e 3f\n"
     "ba bb bc bd be bf c0 c1 c2 60 3a 23 40 27 3d 22\n"
     "c3 61 62 63 64 65 66 67 68 69 c4 c5 c6 c7 c8 c9\n"
     "ca 6a 6b 6c 6d 6e 6f 70 71 72 5e cc cd ce cf d0\n"
     "d1 e5 73 74 75 76 77 78 79 7a d2 d3 d4 5b d6 d7\n"
     "d8 d9 da db dc dd de df e0 e1 e2 e3 e4 5d e6 e7\n"
     "7b 61 62 63 64 65 66 67 68 69 e8 e9 ea eb ec ed\n"
     "7d 6a 6b 6c 6d 6e 6f 70 71 72 ee ef f0 f1 f2 f3\n"
     "5c 9f 73 74 75 76 77 78 79 7a f4 f5 f6 f7 f8 f9\n"
     "30 31 32 33 34 35 36 37 38 39 fa fb fc fd fe ff\n"},
    {"ascii_ucase",
     {.ascii = true, .ucase = true},
     "00 01 02 03 9c 09 86 7f 97 8d 8e 0b 0c 0d 0e 0f\n"
     "10 11 12 13 9d 85 08 87 18 19 92 8f 1c 1d 1e 1f\n"
     "80 81 82 83 84 0a 17 1b 88 89 8a 8b 8c 05 06 07\n"
     "90 91 16 93 94 95 96 04 98 99 9a 9b 14 15 9e 1a\n"
     "20 a0 a1 a2 a3 a4 a5 a6 a7 a8 d5 2e 3c 28 2b 7c\n"
     "26 a9 aa ab ac ad ae af b0 b1 21 24 2a 29 3b 7e\n"
     "2d 2f b2 b3 b4 b5 b6 b7 b8 b9 cb 2c 25 5f 3e 3f\n"
     "ba bb bc bd be bf c0 c1 c2 60 3a 23 40 27 3d 22\n"
     "c3 41 42 43 44 45 46 47 48 49 c4 c5 c6 c7 c8 c9\n"
     "ca 4a 4b 4c 4d 4e 4f 50 51 52 5e cc cd ce cf d0\n"
     "d1 e5 53 54 55 56 57 58 59 5a d2 d3 d4 5b d6 d7\n"
     "d8 d9 da db dc dd de df e0 e1 e2 e3 e4 5d e6 e7\n"
     "7b 41 42 43 44 45 46 47 48 49 e8 e9 ea eb ec ed\n"
     "7d 4a 4b 4c 4d 4e 4f 50 51 52 ee ef f0 f1 f2 f3\n"
     "5c 9f 53 54 55 56 57 58 59 5a f4 f5 f6 f7 f8 f9\n"
     "30 31 32 33 34 35 36 37 38 39 fa fb fc fd fe ff\n"},
    {"ebcdic_lcase",
     {.ebcdic = true, .lcase = true},
     "00 01 02 03 37 2d 2e 2f 16 05 25 0b 0c 0d 0e 0f\n"
     "10 11 12 13 3c 3d 32 26 18 19 3f 27 1c 1d 1e 1f\n"
     "40 5a 7f 7b 5b 6c 50 7d 4d 5d 5c 4e 6b 60 4b 61\n"
     "f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 7a 5e 4c 7e 6e 6f\n"
     "7c 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96\n"
     "97 98 99 a2 a3 a4 a5 a6 a7 a8 a9 ad e0 bd 9a 6d\n"
     "79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96\n"
     "97 98 99 a2 a3 a4 a5 a6 a7 a8 a9 c0 4f d0 5f 07\n"
     "20 21 22 23 24 15 06 17 28 29 2a 2b 2c 09 0a 1b\n"
     "30 31 1a 33 34 35 36 08 38 39 3a 3b 04 14 3e e1\n"
     "41 42 43 44 45 46 47 48 49 51 52 53 54 55 56 57\n"
     "58 59 62 63 64 65 66 67 68 69 70 71 72 73 74 75\n"
     "76 77 78 80 8a 8b 8c 8d 8e 8f 90 6a 9b 9c 9d 9e\n"
     "9f a0 aa ab ac 4a ae af b0 b1 b2 b3 b4 b5 b6 b7\n"
     "b8 b9 ba bb bc a1 be bf ca cb cc cd ce cf da db\n"
     "dc dd de df ea eb ec ed ee ef fa fb fc fd fe ff\n"},
    {"ebcdic_ucase",
     {.ebcdic = true, .ucase = true},
     "00 01 02 03 37 2d 2e 2f 16 05 25 0b 0c 0d 0e 0f\n"
     "10 11 12 13 3c 3d 32 26 18 19 3f 27 1c 1d 1e 1f\n"
     "40 5a 7f 7b 5b 6c 50 7d 4d 5d 5c 4e 6b 60 4b 61\n"
     "f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 7a 5e 4c 7e 6e 6f\n"
     "7c c1 c2 c3 c4 c5 c6 c7 c8 c9 d1 d2 d3 d4 d5 d6\n"
     "d7 d8 d9 e2 e3 e4 e5 e6 e7 e8 e9 ad e0 bd 9a 6d\n"
     "79 c1 c2 c3 c4 c5 c6 c7 c8 c9 d1 d2 d3 d4 d5 d6\n"
     "d7 d8 d9 e2 e3 e4 e5 e6 e7 e8 e9 c0 4f d0 5f 07\n"
     "20 21 22 23 24 15 06 17 28 29 2a 2b 2c 09 0a 1b\n"
     "30 31 1a 33 34 35 36 08 38 39 3a 3b 04 14 3e e1\n"
     "41 42 43 44 45 46 47 48 49 51 52 53 54 55 56 57\n"
     "58 59 62 63 64 65 66 67 68 69 70 71 72 73 74 75\n"
     "76 77 78 80 8a 8b 8c 8d 8e 8f 90 6a 9b 9c 9d 9e\n"
     "9f a0 aa ab ac 4a ae af b0 b1 b2 b3 b4 b5 b6 b7\n"
     "b8 b9 ba bb bc a1 be bf ca cb cc cd ce cf da db\n"
     "dc dd de df ea eb ec ed ee ef fa fb fc fd fe ff\n"},
    {"ibm_lcase",
     {.ibm = true, .lcase = true},
     "00 01 02 03 37 2d 2e 2f 16 05 25 0b 0c 0d 0e 0f\n"
     "10 11 12 13 3c 3d 32 26 18 19 3f 27 1c 1d 1e 1f\n"
     "40 5a 7f 7b 5b 6c 50 7d 4d 5d 5c 4e 6b 60 4b 61\n"
     "f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 7a 5e 4c 7e 6e 6f\n"
     "7c 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96\n"
     "97 98 99 a2 a3 a4 a5 a6 a7 a8 a9 ad e0 bd 5f 6d\n"
     "79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96\n"
     "97 98 99 a2 a3 a4 a5 a6 a7 a8 a9 c0 4f d0 a1 07\n"
     "20 21 22 23 24 15 06 17 28 29 2a 2b 2c 09 0a 1b\n"
     "30 31 1a 33 34 35 36 08 38 39 3a 3b 04 14 3e e1\n"
     "41 42 43 44 45 46 47 48 49 51 52 53 54 55 56 57\n"
     "58 59 62 63 64 65 66 67 68 69 70 71 72 73 74 75\n"
     "76 77 78 80 8a 8b 8c 8d 8e 8f 90 9a 9b 9c 9d 9e\n"
     "9f a0 aa ab ac ad ae af b0 b1 b2 b3 b4 b5 b6 b7\n"
     "b8 b9 ba bb bc bd be bf ca cb cc cd ce cf da db\n"
     "dc dd de df ea eb ec ed ee ef fa fb fc fd fe ff\n"},
    {"ibm_ucase",
     {.ibm = true, .ucase = true},
     "00 01 02 03 37 2d 2e 2f 16 05 25 0b 0c 0d 0e 0f\n"
     "10 11 12 13 3c 3d 32 26 18 19 3f 27 1c 1d 1e 1f\n"
     "40 5a 7f 7b 5b 6c 50 7d 4d 5d 5c 4e 6b 60 4b 61\n"
     "f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 7a 5e 4c 7e 6e 6f\n"
     "7c c1 c2 c3 c4 c5 c6 c7 c8 c9 d1 d2 d3 d4 d5 d6\n"
     "d7 d8 d9 e2 e3 e4 e5 e6 e7 e8 e9 ad e0 bd 5f 6d\n"
     "79 c1 c2 c3 c4 c5 c6 c7 c8 c9 d1 d2 d3 d4 d5 d6\n"
     "d7 d8 d9 e2 e3 e4 e5 e6 e7 e8 e9 c0 4f d0 a1 07\n"
     "20 21 22 23 24 15 06 17 28 29 2a 2b 2c 09 0a 1b\n"
     "30 31 1a 33 34 35 36 08 38 39 3a 3b 04 14 3e e1\n"
     "41 42 43 44 45 46 47 48 49 51 52 53 54 55 56 57\n"
     "58 59 62 63 64 65 66 67 68 69 70 71 72 73 74 75\n"
     "76 77 78 80 8a 8b 8c 8d 8e 8f 90 9a 9b 9c 9d 9e\n"
     "9f a0 aa ab ac ad ae af b0 b1 b2 b3 b4 b5 b6 b7\n"
     "b8 b9 ba bb bc bd be bf ca cb cc cd ce cf da db\n"
     "dc dd de df ea eb ec ed ee ef fa fb fc fd fe ff\n"},
};

class TranslateGolden : public ::testing::TestWithParam<Golden> {};

TEST_P(TranslateGolden, TableMatchesGnuDdForEveryByte) {
  const Golden& golden = GetParam();
  const Converter converter(golden.conv, 0);
  ASSERT_TRUE(converter.translates());
  const auto expected = parse_table(golden.table);
  for (unsigned i = 0; i < 256; ++i) {
    EXPECT_EQ(converter.table()[i], expected[i]) << "input byte 0x" << std::hex << i;
  }
}

TEST_P(TranslateGolden, TranslateRewritesEveryByteInPlace) {
  const Golden& golden = GetParam();
  const Converter converter(golden.conv, 0);
  Bytes data(256);
  for (unsigned i = 0; i < 256; ++i) data[i] = static_cast<unsigned char>(i);
  converter.translate(data);
  const auto expected = parse_table(golden.table);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), expected.begin()));
}

TEST_P(TranslateGolden, TranslateAgreesWithTheTableAtEveryLengthAndAlignment) {
  // translate() may take a vectorised path (lcase, ucase): its wide body
  // and its tail must both agree with the table, wherever the span starts.
  const Golden& golden = GetParam();
  const Converter converter(golden.conv, 0);
  Bytes pattern(300);
  for (std::size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<unsigned char>(i * 37 + 11);
  for (std::size_t start = 0; start < 33; ++start) {
    for (std::size_t length = 0; start + length <= pattern.size(); length += 7) {
      Bytes data = pattern;
      converter.translate(std::span<unsigned char>(data).subspan(start, length));
      for (std::size_t i = 0; i < data.size(); ++i) {
        const bool inside = i >= start && i < start + length;
        const unsigned char want = inside ? converter.table()[pattern[i]] : pattern[i];
        ASSERT_EQ(data[i], want) << "start " << start << " length " << length << " index " << i;
      }
    }
  }
}

TEST_P(TranslateGolden, CbsAndTheImpliedRecordBitsDoNotChangeTheTable) {
  Conversions conv = GetParam().conv;
  conv.unblock = conv.ascii;
  conv.block = conv.ebcdic || conv.ibm;
  const Converter plain(GetParam().conv, 0);
  const Converter with_cbs(conv, 80);
  EXPECT_EQ(plain.table(), with_cbs.table());
}

INSTANTIATE_TEST_SUITE_P(Convert, TranslateGolden, ::testing::ValuesIn(kGoldens),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(Convert, TranslatesOnlyForCharacterConversions) {
  EXPECT_FALSE(Converter(Conversions{}, 0).translates());
  EXPECT_FALSE(Converter(Conversions{.block = true}, 8).translates());
  EXPECT_FALSE(Converter(Conversions{.swab = true, .sync = true}, 0).translates());
  EXPECT_TRUE(Converter(Conversions{.lcase = true}, 0).translates());
}

TEST(Convert, TranslateOfAnEmptySpanIsHarmless) {
  const Converter converter(Conversions{.ucase = true}, 0);
  converter.translate({});
}

// ---------------------------------------------------------------------------
// swab. Expected outputs come from GNU dd fed through a pipe in pieces, e.g.
//   (printf abc; sleep 0.2; printf defg) | dd conv=swab | od -c

TEST(Convert, SwabPairsBytesAcrossAnOddRead) {
  const Conversions conv{.swab = true};
  EXPECT_EQ(run(conv, 0, 512, {"abc", "defg"}).output, "badcfeg");
  EXPECT_EQ(run(conv, 0, 512, {"abc", "defgh"}).output, "badcfehg");
  EXPECT_EQ(run(conv, 0, 512, {"abc", "d", "efg"}).output, "badcfeg");
}

TEST(Convert, SwabCarriesThroughOddFullReadsAndSmallObs) {
  const Conversions conv{.swab = true};
  // printf abcdefghi | dd conv=swab ibs=3 obs=2
  const auto result = run(conv, 0, 2, {"abc", "def", "ghi"});
  EXPECT_EQ(result.output, "badcfehgi");
  EXPECT_EQ(result.blocks, (std::vector<std::string>{"ba", "dc", "fe", "hg"}));
  EXPECT_EQ(result.final_block, "i");
  // printf abcdefgh | dd conv=swab ibs=1
  EXPECT_EQ(run(conv, 0, 512, {"a", "b", "c", "d", "e", "f", "g", "h"}).output, "badcfehg");
}

TEST(Convert, SwabSwapsLongReadsWordAtATime) {
  std::string input;
  std::string expected;
  for (int i = 0; i < 1000; ++i) {
    const char a = static_cast<char>('a' + i % 26);
    const char b = static_cast<char>('A' + i % 26);
    input += {a, b};
    expected += {b, a};
  }
  const Conversions conv{.swab = true};
  EXPECT_EQ(run(conv, 0, 512, {input}).output, expected);
  // The same stream with every read boundary moved by one byte.
  EXPECT_EQ(run(conv, 0, 64, {input.substr(0, 1), input.substr(1, 999), input.substr(1000)}).output, expected);
}

TEST(Convert, SwabHoldsTheOddByteUntilFinish) {
  Converter converter(Conversions{.swab = true}, 0);
  RecordingSink sink;
  Bytes obuf(512);
  OutputBlocker out(obuf, sink);
  Bytes read = bytes_of("xyz");
  ASSERT_TRUE(converter.convert(read, out));
  EXPECT_EQ(text_of(out.pending()), "yx");
  Bytes empty;
  ASSERT_TRUE(converter.convert(empty, out));
  EXPECT_EQ(text_of(out.pending()), "yx");
  ASSERT_TRUE(converter.finish(out));
  // printf xyz | dd conv=swab: the last odd byte goes out as is.
  EXPECT_EQ(text_of(out.pending()), "yxz");
}

TEST(Convert, SwabOfASingleByteIsThatByte) { EXPECT_EQ(run(Conversions{.swab = true}, 0, 512, {"a"}).output, "a"); }

TEST(Convert, SwabSwapsTheStreamAfterSyncPadding) {
  // (printf abc; sleep .2; printf de) | dd conv=swab,sync ibs=5
  const auto result = run(Conversions{.swab = true, .sync = true}, 0, 512, {"abc", "de"}, 5);
  EXPECT_EQ(result.output, std::string("ba\0cd\0\0e\0\0", 10));
}

TEST(Convert, SwabRunsBeforeBlock) {
  // printf 'ab\ncd\n' | dd conv=swab,block cbs=4
  EXPECT_EQ(run(Conversions{.block = true, .swab = true}, 4, 512, {"ab\ncd\n"}).output, "bac     d   ");
  // printf abc | dd conv=swab,block cbs=4: the held byte is still blocked.
  EXPECT_EQ(run(Conversions{.block = true, .swab = true}, 4, 512, {"abc"}).output, "bac ");
}

TEST(Convert, SwabRunsBeforeUnblock) {
  // printf 'ab  cd ' | dd conv=swab,unblock cbs=3
  EXPECT_EQ(run(Conversions{.unblock = true, .swab = true}, 3, 512, {"ab  cd "}).output, "ba\n dc\n\n");
  // printf abc | dd conv=swab,unblock cbs=2
  EXPECT_EQ(run(Conversions{.unblock = true, .swab = true}, 2, 512, {"abc"}).output, "ba\nc\n");
}

TEST(Convert, SwabAppliesAfterTranslation) {
  // printf 'ab\ncd\n' | dd conv=swab,ucase
  EXPECT_EQ(run(Conversions{.ucase = true, .swab = true}, 0, 512, {"ab\ncd\n"}).output, "BAC\n\nD");
}

// ---------------------------------------------------------------------------
// block. Expected outputs from e.g. printf 'abcd\n\nab' | dd conv=block cbs=4

TEST(Convert, BlockPadsEachLineToCbsWithSpaces) {
  const auto result = run(Conversions{.block = true}, 4, 512, {"abcd\n\nab"});
  EXPECT_EQ(result.output, "abcd    ab  ");
  EXPECT_EQ(result.truncated, 0);
}

TEST(Convert, BlockTruncatesLongLinesCountingEachOnce) {
  const auto result = run(Conversions{.block = true}, 4, 512, {"abcdefg\nabcdefghij\nx\n"});
  EXPECT_EQ(result.output, "abcdabcdx   ");
  EXPECT_EQ(result.truncated, 2);
}

TEST(Convert, BlockCountsATruncatedLastLineWithoutNewline) {
  auto result = run(Conversions{.block = true}, 4, 512, {"abcdefg"});
  EXPECT_EQ(result.output, "abcd");
  EXPECT_EQ(result.truncated, 1);
  result = run(Conversions{.block = true}, 4, 512, {"abcde"});
  EXPECT_EQ(result.output, "abcd");
  EXPECT_EQ(result.truncated, 1);
}

TEST(Convert, BlockLeavesALastLineOfExactlyCbsAlone) {
  const auto result = run(Conversions{.block = true}, 4, 512, {"abcd"});
  EXPECT_EQ(result.output, "abcd");
  EXPECT_EQ(result.truncated, 0);
}

TEST(Convert, BlockPadsALastLineWithoutNewlineAtFinish) {
  Converter converter(Conversions{.block = true}, 5);
  RecordingSink sink;
  Bytes obuf(512);
  OutputBlocker out(obuf, sink);
  Bytes read = bytes_of("ab");
  ASSERT_TRUE(converter.convert(read, out));
  EXPECT_EQ(text_of(out.pending()), "ab");
  ASSERT_TRUE(converter.finish(out));
  EXPECT_EQ(text_of(out.pending()), "ab   ");
}

TEST(Convert, BlockOfEmptyInputIsEmptyAndABareNewlineIsABlankRecord) {
  EXPECT_EQ(run(Conversions{.block = true}, 4, 512, {}).output, "");
  EXPECT_EQ(run(Conversions{.block = true}, 3, 512, {"\n"}).output, "   ");
}

TEST(Convert, BlockFollowsLinesAcrossReads) {
  // (printf ab; sleep .2; printf 'c\nde'; sleep .2; printf fgh; sleep .2;
  //  printf 'ij\n') | dd conv=block cbs=4
  const auto result = run(Conversions{.block = true}, 4, 512, {"ab", "c\nde", "fgh", "ij\n"});
  EXPECT_EQ(result.output, "abc defg");
  EXPECT_EQ(result.truncated, 1);
}

TEST(Convert, BlockCountsALineTruncatedOverManyReadsOnce) {
  const auto result = run(Conversions{.block = true}, 2, 512, {"abc", "def", "g", "", "h\nij"});
  EXPECT_EQ(result.output, "abij");
  EXPECT_EQ(result.truncated, 1);
}

TEST(Convert, BlockWithCbsLargerThanObsSpreadsARecordOverBlocks) {
  // printf 'ab\n' | dd conv=block cbs=10 obs=4
  const auto result = run(Conversions{.block = true}, 10, 4, {"ab\n"});
  EXPECT_EQ(result.blocks, (std::vector<std::string>{"ab  ", "    "}));
  EXPECT_EQ(result.final_block, "  ");
}

TEST(Convert, BlockWithCbsSmallerThanObsPacksRecordsIntoBlocks) {
  const auto result = run(Conversions{.block = true}, 3, 8, {"a\nbb\nccc\ndddd\ne"});
  // printf 'a\nbb\nccc\ndddd\ne' | dd conv=block cbs=3 obs=8
  EXPECT_EQ(result.blocks, (std::vector<std::string>{"a  bb cc"}));
  EXPECT_EQ(result.final_block, "cddde  ");
  EXPECT_EQ(result.truncated, 1);
}

TEST(Convert, EbcdicBlockPadsWithTheEbcdicSpace) {
  // printf 'ab\ncdefgh\nij' | dd conv=ebcdic cbs=4 | od -An -tx1
  for (const Conversions conv : {Conversions{.ebcdic = true, .block = true}, Conversions{.ibm = true, .block = true},
                                 Conversions{.ebcdic = true, .block = true, .ucase = true}}) {
    const auto result = run(conv, 4, 512, {"ab\ncdefgh\nij"});
    const bool upper = conv.ucase;
    EXPECT_EQ(hex(result.output),
              upper ? "c1 c2 40 40 c3 c4 c5 c6 c9 d1 40 40" : "81 82 40 40 83 84 85 86 89 91 40 40");
    EXPECT_EQ(result.truncated, 1);
  }
}

TEST(Convert, CaseConversionKeepsPlainSpacePadding) {
  // printf 'AbC\n' | dd conv=lcase,block cbs=5
  EXPECT_EQ(run(Conversions{.block = true, .lcase = true}, 5, 512, {"AbC\n"}).output, "abc  ");
}

TEST(Convert, RecordConversionsNeedCbs) {
  // Without cbs= GNU clears block/unblock: conv=ebcdic only translates.
  EXPECT_EQ(run(Conversions{.block = true}, 0, 512, {"ab\ncd"}).output, "ab\ncd");
  EXPECT_EQ(run(Conversions{.unblock = true}, 0, 512, {"ab  "}).output, "ab  ");
}

// ---------------------------------------------------------------------------
// unblock. Expected outputs from e.g. printf 'ab  c   ef\n g  ' |
//   dd conv=unblock cbs=4

TEST(Convert, UnblockStripsTrailingSpacesAndAppendsNewlines) {
  EXPECT_EQ(run(Conversions{.unblock = true}, 4, 512, {"ab  c   ef\n g  "}).output, "ab\nc\nef\n\ng\n");
}

TEST(Convert, UnblockStripsTheLastPartialRecordToo) {
  const Conversions conv{.unblock = true};
  EXPECT_EQ(run(conv, 5, 512, {"abcdef  "}).output, "abcde\nf\n");
  EXPECT_EQ(run(conv, 5, 512, {"abcdef "}).output, "abcde\nf\n");
  EXPECT_EQ(run(conv, 5, 512, {"   "}).output, "\n");
}

TEST(Convert, UnblockAddsNoExtraNewlineAfterAWholeRecord) {
  const Conversions conv{.unblock = true};
  EXPECT_EQ(run(conv, 5, 512, {"abcde"}).output, "abcde\n");
  EXPECT_EQ(run(conv, 5, 512, {"     "}).output, "\n");
  EXPECT_EQ(run(conv, 5, 512, {}).output, "");
}

TEST(Convert, UnblockKeepsInteriorSpacesSplitAcrossReads) {
  const Conversions conv{.unblock = true};
  // (printf 'a '; sleep .2; printf '  b'; sleep .2; printf ' ') |
  //   dd conv=unblock cbs=6
  EXPECT_EQ(run(conv, 6, 512, {"a ", "  b", " "}).output, "a   b\n");
  // (printf 'a  '; sleep .2; printf '  ') | dd conv=unblock cbs=5
  EXPECT_EQ(run(conv, 5, 512, {"a  ", "  "}).output, "a\n");
  // (printf 'a  '; sleep .2; printf '  x  y') | dd conv=unblock cbs=5
  EXPECT_EQ(run(conv, 5, 512, {"a  ", "  x  y"}).output, "a\nx  y\n");
}

TEST(Convert, UnblockWithCbsLargerThanObs) {
  // printf 'abcdefghijkl   m' | dd conv=unblock cbs=8 obs=3
  const auto result = run(Conversions{.unblock = true}, 8, 3, {"abcdefghijkl   m"});
  EXPECT_EQ(result.output, "abcdefgh\nijkl   m\n");
  EXPECT_EQ(result.blocks, (std::vector<std::string>{"abc", "def", "gh\n", "ijk", "l  ", " m\n"}));
  EXPECT_EQ(result.final_block, "");
}

TEST(Convert, AsciiUnblockStripsSpacesAfterTranslation) {
  // printf '\x81\x82\x40\x40\x83\x20\x40\x40\x85\x86\x25\x40\x87' |
  //   dd conv=ascii cbs=4 | od -An -tx1
  // EBCDIC 0x40 becomes ' ' and is stripped; 0x20 becomes 0x80 and stays;
  // the translated newline is just another byte.
  const auto result = run(Conversions{.ascii = true, .unblock = true}, 4, 512,
                          {"\x81\x82\x40\x40\x83\x20\x40\x40\x85\x86\x25\x40\x87"});
  EXPECT_EQ(hex(result.output), "61 62 0a 63 80 0a 65 66 0a 0a 67 0a");
}

// ---------------------------------------------------------------------------
// conv=sync padding. Expected outputs from e.g.
//   printf a | dd conv=ebcdic,sync cbs=4 ibs=8 | od -An -tx1

TEST(Convert, SyncPadsWithNulWithoutARecordConversion) {
  EXPECT_EQ(Converter(Conversions{.sync = true}, 0).sync_pad_byte(), 0);
  EXPECT_EQ(Converter(Conversions{.ebcdic = true, .sync = true}, 0).sync_pad_byte(), 0);
  EXPECT_EQ(Converter(Conversions{.lcase = true, .sync = true}, 16).sync_pad_byte(), 0);
  // cbs= without block/unblock, and block without cbs=, are not records.
  EXPECT_EQ(Converter(Conversions{.block = true, .sync = true}, 0).sync_pad_byte(), 0);
  EXPECT_EQ(hex(run(Conversions{.ucase = true, .sync = true}, 0, 512, {"a\n"}, 8).output), "41 0a 00 00 00 00 00 00");
  EXPECT_EQ(hex(run(Conversions{.ebcdic = true, .sync = true}, 0, 512, {"\x81"}, 8).output), "21 00 00 00 00 00 00 00");
}

TEST(Convert, SyncPadsWithAnAsciiSpaceForRecordConversions) {
  EXPECT_EQ(Converter(Conversions{.block = true, .sync = true}, 4).sync_pad_byte(), ' ');
  EXPECT_EQ(Converter(Conversions{.unblock = true, .sync = true}, 4).sync_pad_byte(), ' ');
  EXPECT_EQ(Converter(Conversions{.ascii = true, .unblock = true}, 4).sync_pad_byte(), ' ');
  EXPECT_EQ(Converter(Conversions{.ebcdic = true, .block = true}, 4).sync_pad_byte(), ' ');
  // printf 'a\n' | dd conv=block,sync cbs=4 ibs=8: the six pad spaces form
  // an over-long last line.
  auto result = run(Conversions{.block = true, .sync = true}, 4, 512, {"a\n"}, 8);
  EXPECT_EQ(result.output, "a       ");
  EXPECT_EQ(result.truncated, 1);
  // printf a | dd conv=unblock,sync cbs=4 ibs=8
  EXPECT_EQ(run(Conversions{.unblock = true, .sync = true}, 4, 512, {"a"}, 8).output, "a\n\n");
}

TEST(Convert, SyncPadIsTranslatedLikeInput) {
  // printf a | dd conv=ebcdic,sync cbs=4 ibs=8
  auto result = run(Conversions{.ebcdic = true, .block = true, .sync = true}, 4, 512, {"a"}, 8);
  EXPECT_EQ(hex(result.output), "81 40 40 40");
  EXPECT_EQ(result.truncated, 1);
  // printf 'a\n' | dd conv=ibm,sync cbs=4 ibs=8
  result = run(Conversions{.ibm = true, .block = true, .sync = true}, 4, 512, {"a\n"}, 8);
  EXPECT_EQ(hex(result.output), "81 40 40 40 40 40 40 40");
  EXPECT_EQ(result.truncated, 1);
  // printf '\x81' | dd conv=ascii,sync cbs=4 ibs=8: the pad becomes 0x80,
  // which unblock does not strip.
  result = run(Conversions{.ascii = true, .unblock = true, .sync = true}, 4, 512, {"\x81"}, 8);
  EXPECT_EQ(hex(result.output), "61 80 80 80 0a 80 80 80 80 0a");
}

// ---------------------------------------------------------------------------
// OutputBlocker.

TEST(OutputBlocker, FlushesExactlyObsBytesPerBlock) {
  RecordingSink sink;
  Bytes obuf(4);
  OutputBlocker out(obuf, sink);
  const Bytes ten = bytes_of("0123456789");
  ASSERT_TRUE(out.put(ten));
  EXPECT_EQ(sink.blocks, (std::vector<std::string>{"0123", "4567"}));
  EXPECT_EQ(text_of(out.pending()), "89");
  ASSERT_TRUE(out.put(bytes_of("ab")));
  EXPECT_EQ(sink.blocks.back(), "89ab");
  EXPECT_TRUE(out.pending().empty());
  ASSERT_TRUE(out.put({}));
  EXPECT_EQ(sink.calls, 3u);
}

TEST(OutputBlocker, PutByteAndPutRepeatedFlushToo) {
  RecordingSink sink;
  Bytes obuf(3);
  OutputBlocker out(obuf, sink);
  ASSERT_TRUE(out.put_byte('x'));
  ASSERT_TRUE(out.put_repeated('-', 7));
  ASSERT_TRUE(out.put_byte('y'));
  ASSERT_TRUE(out.put_repeated('z', 0));
  EXPECT_EQ(sink.blocks, (std::vector<std::string>{"x--", "---", "--y"}));
  EXPECT_TRUE(out.pending().empty());
}

TEST(OutputBlocker, StopsAtTheFirstFailedFlush) {
  RecordingSink sink(2);
  Bytes obuf(4);
  OutputBlocker out(obuf, sink);
  EXPECT_FALSE(out.put(bytes_of("0123456789abcdef")));
  EXPECT_EQ(sink.calls, 2u);
  EXPECT_EQ(sink.blocks, (std::vector<std::string>{"0123"}));
}

TEST(OutputBlocker, PutByteAndPutRepeatedReportAFailedFlush) {
  RecordingSink sink(1);
  Bytes obuf(2);
  OutputBlocker out(obuf, sink);
  ASSERT_TRUE(out.put_byte('a'));
  EXPECT_FALSE(out.put_byte('b'));
  RecordingSink sink2(1);
  OutputBlocker out2(obuf, sink2);
  EXPECT_FALSE(out2.put_repeated(' ', 100));
  EXPECT_EQ(sink2.calls, 1u);
}

TEST(OutputBlocker, ClearDropsPendingBytes) {
  RecordingSink sink;
  Bytes obuf(4);
  OutputBlocker out(obuf, sink);
  ASSERT_TRUE(out.put(bytes_of("ab")));
  out.clear();
  EXPECT_TRUE(out.pending().empty());
  ASSERT_TRUE(out.put(bytes_of("cdef")));
  EXPECT_EQ(sink.blocks, (std::vector<std::string>{"cdef"}));
}

TEST(Convert, ConvertAndFinishReportAFailedFlush) {
  Bytes obuf(2);
  {
    RecordingSink sink(1);
    OutputBlocker out(obuf, sink);
    Converter converter(Conversions{.block = true}, 4);
    Bytes read = bytes_of("a\nb\n");
    EXPECT_FALSE(converter.convert(read, out));
    EXPECT_EQ(sink.calls, 1u);
  }
  {
    RecordingSink sink(1);
    OutputBlocker out(obuf, sink);
    Converter converter(Conversions{.block = true}, 4);
    Bytes read = bytes_of("a");
    ASSERT_TRUE(converter.convert(read, out));
    EXPECT_FALSE(converter.finish(out));
  }
  {
    RecordingSink sink(1);
    OutputBlocker out(obuf, sink);
    Converter converter(Conversions{.unblock = true}, 2);
    Bytes read = bytes_of("abcd");
    EXPECT_FALSE(converter.convert(read, out));
    EXPECT_EQ(sink.calls, 1u);
  }
  {
    RecordingSink sink(1);
    OutputBlocker out(obuf, sink);
    Converter converter(Conversions{.swab = true}, 0);
    Bytes read = bytes_of("abc");
    EXPECT_FALSE(converter.convert(read, out));
  }
}

}  // namespace
}  // namespace ddtime
