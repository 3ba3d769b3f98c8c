// Causes by actor: each lost interval of the GPU-driving thread is blamed on who held its CPU or
// who ended its sleep, and one cause becomes one chain whose time lost is the sum of its effects.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analysis/diagnose/declared_facts.hpp"
#include "analysis/diagnose/diagnosis.hpp"
#include "report/evidence_text.hpp"
#include "tests/analysis/fixture_builder.hpp"

using namespace causeway::analysis;
using namespace causeway::testing;
using causeway::tracedb::WakeContext;

namespace {

constexpr int kSteps = 200;
constexpr std::int64_t kStepNs = 10 * kMs;
constexpr std::int64_t kEndNs = kSteps * kStepNs;
// x86-64 system call numbers, as the collector reads them from the saved registers.
constexpr std::int64_t kFutex = 202;
constexpr std::int64_t kPoll = 7;
constexpr std::int64_t kRead = 0;
constexpr std::int64_t kClockNanosleep = 230;

// A training process (pid 100) whose thread drives the GPU: launch + sync every 10 ms.
struct Trainer {
    explicit Trainer(std::int64_t cpus = 2) : fixture(cpus) {}

    FixtureBuilder fixture;
    std::int64_t process = fixture.process(100, "python");
    std::int64_t thread = fixture.thread(process, 100, "python");

    std::int64_t worker(std::int64_t pid) {
        auto p = fixture.process(pid, "pt_data_worker", process);
        return fixture.thread(p, pid, "pt_data_worker");
    }
    // PyTorch's index-queue feeder: a thread of the training process (tid) that writes
    // `worker`'s batch indices to its pipe every step, `offset_ns` into the step, waking it from a
    // sleep of `asleep_ns`.
    std::int64_t feeder(std::int64_t tid, std::int64_t worker, std::int64_t offset_ns,
                        std::int64_t asleep_ns) {
        auto thread_id = fixture.thread(process, tid, "python");
        for (int i = 0; i < kSteps; ++i) {
            fixture.woken(worker, i * kStepNs + offset_ns, asleep_ns, 10 * kUs,
                          {.waker_thread_id = thread_id, .syscall_nr = kRead});
        }
        return thread_id;
    }
    void steps() {
        for (int i = 0; i < kSteps; ++i) {
            fixture.call(thread, op::kLaunchKernel, i * kStepNs, 20 * kUs);
            fixture.call(thread, op::kStreamSynchronize, i * kStepNs + 50 * kUs, 1 * kMs);
        }
    }
    // The steps, each waiting for `workers` in turn: between calls, preempted 2 ms by a worker,
    // then 4 ms asleep in poll until a worker sends the batch, then 100 us in the run queue.
    void starved_by(const std::vector<std::int64_t>& workers) {
        steps();
        for (int i = 0; i < kSteps; ++i) {
            auto w = workers[static_cast<std::size_t>(i) % workers.size()];
            fixture.preempted(thread, i * kStepNs + 1500 * kUs, 2 * kMs, w);
            fixture.woken(thread, i * kStepNs + 4 * kMs, 4 * kMs + 100 * kUs, 100 * kUs,
                          {.waker_thread_id = w, .syscall_nr = kPoll});
        }
    }
    Diagnosis diagnose_run() { return diagnose(fixture.load(kEndNs), DiagnosisOptions{}); }
};

std::int64_t step_start(int i) {
    return i * kStepNs;
}

bool recommends(const std::vector<Recommendation>& recommendations, RecommendationKind kind) {
    return find_recommendation(recommendations, kind) != nullptr;
}

// Any advice about the number of DataLoader workers.
bool advises_workers(const std::vector<Recommendation>& recommendations) {
    return recommends(recommendations, RecommendationKind::kFewerWorkers) ||
           recommends(recommendations, RecommendationKind::kWorkersYieldCpu) ||
           recommends(recommendations, RecommendationKind::kMoreWorkers) ||
           recommends(recommendations, RecommendationKind::kBackgroundLoading);
}

const Effect* effect(const CausalChain& chain, EffectKind kind) {
    auto it = std::find_if(chain.effects.begin(), chain.effects.end(),
                           [&](const Effect& e) { return e.kind == kind; });
    return it == chain.effects.end() ? nullptr : &*it;
}

const CausalChain* chain_of(const Diagnosis& d, CauseKind kind) {
    auto it = std::find_if(d.chains.begin(), d.chains.end(),
                           [&](const CausalChain& c) { return c.actor.kind == kind; });
    return it == d.chains.end() ? nullptr : &*it;
}

std::int64_t sum_of_effects(const CausalChain& chain) {
    std::int64_t ns = 0;
    for (const auto& e : chain.effects) {
        ns += e.ns;
    }
    return ns;
}

}  // namespace

