// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <boost/any.hpp>
#include <boost/program_options/detail/convert.hpp>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/command_line.h"

namespace ddtime {
namespace {

// Only a program that links Boost statically takes the narrow helpers
// (DDTIME_LINK=shared, as the sanitizer builds are, keeps Boost's own).
#ifdef DDTIME_BOOST_NARROW
constexpr bool kNarrowLinked = true;
#else
constexpr bool kNarrowLinked = false;
#endif
#define SKIP_UNLESS_NARROW_LINKED() \
  if (!kNarrowLinked) GTEST_SKIP() << "Boost is linked shared in this build: its own helpers convert"

TEST(BoostNarrow, NarrowTextIsParsedAsTypedWithoutConversion) {
  const std::unique_ptr<po::value_semantic> value(po::value<Text>());
  boost::any store;
  value->parse(store, {"caf\xc3\xa9"}, false);
  EXPECT_EQ(boost::any_cast<Text>(store).text, "caf\xc3\xa9");
}

TEST(BoostNarrow, TheWideHelpersRefuseWithALogicError) {
  SKIP_UNLESS_NARROW_LINKED();
  EXPECT_THROW(boost::from_utf8("x"), std::logic_error);
  EXPECT_THROW(boost::from_local_8_bit("x"), std::logic_error);
  EXPECT_THROW(boost::to_local_8_bit(L"x"), std::logic_error);
}

TEST(BoostNarrow, TextMarkedUtf8IsRefusedNotMisread) {
  SKIP_UNLESS_NARROW_LINKED();
  const std::unique_ptr<po::value_semantic> value(po::value<Text>());
  boost::any store;
  EXPECT_THROW(value->parse(store, {"x"}, true), std::logic_error);
}

}  // namespace
}  // namespace ddtime
