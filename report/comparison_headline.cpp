#include "report/comparison_headline.hpp"

#include <cmath>
#include <vector>

#include "report/human_units.hpp"

namespace causeway::report {
namespace {

using analysis::CauseChange;
using analysis::CauseStatus;
using analysis::OpLatencyChange;
using analysis::TraceComparison;

std::string throughput_part(const TraceComparison& c) {
    const std::string unit = std::string(loop_unit_name(c.after.loop.unit)) + "/s";
    const double ratio = c.throughput_ratio;
    std::string change;
    if (ratio >= 1.5) {
        change = format_decimal(ratio, 1) + "x more " + unit;
    } else if (ratio > 0 && ratio <= 1 / 1.5) {
        change = format_decimal(1 / ratio, 1) + "x fewer " + unit;
    } else {
        const double percent = std::round((ratio - 1) * 100) + 0.0;  // -0 reads as +0
        change = (percent >= 0 ? "+" : "") + format_decimal(percent, 0) + "% " + unit;
    }
    return c.throughput_beyond_noise ? change : unit + " unchanged within noise (" + change + ")";
}

std::string cause_name(const CauseChange& cause) {
    return cause.root_cause_class + " by " + cause.actor_name;
}

// " (predicted 1.9x, measured 2.0x)": what the first recording's chain predicted for removing
// the cause, beside the throughput the comparison measured; empty without a prediction.
std::string prediction_beside(const TraceComparison& c, const CauseChange& cause) {
    if (!cause.predicted_before || c.throughput_ratio <= 0) {
        return {};
    }
    const analysis::CriticalPathCost& p = *cause.predicted_before;
    return std::string(" (predicted ") + (p.device_twice_as_fast ? "with a 2x device " : "") +
           format_decimal(p.speedup, 1) + "x, measured " + format_decimal(c.throughput_ratio, 1) +
           "x)";
}

std::string largest_op_change(const TraceComparison& c) {
    if (!c.largest_op_shift) {
        return {};
    }
    const OpLatencyChange& op = *c.largest_op_shift;
    return op.op + " p50 " + format_duration(op.before.p50_ns) + " -> " +
           format_duration(op.after.p50_ns);
}

}  // namespace

std::string comparison_headline(const TraceComparison& c) {
    std::vector<std::string> parts{throughput_part(c)};
    std::vector<std::string> added;
    for (const auto& cause : c.causes) {
        if (cause.status == CauseStatus::kGone) {
            parts.push_back(cause_name(cause) + " is gone" + prediction_beside(c, cause));
        } else if (cause.status == CauseStatus::kNew) {
            added.push_back(cause_name(cause));
        }
    }
    if (auto op = largest_op_change(c); !op.empty()) {
        parts.push_back(op);
    }
    if (added.empty()) {
        parts.emplace_back("nothing new");
    } else {
        std::string text = "new: ";
        for (std::size_t i = 0; i < added.size(); ++i) {
            text += (i > 0 ? ", " : "") + added[i];
        }
        parts.push_back(text);
    }
    std::string line;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        line += (i > 0 ? "; " : "") + parts[i];
    }
    return line;
}

}  // namespace causeway::report
