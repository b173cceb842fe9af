// SPDX-License-Identifier: GPL-3.0-or-later
// Expected messages, their order and exit paths are what GNU dd 9.1 (Debian)
// printed for the same command lines, in C.UTF-8 unless the test says C.
#include "cli/operands.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace ddtime {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

struct Parsed {
  ParseOutcome outcome;
  std::string err;  // everything sent to the diagnostic sink

  const Settings& settings() const { return outcome.settings; }
  bool ran() const { return outcome.action == ParseOutcome::Action::kRun; }
  bool failed() const { return outcome.action == ParseOutcome::Action::kFail; }
  bool printed() const { return outcome.action == ParseOutcome::Action::kPrintAndExit; }
};

Parsed parse(std::initializer_list<std::string_view> args, bool utf8 = true, std::string program = "dd") {
  std::vector<std::string> storage{program};
  for (std::string_view arg : args) storage.emplace_back(arg);
  std::vector<const char*> argv;
  for (const std::string& arg : storage) argv.push_back(arg.c_str());
  argv.push_back(nullptr);

  Parsed run;
  const Diag diag(program, utf8, [&run](std::string_view text) { run.err += text; });
  run.outcome = parse_operands(static_cast<int>(storage.size()), argv.data(), diag);
  return run;
}

std::string try_help(std::string_view program = "dd") {
  return "Try '" + std::string(program) + " --help' for more information.\n";
}

// ---------------------------------------------------------------------------
// Files, sizes and defaults.

TEST(Operands, DefaultsToStandardStreamsAnd512ByteBlocks) {
  const Parsed run = parse({});
  ASSERT_TRUE(run.ran());
  EXPECT_EQ(run.err, "");
  const Settings& s = run.settings();
  EXPECT_FALSE(s.input_file);
  EXPECT_FALSE(s.output_file);
  EXPECT_EQ(s.ibs, 512);
  EXPECT_EQ(s.obs, 512);
  EXPECT_FALSE(s.bs_given);
  EXPECT_EQ(s.cbs, 0);
  EXPECT_EQ(s.max_records, kNoLimit);
  EXPECT_EQ(s.max_bytes, 0);
  EXPECT_EQ(s.status, StatusLevel::kDefault);
  EXPECT_TRUE(s.two_buffers());
  EXPECT_FALSE(s.partial_read_matters());
}

TEST(Operands, ReadsFileNamesVerbatimIncludingEmptyOnes) {
  const Parsed run = parse({"if=a=b", "of="});
  ASSERT_TRUE(run.ran());
  EXPECT_EQ(run.settings().input_file, "a=b");
  EXPECT_EQ(run.settings().output_file, "");
}

TEST(Operands, LetsALaterOperandOverrideAnEarlierOne) {
  const Parsed run = parse({"if=a", "if=b", "ibs=1", "ibs=2", "skip=1B", "skip=3", "status=none", "status=noxfer"});
  ASSERT_TRUE(run.ran());
  EXPECT_EQ(run.settings().input_file, "b");
  EXPECT_EQ(run.settings().ibs, 2);
  EXPECT_EQ(run.settings().skip_records, 3);  // the later skip has no 'B'
  EXPECT_EQ(run.settings().skip_bytes, 0);
  EXPECT_EQ(run.settings().status, StatusLevel::kNoxfer);
}

TEST(Operands, LetsBsOverrideIbsAndObsInAnyOrder) {
  for (const auto& run : {parse({"ibs=100", "obs=200", "bs=7"}), parse({"bs=7", "ibs=100", "obs=200"})}) {
    ASSERT_TRUE(run.ran());
    EXPECT_EQ(run.settings().ibs, 7);
    EXPECT_EQ(run.settings().obs, 7);
    EXPECT_TRUE(run.settings().bs_given);
    EXPECT_FALSE(run.settings().two_buffers());
  }
  const Parsed separate = parse({"ibs=100", "obs=200"});
  EXPECT_EQ(separate.settings().ibs, 100);
  EXPECT_EQ(separate.settings().obs, 200);
  EXPECT_TRUE(separate.settings().two_buffers());
}

TEST(Operands, AcceptsNumbersInEveryGnuSpelling) {
  const Parsed run = parse({"ibs= 5", "obs=+5", "cbs=2x3", "count=1Mx2"});
  ASSERT_TRUE(run.ran()) << run.err;
  EXPECT_EQ(run.settings().ibs, 5);
  EXPECT_EQ(run.settings().obs, 5);
  EXPECT_EQ(run.settings().cbs, 6);
  EXPECT_EQ(run.settings().max_records, 2097152);
}

