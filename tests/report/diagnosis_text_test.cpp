// explain fits a screen (report/diagnosis_text): by default the data-quality counters that are not
// zero and the outside processes that took a share of the CPU that matters, the rest folded into
// one line each; --verbose (TextDetail::kEverything) lists all of them.
#include <catch2/catch.hpp>

#include "report/diagnosis_text.hpp"

using namespace causeway;
using report::TextDetail;

namespace {

constexpr std::int64_t kMs = 1'000'000;

analysis::ProcessRow process(std::int64_t pid, const std::string& comm, analysis::Role role,
                             std::int64_t cpu_taken_ns) {
    analysis::ProcessRow row;
    row.pid = pid;
    row.comm = comm;
    row.role = role;
    row.in_tree = role != analysis::Role::kCompetitor;
    row.cpu_taken_ns = cpu_taken_ns;
    return row;
}

// A 10 s recording: the trainer, a hog that took 2 s of its CPU and three kernel threads that
// took a few milliseconds; two counters, one of them not zero.
analysis::Diagnosis diagnosis() {
    analysis::Diagnosis d;
    d.range = {.start_ns = 0, .end_ns = 10'000 * kMs};
    using analysis::Role;
    d.processes.processes = {process(10, "train", Role::kTraining, 0),
                             process(20, "hog", Role::kCompetitor, 2'000 * kMs),
                             process(30, "kworker/0:1", Role::kCompetitor, 3 * kMs),
                             process(31, "kworker/1:2", Role::kCompetitor, 2 * kMs),
                             process(32, "ksoftirqd/0", Role::kCompetitor, 1 * kMs)};
    d.processes.total_processes = 5;
    d.data_quality.items = {{.source = "cuda",
                             .counter = "ringbuf_drops",
                             .value = 0,
                             .severity = "data_loss",
                             .description = "CUDA calls lost"},
                            {.source = "probes",
                             .counter = "symbols_not_exported",
                             .value = 2,
                             .severity = "info",
                             .description = "not exported"}};
    return d;
}

std::string text(TextDetail detail) {
    return report::render_diagnosis(diagnosis(), "run.db", report::TerminalStyle::plain(), detail);
}

}  // namespace

TEST_CASE("the summary folds small outside processes and zero counters into a line each") {
    const std::string summary = text(TextDetail::kSummary);
    CHECK(summary.find(" train ") != std::string::npos);
    CHECK(summary.find(" hog ") != std::string::npos);
    CHECK(summary.find("kworker") == std::string::npos);
    CHECK(summary.find("... 3 more processes outside the tree took 6.00 ms of its threads' CPU in "
                       "all, each under 1.0% of the recording (--verbose lists them)") !=
          std::string::npos);
    CHECK(summary.find("ringbuf_drops") == std::string::npos);
    CHECK(summary.find("probes/symbols_not_exported = 2") != std::string::npos);
    CHECK(summary.find("(1 counter at 0; --verbose lists it)") != std::string::npos);
}

TEST_CASE("verbose lists every process and every counter") {
    const std::string everything = text(TextDetail::kEverything);
    for (const char* comm : {"train", "hog", "kworker/0:1", "kworker/1:2", "ksoftirqd/0"}) {
        CHECK(everything.find(comm) != std::string::npos);
    }
    CHECK(everything.find("cuda/ringbuf_drops = 0") != std::string::npos);
    CHECK(everything.find("more processes outside") == std::string::npos);
    CHECK(everything.find("--verbose") == std::string::npos);
}
