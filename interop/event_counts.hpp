#pragma once
// Per-minute counts of an Ingero trace: what its event_aggregates table says (Ingero counts
// every event there, per minute per pid, but stores only some as rows) merged with what the
// events table holds, so that each (minute, process, event) says how many happened and how many
// the importer kept as individual records.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "interop/ingero_identity.hpp"
#include "interop/ingero_ops.hpp"

namespace causeway::interop {

struct CountKey {
    std::int64_t bucket_ns = 0;  // minute start, Unix epoch (ns), as Ingero truncates it
    std::optional<TaskKey> process{};
    std::string event{};
    auto operator<=>(const CountKey&) const = default;
};

struct MergedCount {
    std::int64_t count = 0;    // events that happened (count)
    std::int64_t records = 0;  // of those, imported as individual records (count)
    std::optional<std::int64_t> total_dur_ns{}, max_dur_ns{};  // absent: the event has none
    std::int64_t arg0_sum = 0;    // summed arg0 (bytes for mm_page_alloc)
    bool from_aggregate = false;  // event_aggregates had a row for it
};

// Totals of one event name over the whole import, for the data-quality report.
struct EventTotals {
    IngeroOpInfo op{};
    std::int64_t count = 0;
    std::int64_t records = 0;
    std::set<std::optional<TaskKey>> processes_with_counts_only{};
};

class EventCounts {
  public:
    static constexpr std::int64_t kBucketNs = 60'000'000'000;  // Ingero aggregates per minute

    void add_event(std::int64_t ts_ns, const std::optional<TaskKey>& process,
                   const IngeroOpInfo& op, std::int64_t dur_ns, std::int64_t arg0, bool recorded);
    void add_aggregate(std::int64_t bucket_ns, const std::optional<TaskKey>& process,
                       const IngeroOpInfo& op, std::int64_t count, std::int64_t stored,
                       std::int64_t sum_dur_ns, std::int64_t max_dur_ns, std::int64_t sum_arg0);

    // Calls `visit` for every (minute, process, event), in order.
    void for_each(const std::function<void(const CountKey&, const MergedCount&)>& visit) const;
    std::map<std::string, EventTotals> totals() const;
    // Cells where the events table holds more rows than event_aggregates says were stored.
    std::int64_t disagreements() const;

  private:
    struct Cell {
        std::int64_t events = 0, event_dur_sum = 0, event_dur_max = 0, event_arg0_sum = 0;
        std::int64_t records = 0;
        bool has_aggregate = false;
        std::int64_t agg_count = 0, agg_stored = 0, agg_dur_sum = 0, agg_dur_max = 0;
        std::int64_t agg_arg0_sum = 0;
    };
    static MergedCount merge(const Cell& cell);

    std::map<CountKey, Cell> cells_;
    std::map<std::string, IngeroOpInfo> ops_;  // event name -> what it is
};

}  // namespace causeway::interop