TEST(Operands, AcceptsHugeBlockSizesAndLeavesTheAllocationToLater) {
  const Parsed run = parse({"bs=9223372036854775806"});
  ASSERT_TRUE(run.ran());
  EXPECT_EQ(run.settings().ibs, kMax - 1);
  EXPECT_TRUE(parse({"cbs=9223372036854775807"}).ran());
  EXPECT_TRUE(parse({"skip=9223372036854775807", "seek=9223372036854775807"}).ran());
}

TEST(Operands, AcceptsCountZero) {
  const Parsed run = parse({"count=0"});
  ASSERT_TRUE(run.ran());
  EXPECT_EQ(run.settings().max_records, 0);
  EXPECT_EQ(run.settings().max_bytes, 0);
}

TEST(Operands, TakesIseekAndOseekAsSkipAndSeek) {
  const Parsed run = parse({"iseek=3", "oseek=4"});
  ASSERT_TRUE(run.ran());
  EXPECT_EQ(run.settings().skip_records, 3);
  EXPECT_EQ(run.settings().seek_records, 4);
}

// ---------------------------------------------------------------------------
// Bad numbers.

TEST(Operands, RejectsAnInvalidNumberWithoutTheHelpHint) {
  const Parsed run = parse({"bs=-5"});
  EXPECT_TRUE(run.failed());
  EXPECT_EQ(run.err, "dd: invalid number: \u2018-5\u2019\n");
  EXPECT_EQ(parse({"skip=-1"}).err, "dd: invalid number: \u2018-1\u2019\n");
  EXPECT_EQ(parse({"count="}).err, "dd: invalid number: \u2018\u2019\n");
  EXPECT_EQ(parse({"bs=5=6"}).err, "dd: invalid number: \u20185=6\u2019\n");
  EXPECT_EQ(parse({"bs=x"}, false).err, "dd: invalid number: 'x'\n");
}

TEST(Operands, RejectsZeroBlockSizes) {
  for (std::string_view arg : {"bs=0", "ibs=0", "obs=0", "cbs=0"}) {
    EXPECT_EQ(parse({arg}).err, "dd: invalid number: \u20180\u2019\n") << arg;
  }
}

TEST(Operands, ReportsOverflowWithTheErrnoText) {
  EXPECT_EQ(parse({"bs=1Z"}).err, "dd: invalid number: \u20181Z\u2019: Value too large for defined data type\n");
  EXPECT_EQ(parse({"bs=9223372036854775807"}).err,
            "dd: invalid number: \u20189223372036854775807\u2019: Value too large for defined data type\n");
  EXPECT_EQ(parse({"skip=9223372036854775808"}).err,
            "dd: invalid number: \u20189223372036854775808\u2019: Value too large for defined data type\n");
  EXPECT_EQ(parse({"count=99999999999999999999y"}).err,
            "dd: invalid number: \u201899999999999999999999y\u2019: Value too large for defined data type\n");
}

TEST(Operands, RangeChecksTheDigitsBeforeJunkAsGnuDoes) {
  EXPECT_EQ(parse({"bs=9223372036854775807y"}).err,
            "dd: invalid number: \u20189223372036854775807y\u2019: Value too large for defined data type\n");
  EXPECT_EQ(parse({"bs=9223372036854775806y"}).err, "dd: invalid number: \u20189223372036854775806y\u2019\n");
  EXPECT_EQ(parse({"skip=9223372036854775807y"}).err, "dd: invalid number: \u20189223372036854775807y\u2019\n");
}

TEST(Operands, WarnsAboutAZeroMultiplierBeforeCheckingTheRange) {
  const Parsed bs = parse({"bs=0x5"});
  EXPECT_TRUE(bs.failed());
  EXPECT_EQ(bs.err,
            "dd: warning: \u20180x\u2019 is a zero multiplier; use \u201800x\u2019 if that is intended\n"
            "dd: invalid number: \u20180x5\u2019\n");

  const Parsed skip = parse({"skip=0x5"});
  EXPECT_TRUE(skip.ran());
  EXPECT_EQ(skip.err, "dd: warning: \u20180x\u2019 is a zero multiplier; use \u201800x\u2019 if that is intended\n");
  EXPECT_EQ(skip.settings().skip_records, 0);

  EXPECT_EQ(parse({"count=0x0"}, false).err, "dd: warning: '0x' is a zero multiplier; use '00x' if that is intended\n");
  EXPECT_EQ(parse({"count=00x5"}).err, "");
}