TEST_CASE("workers that preempt the trainer and feed it batches are one cause on full CPUs",
          "[analysis][actors]") {
    Trainer run;
    run.starved_by({run.worker(101), run.worker(102), run.worker(103)});
    run.fixture.snapshots(kEndNs, 98, 5);
    auto d = run.diagnose_run();

    CHECK(d.verdict.verdict_class == VerdictClass::kCpuContended);
    REQUIRE(!d.chains.empty());
    const CausalChain& top = d.chains.front();
    CHECK(top.actor.kind == CauseKind::kDataLoaderWorkers);
    CHECK(top.actor.name == "pt_data_worker");
    CHECK(top.actor.pid == 100);
    CHECK(top.actor.pids == std::vector<std::int64_t>{101, 102, 103});
    // The last step's preemption and sleep come after the last call: outside the loop.
    REQUIRE(effect(top, EffectKind::kPreempted));
    CHECK(effect(top, EffectKind::kPreempted)->ns == (kSteps - 1) * 2 * kMs);
    REQUIRE(effect(top, EffectKind::kWoken));
    CHECK(effect(top, EffectKind::kWoken)->wait == WaitKind::kPoll);
    CHECK(effect(top, EffectKind::kWoken)->count == kSteps - 1);
    CHECK(effect(top, EffectKind::kWoken)->ns == (kSteps - 1) * 4 * kMs);
    REQUIRE(effect(top, EffectKind::kRunqWait));
    CHECK(top.time_lost_ns == sum_of_effects(top));
    // One cause, one chain: no INPUT-BOUND chain for the same workers.
    CHECK(std::none_of(d.chains.begin(), d.chains.end(), [](const CausalChain& c) {
        return c.root_cause_class == VerdictClass::kInputBound;
    }));
    CHECK(recommends(top.recommendations, RecommendationKind::kIndexInMemory));
    const Recommendation* fewer =
        find_recommendation(top.recommendations, RecommendationKind::kFewerWorkers);
    if (fewer == nullptr) {
        fewer = find_recommendation(top.recommendations, RecommendationKind::kWorkersYieldCpu);
    }
    REQUIRE(fewer);
    CHECK(fact<Fact::kNumWorkers>(*fewer) == 1);
}

TEST_CASE("workers of a job pinned to 2 CPUs of 16 are sized to its 2", "[analysis][actors]") {
    Trainer run(16);
    run.starved_by({run.worker(101), run.worker(102), run.worker(103), run.worker(104)});
    // taskset -c 0-1: the trainer and the workers it forks may use 2 of the 16 CPUs.
    REQUIRE(run.fixture.writer().add_cgroup_sample(
        {.ts_ns = 0, .process_id = run.process, .version = 2, .path = "/", .cpus_allowed = 2}));
    run.fixture.snapshots(kEndNs, 15, 5);
    auto d = run.diagnose_run();

    REQUIRE(!d.chains.empty());
    const CausalChain& top = d.chains.front();
    CHECK(top.actor.kind == CauseKind::kDataLoaderWorkers);
    // 4 workers on the job's 2 CPUs, not on the machine's 16: fewer workers, one.
    const Recommendation* fewer =
        find_recommendation(top.recommendations, RecommendationKind::kFewerWorkers);
    REQUIRE(fewer != nullptr);
    CHECK(fact<Fact::kCpus>(*fewer) == 2);
    CHECK(fact<Fact::kNumWorkers>(*fewer) == 1);
    const auto workers_evidence = std::find_if(
        top.evidence.begin(), top.evidence.end(),
        [](const Evidence& e) { return e.kind == EvidenceKind::kDataLoaderWorkersOverRun; });
    REQUIRE(workers_evidence != top.evidence.end());
    CHECK(fact<Fact::kCpus>(*workers_evidence) == 2);
}

