// SPDX-License-Identifier: GPL-3.0-or-later
// --timeline: the run's rate sampled over its time. A short timed run has
// about twenty samples; the text draws them and states each analysis's
// definition; the JSON carries cumulative bytes and each interval's rate
// with the analysis; with --csv the samples are the lines. And the truth
// of it: on a direct-I/O loop device the bytes each interval reports are
// the bytes the block layer accounted for the device in the same
// interval, read by an independent reader of /sys/block/X/stat.

#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <atomic>
#include <cmath>
#include <csignal>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "e2e/harness.h"
#include "e2e/loop_device.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

using support::Json;
using support::parse_json;

class Timelines : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
  }
};

TEST_F(Timelines, AShortTimedRunHasAboutTwentySamplesWithCumulativeBytesAndEachIntervalsRate) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=64k", "--time=400ms", "--timeline", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json json = parse_json(r.err);
  const Json& timeline = json["timeline"];
  EXPECT_NEAR(timeline["interval_s"].number(), 0.020, 1e-9);  // a twentieth of --time
  const Json& samples = timeline["samples"];
  ASSERT_GE(samples.size(), 18u);
  ASSERT_LE(samples.size(), 22u);
  std::int64_t previous = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const Json& sample = samples[i];
    EXPECT_EQ(sample["bytes"].integer() - previous, sample["interval_bytes"].integer()) << i;
    EXPECT_NEAR(sample["bytes_per_second"].number(),
                static_cast<double>(sample["interval_bytes"].integer()) / sample["interval_s"].number(),
                sample["bytes_per_second"].number() * 1e-6 + 1)
        << i;
    previous = sample["bytes"].integer();
  }
  // The last sample is the run's end: every byte of the summary.
  EXPECT_EQ(previous, json["bytes_out"].integer());
  const Json& analysis = timeline["analysis"];
  EXPECT_GE(analysis["interval_rates"]["intervals"].integer(), 18);
  EXPECT_EQ(analysis["steady_state"]["deviation"]["limit_percent"].number(), 10.0);
  EXPECT_EQ(analysis["steady_state"]["slope"]["limit_percent"].number(), 1.0);
}

TEST_F(Timelines, TheTextDrawsTheRateAgainstTheDataAndStatesEachDefinition) {
  Options o = opts({"if=/dev/zero", "of=/dev/null", "bs=64k", "--time=300ms", "--timeline"});
  o.as_ddtime = true;
  o.extra_env = {{"LC_ALL", "C"}};
  const Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(ddtime: rate per [0-9.]+ [kMGT]?i?B moved, against data moved)")))
      << r.err;
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(ddtime: interval rates: min )"))) << r.err;
  EXPECT_NE(r.err.find("ddtime: cliff: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("steady state (max deviation from the window mean <= 10%"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("least-squares slope <= 1% of the mean per interval"), std::string::npos) << r.err;
  // The timeline's lines: ASCII outside UTF-8, none wider than 80 columns.
  const std::size_t from = r.err.find("ddtime: rate per ");
  const std::size_t to = r.err.find("ddtime: measured:");
  ASSERT_LT(from, to);
  std::istringstream lines(r.err.substr(from, to - from));
  int count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    EXPECT_LE(line.size(), 80u) << line;
    for (const unsigned char c : line) ASSERT_LT(c, 0x80) << line;
  }
  EXPECT_GE(count, 15);  // 8 rows, the axis, two label rows, the statistics
}

TEST_F(Timelines, WithCsvTheSamplesAreTheLines) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=64k", "--time=200ms", "--timeline=50ms", "--csv"});
  ASSERT_STATUS(r, "exit 0");
  std::istringstream lines(r.err);
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "bs,iodepth,pass,repeat,warmup,sample,end_s,bytes,records,interval_s,interval_bytes,bytes_per_second,"
            "iops,read_p50_ns,read_p99_ns,read_max_ns,write_p50_ns,write_p99_ns,write_max_ns,read_bytes_per_second,"
            "write_bytes_per_second");
  int samples = 0;
  for (std::string line; std::getline(lines, line);) {
    ++samples;
    // Numbers in their shortest round-trip form: 2.7521e-05 too.
    EXPECT_TRUE(std::regex_match(line, std::regex(R"(65536,1,copy,1,false,\d+,[0-9.e+-]+,\d+,\d+,[0-9.e+-]+,\d+,)"
                                                  R"([0-9.e+-]+,[0-9.e+-]+,,,,,,,,)")))
        << line;
  }
  EXPECT_GE(samples, 4);
  EXPECT_LE(samples, 5);
}

