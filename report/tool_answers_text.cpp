// The tools' compact text for a model, written from their answers: one line per row, " | "
// between cells. Strings taken from an answer are sanitised (untrusted_text.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <type_traits>
#include <variant>

#include "analysis/diagnose/process_roles.hpp"
#include "analysis/measure/python_lines.hpp"
#include "report/chain_text.hpp"
#include "report/comparison_headline.hpp"
#include "report/comparison_words.hpp"
#include "report/evidence_text.hpp"
#include "report/human_units.hpp"
#include "report/recommendation_text.hpp"
#include "report/tool_answers.hpp"
#include "report/untrusted_text.hpp"
#include "report/verdict_text.hpp"

namespace causeway::report {
namespace {

// A string of the answer, as the structuredContent carries it.
std::string clean(std::string_view text) {
    return sanitize_untrusted(text);
}

std::string clean_or(const std::optional<std::string>& text, std::string_view absent) {
    return text ? clean(*text) : std::string(absent);
}

std::string note_line(const std::string& note) {
    return note.empty() ? std::string() : "Note: " + clean(note) + "\n";
}

std::string native_frame_text(const analysis::StackFrame& frame) {
    return fmt::format("    {} ({})\n",
                       frame.symbol ? clean(*frame.symbol) : fmt::format("{:#x}", frame.address),
                       clean_or(frame.module, "?"));
}

std::string python_frame_text(const analysis::PythonFrame& frame) {
    std::string where = clean_or(frame.file, "?");
    if (frame.line) {
        where += fmt::format(":{}", *frame.line);
    }
    return fmt::format("    {} in {}\n", where, clean_or(frame.function, "?"));
}

// Merged frames, innermost first; runs of library Python frames (torch, the standard library)
// are folded into one line each, so the user's own lines stand out.
std::string merged_frames_text(const std::vector<analysis::MergedFrame>& frames) {
    std::string text;
    const auto is_library = [](const analysis::MergedFrame& f) {
        return f.python && !f.package.empty();
    };
    for (std::size_t i = 0; i < frames.size();) {
        const analysis::MergedFrame& frame = frames[i];
        if (!frame.python) {
            text += native_frame_text(frame.native);
            ++i;
            continue;
        }
        if (!is_library(frame)) {
            text += python_frame_text(frame.code);
            ++i;
            continue;
        }
        std::size_t end = i;
        std::vector<std::string> packages;
        while (end < frames.size() && is_library(frames[end])) {
            std::string package = clean(frames[end].package);
            if (std::find(packages.begin(), packages.end(), package) == packages.end()) {
                packages.push_back(package);
            }
            ++end;
        }
        text += fmt::format("    [{} library frame{}: {}]\n", end - i, end - i == 1 ? "" : "s",
                            fmt::join(packages, ", "));
        i = end;
    }
    return text;
}

// A SQL value as the structuredContent carries it: text as text, the rest as JSON.
std::string sql_cell_text(const analysis::SqlValue& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::string>) {
                return clean(v);
            } else if constexpr (std::is_same_v<T, analysis::SqlBlob>) {
                return nlohmann::json{{"blob_bytes", v.bytes}}.dump();
            } else {
                return nlohmann::json(v).dump();
            }
        },
        value);
}

std::string loop_rate(const analysis::LoopThroughput& loop) {
    return fmt::format("{} {}/s", format_decimal(loop.per_s, 1),
                       analysis::loop_unit_name(loop.unit));
}

std::string lost(const std::optional<std::int64_t>& ns, const std::optional<double>& share) {
    return ns ? fmt::format("{} ({})", format_duration(*ns), format_percent(share.value_or(0)))
              : "no chain";
}

std::string op_change_text(const analysis::OpLatencyChange& op) {
    const auto pair = [&op](std::int64_t analysis::Distribution::*field) {
        return format_duration(op.before.*field) + " -> " + format_duration(op.after.*field);
    };
    const analysis::ShiftTest& shift = op.shift;
    return fmt::format("{} | {}/{} | {} | {} | {} | {}\n", clean(op.op), op.before.count,
                       op.after.count, pair(&analysis::Distribution::p50_ns),
                       pair(&analysis::Distribution::p90_ns), pair(&analysis::Distribution::p99_ns),
                       shift.rank.tested
                           ? fmt::format("{} ({})",
                                         shift.beyond_noise  ? "yes"
                                         : shift.significant ? "no: below the effect floor"
                                                             : "no",
                                         format_decimal(shift.adjusted_p_value, 3))
                           : "too few calls");
}

