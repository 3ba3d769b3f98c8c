// Golden tests: one fixture per bottleneck class -> expected verdict and top chain, plus the
// co-occurrence trap and the honest answers for empty, host-only and lossy traces.
#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>

#include "analysis/diagnose/declared_facts.hpp"
#include "analysis/diagnose/diagnosis.hpp"
#include "report/chain_text.hpp"
#include "report/verdict_text.hpp"
#include "tests/analysis/fixture_builder.hpp"

using namespace causeway::analysis;
using namespace causeway::testing;

namespace {

constexpr int kIterations = 200;
constexpr std::int64_t kPeriodNs = 10 * kMs;
constexpr std::int64_t kLoopEndNs = kIterations * kPeriodNs;

// A python training process (pid 100) with `workers` pt_data_worker children on 2 CPUs.
struct DataLoaderRun {
    FixtureBuilder fixture{2};
    std::int64_t main_process = 0;
    std::int64_t main_thread = 0;
    std::vector<std::int64_t> worker_threads;

    explicit DataLoaderRun(int workers) {
        main_process = fixture.process(100, "python");
        main_thread = fixture.thread(main_process, 100, "python");
        for (int w = 0; w < workers; ++w) {
            auto p = fixture.process(101 + w, "pt_data_worker", main_process);
            worker_threads.push_back(fixture.thread(p, 101 + w, "pt_data_worker"));
        }
    }
};

Diagnosis diagnose_all(const TraceModel& model) {
    return diagnose(model, DiagnosisOptions{});
}

bool has_chain(const Diagnosis& d, VerdictClass name) {
    return std::any_of(d.chains.begin(), d.chains.end(),
                       [&](const CausalChain& c) { return c.root_cause_class == name; });
}

bool recommends(const std::vector<Recommendation>& recommendations, RecommendationKind kind) {
    return find_recommendation(recommendations, kind) != nullptr;
}

}  // namespace

TEST_CASE("workers preempting the training thread give CPU-CONTENDED naming them",
          "[analysis][golden]") {
    DataLoaderRun run(4);
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        run.fixture.call(run.main_thread, op::kLaunchKernel, t0, 20 * kUs);
        bool slow = i % 10 == 0;
        std::int64_t sync_dur = slow ? 6 * kMs : 200 * kUs;
        run.fixture.call(run.main_thread, op::kStreamSynchronize, t0 + 50 * kUs, sync_dur);
        if (slow) {
            // The sync's own thread runnable but not running for 5 ms: a worker had the CPU.
            run.fixture.preempted(run.main_thread, t0 + 300 * kUs, 5 * kMs,
                                  run.worker_threads[static_cast<std::size_t>(i / 10) % 4]);
        }
        // Between calls, with the device idle: preempted by a worker until 0.2 ms before the
        // next step (9.3 ms, or 3.6 ms after a slow sync). The rest is the thread's own work.
        const std::int64_t from = slow ? 6200 * kUs : 500 * kUs;
        run.fixture.preempted(run.main_thread, t0 + from, 9800 * kUs - from, run.worker_threads[0]);
    }
    run.fixture.snapshots(kLoopEndNs, 100, 6);
    auto d = diagnose_all(run.fixture.load(kLoopEndNs));

    CHECK(d.verdict.verdict_class == VerdictClass::kCpuContended);
    REQUIRE(!d.chains.empty());
    const CausalChain& top = d.chains.front();
    CHECK(top.root_cause_class == VerdictClass::kCpuContended);
    CHECK(top.confidence == Confidence::kHigh);
    CHECK(top.op == "cudaStreamSynchronize");
    REQUIRE(!top.competitors.empty());
    CHECK(top.competitors[0].comm == "pt_data_worker");
    CHECK(top.competitors[0].role == Role::kDataLoaderWorker);
    CHECK(top.competitors[0].in_tree);
    // 20 x 5 ms inside slow calls + 20 x 3.6 ms and 179 x 9.3 ms between calls (the last one
    // falls after the last call, outside the loop).
    CHECK(top.time_lost_ns == 20 * 5 * kMs + 20 * 3600 * kUs + 179 * 9300 * kUs);
    CHECK(recommends(top.recommendations, RecommendationKind::kFewerWorkers));
    CHECK(recommends(top.recommendations, RecommendationKind::kIndexInMemory));
    CHECK(!recommends(top.recommendations, RecommendationKind::kMoreWorkers));
    REQUIRE(!d.processes.processes.empty());
    CHECK(d.processes.processes[0].role == Role::kTraining);
    CHECK(d.processes.processes[1].role == Role::kDataLoaderWorker);
}

