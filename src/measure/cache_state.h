// SPDX-License-Identifier: GPL-3.0-or-later
// cache_state — the page cache as each run of a session meets it. Before
// a run, --cache=cold drops the cached pages of the input and the output,
// and only theirs (fdatasync and fadvise for a file, BLKFLSBUF for a block
// device); cold-system drops every clean page of the system
// (vm.drop_caches); warm reads the input's bytes once, unmeasured. Then
// mincore says how much of each is resident, so that "read from the
// cache" is never taken for "read from the disk". Through os only; the
// measured window has not opened yet.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "model/plan.h"
#include "model/settings.h"
#include "system/file_kind.h"
#include "system/os.h"

namespace ddtime {

// How much of a file was in the page cache: pages resident of pages.
// resident is absent when the kernel would not say (Os::resident_pages):
// unknown, never taken for 100%.
struct Residency {
  std::optional<std::int64_t> resident = 0;
  std::int64_t pages = 0;
};

struct CacheState {
  std::optional<Residency> input;  // absent: not a file or block device, or not there yet
  std::optional<Residency> output;
};

// A step that failed: its errno, what it was doing, on which file.
struct CacheFailure {
  int err = 0;
  std::string_view doing;  // "drop the cached pages of", "read"
  std::string path;
};

// The name --cache= takes for mode (symbols.h's table).
std::string_view cache_mode_name(CacheMode mode) noexcept;

// Requires: settings name the input (if=), as a session does.
// kinds: the files' as resolve found them; one not there then and opened
// now is the regular file a run made since.
class CacheStateSetter {
 public:
  CacheStateSetter(Os& os, const Settings& settings, FileKinds kinds, CacheMode mode) noexcept
      : os_(os), settings_(settings), kinds_(once_opened(kinds)), mode_(mode) {}

  // Before a run: what the mode asks. err 0 when all went well. stop() is
  // asked between the warm-up's reads: true ends it at once (a SIGINT),
  // with err EINTR.
  CacheFailure prepare(const std::function<bool()>& stop = {});
  // Then: what is resident of the range the run reads (from skip=) and
  // the range it writes (from seek=), count= long or to the file's end.
  CacheState measure();

  // How much of the bytes the copy will read (from skip=, count= of them,
  // or to the end) is resident; absent for anything but a regular file or
  // a block device.
  std::optional<Residency> input_range_residency();

 private:
  CacheFailure drop(const std::string& path, FileKind kind);
  CacheFailure drop_both();  // the input's and the output's, as far as named
  CacheFailure drop_everything();
  CacheFailure warm(const std::string& path, FileKind kind, const std::function<bool()>& stop);

  Os& os_;
  const Settings& settings_;
  FileKinds kinds_;
  CacheMode mode_;
};

}  // namespace ddtime