std::string chain_text(int rank, const analysis::CausalChain& chain) {
    std::string text =
        fmt::format("\n{}. {} ({} confidence, {} lost, {} of the GPU threads' time)\n", rank,
                    clean(analysis::verdict_class_name(chain.root_cause_class)),
                    analysis::confidence_name(chain.confidence),
                    format_duration(chain.time_lost_ns), format_percent(chain.time_lost_share));
    if (chain.critical_path) {
        text += "   Cost: " + critical_path_text(*chain.critical_path) + "\n";
    }
    text +=
        fmt::format("   Actor: {} {}{}\n", clean(analysis::cause_kind_name(chain.actor.kind)),
                    clean(chain.actor.name), analysis::in_container_text(chain.actor.container));
    for (const auto& effect : chain.effects) {
        text += "   Effect: " + clean(effect_text(chain, effect)) + "\n";
    }
    if (chain.gpu_thread_line || chain.actor_line) {
        text += "   Code: " + clean(code_summary(chain)) + "\n";
    }
    text += "   Symptom: " + clean(symptom_text(chain)) + "\n";
    for (const auto& evidence : chain.evidence) {
        text += "   Evidence: " + clean(evidence_text(chain, evidence)) + "\n";
    }
    for (const auto& competitor : chain.competitors) {
        text +=
            fmt::format("   Competitor: {} pid {}{} took {} ({})\n", clean(competitor.comm),
                        competitor.pid, analysis::in_container_text(competitor.container),
                        format_duration(competitor.preempted_ns), format_percent(competitor.share));
    }
    text += "   Root cause: " + clean(root_cause_text(chain)) + "\n";
    for (const auto& recommendation : chain.recommendations) {
        text += "   Do: " + clean(recommendation_text(chain, recommendation)) + "\n";
    }
    return text;
}

}  // namespace

std::string to_text(const TraceStatsAnswer& answer) {
    const analysis::TraceStats& stats = answer.stats;
    const analysis::SessionSummary& session = stats.session;
    const analysis::HostSummary& host = stats.host;
    std::string text = fmt::format(
        "Trace {}: {} on {} ({} CPUs, GPU {}), {} covered, {} CUDA calls ({} failed).\n",
        clean(answer.trace), clean_or(session.command_line, "unknown command"), clean(session.host),
        session.cpu_count, clean_or(session.gpu, "none recorded"),
        format_duration(stats.range.dur_ns()), stats.calls, stats.error_calls);
    text += "op | calls | total | p50 | p99 | max | wall share | bytes\n";
    for (const auto& op : stats.ops) {
        text +=
            fmt::format("{} | {} | {} | {} | {} | {} | {} | {}\n", clean(op.op), op.dur.count,
                        format_duration(op.dur.total_ns), format_duration(op.dur.p50_ns),
                        format_duration(op.dur.p99_ns), format_duration(op.dur.max_ns),
                        format_percent(op.wall_share), format_bytes(static_cast<double>(op.bytes)));
    }
    text += fmt::format(
        "Host: {} traced threads; on CPU {}, preempted {}, blocked {}, run-queue wait {}; {} "
        "involuntary switches; {} page allocations ({}); CPU busy {:.0f}% mean.\n",
        host.threads_traced, format_duration(host.oncpu_ns), format_duration(host.preempted_ns),
        format_duration(host.blocked_ns), format_duration(host.runq_wait_ns),
        host.involuntary_switches, host.page_allocs,
        format_bytes(static_cast<double>(host.page_alloc_bytes)), host.cpu_busy_pct_mean);
    text += stats.data_quality.data_loss
                ? fmt::format("Data quality: {} events lost; conclusions may be incomplete.\n",
                              stats.data_quality.events_lost)
                : "Data quality: no loss recorded.\n";
    return text + note_line(answer.note);
}