// Where the kernel said the quota stopped it (offcpu.reason 2), the thread that got its CPU is a
// bystander, even on busy CPUs. Without that record (older collectors, kernels it cannot read),
// a runnable thread whose CPU went idle says the same.
TEST_CASE("runnable while its group's quota ran out is a CPU quota, not a thread taking the CPU",
          "[analysis][golden]") {
    const bool recorded_throttled = GENERATE(false, true);
    DataLoaderRun run(0);
    const std::int64_t hog = run.fixture.thread(
        run.fixture.process(900, "cc1plus", std::nullopt, /*in_tree=*/false), 900, "cc1plus");
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        run.fixture.call(run.main_thread, op::kLaunchKernel, t0, 20 * kUs);
        run.fixture.call(run.main_thread, op::kStreamSynchronize, t0 + 50 * kUs, 1 * kMs);
        // The group used up its quota: runnable until the next period, 8 ms later, while a
        // compiler outside got the CPU, or the idle task did (no next thread).
        if (recorded_throttled) {
            run.fixture.throttled(run.main_thread, t0 + 1200 * kUs, 8 * kMs, hog);
        } else {
            run.fixture.preempted(run.main_thread, t0 + 1200 * kUs, 8 * kMs, std::nullopt);
        }
    }
    // With the record, the CPUs were busy; without it, mostly idle: nobody else wanted them.
    run.fixture.snapshots(kLoopEndNs, recorded_throttled ? 100 : 15, recorded_throttled ? 4 : 1);
    // The recorder sampled the group that limits it: its throttling counts rose by 12 of 13.
    for (auto [ts, periods, throttled] : {std::tuple{500 * kMs, 6, 5}, {1900 * kMs, 19, 17}}) {
        REQUIRE(run.fixture.writer().add_cgroup_sample({.ts_ns = ts,
                                                        .process_id = run.main_process,
                                                        .version = 1,
                                                        .path = "/job/worker",
                                                        .limit_path = "/job",
                                                        .quota_us = 30'000,
                                                        .period_us = 100'000,
                                                        .nr_periods = periods,
                                                        .nr_throttled = throttled,
                                                        .throttled_ns = throttled * 70 * kMs}));
    }
    auto d = diagnose_all(run.fixture.load(kLoopEndNs));

    CHECK(d.verdict.verdict_class == VerdictClass::kCpuThrottled);
    REQUIRE(!d.chains.empty());
    const CausalChain& top = d.chains.front();
    CHECK(top.actor.kind == CauseKind::kCpuQuota);
    CHECK(top.actor.name == "/job");
    CHECK(causeway::report::root_cause_text(top).find(
              "cgroup /job (v1) allows 0.30 CPUs (30.0 ms per 100 ms), throttled in 12 of its 13 "
              "periods") != std::string::npos);
    CHECK(top.competitors.empty());
    CHECK(top.time_lost_share > 0.75);
    REQUIRE(top.critical_path);
    CHECK(top.critical_path->speedup > 4.0);
    CHECK(recommends(top.recommendations, RecommendationKind::kRaiseCpuLimit));
    // Nothing says the CPU went to someone while the CPUs sat idle.
    CHECK_FALSE(has_chain(d, VerdictClass::kCpuContended));
}

