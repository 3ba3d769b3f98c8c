#pragma once
// The common path of the tools that answer a question about one trace: resolve the trace and
// the filter, report progress, honour cancellation, cache the answer of a finished trace by the
// tool's arguments, sanitise traced-system strings, and render the text from the sanitised JSON.

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/model/trace_filter.hpp"
#include "server/methods/catalog.hpp"
#include "server/tools/tool_args.hpp"

namespace causeway::server {

struct TraceQuestion {
    std::string tool;
    // Computes the structured answer (the runner adds "trace": the trace's name).
    std::function<Result<json>(const TraceTarget& target, const analysis::TraceFilter& filter)>
        compute;
    // The compact text rendering of the (sanitised) structured answer.
    std::function<std::string(const json& structured)> render;
};

Result<ToolAnswer> answer_trace_question(const TraceQuestion& question, const json& arguments,
                                         const TraceSet& traces, ToolContext& context);

// Keeps the first `limit` items of answer[list]; sets answer[list + "_total"] to how many there
// were and answer["note"] to cut_note(...) (empty when nothing was cut).
void cut_list(json& answer, const std::string& list, std::size_t limit, const std::string& what,
              const std::string& how_to_see_more);

// The note an answer carries when a list was cut: "showing 20 of 143 ...; pass ... for more".
std::string cut_note(std::size_t shown, std::size_t total, const std::string& what,
                     const std::string& how_to_see_more);

}  // namespace causeway::server