// ---------------------------------------------------------------------------
// Unknown operands, and the order complaints come in.

TEST(Operands, CallsUnknownOperandsUnrecognizedWithTheWholeText) {
  EXPECT_EQ(parse({"foo=bar"}).err, "dd: unrecognized operand \u2018foo=bar\u2019\n" + try_help());
  EXPECT_EQ(parse({"foo"}).err, "dd: unrecognized operand \u2018foo\u2019\n" + try_help());
  EXPECT_EQ(parse({"=5"}).err, "dd: unrecognized operand \u2018=5\u2019\n" + try_help());
  EXPECT_EQ(parse({"if"}).err, "dd: unrecognized operand \u2018if\u2019\n" + try_help());
  EXPECT_EQ(parse({""}).err, "dd: unrecognized operand \u2018\u2019\n" + try_help());
  EXPECT_EQ(parse({"-"}).err, "dd: unrecognized operand \u2018-\u2019\n" + try_help());
  EXPECT_EQ(parse({"foo=bar=baz"}).err, "dd: unrecognized operand \u2018foo=bar=baz\u2019\n" + try_help());
  EXPECT_EQ(parse({"foo"}, false).err, "dd: unrecognized operand 'foo'\n" + try_help());
}

TEST(Operands, MatchesOperandNamesExactly) {
  for (std::string_view arg : {"BS=5", "b=5", "bss=5", "i=5", "s=1", "seekk=1", "Oseek=1"}) {
    EXPECT_EQ(parse({arg}).err, "dd: unrecognized operand \u2018" + std::string(arg) + "\u2019\n" + try_help()) << arg;
  }
}

TEST(Operands, ParsesTheValueOfAnUnknownOperandFirst) {
  EXPECT_EQ(parse({"foo=0x5"}).err,
            "dd: warning: \u20180x\u2019 is a zero multiplier; use \u201800x\u2019 if that is intended\n"
            "dd: unrecognized operand \u2018foo=0x5\u2019\n" +
                try_help());
}

TEST(Operands, StopsAtTheFirstBadOperand) {
  EXPECT_EQ(parse({"bs=x", "foo=bar"}).err, "dd: invalid number: \u2018x\u2019\n");
  EXPECT_EQ(parse({"foo=bar", "bs=x"}).err, "dd: unrecognized operand \u2018foo=bar\u2019\n" + try_help());
  EXPECT_EQ(parse({"conv=foo", "iflag=bar"}).err, "dd: invalid conversion: \u2018foo\u2019\n" + try_help());
}

TEST(Operands, UsesTheProgramNameAsGiven) {
  EXPECT_EQ(parse({"foo"}, true, "/bin/dd").err,
            "/bin/dd: unrecognized operand \u2018foo\u2019\n" + try_help("/bin/dd"));
}

// ---------------------------------------------------------------------------
// Symbol lists.

TEST(Operands, CollectsConversionsFromEveryConvOperand) {
  const Parsed run = parse({"conv=sync,noerror", "conv=notrunc", "conv=lcase,sparse,swab,fsync,fdatasync,excl"});
  ASSERT_TRUE(run.ran());
  const Conversions& c = run.settings().conv;
  EXPECT_TRUE(c.sync && c.noerror && c.notrunc && c.lcase && c.sparse && c.swab && c.fsync && c.fdatasync && c.excl);
  EXPECT_FALSE(c.ucase || c.nocreat || c.block || c.unblock || c.ascii);
  EXPECT_TRUE(parse({"conv=sync,sync"}).ran());
}

TEST(Operands, LetsAsciiImplyUnblockAndEbcdicOrIbmImplyBlock) {
  EXPECT_TRUE(parse({"conv=ascii", "cbs=8"}).settings().conv.unblock);
  EXPECT_TRUE(parse({"conv=ebcdic", "cbs=8"}).settings().conv.block);
  EXPECT_TRUE(parse({"conv=ibm", "cbs=8"}).settings().conv.block);
  EXPECT_TRUE(parse({"conv=ascii,unblock", "cbs=8"}).ran());
  EXPECT_TRUE(parse({"conv=ibm,block", "cbs=5"}).ran());
  EXPECT_EQ(parse({"conv=ascii,block", "cbs=5"}).err, "dd: cannot combine block and unblock\n");
  EXPECT_EQ(parse({"conv=ebcdic,unblock", "cbs=5"}).err, "dd: cannot combine block and unblock\n");
}