TEST_CASE("a worker too slow for the trainer with idle CPUs asks for more workers",
          "[analysis][actors]") {
    Trainer run;
    auto worker = run.worker(101);
    run.steps();
    for (int i = 0; i < kSteps; ++i) {
        run.fixture.woken(run.thread, step_start(i) + 2 * kMs, 7 * kMs, 30 * kUs,
                          {.waker_thread_id = worker, .syscall_nr = kRead});
    }
    // The worker computes on its CPU all along without ever being switched out, while a build
    // outside fills the other CPU at a lower weight (100% busy machine-wide).
    run.fixture.sched_total(worker, 19 * kEndNs / 20);
    run.fixture.snapshots(kEndNs, 100, 3);
    auto d = run.diagnose_run();

    CHECK(d.verdict.verdict_class == VerdictClass::kInputBound);
    REQUIRE(!d.chains.empty());
    CHECK(d.chains[0].actor.kind == CauseKind::kDataLoaderWorkers);
    CHECK(d.chains[0].confidence == Confidence::kHigh);
    // The trainer asleep 70% and the worker busy: about one CPU the tree left idle, and the
    // tree never waited for one, so one more worker.
    const Recommendation* more =
        find_recommendation(d.chains[0].recommendations, RecommendationKind::kMoreWorkers);
    REQUIRE(more);
    CHECK(fact<Fact::kNumWorkers>(*more) == 1);
    CHECK(fact<Fact::kMoreNumWorkers>(*more) == 2);
}

TEST_CASE("workers that already outnumber idle CPUs are not asked to be more",
          "[analysis][actors]") {
    Trainer run;
    std::vector<std::int64_t> workers = {run.worker(101), run.worker(102)};
    run.steps();
    for (int i = 0; i < kSteps; ++i) {
        run.fixture.woken(
            run.thread, step_start(i) + 2 * kMs, 7 * kMs, 30 * kUs,
            {.waker_thread_id = workers[static_cast<std::size_t>(i % 2)], .syscall_nr = kRead});
    }
    // Two workers on two CPUs, each on its CPU a tenth of the time: a CPU and more sat idle.
    for (auto worker : workers) {
        run.fixture.sched_total(worker, kEndNs / 10);
    }
    run.fixture.snapshots(kEndNs, 30, 1);
    auto d = run.diagnose_run();

    REQUIRE(!d.chains.empty());
    const CausalChain& top = d.chains.front();
    CHECK(top.actor.kind == CauseKind::kDataLoaderWorkers);
    CHECK(recommends(top.recommendations, RecommendationKind::kIndexInMemory));
    const Recommendation* outnumber =
        find_recommendation(top.recommendations, RecommendationKind::kWorkersOutnumberCpus);
    REQUIRE(outnumber);
    CHECK(fact<Fact::kNumWorkers>(*outnumber) == 2);
    CHECK(fact<Fact::kCpus>(*outnumber) == 2);
    CHECK(fact<Fact::kIdleCpus>(*outnumber) >= 0.5);
    CHECK_FALSE(recommends(top.recommendations, RecommendationKind::kMoreWorkers));
}

