// SPDX-License-Identifier: GPL-3.0-or-later
// settings — plain data describing one dd invocation. `operands` fills it in
// from argv; every other module only reads it. No behaviour lives here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace ddtime {

enum class StatusLevel { kDefault, kNone, kNoxfer, kProgress };

// conv= symbols. `ascii` also sets `unblock`, `ebcdic`/`ibm` also set `block`,
// exactly as GNU's symbol table does; block/unblock are cleared when cbs= is
// absent.
struct Conversions {
  bool ascii = false;
  bool ebcdic = false;
  bool ibm = false;
  bool block = false;
  bool unblock = false;
  bool lcase = false;
  bool ucase = false;
  bool sparse = false;
  bool swab = false;
  bool sync = false;
  bool excl = false;
  bool nocreat = false;
  bool notrunc = false;
  bool noerror = false;
  bool fdatasync = false;
  bool fsync = false;
};

// iflag= / oflag= symbols.
struct IoFlags {
  bool append = false;
  bool direct = false;
  bool directory = false;
  bool dsync = false;
  bool sync = false;
  bool fullblock = false;
  bool nonblock = false;
  bool noatime = false;
  bool nocache = false;
  bool noctty = false;
  bool nofollow = false;
  bool count_bytes = false;
  bool skip_bytes = false;
  bool seek_bytes = false;
};

// --units= for the timing report's rate line. The default, IEC and plain
// bytes per second, leaves the SI rate to GNU's summary line, so that a
// script's grep for "[0-9.]* [MG]B/s" finds one rate; kAll adds SI back.
enum class RateUnits { kIecAndBytes, kSi, kIec, kBoth, kBytes, kAll };

// Under which name the program runs: as `dd` it prints exactly what GNU dd
// prints unless an extension asks for more; as anything else (`ddtime`) the
// timing report is on by default.
enum class Invocation { kDd, kDdtime };

// ddtime's own --long options, and what they mean under the name ddtime
// was invoked by. GNU dd knows none of them, so no working script has one.
struct Extensions {
  bool gnu = false;                // --gnu: print only what GNU dd prints
  std::optional<RateUnits> units;  // --units=
  bool split_times = false;        // --split-times
  std::size_t align = 0;           // --align=N; 0: chosen per file
  bool direct = false;             // --direct
  bool progress = false;           // --progress
  // count= came from --size (resolve applies it as count= in bytes), so a
  // message about what count= leaves names --size.
  bool count_from_size = false;

  Invocation invocation = Invocation::kDd;

  // Computed when asked, never stored, so that no settings derived for a
  // row or a pass can carry a stale answer. As dd, ddtime adds nothing
  // unless a report option is named outright (--units, --split-times,
  // --latency: Plan::latency, passed in); as ddtime, the report is on
  // unless --gnu.
  bool timing_report(bool latency) const noexcept {
    return !gnu && (invocation == Invocation::kDdtime || units.has_value() || split_times || latency);
  }
  // Direct-I/O misalignment explained (as ddtime, not --gnu) instead of the
  // kernel's EINVAL, which is all GNU dd says.
  bool actionable_errors() const noexcept { return !gnu && invocation == Invocation::kDdtime; }
};

inline constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();

// records × block + bytes into result; false when it does not fit in 64 bits.
inline bool multiply_add_fits(std::int64_t records, std::int64_t block, std::int64_t bytes,
                              std::int64_t& result) noexcept {
  return !__builtin_mul_overflow(records, block, &result) && !__builtin_add_overflow(result, bytes, &result);
}

struct Settings {
  std::optional<std::string> input_file;   // if=; absent means standard input
  std::optional<std::string> output_file;  // of=; absent means standard output

  std::int64_t ibs = 512;
  std::int64_t obs = 512;
  // bs= was given: one buffer, each read written as is, unless a conversion
  // needs the reblocking copy (GNU's C_TWOBUFS).
  bool bs_given = false;
  std::int64_t cbs = 0;  // 0: not given
  // conv=block or conv=unblock was asked for, directly or through ascii,
  // ebcdic or ibm. Without cbs= the conversion itself is dropped, yet GNU
  // still copies through two buffers.
  bool block_or_unblock_requested = false;

  // skip=/seek=/count= resolved the way GNU resolves them after parsing:
  // whole records of ibs (skip, count) or obs (seek) plus leftover bytes,
  // taking skip_bytes/count_bytes/seek_bytes and the 'B' suffix into account.
  std::int64_t skip_records = 0;
  std::int64_t skip_bytes = 0;
  std::int64_t seek_records = 0;
  std::int64_t seek_bytes = 0;
  std::int64_t max_records = kNoLimit;  // count=; kNoLimit when absent
  std::int64_t max_bytes = 0;

  Conversions conv;
  IoFlags iflag;
  IoFlags oflag;
  StatusLevel status = StatusLevel::kDefault;

  Extensions ext;

  // How of= is cut when it is opened. GNU empties it (O_TRUNC) when seek=
  // has no whole block, else cuts it at the seek offset. A sweep row that
  // counts seek= in blocks of another size keeps the command line's cut
  // (the bytes before seek= are the user's either way).
  enum class OutputCut { kByOperands, kWhole, kAtSeek };
  OutputCut cut = OutputCut::kByOperands;
  bool empties_output() const noexcept {
    return cut == OutputCut::kWhole || (cut == OutputCut::kByOperands && seek_records == 0);
  }

  // The copy needs separate input and output buffers (GNU's C_TWOBUFS):
  // any conversion, or ibs/obs given instead of bs.
  bool two_buffers() const { return !bs_given || block_or_unblock_requested || converts(); }

  // skip=, seek= and count= in bytes; nullopt when they do not fit (or,
  // for count=, when there is none).
  std::optional<std::int64_t> skip_offset() const noexcept { return in_bytes(skip_records, ibs, skip_bytes); }
  std::optional<std::int64_t> seek_offset() const noexcept { return in_bytes(seek_records, obs, seek_bytes); }
  std::optional<std::int64_t> count_in_bytes() const noexcept {
    return max_records == kNoLimit ? std::nullopt : in_bytes(max_records, ibs, max_bytes);
  }

  // GNU warns about a partial read (and suggests iflag=fullblock) only when
  // bs= is given without fullblock and skip, count or direct make block
  // boundaries matter. Worked out where it is read, so that a sweep's row,
  // which changes bs= and count=, cannot carry a stale answer.
  bool partial_read_matters() const {
    return !two_buffers() && !iflag.fullblock &&
           (skip_records != 0 || (max_records > 0 && max_records != kNoLimit) || iflag.direct || oflag.direct);
  }

  static std::optional<std::int64_t> in_bytes(std::int64_t records, std::int64_t block, std::int64_t bytes) noexcept {
    std::int64_t total = 0;
    return multiply_add_fits(records, block, bytes, total) ? std::optional<std::int64_t>(total) : std::nullopt;
  }

  // Some conversion changes the bytes themselves (the engine's convert path).
  bool converts() const {
    return conv.ascii || conv.ebcdic || conv.ibm || conv.block || conv.unblock || conv.lcase || conv.ucase || conv.swab;
  }
};

}  // namespace ddtime