TEST(Operands, DropsBlockAndUnblockWithoutCbsButKeepsTwoBuffers) {
  const Parsed run = parse({"bs=10", "conv=block,unblock"});
  ASSERT_TRUE(run.ran()) << run.err;
  EXPECT_FALSE(run.settings().conv.block);
  EXPECT_FALSE(run.settings().conv.unblock);
  EXPECT_TRUE(run.settings().two_buffers());  // GNU still reblocks: "9+1 records out"

  const Parsed ascii = parse({"conv=ascii"});
  EXPECT_TRUE(ascii.settings().conv.ascii);
  EXPECT_FALSE(ascii.settings().conv.unblock);
}

TEST(Operands, ReportsAnUnknownConversionWithTheHint) {
  EXPECT_EQ(parse({"conv=foo"}).err, "dd: invalid conversion: \u2018foo\u2019\n" + try_help());
  EXPECT_EQ(parse({"conv=foo,bar"}).err, "dd: invalid conversion: \u2018foo\u2019\n" + try_help());
  EXPECT_EQ(parse({"conv=Sync"}).err, "dd: invalid conversion: \u2018Sync\u2019\n" + try_help());
  EXPECT_EQ(parse({"conv=direct"}).err, "dd: invalid conversion: \u2018direct\u2019\n" + try_help());
  EXPECT_EQ(parse({"conv=a\nb"}).err, "dd: invalid conversion: \u2018a\\nb\u2019\n" + try_help());
}

TEST(Operands, RefusesEmptyListItems) {
  for (std::string_view arg : {"conv=,sync", "conv=sync,", "conv=", "conv=sync,,block"}) {
    EXPECT_EQ(parse({arg}).err, "dd: invalid conversion: \u2018\u2019\n" + try_help()) << arg;
  }
  EXPECT_EQ(parse({"iflag="}).err, "dd: invalid input flag: \u2018\u2019\n" + try_help());
  EXPECT_EQ(parse({"status="}).err, "dd: invalid status level: \u2018\u2019\n" + try_help());
}

TEST(Operands, ReadsEveryFlagOnEitherSide) {
  const Parsed run = parse({"iflag=append,direct,directory,dsync,sync,fullblock,nonblock,noatime",
                            "iflag=noctty,nofollow,count_bytes,skip_bytes,seek_bytes",
                            "oflag=append,direct,directory,dsync,sync,nonblock,noatime,noctty,nofollow",
                            "oflag=seek_bytes,skip_bytes,count_bytes", "conv=notrunc"});
  ASSERT_TRUE(run.ran()) << run.err;
  const IoFlags& i = run.settings().iflag;
  EXPECT_TRUE(i.append && i.direct && i.directory && i.dsync && i.sync && i.fullblock && i.nonblock && i.noatime &&
              i.noctty && i.nofollow && i.count_bytes && i.skip_bytes && i.seek_bytes);
  EXPECT_FALSE(i.nocache);
  const IoFlags& o = run.settings().oflag;
  EXPECT_TRUE(o.append && o.direct && o.directory && o.dsync && o.sync && o.nonblock && o.noatime && o.noctty &&
              o.nofollow && o.seek_bytes && o.skip_bytes && o.count_bytes);
  EXPECT_TRUE(parse({"iflag=nocache", "oflag=nocache"}).settings().oflag.nocache);
}

TEST(Operands, RefusesUnknownInputAndOutputFlagsWithTheHint) {
  for (std::string_view flag : {"binary", "text", "nolinks", "cio", "rsync", "linkcreat", "Direct", "foo"}) {
    const std::string in = "iflag=" + std::string(flag);
    const std::string out = "oflag=" + std::string(flag);
    EXPECT_EQ(parse({in}).err, "dd: invalid input flag: \u2018" + std::string(flag) + "\u2019\n" + try_help());
    EXPECT_EQ(parse({out}).err, "dd: invalid output flag: \u2018" + std::string(flag) + "\u2019\n" + try_help());
  }
}

TEST(Operands, RefusesFullblockOnTheOutputAfterAllOperands) {
  EXPECT_EQ(parse({"oflag=fullblock", "conv=ascii,ebcdic"}).err,
            "dd: invalid output flag: \u2018fullblock\u2019\n" + try_help());
  // ...but a bad operand later on the line is reported first.
  EXPECT_EQ(parse({"oflag=fullblock", "bs=0"}).err, "dd: invalid number: \u20180\u2019\n");
}