TEST_CASE("a thread asleep until the recording ends leaves its CPU idle", "[analysis][actors]") {
    Trainer run;
    auto worker_process = run.fixture.process(101, "pt_data_worker", run.process);
    auto worker = run.fixture.thread(worker_process, 101, "pt_data_worker");
    // Two helper threads of the worker ran at the start, then slept past the end of the
    // recording: the collector stores a sleep only when it ends, so the last has no interval.
    for (std::int64_t tid : {102, 103}) {
        run.fixture.blocked(run.fixture.thread(worker_process, tid, "pt_data_worker"), 0, 2 * kMs);
    }
    run.steps();
    for (int i = 0; i < kSteps; ++i) {
        run.fixture.woken(run.thread, step_start(i) + 2 * kMs, 7 * kMs, 30 * kUs,
                          {.waker_thread_id = worker, .syscall_nr = kRead});
    }
    run.fixture.sched_total(worker, 19 * kEndNs / 20);
    auto d = run.diagnose_run();

    CHECK(d.verdict.verdict_class == VerdictClass::kInputBound);
    REQUIRE(!d.chains.empty());
    const Recommendation* more =
        find_recommendation(d.chains[0].recommendations, RecommendationKind::kMoreWorkers);
    REQUIRE(more);
    CHECK(fact<Fact::kNumWorkers>(*more) == 1);
    CHECK(fact<Fact::kMoreNumWorkers>(*more) == 2);
}

TEST_CASE("a thread of the trainer that feeds the workers belongs to the DataLoader",
          "[analysis][actors]") {
    Trainer run;
    auto worker = run.worker(101);
    // The feeder takes the trainer's CPU while it hands the worker its indices.
    auto feeder = run.feeder(110, worker, 1 * kMs, 1 * kMs);
    run.steps();
    for (int i = 0; i < kSteps; ++i) {
        run.fixture.preempted(run.thread, step_start(i) + 1500 * kUs, 2 * kMs, feeder);
        run.fixture.preempted(run.thread, step_start(i) + 4 * kMs, 2 * kMs, worker);
    }
    run.fixture.snapshots(kEndNs, 99, 3);
    auto d = run.diagnose_run();

    // The trainer's own work fills the rest of the step: its chain, and one for the DataLoader.
    REQUIRE(d.chains.size() == 2);
    CHECK(d.chains[0].actor.kind == CauseKind::kOwnCompute);
    const CausalChain* loader = chain_of(d, CauseKind::kDataLoaderWorkers);
    REQUIRE(loader != nullptr);
    const CausalChain& top = *loader;
    CHECK(effect(top, EffectKind::kPreempted)->ns == (kSteps - 1) * 4 * kMs);
    CHECK(std::any_of(top.competitors.begin(), top.competitors.end(), [](const Competitor& c) {
        return c.tid == 110 && c.role == Role::kDataLoaderFeeder;
    }));
}

TEST_CASE("threads of a job pinned to one CPU of two take turns on it: widen its cpuset",
          "[analysis][actors]") {
    Trainer run;
    auto omp_a = run.fixture.thread(run.process, 120, "omp_a");
    auto omp_b = run.fixture.thread(run.process, 121, "omp_b");
    run.steps();
    for (int i = 0; i < kSteps; ++i) {
        run.fixture.preempted(run.thread, step_start(i) + 1500 * kUs, 3 * kMs,
                              i % 2 == 0 ? omp_a : omp_b);
    }
    // Each helper thread keeps busy most of the run: with the trainer, more runnable threads
    // than the process has CPUs.
    run.fixture.sched_total(omp_a, kEndNs * 9 / 10);
    run.fixture.sched_total(omp_b, kEndNs * 9 / 10);
    // Its cpuset (or taskset) lets the process use CPU 0 only, on a 2-CPU machine.
    REQUIRE(run.fixture.writer().add_cgroup_sample(
        {.ts_ns = 0, .process_id = run.process, .version = 2, .path = "/", .cpus_allowed = 1}));
    run.fixture.snapshots(kEndNs, 50, 3);
    auto d = run.diagnose_run();

    const CausalChain* threads = chain_of(d, CauseKind::kTreeThreads);
    REQUIRE(threads != nullptr);
    CHECK(threads->root_cause_class == VerdictClass::kCpuContended);
    const Recommendation* wider =
        find_recommendation(threads->recommendations, RecommendationKind::kWiderCpuset);
    REQUIRE(wider != nullptr);
    CHECK(fact<Fact::kCpusAllowed>(*wider) == 1);
    CHECK(fact<Fact::kCpus>(*wider) == 2);
    CHECK(std::any_of(threads->evidence.begin(), threads->evidence.end(),
                      [](const Evidence& e) { return e.kind == EvidenceKind::kCpusAllowed; }));
}