TEST_CASE("a process outside the job is named with its container and pod", "[analysis][golden]") {
    const std::string id = "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d";
    const std::string pod = "7c1e0d9a-5b4f-4e2d-9c3b-2a1f0e9d8c7b";
    DataLoaderRun run(0);
    const std::int64_t hog_process = run.fixture.process(900, "hogd", std::nullopt, false);
    const std::int64_t hog = run.fixture.thread(hog_process, 900, "hogd");
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        run.fixture.call(run.main_thread, op::kLaunchKernel, t0, 20 * kUs);
        run.fixture.call(run.main_thread, op::kStreamSynchronize, t0 + 50 * kUs, 1 * kMs);
        run.fixture.preempted(run.main_thread, t0 + 1200 * kUs, 8 * kMs, hog);
    }
    run.fixture.snapshots(kLoopEndNs, 100, 3);
    // The recorder sampled the hog's group once, as first seen: a pod's container.
    REQUIRE(run.fixture.writer().add_cgroup_sample(
        {.ts_ns = 1 * kMs,
         .process_id = hog_process,
         .version = 1,
         .path = "/kubepods/besteffort/pod" + pod + "/" + id}));
    auto d = diagnose_all(run.fixture.load(kLoopEndNs));

    REQUIRE(!d.chains.empty());
    const CausalChain& top = d.chains.front();
    CHECK(top.root_cause_class == VerdictClass::kCpuContended);
    CHECK(top.actor.kind == CauseKind::kProcessesOutside);
    REQUIRE(top.actor.container);
    CHECK(top.actor.container->container_id == id);
    CHECK(top.actor.container->pod_uid == pod);
    CHECK(top.actor.container->qos_class == "BestEffort");
    REQUIRE(!top.competitors.empty());
    CHECK(top.competitors[0].cgroup == "/kubepods/besteffort/pod" + pod + "/" + id);
    const std::string named = "hogd in container 9e8d7c6b5a4f of pod " + pod;
    CHECK_THAT(causeway::report::root_cause_text(top), Catch::Contains(named));
    // The training process is in no container.
    REQUIRE(!d.processes.processes.empty());
    CHECK_FALSE(d.processes.processes[0].container);
}

TEST_CASE("co-occurrence trap: switches in other threads never blame the slow thread",
          "[analysis][golden][trap]") {
    DataLoaderRun run(4);
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        run.fixture.call(run.main_thread, op::kLaunchKernel, t0, 20 * kUs);
        bool slow = i % 10 == 0;
        run.fixture.call(run.main_thread, op::kStreamSynchronize, t0 + 50 * kUs,
                         slow ? 6 * kMs : 200 * kUs);
        // Workers preempt EACH OTHER all the time, including during the slow syncs.
        for (int k = 0; k < 8; ++k) {
            auto w = static_cast<std::size_t>(k % 4);
            run.fixture.preempted(run.worker_threads[w], t0 + k * kMs, 900 * kUs,
                                  run.worker_threads[(w + 1) % 4]);
        }
    }
    run.fixture.snapshots(kLoopEndNs, 100, 6);
    auto d = diagnose_all(run.fixture.load(kLoopEndNs));

    CHECK_FALSE(has_chain(d, VerdictClass::kCpuContended));
    CHECK(d.verdict.verdict_class != VerdictClass::kCpuContended);
}

namespace {

// The training thread of `run` waits for the next batch on a pipe between iterations.
void training_thread_waits_for_batches(DataLoaderRun& run) {
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        run.fixture.call(run.main_thread, op::kMemcpyAsync, t0, 100 * kUs, 1 << 20, 1);
        run.fixture.call(run.main_thread, op::kLaunchKernel, t0 + 200 * kUs, 20 * kUs);
        run.fixture.call(run.main_thread, op::kStreamSynchronize, t0 + 300 * kUs, 1 * kMs);
        // Waits for the next batch on a pipe: 8 ms asleep, 50 us in the run queue.
        run.fixture.blocked(run.main_thread, t0 + 1500 * kUs, 8 * kMs, 50 * kUs);
    }
    run.fixture.snapshots(kLoopEndNs, 35, 1);
}

}  // namespace