TEST(Operands, ReadsStatusLevelsLastOneWinning) {
  EXPECT_EQ(parse({"status=none"}).settings().status, StatusLevel::kNone);
  EXPECT_EQ(parse({"status=noxfer"}).settings().status, StatusLevel::kNoxfer);
  EXPECT_EQ(parse({"status=progress"}).settings().status, StatusLevel::kProgress);
  EXPECT_EQ(parse({"status=none,progress"}).settings().status, StatusLevel::kProgress);
  EXPECT_EQ(parse({"status=none,foo"}).err, "dd: invalid status level: \u2018foo\u2019\n" + try_help());
  EXPECT_EQ(parse({"status=default"}).err, "dd: invalid status level: \u2018default\u2019\n" + try_help());
  EXPECT_EQ(parse({"status=NONE"}).err, "dd: invalid status level: \u2018NONE\u2019\n" + try_help());
}

// ---------------------------------------------------------------------------
// Conflicts, checked in GNU's order once every operand is read.

TEST(Operands, ChecksConflictsInGnuOrder) {
  EXPECT_EQ(parse({"conv=ascii,ebcdic,block,unblock,lcase,ucase,excl,nocreat", "iflag=direct,nocache", "cbs=1"}).err,
            "dd: cannot combine any two of {ascii,ebcdic,ibm}\n");
  EXPECT_EQ(parse({"conv=block,unblock,lcase,ucase,excl,nocreat", "iflag=direct,nocache", "cbs=1"}).err,
            "dd: cannot combine block and unblock\n");
  EXPECT_EQ(parse({"conv=lcase,ucase,excl,nocreat", "iflag=direct,nocache"}).err,
            "dd: cannot combine lcase and ucase\n");
  EXPECT_EQ(parse({"conv=excl,nocreat", "iflag=direct,nocache"}).err, "dd: cannot combine excl and nocreat\n");
  EXPECT_EQ(parse({"oflag=direct,nocache"}).err, "dd: cannot combine direct and nocache\n");
  EXPECT_EQ(parse({"conv=ascii,ibm"}).err, "dd: cannot combine any two of {ascii,ebcdic,ibm}\n");
  EXPECT_EQ(parse({"conv=ebcdic,ibm"}).err, "dd: cannot combine any two of {ascii,ebcdic,ibm}\n");
  EXPECT_TRUE(parse({"conv=ascii,ascii"}).ran());
  EXPECT_TRUE(parse({"iflag=direct", "oflag=nocache"}).ran());
  EXPECT_TRUE(parse({"conv=block,unblock"}).ran());  // no cbs: both dropped first
}

// ---------------------------------------------------------------------------
// skip, seek and count in records and bytes.

TEST(Operands, CountsSkipAndCountInInputBlocksAndSeekInOutputBlocks) {
  const Parsed run = parse({"ibs=100", "obs=7", "skip=3", "seek=1000", "count=5"});
  ASSERT_TRUE(run.ran());
  const Settings& s = run.settings();
  EXPECT_EQ(s.skip_records, 3);
  EXPECT_EQ(s.skip_bytes, 0);
  EXPECT_EQ(s.seek_records, 1000);
  EXPECT_EQ(s.seek_bytes, 0);
  EXPECT_EQ(s.max_records, 5);
  EXPECT_EQ(s.max_bytes, 0);
}

TEST(Operands, SplitsByteCountsIntoRecordsAndBytes) {
  const Parsed run = parse(
      {"ibs=100", "obs=7", "skip=250", "seek=16", "count=1030", "iflag=skip_bytes,count_bytes", "oflag=seek_bytes"});
  ASSERT_TRUE(run.ran());
  const Settings& s = run.settings();
  EXPECT_EQ(s.skip_records, 2);
  EXPECT_EQ(s.skip_bytes, 50);
  EXPECT_EQ(s.seek_records, 2);
  EXPECT_EQ(s.seek_bytes, 2);
  EXPECT_EQ(s.max_records, 10);
  EXPECT_EQ(s.max_bytes, 30);
}

