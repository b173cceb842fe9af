// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/aggregate.h"

#include <algorithm>
#include <cmath>

namespace ddtime {
namespace {

constexpr double kConfidence = 0.95;
constexpr double kOutlierScore = 3.5;
// 0.6745 is the 75th percentile of the standard normal: it makes the MAD
// comparable with a standard deviation.
constexpr double kMadToSd = 0.6745;

// The median of sorted values.
double median_of(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

}  // namespace

std::optional<OrderInterval> median_interval_ranks(std::size_t n) noexcept {
  if (n < 6) return std::nullopt;
  // P(B = k) for B ~ Binomial(n, 1/2), up to a common factor: 1 at the
  // middle, then the ratio C(n, k-1) / C(n, k) = k / (n - k + 1) outwards,
  // so that neither 2^n nor n! is ever formed (and no libm at start-up).
  std::vector<double> mass(n + 1, 0.0);
  const std::size_t middle = n / 2;
  mass[middle] = 1;
  for (std::size_t k = middle; k > 0; --k) mass[k - 1] = mass[k] * double(k) / double(n - k + 1);
  for (std::size_t k = middle; k < n; ++k) mass[k + 1] = mass[k] * double(n - k) / double(k + 1);
  double total = 0;
  for (const double m : mass) total += m;
  std::optional<OrderInterval> best;
  for (std::size_t j = 0; j <= n / 2; ++j) {
    double inside = 0;
    for (std::size_t k = j + 1; k + j < n; ++k) inside += mass[k];
    if (inside < kConfidence * total) break;
    best = OrderInterval{j, n - 1 - j};
  }
  return best;
}

Figure summarise_figure(std::span<const double> values) {
  Figure figure;
  figure.count = values.size();
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  figure.min = sorted.front();
  figure.max = sorted.back();
  figure.median = median_of(sorted);
  if (const auto ranks = median_interval_ranks(sorted.size())) {
    figure.median_low = sorted[ranks->low];
    figure.median_high = sorted[ranks->high];
  }
  // Welford's one pass: stable where the values are large and close.
  double mean = 0;
  double squares = 0;
  std::size_t seen = 0;
  for (const double x : values) {
    ++seen;
    const double delta = x - mean;
    mean += delta / double(seen);
    squares += delta * (x - mean);
  }
  figure.mean = mean;
  figure.sd = seen > 1 ? std::sqrt(squares / double(seen - 1)) : 0;
  std::vector<double> deviations;
  deviations.reserve(sorted.size());
  for (const double x : sorted) deviations.push_back(std::fabs(x - figure.median));
  std::sort(deviations.begin(), deviations.end());
  const double mad = median_of(deviations);
  if (mad > 0) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (kMadToSd * std::fabs(values[i] - figure.median) / mad > kOutlierScore) figure.outliers.push_back(i);
    }
  }
  return figure;
}

RowSummary summarise_runs(std::span<const RunFigures> runs) {
  auto figure = [&](double RunFigures::*member) {
    std::vector<double> values;
    values.reserve(runs.size());
    for (const RunFigures& run : runs) values.push_back(run.*member);
    return summarise_figure(values);
  };
  return {figure(&RunFigures::real), figure(&RunFigures::user), figure(&RunFigures::sys),
          figure(&RunFigures::bytes_per_second)};
}

KneeSearch knee_search(std::span<const Figure> rates) {
  constexpr double kWorthwhileGain = 0.05;
  auto flat = [&](std::size_t k) {
    const Figure& before = rates[k - 1];
    const Figure& after = rates[k];
    if (before.median <= 0) return false;
    const double gain = after.median / before.median - 1;
    if (gain >= kWorthwhileGain) return false;
    if (before.count < 2 || after.count < 2) return true;
    auto variation = [](const Figure& f) { return f.mean > 0 ? f.sd / f.mean : 0.0; };
    return gain < std::max(variation(before), variation(after));
  };
  const std::size_t n = rates.size();
  if (n >= 3 && flat(n - 1) && flat(n - 2)) return {false, n - 3};
  return {};
}

}  // namespace ddtime