TEST_CASE("a training thread asleep between calls with idle CPUs is INPUT-BOUND",
          "[analysis][golden]") {
    DataLoaderRun run(1);
    training_thread_waits_for_batches(run);
    auto d = diagnose_all(run.fixture.load(kLoopEndNs));

    CHECK(d.verdict.verdict_class == VerdictClass::kInputBound);
    REQUIRE(!d.chains.empty());
    CHECK(d.chains[0].root_cause_class == VerdictClass::kInputBound);
    CHECK(d.chains[0].confidence == Confidence::kHigh);
    CHECK(recommends(d.chains[0].recommendations, RecommendationKind::kMoreWorkers));
    CHECK_FALSE(has_chain(d, VerdictClass::kCpuContended));
}

TEST_CASE("off-CPU intervals of unknown reason keep a waiting chain LOW and say why",
          "[analysis][golden][honest]") {
    DataLoaderRun run(1);
    training_thread_waits_for_batches(run);
    REQUIRE(run.fixture.writer().put_data_quality(
        {"sched", "offcpu_reason_unknown", kIterations, causeway::tracedb::Severity::kError,
         "off-CPU intervals imported without their reason"}));
    auto d = diagnose_all(run.fixture.load(kLoopEndNs));

    REQUIRE(!d.chains.empty());
    CHECK(d.chains[0].root_cause_class == VerdictClass::kInputBound);
    CHECK(d.chains[0].confidence == Confidence::kLow);
    CHECK(std::any_of(d.chains[0].evidence.begin(), d.chains[0].evidence.end(),
                      [](const Evidence& e) { return e.key == "offcpu_reason_unknown"; }));
}

TEST_CASE("time in synchronisation with an idle host is GPU-BOUND", "[analysis][golden]") {
    DataLoaderRun run(0);
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        run.fixture.call(run.main_thread, op::kLaunchKernel, t0, 30 * kUs);
        run.fixture.call(run.main_thread, op::kStreamSynchronize, t0 + 100 * kUs, 9 * kMs);
        run.fixture.blocked(run.main_thread, t0 + 200 * kUs, 8 * kMs);  // asleep in the sync
    }
    run.fixture.snapshots(kLoopEndNs, 15, 1);
    auto d = diagnose_all(run.fixture.load(kLoopEndNs));

    CHECK(d.verdict.verdict_class == VerdictClass::kGpuBound);
    REQUIRE(!d.chains.empty());
    CHECK(d.chains[0].root_cause_class == VerdictClass::kGpuBound);
    CHECK(d.chains[0].confidence == Confidence::kHigh);
    CHECK_FALSE(has_chain(d, VerdictClass::kInputBound));
}

// Each step copies 64 MiB from pageable memory for 6 ms of its 10, then runs 1 ms of kernels.
void record_pageable_steps(DataLoaderRun& run) {
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        run.fixture.call(run.main_thread, op::kMemcpy, t0, 6 * kMs, 64 << 20, 0);
        run.fixture.call(run.main_thread, op::kLaunchKernel, t0 + 6100 * kUs, 20 * kUs);
        run.fixture.call(run.main_thread, op::kStreamSynchronize, t0 + 6200 * kUs, 1 * kMs);
        run.fixture.preempted(run.main_thread, t0 + 8 * kMs, 100 * kUs, std::nullopt);
    }
    run.fixture.snapshots(kLoopEndNs, 50, 1);
}