TEST_CASE("a lock held by another thread names the holder, not the DataLoader",
          "[analysis][actors]") {
    Trainer run;
    auto holder = run.fixture.thread(run.process, 140, "prep_locker");
    run.steps();
    for (int i = 0; i < kSteps; ++i) {
        run.fixture.woken(run.thread, step_start(i) + 2 * kMs, 6 * kMs, 20 * kUs,
                          {.waker_thread_id = holder, .syscall_nr = kFutex});
    }
    run.fixture.snapshots(kEndNs, 50, 1);
    auto d = run.diagnose_run();

    CHECK(d.verdict.verdict_class == VerdictClass::kLockContended);
    REQUIRE(!d.chains.empty());
    const CausalChain& top = d.chains.front();
    CHECK(top.actor.kind == CauseKind::kLockHolder);
    CHECK(top.actor.name == "prep_locker");
    CHECK(top.actor.tid == 140);
    CHECK(effect(top, EffectKind::kWoken)->wait == WaitKind::kLock);
    CHECK(recommends(top.recommendations, RecommendationKind::kShorterCriticalSection));
    CHECK_FALSE(advises_workers(top.recommendations));
}

// A wait for the GIL as CPython makes it: sleeps on its condition variable that the switch
// interval's timer ends, then one that the holder ends when it drops the GIL (`holder` empty: that
// handover was not seen).
void gil_wait(Trainer& run, std::int64_t start_ns, int timeouts,
              std::optional<std::int64_t> holder) {
    std::int64_t ts = start_ns;
    for (int t = 0; t < timeouts; ++t, ts += 5 * kMs + 20 * kUs) {
        run.fixture.woken(run.thread, ts, 5 * kMs, 0,
                          {.syscall_nr = kFutex, .context = WakeContext::kHardIrq, .gil = true});
    }
    run.fixture.woken(run.thread, ts, 30 * kUs, 10 * kUs,
                      {.waker_thread_id = holder,
                       .syscall_nr = kFutex,
                       .context = holder ? WakeContext::kThread : WakeContext::kNone,
                       .gil = true});
}

TEST_CASE("waits for the GIL held by the DataLoader's feeder thread are the DataLoader's cost",
          "[analysis][actors][gil]") {
    Trainer run;
    // The feeder holds the GIL while it pickles the worker's indices.
    auto feeder = run.feeder(150, run.worker(101), 200 * kUs, 500 * kUs);
    run.steps();
    for (int i = 0; i < kSteps; ++i) {
        gil_wait(run, step_start(i) + 1100 * kUs, 1, feeder);
    }
    run.fixture.snapshots(kEndNs, 50, 1);
    auto d = run.diagnose_run();

    REQUIRE(!d.chains.empty());
    const CausalChain& top = d.chains.front();
    CHECK(top.actor.kind == CauseKind::kDataLoaderWorkers);
    const auto* gil = effect(top, EffectKind::kWoken);
    REQUIRE(gil);
    CHECK(gil->wait == WaitKind::kGil);
    CHECK(chain_of(d, CauseKind::kGilHolder) == nullptr);
    CHECK(d.verdict.verdict_class != VerdictClass::kGilContended);
}

