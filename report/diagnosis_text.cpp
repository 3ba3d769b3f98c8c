#include "report/diagnosis_text.hpp"

#include "report/ranks_text.hpp"

#include <algorithm>

#include "report/chain_text.hpp"
#include "report/evidence_text.hpp"
#include "report/human_units.hpp"
#include "report/recommendation_text.hpp"
#include "report/text_table.hpp"
#include "report/verdict_text.hpp"

namespace causeway::report {
namespace {

std::string colour_verdict(analysis::VerdictClass verdict_class, const TerminalStyle& style) {
    const std::string name = analysis::verdict_class_name(verdict_class);
    if (verdict_class == analysis::VerdictClass::kHealthy) {
        return style.bold(style.green(name));
    }
    if (verdict_class == analysis::VerdictClass::kInsufficientData) {
        return style.bold(style.yellow(name));
    }
    return style.bold(style.red(name));
}

std::string headline(const analysis::Diagnosis& d, const std::string& db_path) {
    std::string out = "Trace: " + printable(db_path) + " (" + printable(d.session.host) + ", " +
                      std::to_string(d.session.cpu_count) + " CPUs, GPU " +
                      printable(d.session.gpu.value_or("none recorded")) + ", source " +
                      printable(d.session.source) + ")\n";
    out += "Range: " + format_duration(d.range.start_ns) + " .. " +
           format_duration(d.range.end_ns) + " (" + format_duration(d.range.dur_ns()) + ")\n";
    if (!d.gpu_threads.empty()) {
        out += "GPU-driving thread" + std::string(d.gpu_threads.size() > 1 ? "s: " : ": ");
        for (std::size_t i = 0; i < d.gpu_threads.size() && i < 8; ++i) {
            const auto& t = d.gpu_threads[i];
            out += (i ? ", " : "") + printable(t.comm) + " (pid " + std::to_string(t.pid) +
                   ", tid " + std::to_string(t.tid) + ")";
        }
        out += "\n";
    }
    return out;
}

std::string render_numbers(const analysis::Verdict& v) {
    if (v.numbers.empty()) {
        return "";
    }
    std::string out = "Loop:";
    for (std::size_t i = 0; i < v.numbers.size(); ++i) {
        out += (i ? "; " : " ") + evidence_text(v.numbers[i]);
    }
    return out + "\n";
}

// The competitors' table; with a container column where any of them runs in a container.
std::string render_competitors(const std::vector<analysis::Competitor>& competitors) {
    const bool containers =
        std::any_of(competitors.begin(), competitors.end(),
                    [](const analysis::Competitor& c) { return c.container.has_value(); });
    std::vector<std::string> header{"who had the CPU", "pid",       "tid",  "role",
                                    "in tree",         "preempted", "share"};
    if (containers) {
        header.emplace_back("container");  // left-aligned, as a column without an alignment is
    }
    TextTable table(header,
                    {TextTable::Align::kLeft, TextTable::Align::kRight, TextTable::Align::kRight,
                     TextTable::Align::kLeft, TextTable::Align::kLeft, TextTable::Align::kRight,
                     TextTable::Align::kRight});
    for (const auto& c : competitors) {
        std::vector<std::string> row{printable(c.comm),        std::to_string(c.pid),
                                     std::to_string(c.tid),    analysis::role_name(c.role),
                                     c.in_tree ? "yes" : "no", format_duration(c.preempted_ns),
                                     format_percent(c.share)};
        if (containers) {
            row.push_back(c.container ? c.container->short_text() : "-");
        }
        table.add_row(row);
    }
    return table.render("       ");
}

// "dataloader_workers: pt_data_worker feeding pid 100 (processes 101, 102, 103, 104)"
std::string describe_actor(const analysis::Actor& a) {
    std::string out = std::string(analysis::cause_kind_name(a.kind)) + ": " + a.name;
    if (a.tid != 0) {
        out += " (tid " + std::to_string(a.tid) + ", pid " + std::to_string(a.pid) + ")";
    } else if (a.pid != 0 && a.kind == analysis::CauseKind::kDataLoaderWorkers) {
        out += " feeding pid " + std::to_string(a.pid);
    }
    if (a.tid == 0 && !a.pids.empty()) {
        constexpr std::size_t kListed = 6;
        out += a.pids.size() == 1 ? " (process " : " (processes ";
        for (std::size_t i = 0; i < a.pids.size() && i < kListed; ++i) {
            out += (i ? ", " : "") + std::to_string(a.pids[i]);
        }
        out += a.pids.size() > kListed ? ", ...)" : ")";
    }
    return out + analysis::in_container_text(a.container);
}

// "1.20 s of the loop (45%) waited for by the device; its threads lost 2.47 s (81%)"
std::string cost_line(const analysis::CausalChain& c) {
    const std::string lost =
        format_duration(c.time_lost_ns) + " (" + format_percent(c.time_lost_share) + ")";
    if (!c.critical_path) {
        return lost + " of the loop; no drain of the device's queue to weigh it against";
    }
    const analysis::CriticalPathCost& cost = *c.critical_path;
    const std::string saved =
        format_duration(cost.cost_ns) + " of the loop (" + format_percent(cost.share) + ")";
    if (cost.device_twice_as_fast) {
        return saved + " saved by a device twice as fast; " + lost + " in synchronisation";
    }
    return saved + " on the critical path; " + lost + " of the GPU threads' time in all";
}

std::string render_chain(std::size_t rank, const analysis::CausalChain& c,
                         const TerminalStyle& style) {
    std::string out = " " + std::to_string(rank) + ". " +
                      style.bold(analysis::verdict_class_name(c.root_cause_class)) +
                      "  confidence " + analysis::confidence_name(c.confidence) +
                      (c.critical_path ? ", " + speedup_text(*c.critical_path) : "") + "\n";
    out += "    Cost:       " + cost_line(c) + "\n";
    out += "    Actor:      " + printable(describe_actor(c.actor)) + "\n";
    if (std::string code = code_summary(c); !code.empty()) {
        out += "    Code:       " + printable(code) + "\n";
    }
    const std::string symptom = symptom_text(c);
    if (c.effects.size() > 1 ||
        (c.effects.size() == 1 && effect_text(c, c.effects[0]) != symptom)) {
        out += "    Effects:\n";
        for (const auto& e : c.effects) {
            out += "      - " + printable(effect_text(c, e)) + "\n";
        }
    }
    out += "    Symptom:    " + printable(symptom) + "\n";
    out += "    Evidence:\n";
    for (const auto& e : c.evidence) {
        out += "      - " + printable(evidence_text(c, e)) + "\n";
    }
    if (!c.competitors.empty()) {
        out += render_competitors(c.competitors);
    }
    out += "    Root cause: " + printable(root_cause_text(c)) + "\n";
    if (!c.recommendations.empty()) {
        out += "    Do:\n";
        for (const auto& r : c.recommendations) {
            out += "      -> " + printable(recommendation_text(c, r)) + "\n";
        }
    }
    return out;
}

std::string sched_cell(std::int64_t ns) {
    return ns > 0 ? format_duration(ns) : "-";
}

}  // namespace

std::string render_process_table(const analysis::ProcessBreakdown& breakdown) {
    using A = TextTable::Align;
    TextTable table(
        {"pid", "ppid", "role", "comm", "lifetime", "cuda calls", "cuda time", "top op p50/p99",
         "on cpu", "preempted", "asleep", "runq wait", "worst stall", "switches v/i", "took cpu",
         "page allocs"},
        {A::kRight, A::kRight, A::kLeft, A::kLeft, A::kRight, A::kRight, A::kRight, A::kLeft,
         A::kRight, A::kRight, A::kRight, A::kRight, A::kRight, A::kRight, A::kRight, A::kRight});
    for (const auto& p : breakdown.processes) {
        std::string top = "-";
        if (!p.cuda_ops.empty()) {
            const auto& op = p.cuda_ops.front();
            top =
                op.op + " " + format_duration(op.dur.p50_ns) + "/" + format_duration(op.dur.p99_ns);
        }
        std::string stall = p.sched.worst_stall_ns > 0 ? format_duration(p.sched.worst_stall_ns) +
                                                             " " + p.sched.worst_stall_reason
                                                       : "-";
        table.add_row({std::to_string(p.pid), p.ppid ? std::to_string(*p.ppid) : "-",
                       analysis::role_name(p.role),
                       printable(p.comm) + analysis::in_container_text(p.container),
                       format_duration(p.lifetime_ns), std::to_string(p.cuda_calls),
                       sched_cell(p.cuda_ns), top, sched_cell(p.sched.oncpu_ns),
                       sched_cell(p.sched.preempted_ns), sched_cell(p.sched.blocked_ns),
                       sched_cell(p.sched.runq_wait_ns), stall,
                       std::to_string(p.sched.voluntary_switches) + "/" +
                           std::to_string(p.sched.involuntary_switches),
                       sched_cell(p.cpu_taken_ns), std::to_string(p.page_allocs)});
        for (const auto& t : p.threads) {
            table.add_row(
                {"", std::to_string(t.tid), analysis::role_name(t.role), "  " + printable(t.comm),
                 "", std::to_string(t.cuda_calls), sched_cell(t.cuda_ns), "",
                 sched_cell(t.sched.oncpu_ns), sched_cell(t.sched.preempted_ns),
                 sched_cell(t.sched.blocked_ns), sched_cell(t.sched.runq_wait_ns),
                 t.sched.worst_stall_ns > 0 ? format_duration(t.sched.worst_stall_ns) : "-",
                 std::to_string(t.sched.voluntary_switches) + "/" +
                     std::to_string(t.sched.involuntary_switches),
                 "", ""});
        }
    }
    std::string out = table.render();
    if (breakdown.total_processes > static_cast<std::int64_t>(breakdown.processes.size())) {
        out += "  ... " +
               std::to_string(breakdown.total_processes -
                              static_cast<std::int64_t>(breakdown.processes.size())) +
               " more processes (use --all-processes)\n";
    }
    return out;
}

std::string render_data_quality(const analysis::DataQualityReport& report,
                                const TerminalStyle& style, TextDetail detail) {
    std::string out;
    std::size_t zero = 0;
    for (const auto& item : report.items) {
        if (item.value == 0 && detail == TextDetail::kSummary) {
            ++zero;
            continue;
        }
        std::string severity = item.severity == "data_loss" ? style.red("DATA LOSS")
                               : item.severity == "error"   ? style.yellow("error")
                                                            : "info";
        out += "  " + severity + "  " + item.source + "/" + item.counter + " = " +
               std::to_string(item.value) + ": " + printable(item.description) + "\n";
    }
    const std::string at_zero = std::to_string(zero) + (zero == 1 ? " counter" : " counters") +
                                " at 0; --verbose lists " + (zero == 1 ? "it" : "them");
    if (out.empty()) {
        out = "  nothing lost, nothing unmatched" + (zero == 0 ? "" : " (" + at_zero + ")") + "\n";
    } else if (zero > 0) {
        out += "  (" + at_zero + ")\n";
    }
    return "\n" + style.bold("Data quality") + "\n" + out;
}

namespace {

// The process table of the summary: the traced tree's processes, and the outside processes that
// took at least kFoldedCpuShare of the recording in CPU from its threads; one line for the rest.
std::string render_summary_processes(const analysis::Diagnosis& d) {
    const double least_taken = kFoldedCpuShare * static_cast<double>(d.range.dur_ns());
    analysis::ProcessBreakdown shown = d.processes;
    std::int64_t folded = 0;
    std::int64_t folded_taken_ns = 0;
    std::erase_if(shown.processes, [&](const analysis::ProcessRow& p) {
        const bool fold = p.role == analysis::Role::kCompetitor &&
                          static_cast<double>(p.cpu_taken_ns) < least_taken;
        folded += fold ? 1 : 0;
        folded_taken_ns += fold ? p.cpu_taken_ns : 0;
        return fold;
    });
    shown.total_processes -= folded;
    std::string out = render_process_table(shown);
    if (folded > 0) {
        out += "  ... " + std::to_string(folded) + " more processes outside the tree took " +
               format_duration(folded_taken_ns) + " of its threads' CPU in all, each under " +
               format_percent(kFoldedCpuShare) + " of the recording (--verbose lists them)\n";
    }
    return out;
}

}  // namespace

std::string render_diagnosis(const analysis::Diagnosis& d, const std::string& db_path,
                             const TerminalStyle& style, TextDetail detail) {
    std::string out = "Verdict: " + colour_verdict(d.verdict.verdict_class, style) + "  " +
                      printable(verdict_summary(d)) + "\n";
    if (d.data_quality.data_loss) {
        out += style.red("Data loss: " + std::to_string(d.data_quality.events_lost) +
                         " events were lost while recording; see Data quality below.") +
               "\n";
    }
    out += headline(d, db_path);
    out += render_numbers(d.verdict);
    for (const auto& limit : d.evidence_limits) {
        out += style.yellow("Limit: ") + printable(evidence_limit_text(limit)) + "\n";
    }
    if (!d.chains.empty()) {
        out += "\n" + style.bold("Causal chains") +
               " (one per root cause, largest predicted gain first)\n";
        for (std::size_t i = 0; i < d.chains.size(); ++i) {
            out += render_chain(i + 1, d.chains[i], style);
        }
    }
    if (!d.ranks.empty()) {
        out += "\n" + style.bold("NCCL ranks") +
               " (collectives aligned by their order on each communicator; a rank arrives when "
               "it enqueues one)\n" +
               render_ranks(d.ranks);
    }
    if (!d.processes.processes.empty()) {
        out += "\n" + style.bold("Processes") + "\n" +
               (detail == TextDetail::kEverything ? render_process_table(d.processes)
                                                  : render_summary_processes(d));
    }
    return out + render_data_quality(d.data_quality, style, detail);
}

}  // namespace causeway::report