TEST_CASE("pageable copies dominating the loop are TRANSFER-BOUND with pin_memory",
          "[analysis][golden]") {
    DataLoaderRun run(0);
    record_pageable_steps(run);
    auto d = diagnose_all(run.fixture.load(kLoopEndNs));

    CHECK(d.verdict.verdict_class == VerdictClass::kTransferBound);
    REQUIRE(!d.chains.empty());
    CHECK(recommends(d.chains[0].recommendations, RecommendationKind::kPinnedCopies));
    // Without the GPU's link, what pinning keeps is unknown: removing the copies is the most.
    REQUIRE(d.chains[0].critical_path);
    CHECK(d.chains[0].critical_path->upper_bound);
    CHECK_FALSE(d.chains[0].critical_path->advised_fix);
}

TEST_CASE("with the GPU's PCIe link, pinning is predicted from the bytes it still moves",
          "[analysis][golden]") {
    DataLoaderRun run(0);
    record_pageable_steps(run);
    auto d = diagnose_all(run.fixture.load_edited(
        kLoopEndNs, "UPDATE session SET gpu_link_mts = 16000, gpu_link_width = 16"));

    REQUIRE(!d.chains.empty());
    const CausalChain& chain = d.chains[0];
    CHECK(chain.root_cause_class == VerdictClass::kTransferBound);
    REQUIRE(chain.critical_path);
    CHECK_FALSE(chain.critical_path->upper_bound);
    REQUIRE(chain.critical_path->advised_fix);
    // PCIe 4.0 x16 moves 31.5 GB/s, pinned copies 0.8 of it: 64 MiB in 2.66 ms and 10 us. Each
    // step saves 6 - 2.67 ms of its 10: 1.5x, where removing the copies would give 2.5x.
    CHECK(chain.critical_path->advised_fix->fix == RecommendationKind::kPinnedCopies);
    CHECK(chain.critical_path->advised_fix->speedup == Approx(10.0 / (10.0 - 3.33)).epsilon(0.02));
    CHECK(chain.critical_path->speedup == Approx(2.5).epsilon(0.02));
    const Recommendation* pin =
        find_recommendation(chain.recommendations, RecommendationKind::kPinnedCopies);
    REQUIRE(pin);
    CHECK(fact<Fact::kPinnedBytesPerS>(*pin) == Approx(31.5e9 * 0.8).epsilon(0.01));
    CHECK(fact<Fact::kLinkWidth>(*pin) == 16);
}

TEST_CASE("cudaMalloc/cudaFree every step are ALLOCATION-CHURN", "[analysis][golden]") {
    DataLoaderRun run(0);
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        run.fixture.call(run.main_thread, op::kMalloc, t0, 4 * kMs, 256 << 20);
        run.fixture.call(run.main_thread, op::kLaunchKernel, t0 + 4100 * kUs, 20 * kUs);
        run.fixture.call(run.main_thread, op::kFree, t0 + 4200 * kUs, 4 * kMs);
        run.fixture.preempted(run.main_thread, t0 + 8500 * kUs, 100 * kUs, std::nullopt);
    }
    auto d = diagnose_all(run.fixture.load(kLoopEndNs));

    CHECK(d.verdict.verdict_class == VerdictClass::kAllocationChurn);
    REQUIRE(!d.chains.empty());
    CHECK(recommends(d.chains[0].recommendations, RecommendationKind::kReuseDeviceBuffers));
}

TEST_CASE("a short run dominated by its first calls is COLD-START", "[analysis][golden]") {
    DataLoaderRun run(0);
    run.fixture.call(run.main_thread, op::kMalloc, 0, 800 * kMs, 1 << 20);
    for (int i = 0; i < 50; ++i) {
        std::int64_t t0 = 800 * kMs + i * 2 * kMs;
        run.fixture.call(run.main_thread, op::kMalloc, t0, 20 * kUs, 1 << 20);
        run.fixture.call(run.main_thread, op::kLaunchKernel, t0 + 100 * kUs, 20 * kUs);
    }
    run.fixture.preempted(run.main_thread, 850 * kMs, 100 * kUs, std::nullopt);
    auto d = diagnose_all(run.fixture.load(900 * kMs));

    CHECK(d.verdict.verdict_class == VerdictClass::kColdStart);
    REQUIRE(!d.chains.empty());
    CHECK(d.chains[0].op == "cudaMalloc");
}