TEST_CASE("waits for the GIL blame its holder, through the timer's wakeups inside them",
          "[analysis][actors][gil]") {
    Trainer run;
    auto metrics = run.fixture.thread(run.process, 141, "metrics");
    run.fixture.thread(run.process, 142, "bystander");
    run.steps();
    for (int i = 0; i < kSteps; ++i) {
        // One wait in four ends unseen: its holder is the thread seen handing the GIL over.
        gil_wait(run, step_start(i) + 1100 * kUs, 1,
                 i % 4 == 3 ? std::nullopt : std::optional<std::int64_t>(metrics));
    }
    run.fixture.snapshots(kEndNs, 50, 1);
    auto d = run.diagnose_run();

    CHECK(d.verdict.verdict_class == VerdictClass::kGilContended);
    REQUIRE(!d.chains.empty());
    const CausalChain& top = d.chains.front();
    CHECK(top.actor.kind == CauseKind::kGilHolder);
    CHECK(top.actor.name == "metrics");
    CHECK(top.actor.tid == 141);
    CHECK(effect(top, EffectKind::kWoken)->wait == WaitKind::kGil);
    // The loop ends at the last step's synchronisation, before its wait; each wait's last sleep
    // is 20 us asleep and 10 us waiting for a CPU.
    constexpr int kInLoop = kSteps - 1;
    CHECK(effect(top, EffectKind::kWoken)->ns == kInLoop * (5 * kMs + 20 * kUs));
    CHECK(fact<Fact::kHandovers>(top) == kInLoop - kInLoop / 4);
    CHECK(chain_of(d, CauseKind::kInterrupt) == nullptr);
    CHECK(recommends(top.recommendations, RecommendationKind::kGilWorkToProcess));
    CHECK(recommends(top.recommendations, RecommendationKind::kReleaseGil));
    CHECK(recommends(top.recommendations, RecommendationKind::kShorterSwitchInterval));
    CHECK_FALSE(advises_workers(top.recommendations));
}

