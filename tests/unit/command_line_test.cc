// SPDX-License-Identifier: GPL-3.0-or-later
// The command line as Boost.ProgramOptions rows: the getopt_long style
// parser, the rows a command line wants, apply() through a row's value type
// and notifier, and --help generated from the rows.
#include "cli/command_line.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace ddtime {
namespace {

struct Argv {
  explicit Argv(std::initializer_list<std::string_view> args) {
    storage.emplace_back("dd");
    for (std::string_view arg : args) storage.emplace_back(arg);
    for (const std::string& arg : storage) pointers.push_back(arg.c_str());
    pointers.push_back(nullptr);
  }
  int argc() const { return static_cast<int>(storage.size()); }
  const char* const* argv() const { return pointers.data(); }
  std::vector<std::string> storage;
  std::vector<const char*> pointers;
};

// A small table in the shape of the real ones: two operands, --help and
// --version, one switch, one option with an optional value, one with a
// required value.
struct Rows {
  Rows() {
    operands.add_options()("if", po::value<Text>()->notifier([this](const Text& v) { input = v.text; }), "input")(
        "bs",
        po::value<DdNumber>()->notifier([this](const DdNumber& v) { block = v.parsed.value; })->value_name("BYTES"),
        "block size");
    gnu.add_options()("help", po::value<Switch>()->zero_tokens(), "help")("version", po::value<Switch>()->zero_tokens(),
                                                                          "version");
    extensions.add_options()("gnu", po::value<Switch>()->zero_tokens()->notifier([this](Switch) { gnu_seen = true; }),
                             "plain")(
        "json",
        po::value<OptionalText>()
            ->implicit_value(OptionalText{}, "")
            ->value_name("PATH")
            ->notifier([this](const OptionalText& v) { json = v.text.value_or("<stderr>"); }),
        "the report")("units", po::value<Text>()->value_name("UNITS"), "rates");
  }
  CommandLine split(const Argv& args) const {
    return split_command_line(args.argc(), args.argv(), operands, gnu, extensions);
  }
  po::options_description operands{"Operands"};
  po::options_description gnu{"Options"};
  po::options_description extensions{"Extensions"};
  std::string input;
  std::int64_t block = 0;
  bool gnu_seen = false;
  std::string json;
};

std::vector<std::string> keys(const std::vector<po::option>& options) {
  std::vector<std::string> out;
  for (const po::option& option : options) out.push_back(option.string_key);
  return out;
}

TEST(CommandLine, OptionsAnywhereComeBeforeEveryOperandAsGetoptPermutes) {
  const Rows rows;
  const CommandLine line = rows.split(Argv{"if=a", "--gnu", "bs=4k", "--json=r.json"});
  EXPECT_EQ(keys(line.options), (std::vector<std::string>{"gnu", "json"}));
  EXPECT_EQ(keys(line.operands), (std::vector<std::string>{"if", "bs"}));
  EXPECT_EQ(line.operands[0].value, std::vector<std::string>{"a"});
  EXPECT_EQ(line.options[1].value, std::vector<std::string>{"r.json"});
}

TEST(CommandLine, ADoubleDashEndsTheOptions) {
  const Rows rows;
  const CommandLine line = rows.split(Argv{"--", "--gnu", "if=a"});
  EXPECT_TRUE(line.options.empty());
  ASSERT_EQ(line.operands.size(), 2u);
  EXPECT_EQ(line.operands[0].string_key, kUnknownOperand);
  EXPECT_EQ(line.operands[0].value, std::vector<std::string>{"--gnu"});
}

TEST(CommandLine, UnderPosixlyCorrectTheFirstOperandEndsTheOptions) {
  const Rows rows;
  ::setenv("POSIXLY_CORRECT", "1", 1);
  const CommandLine line = rows.split(Argv{"if=a", "--gnu"});
  ::unsetenv("POSIXLY_CORRECT");
  EXPECT_TRUE(line.options.empty());
  EXPECT_EQ(keys(line.operands), (std::vector<std::string>{"if", kUnknownOperand.data()}));
}

TEST(CommandLine, AnOptionGivenNoValueIsNotGivenAnEmptyOne) {
  const Rows rows;
  const CommandLine alone = rows.split(Argv{"--json"});
  const CommandLine empty = rows.split(Argv{"--json="});
  EXPECT_TRUE(alone.options.at(0).value.empty());
  EXPECT_EQ(empty.options.at(0).value, std::vector<std::string>{""});
}

TEST(CommandLine, GetoptsComplaintsKeepTheirPlaceWithGnusWords) {
  const Rows rows;
  auto complaint = [&](std::string_view argument) {
    const CommandLine line = rows.split(Argv{argument});
    EXPECT_EQ(line.options.at(0).string_key, kOptionError);
    return line.options.at(0).value.at(0);
  };
  EXPECT_EQ(complaint("--nope"), "unrecognized option '--nope'");
  EXPECT_EQ(complaint("--gnu=1"), "option '--gnu' doesn't allow an argument");
  EXPECT_EQ(complaint("--units"), "option '--units' requires an argument");
  EXPECT_EQ(complaint("-x"), "invalid option -- 'x'");
  EXPECT_EQ(complaint("--="), "option '--=' is ambiguous; possibilities: '--help' '--version'");
}

TEST(CommandLine, GnusOptionsMayBeAbbreviatedAndDdtimesMayNot) {
  const Rows rows;
  EXPECT_EQ(keys(rows.split(Argv{"--he"}).options), std::vector<std::string>{"help"});
  EXPECT_EQ(rows.split(Argv{"--js"}).options.at(0).string_key, kOptionError);
}

TEST(CommandLine, AnOperandNoRowNamesIsKeptAsTyped) {
  const Rows rows;
  const CommandLine line = rows.split(Argv{"foo=1", "if"});
  EXPECT_EQ(keys(line.operands), (std::vector<std::string>{kUnknownOperand.data(), kUnknownOperand.data()}));
  EXPECT_EQ(line.operands[0].value, std::vector<std::string>{"foo=1"});
  EXPECT_EQ(line.operands[1].value, std::vector<std::string>{"if"});
}

TEST(CommandLine, ApplyValidatesThroughTheValueTypeAndRunsTheNotifier) {
  Rows rows;
  const CommandLine line = rows.split(Argv{"bs=2x1k", "if=in", "--gnu", "--json"});
  for (const po::option& operand : line.operands) apply(rows.operands, operand);
  for (const po::option& option : line.options) apply(rows.extensions, option);
  EXPECT_EQ(rows.block, 2048);
  EXPECT_EQ(rows.input, "in");
  EXPECT_TRUE(rows.gnu_seen);
  EXPECT_EQ(rows.json, "<stderr>");
}

TEST(RowsWanted, WantsWhatTheArgumentsNameAndWhatAnOptionMayAbbreviate) {
  const Argv args{"bs=1", "--he", "count"};
  const RowsWanted wanted(args.argc(), args.argv());
  EXPECT_TRUE(wanted("bs"));
  EXPECT_TRUE(wanted("count"));
  EXPECT_TRUE(wanted("help"));
  EXPECT_FALSE(wanted("if"));
  EXPECT_FALSE(wanted("version"));
  EXPECT_TRUE(wanted.names_options());
  EXPECT_TRUE(RowsWanted::all()("anything"));
}

TEST(RowsWanted, OperandsAloneWantNoOption) {
  const Argv args{"bs=1", "gnu=1"};
  EXPECT_FALSE(RowsWanted(args.argc(), args.argv()).names_options());
}

TEST(RowsWanted, ARowNotWantedIsNotDescribed) {
  const Argv args{"bs=1"};
  const RowsWanted wanted(args.argc(), args.argv());
  po::options_description rows;
  add_row(rows, wanted, "bs", po::value<DdNumber>(), "block size");
  add_row(rows, wanted, "if", po::value<Text>(), "input");
  ASSERT_EQ(rows.options().size(), 1u);
  EXPECT_EQ(rows.options()[0]->long_name(), "bs");
}

// add_row names its rows itself (Boost's set_names would build the classic
// locale): each row reads as the one Boost's own add_options makes.
TEST(RowsWanted, ARowIsTheOneBoostsOwnConstructorWouldHaveMade) {
  const RowsWanted all = RowsWanted::all();
  for (const char* name : {"bs", "json", "help,h", "size,s", "name,other,x", "two,names"}) {
    po::options_description ours;
    po::options_description boosts;
    add_row(ours, all, name, po::value<Text>()->value_name("V"), "what it does");
    boosts.add_options()(name, po::value<Text>()->value_name("V"), "what it does");
    const po::option_description& row = *ours.options().at(0);
    const po::option_description& boost_row = *boosts.options().at(0);
    SCOPED_TRACE(name);
    EXPECT_EQ(row.long_name(), boost_row.long_name());
    ASSERT_EQ(row.long_names().second, boost_row.long_names().second);
    for (std::size_t i = 0; i < row.long_names().second; ++i) {
      EXPECT_EQ(row.long_names().first[i], boost_row.long_names().first[i]);
    }
    EXPECT_EQ(row.format_name(), boost_row.format_name());
    EXPECT_EQ(row.format_parameter(), boost_row.format_parameter());
    EXPECT_EQ(row.description(), boost_row.description());
    for (int style : {0, 1, 4}) EXPECT_EQ(row.canonical_display_name(style), boost_row.canonical_display_name(style));
    for (const char* given : {"bs", "h", "s", "x", "other", "names", "js"}) {
      EXPECT_EQ(row.match(given, true, false, false), boost_row.match(given, true, false, false)) << given;
    }
  }
}

TEST(HelpText, ListsEveryRowWithItsValueNameUnderItsCaption) {
  const Rows rows;
  const std::string help = help_text("dd", rows.operands, rows.gnu, rows.extensions);
  EXPECT_NE(help.find("  bs=BYTES       block size\n"), std::string::npos) << help;
  EXPECT_NE(help.find("      --help     help\n"), std::string::npos) << help;
  EXPECT_NE(help.find("      --json[=PATH]\n                 the report\n"), std::string::npos) << help;
  EXPECT_NE(help.find("      --units=UNITS\n                 rates\n"), std::string::npos) << help;
  EXPECT_LT(help.find("Options:\n"), help.find("Extensions:\n"));
}

}  // namespace
}  // namespace ddtime