TEST_CASE("a loop with no cause above threshold is HEALTHY", "[analysis][golden]") {
    DataLoaderRun run(0);
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        // The thread prepares the next step while the device runs this one (its own work
        // hidden behind the queue), and the sync is short.
        run.fixture.call(run.main_thread, op::kLaunchKernel, t0, 20 * kUs);
        run.fixture.preempted(run.main_thread, t0 + 5 * kMs, 100 * kUs, std::nullopt);
        run.fixture.call(run.main_thread, op::kStreamSynchronize, t0 + 8 * kMs, 1900 * kUs);
    }
    run.fixture.snapshots(kLoopEndNs, 50, 1);
    auto d = diagnose_all(run.fixture.load(kLoopEndNs));

    CHECK(d.verdict.verdict_class == VerdictClass::kHealthy);
    CHECK(d.chains.empty());
}

TEST_CASE("an empty trace is INSUFFICIENT-DATA", "[analysis][golden][honest]") {
    FixtureBuilder fixture;
    auto d = diagnose_all(fixture.load(1 * kMs));
    CHECK(d.verdict.verdict_class == VerdictClass::kInsufficientData);
    CHECK(d.chains.empty());
    CHECK(d.verdict.reason == VerdictReason::kNoCudaCalls);
    CHECK(fact<Fact::kHostEventRows>(d.verdict) == 0);
    CHECK(causeway::report::verdict_summary(d).find("no CUDA calls") != std::string::npos);
}

// Whether the diagnosis holds an error data-quality row of `counter` with `value`.
bool has_error_row(const Diagnosis& d, causeway::tracedb::DataQualityCounter counter,
                   std::int64_t value) {
    return std::any_of(
        d.data_quality.items.begin(), d.data_quality.items.end(), [&](const DataQualityItem& item) {
            return item.is(counter) && item.value == value && item.severity == "error";
        });
}

TEST_CASE("calls left out of a damaged trace are counted, not called unrecorded",
          "[analysis][golden][honest]") {
    // Every thread row names a process that is not in the file (an edited or damaged trace).
    DataLoaderRun run(0);
    for (int i = 0; i < kIterations; ++i) {
        run.fixture.call(run.main_thread, op::kLaunchKernel, i * kPeriodNs, 20 * kUs);
    }
    auto d = diagnose_all(run.fixture.load_edited(kLoopEndNs,
                                                  "PRAGMA foreign_keys=OFF; "
                                                  "UPDATE thread SET process_id = 99"));

    CHECK(d.verdict.verdict_class == VerdictClass::kInsufficientData);
    CHECK(d.verdict.reason == VerdictReason::kCallsLeftOut);
    const std::string summary = causeway::report::verdict_summary(d);
    CHECK_THAT(summary, Catch::StartsWith("200 CUDA calls were recorded, but none could be "
                                          "analysed"));
    CHECK_THAT(summary, !Catch::Contains("No CUDA calls were recorded"));
    CHECK(has_error_row(d, causeway::tracedb::DataQualityCounter::kOrphanThreadRows, 1));
    CHECK(has_error_row(d, causeway::tracedb::DataQualityCounter::kOrphanCudaCalls, 200));
}

