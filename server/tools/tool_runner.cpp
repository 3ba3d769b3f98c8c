#include "server/tools/tool_runner.hpp"

#include <fmt/format.h>

#include "server/rpc/sanitize.hpp"
#include "server/tools/answer_size.hpp"

namespace causeway::server {

namespace {

constexpr double kSteps = 3;

// Reports progress, honours cancellation and answers from the cache of `trace`, or with what
// `compute` answers (cached for a finished trace).
Result<ToolAnswer> answer_cached(const ToolRequest& request, const Trace& trace,
                                 const std::function<Result<ToolAnswer>()>& compute) {
    ToolContext& context = request.context;
    context.progress(1, kSteps, "analysing");
    if (context.cancelled()) {
        return Error{"cancelled by the client"};
    }
    // The cache keeps both halves of the answer: the text is written from the answer struct,
    // which is not kept.
    const std::string tool(request.tool);
    auto cached = trace.cached(cache_key(tool, request.arguments), [&]() -> Result<json> {
        auto computed = compute();
        if (!computed) {
            return computed.error();
        }
        return cacheable_answer(tool, std::move(computed).value());
    });
    if (!cached) {
        return cached.error();
    }
    context.progress(2, kSteps, "rendering");
    ToolAnswer answer = cached_answer(std::move(cached).value());
    context.progress(kSteps, kSteps, "done");
    return answer;
}

}  // namespace

Result<ToolAnswer> answer_trace_question(const ToolRequest& request, const TraceArguments& trace,
                                         const FilterArguments& filter,
                                         const TraceCompute& compute) {
    request.context.progress(0, kSteps, "opening the trace");
    auto target = resolve_trace(request.traces, trace);
    if (!target) {
        return target.error();
    }
    return answer_cached(request, *target->trace, [&]() -> Result<ToolAnswer> {
        auto resolved = resolve_filter(*target->model, filter);
        if (!resolved) {
            return resolved.error();
        }
        return compute(target.value(), resolved.value());
    });
}

Result<ToolAnswer> answer_trace_db_question(const ToolRequest& request, const TraceArguments& trace,
                                            const TraceDbCompute& compute) {
    request.context.progress(0, kSteps, "opening the trace");
    auto found = find_trace(request.traces, trace);
    if (!found) {
        return found.error();
    }
    return answer_cached(request, *found.value(), [&] { return compute(*found.value()); });
}

Result<json> cacheable_answer(const std::string& tool, ToolAnswer computed) {
    sanitize_strings(computed.structured);
    std::string text = std::string(kUntrustedDataNote) + "\n" + computed.text;
    // Checked here, inside what the cache may keep: an answer too large to send is an error, and
    // errors are never cached.
    if (auto size = check_answer_size(tool, computed.structured, text); !size) {
        return size.error();
    }
    return json{{"structured", std::move(computed.structured)}, {"text", std::move(text)}};
}

ToolAnswer cached_answer(json cached) {
    return ToolAnswer{std::move(cached["structured"]), cached["text"].get<std::string>()};
}

std::string cut_note(std::size_t shown, std::size_t total, const std::string& what,
                     const std::string& how_to_see_more) {
    if (shown >= total) {
        return {};
    }
    return fmt::format("showing {} of {} {}; {}", shown, total, what, how_to_see_more);
}

}  // namespace causeway::server
