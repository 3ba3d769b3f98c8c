#include "report/ranks_text.hpp"

#include <fmt/format.h>

#include "report/human_units.hpp"

namespace causeway::report {
namespace {

std::string rank_list(const std::vector<std::int64_t>& ranks) {
    std::string text;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        text += (i == 0 ? "" : i + 1 == ranks.size() ? " and " : ", ") + std::to_string(ranks[i]);
    }
    return text;
}

}  // namespace

std::string latest_rank_text(const analysis::CommunicatorRanks& c) {
    const analysis::RankTiming* latest = c.latest();
    if (latest == nullptr || c.aligned == 0) {
        return "";
    }
    return fmt::format(
        "rank {} (pid {}) arrived last at {} of {} collectives, {} late on average", latest->rank,
        latest->pid,
        format_percent(static_cast<double>(latest->arrived_last) / static_cast<double>(c.aligned)),
        c.aligned, format_duration(latest->late_ns / latest->arrived_last));
}

std::string missing_collective_text(const analysis::CommunicatorRanks& c) {
    if (!c.missing) {
        return "";
    }
    std::vector<std::int64_t> present;
    for (const auto& rank : c.ranks) {
        if (rank.collectives > c.aligned) {
            present.push_back(rank.rank);
        }
    }
    std::vector<std::int64_t> absent;
    std::string last_calls;
    for (const auto& rank : c.missing->absent) {
        absent.push_back(rank.rank);
        last_calls += fmt::format(
            "; rank {} (pid {}) last called {}{}", rank.rank, rank.pid,
            rank.last_call ? *rank.last_call + " at " + format_duration(rank.last_call_ns)
                           : std::string("nothing recorded"),
            rank.stuck_at ? ", last seen at " + analysis::describe_line(*rank.stuck_at) : "");
    }
    return fmt::format(
        "rank{} {} never issued collective #{}, which rank{} {} did: {} hung before it, or the "
        "recording ended first{}",
        absent.size() > 1 ? "s" : "", rank_list(absent), c.missing->number,
        present.size() > 1 ? "s" : "", rank_list(present), absent.size() > 1 ? "they" : "it",
        last_calls);
}

std::string render_ranks(const std::vector<analysis::CommunicatorRanks>& communicators) {
    std::string out;
    for (const auto& c : communicators) {
        out += fmt::format("  communicator of {} ranks: {} collectives every rank reached\n",
                           c.nranks, c.aligned);
        if (auto latest = latest_rank_text(c); !latest.empty()) {
            out += "    " + latest + "\n";
        }
        if (auto missing = missing_collective_text(c); !missing.empty()) {
            out += "    " + missing + "\n";
        }
        out += fmt::format("    {:>5}  {:>8}  {:>11}  {:>12}  {:>17}\n", "rank", "pid",
                           "collectives", "arrived last", "waited for others");
        for (const auto& rank : c.ranks) {
            out +=
                fmt::format("    {:>5}  {:>8}  {:>11}  {:>12}  {:>17}\n", rank.rank, rank.pid,
                            rank.collectives, rank.arrived_last, format_duration(rank.waited_ns));
        }
    }
    return out;
}

}  // namespace causeway::report
