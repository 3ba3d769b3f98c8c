#include "collector/record/recorder.hpp"

#include <bpf/bpf.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>

#include "collector/host/session_info.hpp"
#include "collector/record/libbpf_log.hpp"
#include "collector/record/monotonic_clock.hpp"
#include "collector/record/notes.hpp"
#include "collector/record/preflight.hpp"
#include "collector/record/proc_walk.hpp"
#include "collector/record/recording.hpp"
#include "tracedb/data_quality_counters.hpp"

// The orchestration of one recording; its jobs are in collector/record/.
namespace causeway::collector {

namespace {

constexpr const char* kSystemLoader = "/lib64/ld-linux-x86-64.so.2";
// How long the exits after a SIGKILL are waited for, to be in the trace.
constexpr double kKillWaitS = 2;

std::atomic<int> g_stop_signal{0};

void on_stop_signal(int signo) {
    g_stop_signal.store(signo);
}

}  // namespace

Status Recorder::inspect_python(std::uint32_t tgid) {
    return python_ ? python_->inspect(tgid) : Status{Ok{}};
}

void Recorder::start_python_processes() {
    python_.emplace([this](std::uint32_t tgid, const cw_python_process& layout) {
        return programs_->set_python_process(tgid, layout);
    });
}

Status Recorder::start_python_frames() {
    events_.record_python_stacks(
        [fd = programs_->python_stacks_fd()](std::uint32_t key) -> std::optional<cw_python_stack> {
            cw_python_stack stack{};
            if (bpf_map_lookup_elem(fd, &key, &stack) != 0) {
                return std::nullopt;
            }
            return stack;
        },
        *python_);
    return rings_.open_stack_ring(*programs_);
}

Status Recorder::start(const DiscoveryResult& discovered) {
    if (!options_.command.empty()) {
        auto child = HeldChild::spawn(options_.command);
        if (!child) {
            return child.error();
        }
        child_.emplace(std::move(child.value()));
    }
    LoadConfig config;
    config.offcpu_floor_ns = static_cast<std::uint64_t>(options_.offcpu_floor_ns);
    config.session_start_ns = static_cast<std::uint64_t>(session_.start_mono_ns);
    config.page_bucket_ns = static_cast<std::uint64_t>(options_.page_bucket_ns);
    config.stop_on_dlopen = options_.stop_on_dlopen;
    config.cuda_ring_bytes = options_.cuda_ring_bytes;
    config.uprobe_multi = options_.uprobe_multi;
    config.record_stacks = options_.walks_native();
    config.walk_python = options_.walks_python();
    config.python_sample_gap_ns = static_cast<std::uint64_t>(options_.python_sample_gap_ns);
    auto programs = BpfPrograms::load(config);
    if (!programs) {
        return programs.error();
    }
    programs_ = std::move(programs.value());
    if (auto status = loader_stops_.start_guard(*programs_); !status) {
        return status;
    }
    if (options_.walks_native()) {
        events_.record_stacks([fd = programs_->user_stacks_fd()](std::int32_t stack_id) {
            std::vector<std::uint64_t> addresses(CW_STACK_DEPTH);
            if (bpf_map_lookup_elem(fd, &stack_id, addresses.data()) != 0) {
                return std::vector<std::uint64_t>{};
            }
            addresses.erase(std::find(addresses.begin(), addresses.end(), 0), addresses.end());
            return addresses;
        });
    }
    if (auto status = rings_.open(*programs_); !status) {
        return status;
    }
    // Python processes are known to the kernel in every recording (waits for the GIL are told
    // apart by where their futex lies); their frames are walked only with --stacks.
    start_python_processes();
    if (options_.walks_python()) {
        if (auto status = start_python_frames(); !status) {
            return status;
        }
    }

    std::vector<int> roots =
        child_ ? std::vector<int>{child_->pid()} : with_descendants(options_.pids);
    for (int pid : roots) {
        if (auto status = programs_->trace_process(pid); !status) {
            return status;
        }
        if (auto id = registry_.add_root_process(static_cast<std::uint32_t>(pid)); !id) {
            return id.error();
        }
        // A command is still the collector's own fork, held before its exec: its interpreter
        // is looked for at the exec.
        if (auto status = child_ ? Status{Ok{}} : inspect_python(static_cast<std::uint32_t>(pid));
            !status) {
            return status;
        }
        ++root_processes_;
    }

    auto tracepoints = programs_->attach_tracepoints();
    for (const auto& probe : tracepoints) {
        if (!probe.attached) {
            return Error{"cannot attach the tracepoint " + probe.symbol + ": " +
                         probe.error.value_or("unknown error")};
        }
    }
    if (auto status = probes_.put(tracepoints); !status) {
        return status;
    }
    std::error_code error;
    auto loader = std::filesystem::canonical(kSystemLoader, error);
    if (!error) {
        if (auto status = probes_.put({programs_->attach_loader(loader.string())}); !status) {
            return status;
        }
    }
    for (const auto& library : discovered.libraries) {
        if (auto status = probes_.attach_library(*programs_, library); !status) {
            return status;
        }
    }
    if (auto status = writer_.commit(); !status) {
        return status;
    }
    if (child_) {
        auto released = child_->release();
        if (!released) {
            // The file holds the attempt: say in it that nothing of the command ran.
            (void)writer_.put_data_quality(tracedb::counter_record(
                tracedb::DataQualityCounter::kCommandNotStarted, 1,
                released.error().message +
                    ": the command never ran, so nothing of it is in the trace"));
        }
        return released;
    }
    return Ok{};
}

Status Recorder::handle_loader_events() {
    auto handled = loader_stops_.handle(*programs_, [this](std::uint32_t tgid) -> Status {
        // A libpython loaded by the program (or by dlopen) is found here.
        if (auto status = inspect_python(tgid); !status) {
            return status;
        }
        for (const auto& library : cuda_libraries_of_process(static_cast<int>(tgid))) {
            if (auto status = probes_.attach_library(*programs_, library); !status) {
                return status;
            }
        }
        return Ok{};
    });
    if (!handled) {
        return handled;
    }
    return writer_.commit();
}

// The samples, then the data-quality counters (after the totals, which count the threads seen
// late), a commit and the progress line.
Status Recorder::tick(bool final) {
    std::int64_t now_ns = monotonic_ns() - session_.start_mono_ns;
    if (auto status = periodic_.write_samples(now_ns, final, *programs_); !status) {
        return status;
    }
    LossCounters loss = losses();
    auto quality = data_quality_records(loss);
    if (python_) {
        quality.push_back(python_->unreadable_record());
    }
    for (const auto& record : quality) {
        if (auto status = writer_.put_data_quality(record); !status) {
            return status;
        }
    }
    if (auto status = writer_.commit(); !status) {
        return status;
    }
    periodic_.show_progress({static_cast<double>(now_ns) / 1e9, events_.cuda_calls(),
                             rings_.sched_events(), rings_.life_events(), total_drops(loss),
                             programs_->attached_count(), registry_.live_traced_processes()},
                            final);
    return Ok{};
}

Status Recorder::record_turn() {
    Status outcome = rings_.consume_once();
    if (outcome && loader_stops_.pending()) {
        outcome = handle_loader_events();
    }
    if (outcome && periodic_.take_due_tick()) {
        outcome = tick(false);
    }
    return outcome;
}

bool Recorder::should_stop() {
    if (g_stop_signal.load() != 0) {
        return true;
    }
    if (options_.duration_s > 0 && monotonic_ns() - session_.start_mono_ns >=
                                       static_cast<std::int64_t>(options_.duration_s * 1e9)) {
        return true;
    }
    if (child_) {
        return child_->poll_exit().has_value();
    }
    return registry_.live_traced_processes() == 0;
}

bool Recorder::command_running() {
    return !child_->poll_exit() || !programs_->traced_processes().empty();
}

// The recording stops while the command it started still runs (--duration, SIGINT, SIGTERM):
// the command is ended as timeout(1) ends one, so it does not run on untraced and orphaned.
// Every process of its tree (as the kernel follows it, so also children that left its process
// group) gets SIGTERM; what is left after --kill-after seconds gets SIGKILL. Recording goes on
// meanwhile, so the trace shows the shutdown. Processes given with --pid are never signalled.
Status Recorder::end_command() {
    auto signal_tree = [this](int signo) {
        child_->signal(signo);  // the command first, as a user ending it would
        for (std::uint32_t tgid : programs_->traced_processes()) {
            ::kill(static_cast<pid_t>(tgid), signo);
        }
    };
    char grace[64];
    std::snprintf(grace, sizeof grace, ", then SIGKILL after %g s", options_.kill_after_s);
    note(
        options_,
        std::string("the recording stopped before the command exited: sending it SIGTERM") + grace);
    Status outcome = writer_.put_data_quality(
        tracedb::counter_record(tracedb::DataQualityCounter::kCommandEndedByCollector, 1));
    auto record_while_running = [&](double seconds) {
        std::int64_t deadline = monotonic_ns() + static_cast<std::int64_t>(seconds * 1e9);
        while (outcome && command_running() && monotonic_ns() < deadline) {
            outcome = record_turn();
        }
    };
    signal_tree(SIGTERM);
    record_while_running(options_.kill_after_s);
    if (command_running()) {
        signal_tree(SIGKILL);
        record_while_running(kKillWaitS);  // SIGKILL cannot be refused: this lets the exits in
    }
    return outcome;
}

// The trace DB can take no more (its disk is full, or failing): the recording stops, but the
// command is the user's job, not the recording's. Its probes are detached so that it goes on
// untraced at full speed, the DB gets what still fits (why and when it stopped), and the collector
// waits for the command to exit as it would have (a stop signal ends the wait and leaves it
// running). Returns when the recording stopped.
std::int64_t Recorder::stop_on_storage_failure(const Error& why) {
    const std::int64_t stopped_ns = monotonic_ns() - session_.start_mono_ns;
    char when[96];
    std::snprintf(when, sizeof when, "the recording stopped %.1f s after it started",
                  static_cast<double>(stopped_ns) / 1e9);
    std::fprintf(stderr, "causeway-collector: %s: %s%s\n", why.message.c_str(), when,
                 child_ ? "; the command goes on untraced" : "");
    if (programs_) {  // else nothing was loaded, nor stopped
        loader_stops_.release(*programs_);
    }
    rings_.close();
    programs_.reset();  // detaches every probe: nothing stops the command at a dlopen any more
    writer_.abandon_batch();
    (void)writer_.put_data_quality(tracedb::counter_record(
        tracedb::DataQualityCounter::kStorageFailed, 1,
        why.message + ": " + when + (child_ ? "; the command ran on untraced" : "")));
    while (child_ && !child_->poll_exit() && g_stop_signal.load() == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (auto status = child_ ? child_->poll_exit() : std::nullopt) {
        std::fprintf(stderr, "causeway-collector: the command %s, untraced since the failure\n",
                     describe_wait_status(*status).c_str());
    }
    return stopped_ns;
}

Result<RecordSummary> Recorder::run(const DiscoveryResult& discovered) {
    Status outcome = start(discovered);
    periodic_.start();
    while (outcome && !should_stop()) {
        outcome = record_turn();
    }
    std::optional<std::int64_t> stopped_ns;
    if (!outcome && writer_.storage_failed()) {
        stopped_ns = stop_on_storage_failure(outcome.error());
    } else if (child_ && programs_ && rings_.is_open() && !child_->poll_exit()) {
        if (auto status = end_command(); outcome && !status) {
            outcome = status;
        }
    }
    // Drain what is left, let stopped processes go, and close the file cleanly even after an
    // error, so the DB holds everything recorded until then.
    if (programs_ && rings_.is_open()) {
        rings_.drain();
        if (rings_.callback_error() && outcome) {
            outcome = *rings_.callback_error();
        }
        if (auto status = handle_loader_events(); outcome && !status) {
            outcome = status;
        }
        loader_stops_.release(*programs_);
        if (auto status = tick(true); outcome && !status) {
            outcome = status;
        }
    }
    std::int64_t stop_ns = stopped_ns.value_or(monotonic_ns() - session_.start_mono_ns);
    if (auto status = writer_.finish(stop_ns); outcome && !status) {
        outcome = status;
    }
    if (!outcome) {
        return outcome.error();
    }
    return summarize(stop_ns);
}

void install_stop_handlers() {
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: interrupt the ring-buffer poll
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

Result<RecordSummary> record(const RecordOptions& options) {
    if (auto status = validate(options); !status) {
        return status.error();
    }
    if (auto status = preflight(options); !status) {
        return status.error();
    }
    auto discovered = discover(options);
    if (!discovered) {
        return discovered.error();
    }
    if (discovered->libraries.empty() && !options.quiet) {
        std::fprintf(stderr,
                     "causeway-collector: no CUDA library found up front; libraries the command "
                     "loads are attached when it maps them\n");
    }
    route_libbpf_messages(options.verbose);
    auto session = describe_session(options);
    auto writer = tracedb::TraceWriter::create(options.db_path, session);
    if (!writer) {
        return writer.error();
    }
    Recorder recorder(options, std::move(session), std::move(writer.value()));
    return recorder.run(*discovered);
}

}  // namespace causeway::collector
