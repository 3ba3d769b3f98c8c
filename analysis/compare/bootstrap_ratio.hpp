#pragma once
// Whether a loop's rate changed beyond noise: a bootstrap of the ratio of mean intervals.
// A rate is count / span, i.e. one over the mean interval (step to step, or call to call), so a
// few long stalls move it as much as many short steps: a rank test of the intervals (which
// weighs medians) would miss exactly the stalls a fix removes. Resampling the intervals of each
// side with replacement gives the spread of the ratio of their means, with no assumption about
// their distribution. The generator has a fixed seed: the same recordings give the same answer.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace causeway::analysis {

inline constexpr std::size_t kBootstrapResamples = 4000;
// Intervals used per side (an even stride through longer lists): resampling costs
// resamples x values, and a mean over 5k intervals is already exact to far below any floor.
inline constexpr std::size_t kMaxBootstrapValues = 5'000;
// Fewer intervals than this on either side: no test.
inline constexpr std::size_t kMinBootstrapValues = 5;

struct RateBootstrap {
    bool tested = false;
    std::size_t before_values = 0;  // intervals resampled (after the stride)
    std::size_t after_values = 0;
    double rate_ratio = 0;  // mean interval before / mean interval after: > 1 is faster after
    double ci_low = 0;      // central interval of the resampled ratios at level 1 - alpha
    double ci_high = 0;
    // Two-sided: twice the smaller share of resampled ratios on either side of 1 (at least
    // 1 / (resamples + 1)).
    double p_value = 1;
};

RateBootstrap bootstrap_rate_ratio(const std::vector<std::int64_t>& before_interval_ns,
                                   const std::vector<std::int64_t>& after_interval_ns,
                                   double alpha);

}  // namespace causeway::analysis
