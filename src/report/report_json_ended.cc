// SPDX-License-Identifier: GPL-3.0-or-later
// The --json documents of a command that ended before any run (refused,
// failed, out of memory), and what every document writes alike: the
// signal's name.
#include <csignal>
#include <optional>
#include <string>
#include <string_view>

#include "report/json.h"
#include "report/report_environment_json.h"
#include "report/report_json.h"

namespace ddtime {
namespace {

std::string json_ended_early(std::span<const std::string> errors, const Environment& environment,
                             std::string_view version, bool refused) {
  json::Writer out;
  {
    json::Object object = out.object();
    object.string("tool", "ddtime").string("version", version_or_build(version));
    put_environment(object.object("environment"), environment);
    object.boolean("complete", false).boolean("refused", refused).integer("exit_status", 1).null("signal");
    json::Array list = object.array("errors");
    for (const std::string& error : errors) list.string(error);
  }
  std::string text = out.text();
  text.push_back('\n');
  return text;
}

}  // namespace

std::string json_refusal(std::span<const std::string> errors, const Environment& environment,
                         std::string_view version) {
  return json_ended_early(errors, environment, version, true);
}

std::string json_failure(std::span<const std::string> errors, const Environment& environment,
                         std::string_view version) {
  return json_ended_early(errors, environment, version, false);
}

std::string_view json_memory_exhausted() noexcept {
  return "{\"tool\":\"ddtime\",\"version\":\"" DDTIME_VERSION
         "\",\"environment\":null,\"complete\":false,\"refused\":false,\"exit_status\":1,"
         "\"signal\":null,\"errors\":[\"memory exhausted\"]}\n";
}

std::string json_quote(std::string_view text) {
  json::Writer out;
  out.string(text);
  return out.text();
}

namespace {

// Names as <signal.h> spells them; the numbers differ between systems.
std::optional<std::string_view> signal_name(int signal) {
  // The name as characters, not a string_view: a table of pointers would
  // need relocating, a page the loader writes at every start.
  struct Named {
    int number;
    char name[10];
  };
  static constexpr Named kSignals[] = {
      {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},   {SIGTRAP, "SIGTRAP"},
      {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"},
      {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"}, {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
      {SIGCHLD, "SIGCHLD"}, {SIGCONT, "SIGCONT"}, {SIGSTOP, "SIGSTOP"}, {SIGTSTP, "SIGTSTP"}, {SIGTTIN, "SIGTTIN"},
      {SIGTTOU, "SIGTTOU"}, {SIGURG, "SIGURG"},   {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGVTALRM, "SIGVTALRM"},
      {SIGPROF, "SIGPROF"}, {SIGSYS, "SIGSYS"},
  };
  for (const Named& named : kSignals) {
    if (named.number == signal) return std::string_view(named.name);
  }
  return std::nullopt;
}

}  // namespace

// The signal that ended a run, a session or a profile, by name where it
// has one: the one place every document writes it.
void put_signal(json::Object& object, int signal) {
  if (signal == 0) {
    object.null("signal");
  } else if (auto name = signal_name(signal)) {
    object.string("signal", *name);
  } else {
    object.string("signal", std::to_string(signal));
  }
}

}  // namespace ddtime
