// The tools' structuredContent (schemas/tools/*.output.json), written from their answers.
#include "report/analysis_json.hpp"
#include "report/comparison_json.hpp"
#include "report/optional_json.hpp"
#include "report/output_shapes.hpp"
#include "report/readiness_json.hpp"
#include "report/tool_answers.hpp"
#include "report/verdict_text.hpp"

namespace causeway::report {
namespace {

using nlohmann::json;

// Keeps the first `depth` items of a frame list and says how many there were under `total_key`.
void cut_frames(json& stack, const char* frames_key, const char* total_key, std::size_t depth) {
    json& frames = stack[frames_key];
    stack[total_key] = frames.size();
    if (frames.size() > depth) {
        frames.erase(frames.begin() + static_cast<std::ptrdiff_t>(depth), frames.end());
    }
}

}  // namespace

json to_json(const TraceStatsAnswer& answer) {
    return write_json(answer);
}

json to_json(const CausalChainsAnswer& answer) {
    const analysis::Diagnosis& d = answer.diagnosis;
    return {{"trace", answer.trace},
            {"verdict", verdict_json(d)},
            {"chains", array_of(d.chains)},
            {"chains_total", answer.chains_total},
            {"gpu_threads", array_of(d.gpu_threads)},
            {"data_quality", to_json(d.data_quality)},
            {"evidence_limits", evidence_limit_texts(d.evidence_limits)},
            {"session", to_json(d.session)},
            {"range", to_json(d.range)},
            {"note", answer.note}};
}

json to_json(const ProcessBreakdownAnswer& answer) {
    return write_json(answer);
}

json to_json(const StacksAnswer& answer) {
    json out = to_json(answer.report);
    for (auto& stack : out["stacks"]) {
        cut_frames(stack, "frames", "frames_total", answer.depth);
        if (stack.contains("merged_frames")) {
            cut_frames(stack, "merged_frames", "merged_frames_total", answer.depth);
        }
    }
    out["trace"] = answer.trace;
    out["note"] = answer.note;
    return out;
}

json to_json(const TimelineAnswer& answer) {
    return write_json(answer);
}

json to_json(const SqlAnswer& answer) {
    return write_json(answer);
}

json to_json(const ComparisonAnswer& answer) {
    json out = to_json(answer.comparison);
    out["ops_total"] = answer.ops_total;
    out["note"] = answer.note;
    return out;
}

json to_json(const ReadinessAnswer& answer) {
    return readiness_json(answer.readiness, answer.max_processes);
}

}  // namespace causeway::report