TEST(Operands, TakesAnyBInTheValueAsBytes) {
  const Parsed run = parse({"bs=512", "skip=1KiB", "seek=3B", "count=2xKB"});
  ASSERT_TRUE(run.ran());
  const Settings& s = run.settings();
  EXPECT_EQ(s.skip_records, 2);
  EXPECT_EQ(s.skip_bytes, 0);
  EXPECT_EQ(s.seek_records, 0);
  EXPECT_EQ(s.seek_bytes, 3);
  EXPECT_EQ(s.max_records, 3);
  EXPECT_EQ(s.max_bytes, 464);
  EXPECT_TRUE(s.iflag.skip_bytes);
  EXPECT_TRUE(s.iflag.count_bytes);
  EXPECT_TRUE(s.oflag.seek_bytes);

  const Parsed blocks = parse({"bs=512", "count=1K"});
  EXPECT_EQ(blocks.settings().max_records, 1024);
  EXPECT_FALSE(blocks.settings().iflag.count_bytes);
}

TEST(Operands, IgnoresByteFlagsOnTheWrongSide) {
  const Parsed run = parse({"ibs=100", "obs=7", "skip=250", "seek=16", "iflag=seek_bytes", "oflag=skip_bytes"});
  ASSERT_TRUE(run.ran());
  EXPECT_EQ(run.settings().skip_records, 250);
  EXPECT_EQ(run.settings().seek_records, 16);
}

TEST(Operands, TreatsTheLargestCountAsNoLimit) {
  const Parsed run = parse({"count=9223372036854775807", "iflag=count_bytes"});
  EXPECT_EQ(run.settings().max_records, kNoLimit);
  EXPECT_EQ(run.settings().max_bytes, 0);
}

TEST(Operands, WarnsAboutPartialReadsOnlyWhereGnuDoes) {
  auto warns = [](std::initializer_list<std::string_view> args) {
    const Parsed run = parse(args);
    EXPECT_TRUE(run.ran()) << run.err;
    return run.settings().partial_read_matters();
  };
  EXPECT_TRUE(warns({"bs=10", "count=3"}));
  EXPECT_TRUE(warns({"bs=10", "count=1"}));
  EXPECT_TRUE(warns({"bs=10", "skip=1"}));
  EXPECT_TRUE(warns({"bs=10", "skip=15B"}));
  EXPECT_TRUE(warns({"bs=10", "count=25B"}));
  EXPECT_TRUE(warns({"bs=10", "count=3", "conv=sync"}));
  EXPECT_TRUE(warns({"bs=10", "iflag=direct"}));
  EXPECT_TRUE(warns({"bs=10", "oflag=direct"}));
  EXPECT_TRUE(warns({"ibs=10", "bs=10", "count=3"}));
  EXPECT_FALSE(warns({"bs=10"}));
  EXPECT_FALSE(warns({"bs=10", "count=0"}));
  EXPECT_FALSE(warns({"bs=10", "skip=5B"}));
  EXPECT_FALSE(warns({"bs=10", "count=5B"}));
  EXPECT_FALSE(warns({"ibs=10", "obs=10", "count=3"}));
  EXPECT_FALSE(warns({"bs=10", "count=3", "iflag=fullblock"}));
  EXPECT_FALSE(warns({"bs=10", "count=3", "conv=lcase"}));
  EXPECT_FALSE(warns({"bs=10", "count=3", "conv=swab"}));
  EXPECT_FALSE(warns({"bs=10", "count=3", "conv=ascii"}));
  EXPECT_FALSE(warns({"bs=10", "count=3", "conv=block"}));
}

// ---------------------------------------------------------------------------
// Debian's oflag=append warning.

TEST(Operands, SuggestsNotruncWithAppendOnceTheOperandsAreGood) {
  const std::string warning = "dd: you probably want conv=notrunc with oflag=append\n";
  EXPECT_EQ(parse({"oflag=append"}).err, warning);
  EXPECT_EQ(parse({"oflag=append", "of=/nonexistent/x", "status=none"}).err, warning);
  EXPECT_TRUE(parse({"oflag=append"}).ran());
  EXPECT_EQ(parse({"oflag=append", "conv=notrunc"}).err, "");
  EXPECT_EQ(parse({"iflag=append"}).err, "");
  EXPECT_EQ(parse({"oflag=append", "conv=ascii,ebcdic"}).err, "dd: cannot combine any two of {ascii,ebcdic,ibm}\n");
  EXPECT_EQ(parse({"oflag=append,fullblock"}).err, "dd: invalid output flag: \u2018fullblock\u2019\n" + try_help());
  EXPECT_EQ(parse({"oflag=append,notrunc"}).err, "dd: invalid output flag: \u2018notrunc\u2019\n" + try_help());
}