std::string to_text(const CausalChainsAnswer& answer) {
    const analysis::Diagnosis& d = answer.diagnosis;
    std::string text = fmt::format("Verdict: {} — {}\n",
                                   clean(analysis::verdict_class_name(d.verdict.verdict_class)),
                                   clean(verdict_summary(d)));
    int rank = 0;
    for (const auto& chain : d.chains) {
        text += chain_text(++rank, chain);
    }
    for (const auto& limit : d.evidence_limits) {
        text += "Limit: " + clean(evidence_limit_text(limit)) + "\n";
    }
    return text + note_line(answer.note);
}

std::string to_text(const ProcessBreakdownAnswer& answer) {
    std::string text =
        "pid | comm | role | CUDA calls | CUDA time | on CPU | preempted | "
        "blocked | run-queue wait | worst stall | page allocs\n";
    for (const auto& process : answer.processes) {
        const analysis::SchedBreakdown& sched = process.sched;
        text += fmt::format("{} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {}\n", process.pid,
                            clean(process.comm), analysis::role_name(process.role),
                            process.cuda_calls, format_duration(process.cuda_ns),
                            format_duration(sched.oncpu_ns), format_duration(sched.preempted_ns),
                            format_duration(sched.blocked_ns), format_duration(sched.runq_wait_ns),
                            format_duration(sched.worst_stall_ns), process.page_allocs);
        for (const auto& thread : process.threads) {
            text += fmt::format("  tid {} {} ({}): {} CUDA calls, preempted {}\n", thread.tid,
                                clean(thread.comm), analysis::role_name(thread.role),
                                thread.cuda_calls, format_duration(thread.sched.preempted_ns));
        }
    }
    return text + note_line(answer.note);
}

std::string to_text(const StacksAnswer& answer) {
    std::string text = fmt::format("{} CUDA calls in the selection carry a stack.\n",
                                   answer.report.calls_with_stack);
    for (const auto& stack : answer.report.stacks) {
        const bool python = !stack.python_frames.empty();
        const std::string at = python && stack.user_line
                                   ? " at " + clean(analysis::describe_line(*stack.user_line))
                                   : "";
        text += fmt::format("\nstack {} (pid {}){}: {} calls, {}\n", stack.stack_id, stack.pid, at,
                            stack.calls, format_duration(stack.total_ns));
        for (const auto& op : stack.ops) {
            text +=
                fmt::format("  {} x{} {}\n", clean(op.op), op.calls, format_duration(op.total_ns));
        }
        if (python) {
            text += merged_frames_text(first(stack.merged.frames, answer.depth));
            continue;
        }
        for (const auto& frame : first(stack.frames, answer.depth)) {
            text += native_frame_text(frame);
        }
    }
    return text + note_line(answer.note);
}

std::string to_text(const TimelineAnswer& answer) {
    const analysis::Timeline& timeline = answer.timeline;
    std::string text = fmt::format(
        "Buckets of {} from {}: start | CUDA calls | CUDA time | p99 | preempted | blocked | "
        "run-queue wait | CPU busy | page allocs\n",
        format_duration(timeline.bucket_ns), format_duration(timeline.range.start_ns));
    for (const auto& bucket : timeline.buckets) {
        text += fmt::format(
            "{} | {} | {} | {} | {} | {} | {} | {} | {}\n", format_duration(bucket.start_ns),
            bucket.cuda_calls, format_duration(bucket.cuda_ns), format_duration(bucket.cuda_p99_ns),
            format_duration(bucket.preempted_ns), format_duration(bucket.blocked_ns),
            format_duration(bucket.runq_wait_ns),
            bucket.cpu_busy_pct ? fmt::format("{:.0f}%", *bucket.cpu_busy_pct) : std::string("-"),
            bucket.page_allocs);
    }
    return text;
}

std::string to_text(const SqlAnswer& answer) {
    std::vector<std::string> columns;
    for (const auto& column : answer.result.columns) {
        columns.push_back(clean(column));
    }
    std::string text = fmt::format("{}\n", fmt::join(columns, " | "));
    for (const auto& row : answer.result.rows) {
        std::vector<std::string> cells;
        for (const auto& cell : row) {
            cells.push_back(sql_cell_text(cell));
        }
        text += fmt::format("{}\n", fmt::join(cells, " | "));
    }
    text += fmt::format("({} rows)\n", answer.result.rows.size());
    return text + note_line(answer.note);
}

