// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/timekeeper.h"

#include <algorithm>

namespace ddtime {

void take_away_ramp(Stats& stats, const Stats& ramp) noexcept {
  stats.full_records_in -= ramp.full_records_in;
  stats.partial_records_in -= ramp.partial_records_in;
  stats.full_records_out -= ramp.full_records_out;
  stats.partial_records_out -= ramp.partial_records_out;
  stats.truncated_records -= ramp.truncated_records;
  stats.bytes_in -= ramp.bytes_in;
  stats.bytes_out -= ramp.bytes_out;
}

namespace {

std::int64_t interval_for(const Timekeeper::Rules& rules) {
  if (rules.interval_ns) return *rules.interval_ns;
  if (rules.time_ns) return std::clamp<std::int64_t>(*rules.time_ns / 20, 1'000'000, Timekeeper::kLongestInterval);
  return Timekeeper::kLongestInterval / 64;
}

}  // namespace

Timekeeper::Timekeeper(RunWindow& window, const Rules& rules)
    : Pacer(rules.ramp_ns > 0),
      window_(window),
      rules_(rules),
      timeline_(std::make_shared<Timeline>()),
      live_(std::make_shared<LiveTime>()) {
  timeline_->interval_ns = interval_for(rules);
  adaptive_ = !rules.interval_ns && !rules.time_ns;
  // A reading every millisecond, or every twentieth of an interval when
  // that is shorter: a sample lands within 5% of its interval's end.
  reading_gap_ns_ = std::min<std::int64_t>(kLongestReadingGap, timeline_->interval_ns / 20);
}

void Timekeeper::start(LatencyRecorders* latency, bool interval_latency) {
  latency_ = latency;
  interval_latency_ = interval_latency;
  const std::int64_t now = window_.start_ns();
  ramping_ = rules_.ramp_ns > 0;
  live_->limit_ns = rules_.time_ns.value_or(0);
  live_->ramp_ns = rules_.ramp_ns;
  live_->ramping = ramping_;
  live_->ramp_elapsed_ns = 0;
  live_->ramp_stats = {};
  ramp_end_ns_ = now + rules_.ramp_ns;
  if (rules_.time_ns) deadline_ns_ = ramp_end_ns_ + *rules_.time_ns;
  next_sample_ns_ = ramp_end_ns_ + timeline_->interval_ns;
  // Room for the samples a timed run will take: none is allocated by a
  // tick unless an untimed run outlasts it.
  const std::size_t expected =
      rules_.time_ns ? static_cast<std::size_t>(*rules_.time_ns / timeline_->interval_ns) + 4 : kMostFineSamples + 4;
  if (rules_.timeline) {
    timeline_->samples.reserve(expected);
    if (latency_ != nullptr && interval_latency_) latency_marks_.reserve(expected);
  }
  last_reading_ns_ = now;
  stride_ = 1;
  countdown_ = 1;
}

// Records between readings, so that a reading comes about every
// reading_gap_ns_: doubled or halved at most at each reading, so that a
// change of pace is followed within a few readings.
void Timekeeper::pace(std::int64_t now) {
  const std::int64_t gap = now - last_reading_ns_;
  last_reading_ns_ = now;
  if (gap * 2 < reading_gap_ns_ && stride_ < kLongestStride) {
    stride_ *= 2;
  } else if (gap > reading_gap_ns_ * 2 && stride_ > 1) {
    stride_ /= 2;
  }
  countdown_ = stride_;
}

bool Timekeeper::tick(const Stats& stats) {
  const std::int64_t now = window_.now_ns();
  pace(now);
  if (ramping_) {
    if (now < ramp_end_ns_) return false;
    end_ramp(stats, now);
  }
  if (rules_.timeline && now >= next_sample_ns_) {
    take_sample(stats, now);
    if (rules_.steady && steady_now(timeline_->samples, timeline_->interval_ns, *rules_.steady)) {
      ended_by_ = TimedEnd::kSteady;
      return true;
    }
  }
  if (deadline_ns_ && now >= *deadline_ns_) {
    ended_by_ = TimedEnd::kTime;
    return true;
  }
  return false;
}

void Timekeeper::end_ramp(const Stats& stats, std::int64_t now) {
  ramping_ = false;
  ramp_stats_ = stats;
  if (mix_) mix_ramp_reads_ = mix_reads(stats);
  ramp_elapsed_ns_ = now - window_.start_ns();
  live_->ramping = false;
  live_->ramp_stats = stats;
  live_->ramp_elapsed_ns = ramp_elapsed_ns_;
  // The measurement starts here: the window, the latency samples and the
  // timeline all from this moment, the deadline --time from it.
  window_.restart();
  const std::int64_t start = window_.start_ns();
  if (rules_.time_ns) deadline_ns_ = start + *rules_.time_ns;
  next_sample_ns_ = start + timeline_->interval_ns;
  // The samples of the records the ramp counted go; a queued engine's
  // reads that completed but were not counted yet (in flight when the
  // ramp ended) stay, as their records count in the measurement.
  if (latency_ != nullptr) {
    latency_->reads.forget_first(stats.full_records_in + stats.partial_records_in);
    latency_->writes.forget_first(stats.full_records_out + stats.partial_records_out);
  }
}

void Timekeeper::take_sample(const Stats& stats, std::int64_t now) {
  TimelineSample sample;
  sample.end_ns = now - window_.start_ns();
  sample.bytes = stats.bytes_out - ramp_stats_.bytes_out;
  sample.records = stats.full_records_out + stats.partial_records_out - ramp_stats_.full_records_out -
                   ramp_stats_.partial_records_out;
  if (mix_) {
    const std::int64_t reads = mix_reads(stats) - mix_ramp_reads_;
    sample.read_records = reads;
    sample.read_bytes = reads * mix_block_bytes_;
  }
  timeline_->samples.push_back(sample);
  if (latency_ != nullptr && interval_latency_) {
    latency_marks_.emplace_back(latency_->reads.kept(), latency_->writes.kept());
  }
  // The next one an interval after this one was due: a late tick does not
  // shift the ones after it.
  while (next_sample_ns_ <= now) next_sample_ns_ += timeline_->interval_ns;
  if (adaptive_ && timeline_->samples.size() >= kMostFineSamples && timeline_->interval_ns < kLongestInterval) {
    coarsen();
  }
}

std::int64_t Timekeeper::mix_reads(const Stats& stats) noexcept {
  // The only job's records are the run's.
  if (!mix_jobs_told_) mix_jobs_[0].retired = stats.full_records_out + stats.partial_records_out;
  std::int64_t reads = 0;
  for (std::size_t job = 0; job < mix_jobs_.size(); ++job) {
    MixJob& counted = mix_jobs_[job];
    // A hash a record, between samples: never in the copy's loop. A job
    // decides its records by its own index and its own record numbers.
    for (; counted.counted < counted.retired; ++counted.counted) {
      counted.reads += mix_->reads(static_cast<unsigned>(job), counted.counted) ? 1 : 0;
    }
    reads += counted.reads;
  }
  return reads;
}

void Timekeeper::coarsen() {
  // Samples 1, 3, 5 ... end the doubled intervals; the one due next is
  // the doubled interval's end when an even number is kept.
  std::size_t kept = 0;
  for (std::size_t i = 1; i < timeline_->samples.size(); i += 2, ++kept) {
    timeline_->samples[kept] = timeline_->samples[i];
    if (!latency_marks_.empty()) latency_marks_[kept] = latency_marks_[i];
  }
  timeline_->samples.resize(kept);
  if (!latency_marks_.empty()) latency_marks_.resize(kept);
  timeline_->interval_ns *= 2;
  // The next due time on the doubled grid, past the samples kept.
  const std::int64_t last = timeline_->samples.empty() ? 0 : timeline_->samples.back().end_ns;
  next_sample_ns_ = window_.start_ns() + static_cast<std::int64_t>(kept + 1) * timeline_->interval_ns;
  while (next_sample_ns_ <= window_.start_ns() + last) next_sample_ns_ += timeline_->interval_ns;
}

void Timekeeper::copy_ended(const Stats& stats) {
  const std::int64_t now = window_.now_ns();
  // A copy that ended inside its ramp measured nothing: all it moved was
  // the ramp's.
  if (ramping_) end_ramp(stats, now);
  if (!rules_.timeline) return;
  const std::int64_t end = now - window_.start_ns();
  const std::int64_t last = timeline_->samples.empty() ? 0 : timeline_->samples.back().end_ns;
  if (end > last) take_sample(stats, now);
}

void Timekeeper::add_latency(const LatencyRecorders& latency, double ns_per_tick) {
  std::pair<std::size_t, std::size_t> from{0, 0};
  for (std::size_t i = 0; i < latency_marks_.size() && i < timeline_->samples.size(); ++i) {
    const auto& to = latency_marks_[i];
    TimelineSample& sample = timeline_->samples[i];
    if (const auto reads = latency.reads.slice(from.first, to.first, ns_per_tick)) {
      sample.read_latency = TimelineLatency{reads->p50_ns, reads->p99_ns, reads->max_ns};
    }
    if (const auto writes = latency.writes.slice(from.second, to.second, ns_per_tick)) {
      sample.write_latency = TimelineLatency{writes->p50_ns, writes->p99_ns, writes->max_ns};
    }
    from = to;
  }
}

}  // namespace ddtime
