// SPDX-License-Identifier: GPL-3.0-or-later
// The man page against `ddtime --help`: every operand, conversion, flag,
// status level and --long option that one lists, the other lists too.
// Reads the built binary's real --help output and the page's mdoc source.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

namespace {

struct Names {
  std::set<std::string> operands;
  std::set<std::string> conversions;
  std::set<std::string> flags;
  std::set<std::string> levels;
  std::set<std::string> long_options;
};

std::string run_help() {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen("'" DDTIME_BINARY "' --help", "r"), pclose);
  if (!pipe) return {};
  std::string out;
  std::array<char, 4096> chunk{};
  while (std::size_t got = std::fread(chunk.data(), 1, chunk.size(), pipe.get())) out.append(chunk.data(), got);
  return out;
}

std::string read_file(const char* path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'; }

// Leading name of `text`: the run of name characters.
std::string leading_name(std::string_view text) {
  std::size_t end = 0;
  while (end < text.size() && is_name_char(text[end])) ++end;
  return std::string(text.substr(0, end));
}

// --help lists entries as "  name=VALUE  text" (operands), "  word  text"
// (conversions, flags, levels) and "      --name[=VALUE]  text" (options,
// whatever their heading), each under a heading line that ends in ':'.
// Wrapped descriptions are indented further and so never read as entries.
Names names_from_help(const std::string& help) {
  enum class Section { kNone, kOperands, kConversions, kFlags, kLevels };
  Names names;
  Section section = Section::kNone;
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    if (line[0] != ' ') {
      const bool heading = line.back() == ':';
      if (heading && line.starts_with("Operands")) {
        section = Section::kOperands;
      } else if (heading && line.find("conv=") != std::string::npos) {
        section = Section::kConversions;
      } else if (heading && line.find("iflag=") != std::string::npos) {
        section = Section::kFlags;
      } else if (heading && line.find("status=") != std::string::npos) {
        section = Section::kLevels;
      } else {
        section = Section::kNone;
      }
      continue;
    }
    const std::size_t start = line.find_first_not_of(' ');
    if (line.compare(start, 2, "--") == 0) {
      names.long_options.insert(leading_name(std::string_view(line).substr(start + 2)));
      continue;
    }
    if (start != 2) continue;
    const std::string name = leading_name(std::string_view(line).substr(start));
    switch (section) {
      case Section::kOperands:
        if (line.size() > 2 + name.size() && line[2 + name.size()] == '=') names.operands.insert(name);
        break;
      case Section::kConversions:
        names.conversions.insert(name);
        break;
      case Section::kFlags:
        names.flags.insert(name);
        break;
      case Section::kLevels:
        names.levels.insert(name);
        break;
      case Section::kNone:
        break;
    }
  }
  return names;
}

// The page lists its names as the heads of tagged lists: ".It Cm if= Ns Ar
// file" in OPERANDS, with the status levels as ".It Cm none" in a list nested
// there; ".It Cm ascii" in CONVERSIONS and FLAGS; ".It Fl \-json ..." in
// EXTENSIONS. One head may name several: ".It Cm lcase , Cm ucase".
Names names_from_man(const std::string& page) {
  Names names;
  std::string section;
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(".Sh ")) {
      section = line.substr(4);
      continue;
    }
    if (!line.starts_with(".It ")) continue;
    std::istringstream words(line.substr(4));
    std::string macro;
    for (std::string word; words >> word; macro = word) {
      if (macro == "Cm") {
        const std::string name = leading_name(word);
        if (section == "OPERANDS") {
          (word == name + "=" ? names.operands : names.levels).insert(name);
        } else if (section == "CONVERSIONS") {
          names.conversions.insert(name);
        } else if (section == "FLAGS") {
          names.flags.insert(name);
        }
      } else if (macro == "Fl" && section == "EXTENSIONS" && word.starts_with("\\-")) {
        names.long_options.insert(leading_name(std::string_view(word).substr(2)));
      }
    }
  }
  return names;
}

std::string listed(const std::set<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += " " + name;
  return out.empty() ? " (none)" : out;
}

// Names in `from` that `to` lacks.
std::set<std::string> missing(const std::set<std::string>& from, const std::set<std::string>& to) {
  std::set<std::string> out;
  for (const auto& name : from) {
    if (!to.contains(name)) out.insert(name);
  }
  return out;
}

class ManPage : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    help_ = new Names(names_from_help(run_help()));
    man_ = new Names(names_from_man(read_file(DDTIME_MAN_PAGE)));
  }
  static void TearDownTestSuite() {
    delete help_;
    delete man_;
  }

  static void expect_same(const std::set<std::string>& in_help, const std::set<std::string>& in_man) {
    ASSERT_FALSE(in_help.empty()) << "found none in --help: has its layout changed?";
    ASSERT_FALSE(in_man.empty()) << "found none in " DDTIME_MAN_PAGE ": has its layout changed?";
    EXPECT_TRUE(missing(in_help, in_man).empty())
        << "in --help but not in the man page:" << listed(missing(in_help, in_man));
    EXPECT_TRUE(missing(in_man, in_help).empty())
        << "in the man page but not in --help:" << listed(missing(in_man, in_help));
  }

  static Names* help_;
  static Names* man_;
};

Names* ManPage::help_ = nullptr;
Names* ManPage::man_ = nullptr;

TEST_F(ManPage, ListsTheOperandsOfHelp) { expect_same(help_->operands, man_->operands); }