TEST_CASE("stack rows of a damaged trace that name what is not in the file are counted",
          "[analysis][golden][honest]") {
    DataLoaderRun run(0);
    for (int i = 0; i < kIterations; ++i) {
        run.fixture.call(run.main_thread, op::kLaunchKernel, i * kPeriodNs, 20 * kUs);
    }
    // Calls that name a stack the file lacks, a Python frame of a missing stack, and a
    // switch-out sample of a missing thread.
    auto d = diagnose_all(run.fixture.load_edited(
        kLoopEndNs,
        "PRAGMA foreign_keys=OFF; UPDATE cuda_call SET stack_id = 888; "
        "INSERT INTO stack_python_frame (stack_id, depth, file, function, line, first_line, "
        "code_address, instr_offset) VALUES (777, 0, 'x.py', 'f', 1, 1, 0, 0); "
        "INSERT INTO switch_out_stack (thread_id, ts_ns, stack_id, role, reason) VALUES "
        "(999, 1, 777, 0, 0)"));

    CHECK(d.verdict.reason != VerdictReason::kCallsLeftOut);  // the calls themselves are read
    CHECK(has_error_row(d, causeway::tracedb::DataQualityCounter::kOrphanStackRows, 2));
    CHECK(has_error_row(d, causeway::tracedb::DataQualityCounter::kMissingCallStacks, 200));
}

TEST_CASE("a trace with host events only is INSUFFICIENT-DATA and says so",
          "[analysis][golden][honest]") {
    FixtureBuilder fixture;
    auto p = fixture.process(100, "python");
    auto t = fixture.thread(p, 100, "python");
    fixture.blocked(t, 0, 5 * kMs);
    fixture.snapshots(500 * kMs, 20, 1);
    auto d = diagnose_all(fixture.load(500 * kMs));
    CHECK(d.verdict.verdict_class == VerdictClass::kInsufficientData);
    CHECK(d.verdict.reason == VerdictReason::kNoCudaCalls);
    CHECK(fact<Fact::kHostEventRows>(d.verdict) > 0);
    CHECK(causeway::report::verdict_summary(d).find("host-event rows only") != std::string::npos);
}

TEST_CASE("a trace with drops shows them next to the verdict", "[analysis][golden][honest]") {
    DataLoaderRun run(0);
    for (int i = 0; i < kIterations; ++i) {
        run.fixture.call(run.main_thread, op::kLaunchKernel, i * kPeriodNs, 20 * kUs);
        run.fixture.preempted(run.main_thread, i * kPeriodNs + kMs, 10 * kUs, std::nullopt);
    }
    REQUIRE(run.fixture.writer().put_data_quality(
        {.source = "cuda",
         .counter = "ringbuf_drops",
         .value = 1234,
         .severity = causeway::tracedb::Severity::kDataLoss,
         .description = "CUDA events dropped: the ring buffer was full"}));
    auto d = diagnose_all(run.fixture.load(kLoopEndNs));
    CHECK(d.data_quality.data_loss);
    CHECK(d.data_quality.events_lost == 1234);
    REQUIRE(!d.data_quality.items.empty());
    CHECK(d.data_quality.items[0].counter == "ringbuf_drops");
    CHECK(causeway::report::verdict_summary(d).find("1234 events were lost") != std::string::npos);
}

TEST_CASE("without off-CPU intervals nothing found is not called healthy",
          "[analysis][golden][honest]") {
    DataLoaderRun run(0);
    for (int i = 0; i < kIterations; ++i) {
        run.fixture.call(run.main_thread, op::kLaunchKernel, i * kPeriodNs, 20 * kUs);
    }
    auto d = diagnose_all(run.fixture.load(kLoopEndNs));
    CHECK(d.verdict.verdict_class == VerdictClass::kInsufficientData);
    CHECK(d.verdict.reason == VerdictReason::kNoSchedulingData);
    REQUIRE(!d.evidence_limits.empty());
    CHECK(d.evidence_limits[0].kind == EvidenceLimitKind::kNoOffcpu);
}

