#pragma once
// The common path of the tools that answer a question about one trace: resolve the trace (and
// load its model) and the filter, report progress, honour cancellation, cache the answer of a
// finished trace by the tool's arguments (structuredContent and text together), and sanitise
// traced-system strings.

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/model/trace_filter.hpp"
#include "report/tool_answers.hpp"
#include "server/methods/catalog.hpp"
#include "server/tools/tool_args.hpp"
#include "server/tools/tool_registry.hpp"

namespace causeway::server {

// Computes the answer: structuredContent and text, both written by report/ (tool_answer).
using TraceCompute = std::function<Result<ToolAnswer>(const TraceTarget& target,
                                                      const analysis::TraceFilter& filter)>;

// A tool's answer struct (report/tool_answers.hpp) as structuredContent and text.
template <class Answer>
ToolAnswer tool_answer(const Answer& answer) {
    return ToolAnswer{report::to_json(answer), report::to_text(answer)};
}

// The question of `request` about the trace `trace` names, the part of it `filter` names.
Result<ToolAnswer> answer_trace_question(const ToolRequest& request, const TraceArguments& trace,
                                         const FilterArguments& filter,
                                         const TraceCompute& compute);

// Computes the answer from the trace DB itself (SQL), without its model.
using TraceDbCompute = std::function<Result<ToolAnswer>(const Trace& trace)>;

// The question of `request` about the trace `trace` names that its DB answers: its model is not
// loaded for it (tens of seconds at 100M calls).
Result<ToolAnswer> answer_trace_db_question(const ToolRequest& request, const TraceArguments& trace,
                                            const TraceDbCompute& compute);

// A computed answer as the answer cache keeps it (structured and text): traced-system strings
// sanitised, the untrusted-data note before the text, and refused when too large to send, so
// that only answers that can be sent are kept.
Result<nlohmann::json> cacheable_answer(const std::string& tool, ToolAnswer computed);
// The answer that cacheable_answer() made.
ToolAnswer cached_answer(nlohmann::json cached);

// Keeps the first `limit` items; returns how many there were.
template <class T>
std::size_t keep_first(std::vector<T>& items, std::size_t limit) {
    const std::size_t total = items.size();
    items.resize(std::min(total, limit));
    return total;
}

// The note an answer carries when a list was cut: "showing 20 of 143 ...; pass ... for more".
std::string cut_note(std::size_t shown, std::size_t total, const std::string& what,
                     const std::string& how_to_see_more);

}  // namespace causeway::server
