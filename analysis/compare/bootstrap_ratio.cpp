#include "analysis/compare/bootstrap_ratio.hpp"

#include <algorithm>
#include <random>

namespace causeway::analysis {
namespace {

constexpr std::uint64_t kSeed = 0x5eed'c0de'ca05'e3a1;

std::vector<double> strided(const std::vector<std::int64_t>& values) {
    const std::size_t stride =
        std::max<std::size_t>(1, (values.size() + kMaxBootstrapValues - 1) / kMaxBootstrapValues);
    std::vector<double> kept;
    for (std::size_t i = 0; i < values.size(); i += stride) {
        kept.push_back(static_cast<double>(values[i]));
    }
    return kept;
}

double mean(const std::vector<double>& values) {
    double sum = 0;
    for (double v : values) {
        sum += v;
    }
    return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

double resampled_mean(const std::vector<double>& values, std::mt19937_64& generator) {
    std::uniform_int_distribution<std::size_t> pick(0, values.size() - 1);
    double sum = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        sum += values[pick(generator)];
    }
    return sum / static_cast<double>(values.size());
}

}  // namespace

RateBootstrap bootstrap_rate_ratio(const std::vector<std::int64_t>& before_interval_ns,
                                   const std::vector<std::int64_t>& after_interval_ns,
                                   double alpha) {
    RateBootstrap result;
    const std::vector<double> before = strided(before_interval_ns);
    const std::vector<double> after = strided(after_interval_ns);
    result.before_values = before.size();
    result.after_values = after.size();
    const double after_mean = mean(after);
    if (before.size() < kMinBootstrapValues || after.size() < kMinBootstrapValues ||
        after_mean <= 0) {
        return result;
    }
    result.tested = true;
    result.rate_ratio = mean(before) / after_mean;
    std::mt19937_64 generator(kSeed);
    std::vector<double> ratios;
    ratios.reserve(kBootstrapResamples);
    std::size_t at_most_one = 0;
    std::size_t at_least_one = 0;
    for (std::size_t r = 0; r < kBootstrapResamples; ++r) {
        const double before_mean = resampled_mean(before, generator);
        const double resampled_after = resampled_mean(after, generator);
        const double ratio = resampled_after > 0 ? before_mean / resampled_after : 0;
        ratios.push_back(ratio);
        at_most_one += ratio <= 1 ? 1 : 0;
        at_least_one += ratio >= 1 ? 1 : 0;
    }
    std::sort(ratios.begin(), ratios.end());
    const auto quantile = [&ratios](double q) {
        const auto index = static_cast<std::size_t>(q * static_cast<double>(ratios.size() - 1));
        return ratios[index];
    };
    result.ci_low = quantile(alpha / 2);
    result.ci_high = quantile(1 - alpha / 2);
    const double resamples = static_cast<double>(kBootstrapResamples);
    const double tail = static_cast<double>(std::min(at_most_one, at_least_one));
    result.p_value = std::min(1.0, std::max(2 * tail / resamples, 1 / (resamples + 1)));
    return result;
}

}  // namespace causeway::analysis