TEST_CASE("a wait for the GIL ends at a CUDA call: the sleeps after it are a new wait",
          "[analysis][actors][gil]") {
    Trainer run;
    auto metrics = run.fixture.thread(run.process, 141, "metrics");
    auto other = run.fixture.thread(run.process, 143, "other");
    run.fixture.call(run.thread, op::kLaunchKernel, 0, 20 * kUs);
    gil_wait(run, 100 * kUs, 2, metrics);  // [100 us, 10.17 ms)
    run.fixture.call(run.thread, op::kLaunchKernel, 10'200 * kUs, 20 * kUs);
    gil_wait(run, 10'300 * kUs, 1, other);  // ended by `other`, after the call
    run.fixture.call(run.thread, op::kStreamSynchronize, 20 * kMs, 1 * kMs);
    auto model = run.fixture.load(kEndNs);

    const auto& sleeps = model.offcpu_by_thread[0];
    REQUIRE(sleeps.size() == 5);
    const int metrics_index = 1, other_index = 2;  // threads in the order they were written
    REQUIRE(model.threads[metrics_index].tid == 141);
    for (int i = 0; i < 3; ++i) {
        CHECK(sleeps[static_cast<std::size_t>(i)].gil_holder_index == metrics_index);
    }
    CHECK(sleeps[3].gil_holder_index == other_index);
    CHECK(sleeps[4].gil_holder_index == other_index);
}

TEST_CASE("sleeps ended by interrupts blame the disk and the timer, not the interrupted thread",
          "[analysis][actors]") {
    Trainer run;
    auto bystander = run.fixture.thread(run.process, 150, "bystander");
    run.steps();
    for (int i = 0; i < kSteps; ++i) {
        bool disk = i % 2 == 0;
        // The interrupt arrives while `bystander` runs; it must not be named.
        run.fixture.woken(run.thread, step_start(i) + 2 * kMs, 7500 * kUs, 10 * kUs,
                          {.waker_thread_id = std::nullopt,
                           .syscall_nr = disk ? kRead : kClockNanosleep,
                           .iowait = disk,
                           .context = WakeContext::kHardIrq});
    }
    run.fixture.preempted(bystander, 0, 1 * kMs, std::nullopt);
    run.fixture.snapshots(kEndNs, 30, 1);
    auto d = run.diagnose_run();

    std::vector<CauseKind> kinds;
    for (const auto& chain : d.chains) {
        kinds.push_back(chain.actor.kind);
        CHECK(chain.actor.name != "bystander");
    }
    // The 15% of the step left is the trainer's own work.
    CHECK(kinds ==
          std::vector<CauseKind>{CauseKind::kDiskIo, CauseKind::kTimer, CauseKind::kOwnCompute});
    CHECK(d.verdict.verdict_class == VerdictClass::kInputBound);
    CHECK(recommends(d.chains[0].recommendations, RecommendationKind::kDataInMemory));
    CHECK(recommends(d.chains[1].recommendations, RecommendationKind::kRemoveSleep));
}

TEST_CASE("a waker that was itself preempted is followed one hop back", "[analysis][actors]") {
    Trainer run;
    auto worker = run.worker(101);
    auto hog =
        run.fixture.thread(run.fixture.process(900, "hogd", std::nullopt, false), 900, "hogd");
    run.steps();
    for (int i = 0; i < kSteps; ++i) {
        run.fixture.woken(run.thread, step_start(i) + 2 * kMs, 6 * kMs, 10 * kUs,
                          {.waker_thread_id = worker, .syscall_nr = kPoll});
        // While the trainer waited, the worker lost 3 ms of its CPU to hogd.
        run.fixture.preempted(worker, step_start(i) + 3 * kMs, 3 * kMs, hog);
    }
    run.fixture.snapshots(kEndNs, 60, 2);
    auto d = run.diagnose_run();

    REQUIRE(!d.chains.empty());
    const auto& evidence = d.chains[0].evidence;
    auto hop = std::find_if(evidence.begin(), evidence.end(),
                            [](const Evidence& e) { return e.key == "waker_runnable_waiting_ns"; });
    REQUIRE(hop != evidence.end());
    CHECK(hop->value == static_cast<double>((kSteps - 1) * 3 * kMs));
    CHECK(fact<Fact::kBehindComm>(*hop) == "hogd");
    CHECK(fact<Fact::kBehindTid>(*hop) == 900);
    CHECK(causeway::report::evidence_text(d.chains[0], *hop).find("mostly behind hogd (tid 900)") !=
          std::string::npos);
}

TEST_CASE("causes too small alone are reported together when together they matter",
          "[analysis][actors]") {
    Trainer run;
    auto hog_a =
        run.fixture.thread(run.fixture.process(900, "hog_a", std::nullopt, false), 900, "hog_a");
    auto hog_b =
        run.fixture.thread(run.fixture.process(901, "hog_b", std::nullopt, false), 901, "hog_b");
    run.steps();
    for (int i = 0; i < kSteps; ++i) {
        // 7% of the loop each: below the 10% a chain needs, 14% together.
        run.fixture.preempted(run.thread, step_start(i) + 2 * kMs, 700 * kUs, hog_a);
        run.fixture.preempted(run.thread, step_start(i) + 4 * kMs, 700 * kUs, hog_b);
    }
    run.fixture.snapshots(kEndNs, 90, 3);
    auto d = run.diagnose_run();

    const CausalChain* together = chain_of(d, CauseKind::kSeveral);
    REQUIRE(together != nullptr);
    CHECK(together->root_cause_class == VerdictClass::kCpuContended);
    CHECK(together->competitors.size() == 2);
}
