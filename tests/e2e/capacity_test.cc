// SPDX-License-Identifier: GPL-3.0-or-later
// --capacity on regular files, as a user meets it before any device: what
// each mode takes and refuses (quick's lone probe takes no queue and no
// chart; full's passes take --iodepth, --engine, --timeline and --svg,
// and it cannot save every block, so it refuses --keep), and full's
// passes over a file that holds what it says. The devices that lie are
// tests/fault/capacity_fault_test.cc's.
#include <string>
#include <vector>

#include "e2e/harness.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

using support::Json;
using support::parse_json;

class Capacity : public DdTest {};

TEST_F(Capacity, EachModeRefusesWhatItDoesNotTakeBeforeAnythingIsWritten) {
  const std::string held(4 << 20, 'h');
  write_file("card", held);
  struct Refused {
    std::vector<std::string> args;
    std::string words;
  };
  const std::vector<Refused> cases = {
      {{"--capacity=full", "of=card", "--keep", "--force"},
       "ddtime: --keep saves the blocks the quick probe overwrites; --capacity=full writes every block, which it "
       "cannot save: copy what the device holds first\n"},
      {{"--capacity", "of=card", "--iodepth=4", "--force"},
       "ddtime: --capacity probes of= with stamps of its own: it does not combine with --iodepth or --engine "
       "(--capacity=full's passes take them)\n"},
      {{"--capacity=quick", "of=card", "--timeline", "--force"},
       "it does not combine with --timeline (--capacity=full's passes take it)\n"},
      {{"--capacity", "of=card", "--svg=c.svg", "--force"},
       "it does not combine with --svg (--capacity=full's passes take it)\n"},
      {{"--capacity=full", "of=card", "--csv=c.csv", "--force"}, "it does not combine with --csv\n"},
      {{"--capacity=full", "of=card", "--jobs=2", "--force"}, "it does not combine with --jobs\n"},
      {{"--capacity=full", "of=card", "--latency", "--force"}, "it does not combine with --latency\n"},
      {{"--capacity=slow", "of=card", "--force"}, "Valid arguments are: quick, full\n"},
      {{"--capacity=full", "of=card"}, "--force"},
  };
  for (const Refused& refused : cases) {
    const Result r = ddtime(refused.args);
    ASSERT_STATUS(r, "exit 1");
    EXPECT_NE(r.err.find(refused.words), std::string::npos) << r.err;
    EXPECT_EQ(read_file("card"), held);
  }
}

// Full's passes over a file at a depth and in blocks of bs=, seek= kept:
// every block of the range stamped, none outside it, the file's size
// unchanged, and both passes in the JSON and the chart.
TEST_F(Capacity, FullWritesEveryBlockOfTheRangeAndNothingOutsideIt) {
  write_file("card", std::string(3 << 20, 'h'));
  const Result r = ddtime({"--capacity=full", "of=card", "bs=64k", "seek=2", "count=40", "--iodepth=8", "--force",
                           "--timeline=10ms", "--json=c.json", "--svg=c.svg"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("holds what it reports, 3.1 MB: the 40 blocks written read back as written\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("40 blocks of 65536 B from offset 131072 written, read back and compared"), std::string::npos)
      << r.err;
  const std::string after = read_file("card");
  ASSERT_EQ(after.size(), std::size_t{3} << 20);
  EXPECT_EQ(after.substr(0, 131072), std::string(131072, 'h'));
  EXPECT_EQ(after.substr(131072 + 40 * 65536), std::string(after.size() - 131072 - 40 * 65536, 'h'));
  EXPECT_EQ(after.substr(131072, 40 * 65536).find("hhhhhhhh"), std::string::npos) << "every block stamped";
  const Json doc = parse_json(read_file("c.json"));
  EXPECT_EQ(doc["capacity"]["mode"].string(), "full");
  EXPECT_EQ(doc["capacity"]["passes"][0]["iodepth"].integer(), 8);
  EXPECT_EQ(doc["capacity"]["passes"][1]["bytes_in"].integer(), 40 * 65536);
  EXPECT_NE(read_file("c.svg").find("</svg>"), std::string::npos);
}

}  // namespace
}  // namespace ddtime::e2e
