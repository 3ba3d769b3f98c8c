// The tools' structuredContent (schemas/tools/*.output.json), written from their answers.
#include "report/analysis_json.hpp"
#include "report/shapes/comparison.hpp"
#include "report/shapes/diagnosis.hpp"
#include "report/shapes/process_breakdown.hpp"
#include "report/shapes/readiness.hpp"
#include "report/shapes/sql.hpp"
#include "report/shapes/stacks.hpp"
#include "report/shapes/timeline.hpp"
#include "report/shapes/trace_stats.hpp"
#include "report/tool_answers.hpp"

namespace causeway::report {

using nlohmann::json;

json to_json(const TraceStatsAnswer& answer) {
    return write_json(answer);
}

json to_json(const CausalChainsAnswer& answer) {
    return write_json(answer);
}

json to_json(const ProcessBreakdownAnswer& answer) {
    return write_json(answer);
}

std::vector<PythonFrameShown> python_frames_shown(
    const std::vector<analysis::PythonFrame>& frames) {
    std::vector<PythonFrameShown> shown;
    shown.reserve(frames.size());
    for (const auto& f : frames) {
        // A frame without a file is the interpreter's own: the standard library.
        shown.push_back({f, f.file ? analysis::library_package(*f.file) : std::string("stdlib")});
    }
    return shown;
}

std::vector<StackAtDepth> stacks_at_depth(const StacksAnswer& answer) {
    std::vector<StackAtDepth> shown;
    shown.reserve(answer.report.stacks.size());
    for (const auto& stack : answer.report.stacks) {
        shown.push_back({stack, answer.depth});
    }
    return shown;
}

json to_json(const StacksAnswer& answer) {
    return write_json(answer);
}

json to_json(const TimelineAnswer& answer) {
    return write_json(answer);
}

json to_json(const SqlAnswer& answer) {
    return write_json(answer);
}

json to_json(const ComparisonAnswer& answer) {
    return write_json(answer);
}

json to_json(const ReadinessAnswer& answer) {
    return write_json(answer);
}

}  // namespace causeway::report