std::string to_text(const ComparisonAnswer& answer) {
    const analysis::TraceComparison& c = answer.comparison;
    std::string text = clean(comparison_headline(c)) + "\n";
    for (const auto& warning : difference_texts(c)) {
        text += "Warning: " + clean(warning) + "\n";
    }
    text += fmt::format(
        "Throughput: {} -> {} ({}x; {}, bootstrap p={}, interval {}x..{}x). How: {}.\n",
        loop_rate(c.before.loop), loop_rate(c.after.loop), format_decimal(c.throughput_ratio, 2),
        c.throughput_beyond_noise ? "beyond noise" : "within noise",
        format_decimal(c.throughput_test.p_value, 3), format_decimal(c.throughput_test.ci_low, 2),
        format_decimal(c.throughput_test.ci_high, 2), clean(throughput_method_text(c)));
    text += fmt::format("Verdicts: {} before, {} after.\n", clean(c.before.verdict),
                        clean(c.after.verdict));
    text += "cause | actor | before | after | status\n";
    for (const auto& cause : c.causes) {
        text += fmt::format(
            "{} | {}: {} | {} | {} | {}\n", clean(cause.root_cause_class), clean(cause.actor_kind),
            clean(cause.actor_name), lost(cause.before_ns, cause.before_share),
            lost(cause.after_ns, cause.after_share), analysis::cause_status_name(cause.status));
    }
    text += "op | calls before/after | p50 | p90 | p99 | beyond noise (Holm p)\n";
    for (const auto& op : c.ops.common) {
        text += op_change_text(op);
    }
    text += "Method: " + clean(significance_method_text(c.options)) + ".\n";
    return text + note_line(answer.note);
}

std::string to_text(const ReadinessAnswer& answer) {
    const collector::Readiness& r = answer.readiness;
    std::string text = fmt::format(
        "{}\nkernel {} | BTF {} | privileges {} | libcudart {} | libcuda {}\n",
        r.ready() ? "Ready to record." : "Not ready to record.", clean(r.kernel_release),
        r.btf_present ? "yes" : "no",
        r.privileged() ? "yes" : "no (root or CAP_BPF+CAP_PERFMON needed)",
        r.libcudart_found ? "found" : "not found", r.libcuda_found ? "found" : "not found");
    for (const auto& library : r.cuda.libraries) {
        text +=
            fmt::format("  {} {} (found by {})\n", collector::cuda_library_kind_name(library.kind),
                        clean(library.path), clean(library.found_by));
    }
    for (const auto& problem : r.problems) {
        text += "Problem: " + clean(problem) + "\n";
    }
    for (const auto& warning : r.warnings) {
        text += "Warning: " + clean(warning) + "\n";
    }
    text += fmt::format("{} running process(es) have a CUDA library mapped.\n",
                        r.cuda_processes.size());
    for (const auto& process : first(r.cuda_processes, answer.max_processes)) {
        text += fmt::format("  pid {} {}\n", process.pid, clean(process.comm));
    }
    return text;
}

std::string to_text(const fleet::FleetOverview& overview) {
    std::string text = fmt::format("Job {}: {} nodes\n", overview.job, overview.nodes.size());
    for (const auto& node : overview.nodes) {
        text += fmt::format("  {} (rank {}): {} loop calls/s, {}", node.node,
                            node.rank < 0 ? std::string("-") : std::to_string(node.rank),
                            format_decimal(node.loop_calls_per_s, 1), node.verdict);
        for (const auto& cause : node.causes) {
            if (cause.lost_ns > 0) {
                text += fmt::format(", {} lost {}", cause.cause, format_duration(cause.lost_ns));
            }
        }
        text += "\n";
    }
    if (overview.straggler) {
        const auto& s = *overview.straggler;
        text += fmt::format(
            "Straggler: {} at {} loop calls/s ({}% below the median node), cause {}{}. Skew {}%.\n",
            s.node, format_decimal(s.loop_calls_per_s, 1),
            format_decimal(s.slower_than_median_pct, 1), s.cause,
            s.actor.empty() ? "" : " by " + s.actor + analysis::in_container_text(s.container),
            format_decimal(overview.skew_pct, 1));
    }
    return text;
}

}  // namespace causeway::report