TEST_CASE("an imported trace with counts only says counts cannot prove preemption",
          "[analysis][golden][honest]") {
    FixtureBuilder fixture(2, "import:ingero");
    auto p = fixture.process(100, "python");
    auto t = fixture.thread(p, 100, "python");
    for (int i = 0; i < kIterations; ++i) {
        fixture.call(t, op::kStreamSynchronize, i * kPeriodNs, i % 10 == 0 ? 5 * kMs : 100 * kUs);
    }
    REQUIRE(fixture.writer().add_event_count({.process_id = p,
                                              .bucket_ns = 0,
                                              .bucket_dur_ns = kLoopEndNs,
                                              .event = "sched_switch",
                                              .count = 50'000,
                                              .stored = 0}));
    auto d = diagnose_all(fixture.load(kLoopEndNs));
    REQUIRE(d.evidence_limits.size() == 1);
    CHECK(d.evidence_limits[0].kind == EvidenceLimitKind::kImportedCountsOnly);
    CHECK(fact<Fact::kSchedSwitches>(d.evidence_limits[0]) == 50'000);
    std::string limit = causeway::report::evidence_limit_text(d.evidence_limits[0]);
    CHECK(limit.find("cannot prove") != std::string::npos);
    CHECK(limit.find("50000 sched_switch") != std::string::npos);
    CHECK_FALSE(has_chain(d, VerdictClass::kCpuContended));
}

TEST_CASE(
    "workers re-forked every epoch add persistent_workers, saturated CPUs drop 'more workers'",
    "[analysis][golden][dataloader]") {
    FixtureBuilder fixture(2);
    auto main_process = fixture.process(100, "python");
    auto main_thread = fixture.thread(main_process, 100, "python");
    // Three epochs of 600 ms, each with a fresh pair of workers.
    for (int epoch = 0; epoch < 3; ++epoch) {
        for (int w = 0; w < 2; ++w) {
            auto p = fixture.process(200 + epoch * 2 + w, "pt_data_worker", main_process, true,
                                     epoch * 700 * kMs, epoch * 700 * kMs + 600 * kMs);
            // Each worker computes on a CPU all its life: with the trainer, the tree fills both.
            fixture.sched_total(fixture.thread(p, 200 + epoch * 2 + w, "pt_data_worker"),
                                600 * kMs);
        }
    }
    for (int i = 0; i < kIterations; ++i) {
        std::int64_t t0 = i * kPeriodNs;
        fixture.call(main_thread, op::kLaunchKernel, t0, 20 * kUs);
        fixture.call(main_thread, op::kStreamSynchronize, t0 + 100 * kUs, 1 * kMs);
        fixture.blocked(main_thread, t0 + 2 * kMs, 7 * kMs, 20 * kUs);
    }
    fixture.snapshots(kLoopEndNs, 97, 5);  // the CPUs are busy the whole time
    auto d = diagnose_all(fixture.load(kLoopEndNs));

    CHECK(d.verdict.verdict_class == VerdictClass::kInputBound);
    REQUIRE(!d.chains.empty());
    const auto& recommendations = d.chains[0].recommendations;
    CHECK(recommends(recommendations, RecommendationKind::kPersistentWorkers));
    CHECK(recommends(recommendations, RecommendationKind::kCheaperLoading));
    CHECK_FALSE(recommends(recommendations, RecommendationKind::kMoreWorkers));
}

TEST_CASE("an impossible PCIe link in the trace is not used", "[analysis][golden]") {
    DataLoaderRun run(0);
    record_pageable_steps(run);
    auto d = diagnose_all(run.fixture.load_edited(
        kLoopEndNs, "UPDATE session SET gpu_link_mts = 16000, gpu_link_width = 4096"));
    REQUIRE(!d.chains.empty());
    REQUIRE(d.chains[0].critical_path);
    CHECK(d.chains[0].critical_path->upper_bound);
    CHECK_FALSE(d.chains[0].critical_path->advised_fix);
}
