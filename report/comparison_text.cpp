#include "report/comparison_text.hpp"

#include "report/comparison_headline.hpp"
#include "report/comparison_words.hpp"
#include "report/human_units.hpp"
#include "report/text_table.hpp"

namespace causeway::report {
namespace {

std::string describe_recording(const char* label, const analysis::ComparedRecording& r) {
    std::string out = std::string(label) + printable(r.path) + ": " + printable(r.program) +
                      ", verdict " + r.verdict + ", " + format_duration(r.range.dur_ns()) +
                      "; GPU-driving thread" + (r.gpu_threads.size() > 1 ? "s " : " ");
    for (std::size_t i = 0; i < r.gpu_threads.size() && i < 4; ++i) {
        out += (i ? ", " : "") + printable(gpu_thread_text(r.gpu_threads[i]));
    }
    return out + (r.gpu_threads.empty() ? "none" : "") + "\n";
}

std::string loop_rate(const analysis::LoopThroughput& loop) {
    return format_decimal(loop.per_s, loop.per_s < 100 ? 1 : 0) + " " +
           analysis::loop_unit_name(loop.unit) + "/s (" + std::to_string(loop.count) + " in " +
           format_duration(loop.span_ns) + ")";
}

std::string noise_word(const analysis::ShiftTest& shift) {
    if (!shift.rank.tested) {
        return "too few to test";
    }
    const char* word = shift.beyond_noise ? "CHANGED" : shift.significant ? "below floor" : "noise";
    return word + std::string(" (p=") + format_decimal(shift.adjusted_p_value, 3) + ")";
}

std::string throughput_noise(const analysis::TraceComparison& c) {
    const analysis::RateBootstrap& test = c.throughput_test;
    if (!test.tested) {
        return "too few to test";
    }
    return (c.throughput_beyond_noise ? "CHANGED" : "noise") + std::string(" (p=") +
           format_decimal(test.p_value, 3) + ", interval " + format_decimal(test.ci_low, 2) +
           "x.." + format_decimal(test.ci_high, 2) + "x)";
}

std::string render_throughput(const analysis::TraceComparison& c) {
    std::string out = "Throughput: " + loop_rate(c.before.loop) + " -> " + loop_rate(c.after.loop) +
                      ": " + format_decimal(c.throughput_ratio, 2) + "x, " + throughput_noise(c) +
                      "\n";
    return out + "  How: " + throughput_method_text(c) + "\n";
}

std::string share_of(const std::optional<std::int64_t>& ns, const std::optional<double>& share) {
    if (!ns) {
        return "no chain";
    }
    return format_duration(*ns) + " (" + format_percent(share.value_or(0)) + ")";
}

std::string render_causes(const analysis::TraceComparison& c) {
    if (c.causes.empty()) {
        return "Causes: no chain before or after\n";
    }
    TextTable table({"cause", "actor", "before", "after", "status"},
                    {TextTable::Align::kLeft, TextTable::Align::kLeft, TextTable::Align::kRight,
                     TextTable::Align::kRight, TextTable::Align::kLeft});
    for (const auto& cause : c.causes) {
        table.add_row({cause.root_cause_class,
                       cause.actor_kind + ": " + printable(cause.actor_name),
                       share_of(cause.before_ns, cause.before_share),
                       share_of(cause.after_ns, cause.after_share),
                       analysis::cause_status_name(cause.status)});
    }
    return "Causes (time lost of the GPU loop; \"no chain\": below 10% of the loop):\n" +
           table.render();
}

std::string change_of(std::int64_t before_ns, std::int64_t after_ns) {
    if (before_ns <= 0) {
        return "-";
    }
    return format_decimal(static_cast<double>(after_ns) / static_cast<double>(before_ns), 2) + "x";
}

std::string render_ops(const analysis::TraceComparison& c) {
    TextTable table({"op", "calls", "p50", "p90", "p99", "p50 change", "verdict"},
                    {TextTable::Align::kLeft, TextTable::Align::kRight, TextTable::Align::kRight,
                     TextTable::Align::kRight, TextTable::Align::kRight, TextTable::Align::kRight,
                     TextTable::Align::kLeft});
    const auto pair = [](std::int64_t before, std::int64_t after) {
        return format_duration(before) + " -> " + format_duration(after);
    };
    for (const auto& op : c.ops.common) {
        table.add_row(
            {op.op, std::to_string(op.before.count) + " -> " + std::to_string(op.after.count),
             pair(op.before.p50_ns, op.after.p50_ns), pair(op.before.p90_ns, op.after.p90_ns),
             pair(op.before.p99_ns, op.after.p99_ns), change_of(op.before.p50_ns, op.after.p50_ns),
             noise_word(op.shift)});
    }
    std::string out = "CUDA ops called in both (latency before -> after):\n" + table.render();
    const auto list = [](const std::vector<std::string>& ops) {
        std::string text;
        for (std::size_t i = 0; i < ops.size(); ++i) {
            text += (i ? ", " : "") + ops[i];
        }
        return text;
    };
    if (!c.ops.only_before.empty()) {
        out += "  Only before: " + list(c.ops.only_before) + "\n";
    }
    if (!c.ops.only_after.empty()) {
        out += "  Only after: " + list(c.ops.only_after) + "\n";
    }
    return out;
}

}  // namespace

std::string render_comparison(const analysis::TraceComparison& c, const TerminalStyle& style) {
    std::string out = style.bold(printable(comparison_headline(c))) + "\n\n";
    for (const auto& warning : difference_texts(c)) {
        out += style.yellow("Warning: ") + printable(warning) + "\n";
    }
    out += describe_recording("Before: ", c.before);
    out += describe_recording("After:  ", c.after);
    out += "\n" + render_throughput(c) + "\n" + render_causes(c) + "\n" + render_ops(c);
    out += "\nBeyond noise: " + significance_method_text(c.options) + ".\n";
    return out;
}

}  // namespace causeway::report