// Defect 26: the man page and the README said the timing report follows
// GNU's summary, which the program prints last. Every place that says
// where the report goes says before.
TEST(ReportPlace, TheDocsSayTheReportComesBeforeGnusSummary) {
  for (const char* path : {DDTIME_MAN_PAGE, DDTIME_README}) {
    std::string text = read_file(path);
    // Line breaks and roff's line starts are no part of the sentence.
    for (char& c : text) {
      if (c == '\n') c = ' ';
    }
    for (const char* wrong :
         {"follows the summary", "after the summary", "follows GNU's summary", "after GNU's summary"}) {
      EXPECT_EQ(text.find(wrong), std::string::npos) << path << " says the report comes " << wrong;
    }
  }
}

// B12 (issue 28): --help and the README (now the charts guide) said --svg draws bars, a
// timeline and a histogram, the man page that it does not combine with
// --compare and that a profile's bars are on the text's fixed scale.
TEST(SvgDocs, TheHelpTheReadmeAndTheManPageSayWhatSvgDraws) {
  // Line breaks and roff's line starts are no part of a sentence.
  const auto flat = [](std::string text) {
    for (char& c : text) {
      if (c == '\n') c = ' ';
    }
    return text;
  };
  const std::string help = flat(run_help());
  const std::size_t svg_row = help.find("--svg=PATH");
  ASSERT_NE(svg_row, std::string::npos);
  const std::string row = help.substr(svg_row, help.find("--units", svg_row) - svg_row);
  EXPECT_NE(row.find("profile"), std::string::npos) << row;
  EXPECT_NE(row.find("--compare"), std::string::npos) << row;
  // The charts guide's table of what each run draws (the README's option
  // table moved there, issue 30).
  const std::string guide = read_file(DDTIME_CHARTS_GUIDE);
  const std::size_t table = guide.find("| what ran | what `--svg=PATH` draws |");
  ASSERT_NE(table, std::string::npos);
  const std::string rows = guide.substr(table, guide.find("\n\n", table) - table);
  EXPECT_NE(rows.find("| `--profile` |"), std::string::npos) << rows;
  EXPECT_NE(rows.find("| `--compare` |"), std::string::npos) << rows;
  const std::string man = flat(read_file(DDTIME_MAN_PAGE));
  const std::size_t only = man.find("Only .Fl \\-json");
  ASSERT_NE(only, std::string::npos);
  const std::string combine = man.substr(only, man.find("combine with", only) - only);
  EXPECT_NE(combine.find("\\-svg"), std::string::npos) << combine;
  EXPECT_EQ(man.find("draws a bar per test and side on the log scale"), std::string::npos);
}

TEST_F(ManPage, ListsTheConversionsOfHelp) { expect_same(help_->conversions, man_->conversions); }

TEST_F(ManPage, ListsTheFlagsOfHelp) { expect_same(help_->flags, man_->flags); }

TEST_F(ManPage, ListsTheStatusLevelsOfHelp) { expect_same(help_->levels, man_->levels); }

TEST_F(ManPage, ListsTheLongOptionsOfHelp) { expect_same(help_->long_options, man_->long_options); }

TEST(ManPageParsing, ReadsEveryKindOfHelpEntry) {
  const Names names = names_from_help(
      "Usage: ddtime [OPERAND]...\n"
      "Operands:\n"
      "  if=FILE        take input from FILE\n"
      "  averyverylongname=VALUE\n"
      "                 wrapped text\n"
      "\n"
      "N and BYTES are decimal numbers, optionally followed by a unit:\n"
      "  c 1, w 2, b 512\n"
      "\n"
      "Conversions for conv=:\n"
      "  sync       fill each short input block\n"
      "             (with spaces when block or unblock is in effect)\n"
      "Flags for iflag= and oflag=:\n"
      "  count_bytes  read count= as a number of bytes (iflag)\n"
      "Levels for status=:\n"
      "  noxfer    leave out the final line\n"
      "\n"
      "Options:\n"
      "      --help     show this help, then exit\n"
      "Extensions:\n"
      "      --json[=PATH]  one JSON object\n"
      "  --split-times  read and write times\n");
  EXPECT_EQ(names.operands, (std::set<std::string>{"if", "averyverylongname"}));
  EXPECT_EQ(names.conversions, std::set<std::string>{"sync"});
  EXPECT_EQ(names.flags, std::set<std::string>{"count_bytes"});
  EXPECT_EQ(names.levels, std::set<std::string>{"noxfer"});
  EXPECT_EQ(names.long_options, (std::set<std::string>{"help", "json", "split-times"}));
}

TEST(ManPageParsing, ReadsEveryKindOfListHead) {
  const Names names = names_from_man(
      ".Sh OPERANDS\n"
      ".It Cm skip= Ns Ar n , Cm iseek= Ns Ar n\n"
      ".It Cm none\n"
      ".Sh CONVERSIONS\n"
      ".It Cm lcase , Cm ucase\n"
      ".Sh FLAGS\n"
      ".It Cm seek_bytes\n"
      ".Sh EXTENSIONS\n"
      ".It Fl \\-json Ns Op = Ns Ar path\n"
      ".It Cm si\n"
      ".Sh EXAMPLES\n"
      ".It Cm nothing\n");
  EXPECT_EQ(names.operands, (std::set<std::string>{"skip", "iseek"}));
  EXPECT_EQ(names.levels, std::set<std::string>{"none"});
  EXPECT_EQ(names.conversions, (std::set<std::string>{"lcase", "ucase"}));
  EXPECT_EQ(names.flags, std::set<std::string>{"seek_bytes"});
  EXPECT_EQ(names.long_options, std::set<std::string>{"json"});
}

}  // namespace
