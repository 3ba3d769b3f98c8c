#pragma once
// Whether two sets of durations differ beyond noise: the Mann-Whitney U (Wilcoxon rank-sum) test
// with the normal approximation, tie-corrected, and Holm's step-down correction for testing many
// ops at once. Rank tests suit call latencies: they need no assumption about the distribution's
// shape (latencies are skewed, with long tails) and one outlier moves a rank, not a mean.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace causeway::analysis {

// Fewer values than this on either side: the normal approximation does not hold, no test.
inline constexpr std::size_t kMinRankTestValues = 8;
// At most this many values of each side are ranked (an even stride through them, so the same
// input always gives the same answer): ranking millions of calls adds time but no insight, since
// a test over 100k calls already detects shifts far below any effect floor.
inline constexpr std::size_t kMaxRankTestValues = 100'000;

struct RankTest {
    bool tested = false;            // false: fewer than kMinRankTestValues on a side
    std::size_t before_values = 0;  // values ranked (after the stride)
    std::size_t after_values = 0;
    double z = 0;        // > 0: `after` tends to be larger
    double p_value = 1;  // two-sided, uncorrected
    // Probability that a value of `after` exceeds one of `before` (ties count half): 0.5 when
    // neither side tends to be larger (the common-language effect size).
    double after_larger_probability = 0.5;
};

RankTest mann_whitney(const std::vector<std::int64_t>& before,
                      const std::vector<std::int64_t>& after);

// Holm-adjusted p-values (same order as `p_values`): each is compared with the family-wise
// level directly. Holm controls the chance of any false "changed" among all the tests, like
// Bonferroni, but rejects more when several effects are real.
std::vector<double> holm_adjust(const std::vector<double>& p_values);

}  // namespace causeway::analysis