// ---------------------------------------------------------------------------
// --help, --version and getopt's complaints.

TEST(Operands, PrintsHelpForEveryUnambiguousAbbreviation) {
  for (std::string_view arg : {"--h", "--he", "--hel", "--help"}) {
    const Parsed run = parse({arg});
    ASSERT_TRUE(run.printed()) << arg;
    EXPECT_TRUE(run.outcome.stdout_text.starts_with("Usage: dd [OPERAND]...\n  or:  dd OPTION\n")) << arg;
    EXPECT_EQ(run.err, "");
  }
}

TEST(Operands, PrintsTheVersionForEveryUnambiguousAbbreviation) {
  for (std::string_view arg : {"--v", "--ve", "--vers", "--version"}) {
    const Parsed run = parse({arg});
    ASSERT_TRUE(run.printed()) << arg;
    // As dd (these parses' invocation), GNU's shape: "dd (ddtime V; ...) 9.1".
    EXPECT_TRUE(run.outcome.stdout_text.starts_with("dd (ddtime " DDTIME_VERSION ";")) << arg;
  }
}

TEST(Operands, ShowsTheProgramNameInTheUsageLines) {
  EXPECT_TRUE(parse({"--help"}, true, "/bin/dd")
                  .outcome.stdout_text.starts_with("Usage: /bin/dd [OPERAND]...\n  or:  /bin/dd OPTION\n"));
}

TEST(Operands, ListsEveryOperandSymbolAndLevelInTheHelp) {
  const std::string help = parse({"--help"}).outcome.stdout_text;
  for (std::string_view word :
       {"if=FILE",  "of=FILE",     "ibs=BYTES",  "obs=BYTES",  "bs=BYTES",    "cbs=BYTES",   "skip=N",       "iseek=N",
        "seek=N",   "oseek=N",     "count=N",    "conv=CONVS", "iflag=FLAGS", "oflag=FLAGS", "status=LEVEL", "ascii",
        "ebcdic",   "ibm",         "block",      "unblock",    "lcase",       "ucase",       "sparse",       "swab",
        "sync",     "excl",        "nocreat",    "notrunc",    "noerror",     "fdatasync",   "fsync",        "append",
        "direct",   "directory",   "dsync",      "fullblock",  "nonblock",    "noatime",     "nocache",      "noctty",
        "nofollow", "count_bytes", "skip_bytes", "seek_bytes", "none",        "noxfer",      "progress",     "SIGUSR1",
        "KiB",      "MiB",         "kB",         "--help",     "--version"}) {
    EXPECT_NE(help.find(word), std::string::npos) << word;
  }
  for (const char* extension : {"Extensions:", "--gnu", "--json[=PATH]", "--units=UNITS", "--split-times", "--align=N",
                                "--direct", "--progress"}) {
    EXPECT_NE(help.find(extension), std::string::npos) << extension;
  }
}

TEST(Operands, ActsOnHelpWhereverItStands) {
  EXPECT_TRUE(parse({"--help", "extra"}).printed());
  EXPECT_TRUE(parse({"if=/dev/null", "--help"}).printed());
  EXPECT_TRUE(parse({"foo", "--help"}).printed());
  EXPECT_TRUE(parse({"bs=x", "--help"}).printed());
  EXPECT_TRUE(parse({"--help", "--foo"}).printed());
  EXPECT_TRUE(parse({"--help", "--", "bs=1"}).printed());
  EXPECT_TRUE(parse({"--he", "--version=x"}).printed());
  EXPECT_EQ(parse({"--version", "--help"}).outcome.stdout_text.substr(0, 11), "dd (ddtime ");
  EXPECT_EQ(parse({"--help", "--version"}).outcome.stdout_text.substr(0, 7), "Usage: ");
}

TEST(Operands, ComplainsAboutUnknownLongOptionsWithTheWholeArgument) {
  EXPECT_EQ(parse({"--foo"}).err, "dd: unrecognized option '--foo'\n" + try_help());
  EXPECT_EQ(parse({"--foo=bar"}).err, "dd: unrecognized option '--foo=bar'\n" + try_help());
  EXPECT_EQ(parse({"--bs=5"}).err, "dd: unrecognized option '--bs=5'\n" + try_help());
  EXPECT_EQ(parse({"--i"}).err, "dd: unrecognized option '--i'\n" + try_help());
  EXPECT_EQ(parse({"---help"}).err, "dd: unrecognized option '---help'\n" + try_help());
  EXPECT_EQ(parse({"--helpx"}).err, "dd: unrecognized option '--helpx'\n" + try_help());
  EXPECT_EQ(parse({"--foo", "--help"}).err, "dd: unrecognized option '--foo'\n" + try_help());
  EXPECT_EQ(parse({"bs=x", "--foo"}).err, "dd: unrecognized option '--foo'\n" + try_help());
  EXPECT_TRUE(parse({"--foo"}).failed());
}

