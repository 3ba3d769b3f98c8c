// compare_traces: two recordings before and after a change: throughput, causes gone or new,
// per-op latency percentiles, and which changes are beyond noise.
#include <fmt/format.h>

#include "analysis/compare/trace_comparison.hpp"
#include "analysis/human_units.hpp"
#include "server/comparison_json.hpp"
#include "server/sanitize.hpp"
#include "server/tools/answer_size.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tool_schemas.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

constexpr const char* kTool = "compare_traces";

const json& input_schema() {
    static const json schema = tool_schema("compare_traces.input.json");
    return schema;
}

// One side: its trace (by the argument `trace_key`) and its filter (the window in `window_key`).
struct Side {
    TraceTarget target;
    analysis::TraceFilter filter;
};

Result<Side> resolve_side(const TraceSet& traces, const json& arguments, const char* trace_key,
                          const char* window_key) {
    auto target = resolve_trace(traces, json{{"trace", arguments.at(trace_key)}});
    if (!target) {
        return Error{std::string(trace_key) + ": " + target.error().message};
    }
    json window = json::object();
    if (arguments.contains(window_key)) {
        window["window"] = arguments.at(window_key);
    }
    auto filter = resolve_filter(*target->model, window);
    if (!filter) {
        return Error{std::string(window_key) + ": " + filter.error().message};
    }
    return Side{std::move(target).value(), std::move(filter).value()};
}

std::string rate(const json& loop) {
    return fmt::format("{} {}/s", analysis::format_decimal(loop["per_s"].get<double>(), 1),
                       loop["unit"].get<std::string>());
}

std::string lost(const json& ns, const json& share) {
    return ns.is_null() ? "no chain"
                        : fmt::format("{} ({})", analysis::format_duration(ns.get<std::int64_t>()),
                                      analysis::format_percent(share.get<double>()));
}

std::string render(const json& answer) {
    std::string text = answer["headline"].get<std::string>() + "\n";
    for (const auto& warning : answer["warnings"]) {
        text += "Warning: " + warning.get<std::string>() + "\n";
    }
    const json& test = answer["throughput_test"];
    text +=
        fmt::format("Throughput: {} -> {} ({}x; {}, bootstrap p={}, interval {}x..{}x). How: {}.\n",
                    rate(answer["before"]["loop"]), rate(answer["after"]["loop"]),
                    analysis::format_decimal(answer["throughput_ratio"].get<double>(), 2),
                    answer["throughput_beyond_noise"].get<bool>() ? "beyond noise" : "within noise",
                    analysis::format_decimal(test["p_value"].get<double>(), 3),
                    analysis::format_decimal(test["ci_low"].get<double>(), 2),
                    analysis::format_decimal(test["ci_high"].get<double>(), 2),
                    answer["throughput_method"].get<std::string>());
    text += fmt::format("Verdicts: {} before, {} after.\n",
                        answer["before"]["verdict"].get<std::string>(),
                        answer["after"]["verdict"].get<std::string>());
    text += "cause | actor | before | after | status\n";
    for (const auto& cause : answer["causes"]) {
        text += fmt::format(
            "{} | {}: {} | {} | {} | {}\n", cause["root_cause_class"].get<std::string>(),
            cause["actor_kind"].get<std::string>(), cause["actor_name"].get<std::string>(),
            lost(cause["before_ns"], cause["before_share"]),
            lost(cause["after_ns"], cause["after_share"]), cause["status"].get<std::string>());
    }
    text += "op | calls before/after | p50 | p90 | p99 | beyond noise (Holm p)\n";
    const auto pair = [](const json& op, const char* field) {
        return analysis::format_duration(op["before"][field].get<std::int64_t>()) + " -> " +
               analysis::format_duration(op["after"][field].get<std::int64_t>());
    };
    for (const auto& op : answer["ops"]) {
        const json& shift = op["shift"];
        text += fmt::format(
            "{} | {}/{} | {} | {} | {} | {}\n", op["op"].get<std::string>(),
            op["before"]["count"].get<std::int64_t>(), op["after"]["count"].get<std::int64_t>(),
            pair(op, "p50_ns"), pair(op, "p90_ns"), pair(op, "p99_ns"),
            shift["rank_test"]["tested"].get<bool>()
                ? fmt::format("{} ({})",
                              shift["beyond_noise"].get<bool>()  ? "yes"
                              : shift["significant"].get<bool>() ? "no: below the effect floor"
                                                                 : "no",
                              analysis::format_decimal(shift["adjusted_p_value"].get<double>(), 3))
                : "too few calls");
    }
    text += "Method: " + answer["significance_method"].get<std::string>() + ".\n";
    if (!answer["note"].get<std::string>().empty()) {
        text += "Note: " + answer["note"].get<std::string>() + "\n";
    }
    return text;
}

Result<ToolAnswer> answer(const json& arguments, const TraceSet& traces, ToolContext& context) {
    constexpr double kSteps = 3;
    context.progress(0, kSteps, "opening the traces");
    auto before = resolve_side(traces, arguments, "before", "window_before");
    if (!before) {
        return before.error();
    }
    auto after = resolve_side(traces, arguments, "after", "window_after");
    if (!after) {
        return after.error();
    }
    context.progress(1, kSteps, "comparing");
    if (context.cancelled()) {
        return Error{"cancelled by the client"};
    }
    analysis::ComparisonOptions options;
    options.before = before->filter;
    options.after = after->filter;
    auto comparison =
        analysis::compare_traces(*before->target.model, *after->target.model, options);
    if (!comparison) {
        return comparison.error();
    }
    json structured = to_json(*comparison);
    const auto limit =
        static_cast<std::size_t>(integer_argument(arguments, input_schema(), "limit"));
    cut_list(structured, "ops", limit, "CUDA operations (largest total time before first)",
             "raise limit for more");
    sanitize_strings(structured);
    context.progress(2, kSteps, "rendering");
    std::string text = std::string(kUntrustedDataNote) + "\n" + render(structured);
    if (auto size = check_answer_size(kTool, structured, text); !size) {
        return size.error();
    }
    context.progress(kSteps, kSteps, "done");
    return ToolAnswer{std::move(structured), std::move(text)};
}

}  // namespace

ToolSpec make_compare_traces_tool() {
    return ToolSpec{
        kTool,
        "Compare two traces",
        "Compares two recordings of one job, before and after a change (fewer workers, direct "
        "indexing, pinned memory): a one-line headline; the GPU loop's throughput before and "
        "after (steps/s where a step shows in the GPU thread's repeating call pattern, else CUDA "
        "calls/s) with a bootstrap test; each cause's loop time lost before and after, and which "
        "causes went away or appeared; every common CUDA op's p50/p90/p99 before and after with "
        "a Mann-Whitney rank test, Holm-corrected, and an effect floor (top `limit`). Refuses "
        "traces with no CUDA op in common; warns when the programs or machines differ." +
            std::string(kUntrustedStringsSentence),
        input_schema(),
        tool_schema("compare_traces.output.json"),
        answer};
}

}  // namespace causeway::server