TEST_F(Timelines, SteadyEndsATimedRunOnceTheRateHolds) {
  // /dev/zero to /dev/null at 64k is flat within 50% at once: the run ends
  // long before its minute.
  const Result r =
      ddtime({"if=/dev/zero", "of=/dev/null", "bs=64k", "--time=1m", "--timeline=20ms", "--steady=50", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json json = parse_json(r.err);
  EXPECT_EQ(json["time"]["ended_by"].string(), "steady");
  EXPECT_LT(json["times"]["real"].number(), 30.0);
}

TEST_F(Timelines, SigusrOneShowsTheTimelineSoFar) {
  Options o = opts({"if=/dev/zero", "of=/dev/null", "bs=64k", "--time=1s", "--timeline=50ms"});
  o.as_ddtime = true;
  DdProcess p(o);
  std::this_thread::sleep_for(400ms);  // some samples taken
  p.send_signal(SIGUSR1);
  ASSERT_TRUE(p.wait_for_stderr([](const std::string& err) { return err.find("interval rates:") != std::string::npos; },
                                2000ms))
      << p.stderr_so_far();
  const std::string so_far = p.stderr_so_far();
  const Result r = p.finish();
  ASSERT_STATUS(r, "exit 0");
  // The snapshot: the statistics so far, then the timeline so far, before
  // the run's own report.
  EXPECT_NE(so_far.find("ddtime: rate per "), std::string::npos) << so_far;
  EXPECT_NE(so_far.find(" records in\n"), std::string::npos) << so_far;
  EXPECT_EQ(r.err.find("ended by the time limit"), r.err.rfind("ended by the time limit")) << r.err;
  EXPECT_GE(r.err.find("ended by the time limit"), so_far.size() - 1) << "the run went on after the snapshot";
}

// The truth of a timeline: an independent reader of the block layer's
// counters agrees with every interval, within 5%.
class TimelineOnLoop : public LoopDevice {
 protected:
  TimelineOnLoop() : LoopDevice(4096, 8 * 1048576, true) {}
};

double monotonic_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

TEST_F(TimelineOnLoop, EachIntervalsBytesAreWhatTheBlockLayerCountedInIt) {
  SKIP_IF_ANOTHER_DD();
  shell("udevadm settle 2>/dev/null");
  const std::string stat_path = "/sys/block/" + device_.substr(device_.rfind('/') + 1) + "/stat";
  struct Reading {
    double at;
    std::int64_t bytes;
  };
  std::vector<Reading> readings;
  std::atomic<bool> done{false};
  auto sectors_read = [&] {
    std::ifstream stat(stat_path);
    std::int64_t reads = 0, merged = 0, sectors = -1;
    stat >> reads >> merged >> sectors;
    return sectors;
  };
  const std::int64_t before = sectors_read();
  ASSERT_GE(before, 0) << "no " << stat_path;
  const double launched = monotonic_seconds();
  std::thread reader([&] {
    // Real-time priority (as root): a reader the scheduler keeps off the
    // CPU at a boundary cannot tell what the block layer counted there,
    // and a loaded machine (a sanitizer's build, ctest -j2) did so at half
    // of them. It sleeps 2 ms a reading, so it starves nothing.
    const sched_param realtime{.sched_priority = 10};
    (void)::pthread_setschedparam(::pthread_self(), SCHED_FIFO, &realtime);
    while (!done.load()) {
      readings.push_back({monotonic_seconds() - launched, (sectors_read() - before) * 512});
      ::usleep(2000);
    }
  });
  const Result r =
      ddtime({"if=" + device_, "of=/dev/null", "bs=4k", "iflag=direct", "--time=2s", "--timeline=200ms", "--json"});
  done = true;
  reader.join();
  ASSERT_STATUS(r, "exit 0");
  const Json json = parse_json(r.err);
  const Json& samples = json["timeline"]["samples"];
  ASSERT_GE(samples.size(), 9u);
  // The reader's bytes at a time, interpolated between its readings.
  auto accounted_at = [&](double t) {
    for (std::size_t i = 1; i < readings.size(); ++i) {
      if (readings[i].at < t) continue;
      const Reading& a = readings[i - 1];
      const Reading& b = readings[i];
      const double share = b.at > a.at ? (t - a.at) / (b.at - a.at) : 0;
      return static_cast<double>(a.bytes) + share * static_cast<double>(b.bytes - a.bytes);
    }
    return static_cast<double>(readings.back().bytes);
  };
  // One free parameter, fitted once for the whole run: where the run's
  // window opened on the reader's clock (after the fork and exec).
  double best_offset = 0, best_error = INFINITY;
  for (double offset = 0; offset < 0.100; offset += 0.0005) {
    double error = 0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const double got = accounted_at(offset + samples[i]["end_s"].number());
      error += std::pow(got - static_cast<double>(samples[i]["bytes"].integer()), 2);
    }
    if (error < best_error) best_error = error, best_offset = offset;
  }
  // Whether the reader read the counters within 3 ms of a time: a reader
  // the scheduler kept off the CPU around a boundary cannot tell.
  auto read_near = [&](double t) {
    for (const Reading& reading : readings) {
      if (std::fabs(reading.at - t) <= 0.003) return true;
    }
    return false;
  };
  // Every whole interval but the last (the run's end, shorter) within 5%.
  double previous_end = 0;
  std::size_t checked = 0;
  for (std::size_t i = 0; i + 1 < samples.size(); ++i) {
    const double end = samples[i]["end_s"].number();
    if (read_near(best_offset + previous_end) && read_near(best_offset + end)) {
      const double accounted = accounted_at(best_offset + end) - accounted_at(best_offset + previous_end);
      const auto reported = static_cast<double>(samples[i]["interval_bytes"].integer());
      EXPECT_NEAR(accounted, reported, reported * 0.05)
          << "interval " << i << " ending at " << end << " s (window opened " << best_offset << " s after launch)";
      ++checked;
    }
    previous_end = end;
  }
  EXPECT_GE(checked * 3, samples.size()) << "the reader was kept off the CPU for most boundaries";
}

}  // namespace
}  // namespace ddtime::e2e
