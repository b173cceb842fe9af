// SPDX-License-Identifier: GPL-3.0-or-later
// boost_narrow — Boost.ProgramOptions' character conversions, narrow path
// only. ddtime's rows read narrow text and apply() parses it as already in
// the local encoding (utf8 = false), so Boost converts nothing; yet its
// value_semantic.o names the wide helpers of convert.o, and linking that
// member runs its static initialiser, std::ios_base::Init: the eight
// standard streams and the classic locale, built at every start of a
// program that never uses them. Defined here and linked into the programs
// ahead of Boost's library, these keep convert.o out. Each refuses as
// Boost's own do when text cannot be converted: with std::logic_error.
#include <boost/program_options/detail/convert.hpp>
#include <stdexcept>
#include <string>

namespace boost {
namespace {

[[noreturn]] void refuse() { throw std::logic_error("ddtime converts no wide or UTF-8 text"); }

}  // namespace

std::wstring from_utf8(const std::string&) { refuse(); }

std::wstring from_local_8_bit(const std::string&) { refuse(); }

std::string to_local_8_bit(const std::wstring&) { refuse(); }

}  // namespace boost