TEST(Operands, RefusesAnArgumentToHelpOrVersion) {
  EXPECT_EQ(parse({"--version=x"}).err, "dd: option '--version' doesn't allow an argument\n" + try_help());
  EXPECT_EQ(parse({"--help=x"}).err, "dd: option '--help' doesn't allow an argument\n" + try_help());
  EXPECT_EQ(parse({"--he=x"}).err, "dd: option '--help' doesn't allow an argument\n" + try_help());
  EXPECT_EQ(parse({"--v="}).err, "dd: option '--version' doesn't allow an argument\n" + try_help());
  EXPECT_TRUE(parse({"--v="}).failed());
}

TEST(Operands, NamesBothOptionsForAnEmptyPrefix) {
  EXPECT_EQ(parse({"--=x"}).err, "dd: option '--=x' is ambiguous; possibilities: '--help' '--version'\n" + try_help());
}

TEST(Operands, RefusesShortOptionsByTheirFirstLetter) {
  EXPECT_EQ(parse({"-x"}).err, "dd: invalid option -- 'x'\n" + try_help());
  EXPECT_EQ(parse({"-xy"}).err, "dd: invalid option -- 'x'\n" + try_help());
  EXPECT_EQ(parse({"-5"}).err, "dd: invalid option -- '5'\n" + try_help());
  EXPECT_EQ(parse({"-h"}).err, "dd: invalid option -- 'h'\n" + try_help());
  EXPECT_EQ(parse({"-V"}).err, "dd: invalid option -- 'V'\n" + try_help());
  EXPECT_EQ(parse({"-x", "--help"}).err, "dd: invalid option -- 'x'\n" + try_help());
  EXPECT_EQ(parse({"if=/dev/null", "-x"}).err, "dd: invalid option -- 'x'\n" + try_help());
}

TEST(Operands, TakesEverythingAfterDoubleDashAsOperands) {
  const Parsed run = parse({"--", "if=a", "of=b"});
  ASSERT_TRUE(run.ran());
  EXPECT_EQ(run.settings().input_file, "a");
  EXPECT_EQ(run.settings().output_file, "b");
  EXPECT_TRUE(parse({"--"}).ran());
  EXPECT_EQ(parse({"--", "--help"}).err, "dd: unrecognized operand \u2018--help\u2019\n" + try_help());
  EXPECT_EQ(parse({"--", "-x"}).err, "dd: unrecognized operand \u2018-x\u2019\n" + try_help());
  EXPECT_EQ(parse({"--", "--"}).err, "dd: unrecognized operand \u2018--\u2019\n" + try_help());
  EXPECT_EQ(parse({"--", "bs=0"}).err, "dd: invalid number: \u20180\u2019\n");
}

TEST(Operands, ReadsOptionsBeforeAnyOperand) {
  // getopt permutes: an operand error earlier on the line loses to an option error.
  EXPECT_EQ(parse({"foo", "--bar"}).err, "dd: unrecognized option '--bar'\n" + try_help());
}

TEST(Operands, StopsReadingOptionsAtTheFirstOperandUnderPosixlyCorrect) {
  ::setenv("POSIXLY_CORRECT", "1", 1);
  const Parsed help = parse({"if=/dev/null", "--help"});
  const Parsed dashes = parse({"if=/dev/null", "--", "of=/dev/null"});
  const Parsed shortopt = parse({"if=/dev/null", "-x"});
  const Parsed leading = parse({"--help", "bs=1"});
  ::unsetenv("POSIXLY_CORRECT");
  EXPECT_EQ(help.err, "dd: unrecognized operand \u2018--help\u2019\n" + try_help());
  EXPECT_EQ(dashes.err, "dd: unrecognized operand \u2018--\u2019\n" + try_help());
  EXPECT_EQ(shortopt.err, "dd: unrecognized operand \u2018-x\u2019\n" + try_help());
  EXPECT_TRUE(leading.printed());
}

}  // namespace
}  // namespace ddtime
