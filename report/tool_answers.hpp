#pragma once
// The MCP tools' answers: what each tool computed (the analysis result, cut to the page the
// client asked for) and how it becomes the tool's structuredContent (to_json) and its compact
// text (to_text). Both are written from the same struct, so they cannot disagree. Every string
// the text takes from an answer passes sanitize_untrusted, as the server does to every string of
// the structuredContent (untrusted_text.hpp).

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "report/json.hpp"

#include "analysis/compare/trace_comparison.hpp"
#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/measure/process_breakdown.hpp"
#include "analysis/measure/stacks.hpp"
#include "analysis/measure/timeline.hpp"
#include "analysis/measure/trace_stats.hpp"
#include "analysis/sql/readonly_sql.hpp"
#include "collector/discover/readiness.hpp"
#include "fleet/fleet_overview.hpp"

namespace causeway::report {

// The first `count` of `items`: what an answer shows of a list cut to a page or a depth.
template <class T>
std::vector<T> first(const std::vector<T>& items, std::size_t count) {
    return {items.begin(),
            items.begin() + static_cast<std::ptrdiff_t>(std::min(count, items.size()))};
}

// get_trace_stats (and the resource causeway://traces/X/summary).
struct TraceStatsAnswer {
    std::string trace{};
    analysis::TraceStats stats{};  // ops cut to the first `limit`
    std::size_t ops_total = 0;     // ops before the cut
    std::string note{};            // how to see the ops cut off; empty when none were
};

// get_causal_chains.
struct CausalChainsAnswer {
    std::string trace{};
    analysis::Diagnosis diagnosis{};  // chains cut to the first `limit`
    std::size_t chains_total = 0;
    std::string note{};
};

// get_per_process_breakdown: one page of processes.
struct ProcessBreakdownAnswer {
    std::string trace{};
    std::vector<analysis::ProcessRow> processes{};  // the page; threads cut per process
    std::int64_t total_processes = 0;
    std::size_t offset = 0;
    std::optional<std::size_t> next_offset{};  // absent on the last page
    analysis::TimeWindow range{};
    std::string note{};
};

// get_stacks.
struct StacksAnswer {
    std::string trace{};
    analysis::StackReport report{};
    std::size_t depth = 0;  // frames shown per stack (the totals say how many there were)
    std::string note{};
};

// get_timeline.
struct TimelineAnswer {
    std::string trace{};
    analysis::Timeline timeline{};
};

// run_sql: one page of rows.
struct SqlAnswer {
    std::string trace{};
    analysis::SqlResult result{};
    std::size_t offset = 0;
    std::optional<std::size_t> next_offset{};  // absent when no rows were left out
    std::string note{};
};

// compare_traces.
struct ComparisonAnswer {
    analysis::TraceComparison comparison{};  // ops.common cut to the first `limit`
    std::size_t ops_total = 0;
    std::string note{};
};

// get_check lists at most this many processes with CUDA mapped (cuda_process_count says how many
// there were); `causeway check --json` lists every one.
inline constexpr std::size_t kMaxCudaProcessesListed = 50;

// get_check (and `causeway check --json`).
struct ReadinessAnswer {
    collector::Readiness readiness{};
    std::size_t max_processes = 0;  // processes with CUDA mapped that are listed
};

nlohmann::json to_json(const TraceStatsAnswer& answer);
nlohmann::json to_json(const CausalChainsAnswer& answer);
nlohmann::json to_json(const ProcessBreakdownAnswer& answer);
nlohmann::json to_json(const StacksAnswer& answer);
nlohmann::json to_json(const TimelineAnswer& answer);
nlohmann::json to_json(const SqlAnswer& answer);
nlohmann::json to_json(const ComparisonAnswer& answer);
nlohmann::json to_json(const ReadinessAnswer& answer);

std::string to_text(const TraceStatsAnswer& answer);
std::string to_text(const CausalChainsAnswer& answer);
std::string to_text(const ProcessBreakdownAnswer& answer);
std::string to_text(const StacksAnswer& answer);
std::string to_text(const TimelineAnswer& answer);
std::string to_text(const SqlAnswer& answer);
std::string to_text(const ComparisonAnswer& answer);
std::string to_text(const ReadinessAnswer& answer);
// get_fleet_overview (ClickHouse node names are the pusher's, not the traced system's).
std::string to_text(const fleet::FleetOverview& overview);

}  // namespace causeway::report
