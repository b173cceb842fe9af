// SPDX-License-Identifier: GPL-3.0-or-later
// file_kind: a file's kind found once, what follows from it, and the one
// place its size is worked out, over a scripted OS.
#include "system/file_kind.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <vector>

#include "fakes/fake_os.h"

namespace ddtime {
namespace {

using testing::FakeOs;

FakeOs two_files() { return testing::named_files(std::vector<unsigned char>(1000, 'i'), {}); }

struct stat block_device() {
  struct stat status {};
  status.st_mode = S_IFBLK | 0660;
  status.st_rdev = makedev(8, 0);
  return status;
}

TEST(FindKind, ANamedFileNotThereYetIsAbsent) {
  FakeOs os = two_files();
  EXPECT_EQ(find_kind(os, std::string("missing"), 0), FileKind::kAbsent);
  EXPECT_EQ(find_kind(os, std::string("in"), 0), FileKind::kRegular);
}

TEST(FindKind, AStandardStreamIsItsDescriptors) {
  FakeOs os;
  os.input_seekable = false;  // the fake's fd 0 is then a pipe
  EXPECT_EQ(find_kind(os, std::nullopt, 0), FileKind::kPipe);
  os.fd_stats[1] = block_device();
  EXPECT_EQ(find_kind(os, std::nullopt, 1), FileKind::kBlock);
}

TEST(OnceOpened, AnAbsentOutputIsTheRegularFileItsOpenMade) {
  const FileKinds kinds = once_opened(FileKinds{FileKind::kPipe, FileKind::kAbsent});
  EXPECT_EQ(kinds.input, FileKind::kPipe);
  EXPECT_EQ(kinds.output, FileKind::kRegular);
  EXPECT_EQ(once_opened(FileKind::kBlock), FileKind::kBlock);
}

TEST(FileSize, ARegularFileHoldsWhatItsStatSays) {
  FakeOs os = two_files();
  EXPECT_EQ(file_size(os, 0, FileKind::kRegular), 1000);
  EXPECT_EQ(file_size(os, std::string("in"), FileKind::kRegular), 1000);
  EXPECT_EQ(os.count_calls("open"), 0u) << "a regular file is stat'ed by name, never opened";
}

TEST(FileSize, ABlockDeviceHoldsWhatTheDeviceSaysWithoutAStat) {
  FakeOs os = two_files();
  os.device_size = 1 << 20;
  os.fd_stats[0] = block_device();
  EXPECT_EQ(file_size(os, 0, FileKind::kBlock), 1 << 20);
  EXPECT_EQ(file_size(os, std::string("in"), FileKind::kBlock), 1 << 20);
  EXPECT_EQ(os.count_calls("open in"), 1u) << "opened by name to ask";
  EXPECT_EQ(os.count_calls("close"), 1u) << "and closed again";
  EXPECT_EQ(os.count_calls("stat"), 0u);
}

TEST(FileSize, ADeviceThatWillNotSayHasNoSize) {
  FakeOs os = two_files();  // block_device_size() fails with ENOTTY
  EXPECT_FALSE(file_size(os, 0, FileKind::kBlock));
}

TEST(FileSize, AnythingButAFileOrADeviceHasNone) {
  FakeOs os = two_files();
  for (const FileKind kind : {FileKind::kPipe, FileKind::kZero, FileKind::kNull, FileKind::kOtherCharacter,
                              FileKind::kAbsent, FileKind::kUnknown}) {
    EXPECT_FALSE(file_size(os, 0, kind));
    EXPECT_FALSE(file_size(os, std::string("in"), kind));
  }
  EXPECT_TRUE(os.calls.empty()) << "nothing is asked of the OS";
}

TEST(FileSize, ARegularFileGoneByNameHasNone) {
  FakeOs os = two_files();
  EXPECT_FALSE(file_size(os, std::string("missing"), FileKind::kRegular));
}

}  // namespace
}  // namespace ddtime
