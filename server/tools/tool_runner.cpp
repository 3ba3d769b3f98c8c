#include "server/tools/tool_runner.hpp"

#include <fmt/format.h>

#include "server/sanitize.hpp"
#include "server/tools/answer_size.hpp"

namespace causeway::server {

Result<ToolAnswer> answer_trace_question(const TraceQuestion& question, const json& arguments,
                                         const TraceSet& traces, ToolContext& context) {
    const auto rendered = [&question](const json& structured) {
        return std::string(kUntrustedDataNote) + "\n" + question.render(structured);
    };
    constexpr double kSteps = 3;
    context.progress(0, kSteps, "opening the trace");
    auto target = resolve_trace(traces, arguments);
    if (!target) {
        return target.error();
    }
    context.progress(1, kSteps, "analysing");
    if (context.cancelled()) {
        return Error{"cancelled by the client"};
    }
    auto answer = target->trace->cached(cache_key(question.tool, arguments), [&]() -> Result<json> {
        auto filter = resolve_filter(*target->model, arguments);
        if (!filter) {
            return filter.error();
        }
        auto computed = question.compute(target.value(), filter.value());
        if (!computed) {
            return computed.error();
        }
        json structured = json{{"trace", target->trace->name()}};
        structured.update(computed.value());
        sanitize_strings(structured);
        // Checked here, inside what the cache may keep: an answer too large to send is an
        // error, and errors are never cached.
        if (auto size = check_answer_size(question.tool, structured, rendered(structured)); !size) {
            return size.error();
        }
        return structured;
    });
    if (!answer) {
        return answer.error();
    }
    context.progress(2, kSteps, "rendering");
    std::string text = rendered(answer.value());
    context.progress(kSteps, kSteps, "done");
    return ToolAnswer{std::move(answer).value(), std::move(text)};
}

void cut_list(json& answer, const std::string& list, std::size_t limit, const std::string& what,
              const std::string& how_to_see_more) {
    json& items = answer[list];
    const std::size_t total = items.size();
    if (total > limit) {
        items.erase(items.begin() + static_cast<std::ptrdiff_t>(limit), items.end());
    }
    answer[list + "_total"] = total;
    answer["note"] = cut_note(limit, total, what, how_to_see_more);
}

std::string cut_note(std::size_t shown, std::size_t total, const std::string& what,
                     const std::string& how_to_see_more) {
    if (shown >= total) {
        return {};
    }
    return fmt::format("showing {} of {} {}; {}", shown, total, what, how_to_see_more);
}

}  // namespace causeway::server
