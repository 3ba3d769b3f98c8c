// Python lines as a user reads them: which frames are the user's own, how native and Python
// frames merge, and the lines a chain names for the GPU thread and for the workers that took
// its CPU (from hand-built traces with Python frames and switch-out stacks).
#include <catch2/catch.hpp>

#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/measure/python_lines.hpp"
#include "analysis/measure/stack_merge.hpp"
#include "analysis/measure/stacks.hpp"
#include "report/analysis_json.hpp"
#include "report/chain_text.hpp"
#include "report/tool_answers.hpp"
#include "tests/analysis/fixture_builder.hpp"
#include "tracedb/reader.hpp"

using namespace causeway;
using namespace causeway::analysis;
using namespace causeway::testing;

namespace {

const std::string kTorch = "/usr/lib/python3/dist-packages/torch/utils/data/dataloader.py";
const std::string kWorkerLoop = "/usr/lib/python3/dist-packages/torch/utils/data/_utils/worker.py";
const std::string kThreading = "/usr/lib/python3.11/threading.py";

PythonFrame frame(const std::string& file, const std::string& function, std::int64_t line) {
    return {.file = file, .function = function, .line = line};
}

StackFrame native(const std::string& symbol, const std::string& module) {
    return {.address = 0x1000, .module = module, .symbol = symbol, .offset = 4};
}

}  // namespace

TEST_CASE("library frames are those of installed packages and the standard library",
          "[analysis][python]") {
    CHECK(library_package(kTorch) == "torch");
    CHECK(library_package("/opt/venv/lib/python3.12/site-packages/numpy/core/fromnumeric.py") ==
          "numpy");
    CHECK(library_package("/usr/lib/python3/dist-packages/six.py") == "six");
    CHECK(library_package(kThreading) == "stdlib");
    CHECK(library_package("/root/.pyenv/versions/3.12.1/lib/python3.12/queue.py") == "stdlib");
    CHECK(library_package("<frozen importlib._bootstrap>") == "stdlib");
    CHECK(library_package("/home/me/project/train.py").empty());
    CHECK(library_package("train.py").empty());
    CHECK(is_library_file(kTorch));
    CHECK_FALSE(is_library_file("/home/me/project/dataset.py"));
}

TEST_CASE("the innermost user frame leads a Python stack", "[analysis][python]") {
    std::vector<PythonFrame> frames = {
        frame(kThreading, "Condition.wait", 320),
        frame(kTorch, "_MultiProcessingDataLoaderIter._next_data", 1329),
        frame("/home/me/train.py", "train", 57), frame("/home/me/train.py", "<module>", 90)};
    REQUIRE(leading_frame(frames) == 2u);
    auto line = stack_line(frames);
    REQUIRE(line);
    CHECK(describe_line(*line) == "train.py:57 in train");
    CHECK_FALSE(line->library);

    SECTION("a comprehension gives way to the function that holds it") {
        std::vector<PythonFrame> worker = {
            frame("/home/me/dataset.py", "Squares.__getitem__.<locals>.<genexpr>", 31),
            frame("/home/me/dataset.py", "Squares.__getitem__", 31),
            frame(kWorkerLoop, "_worker_loop", 308)};
        CHECK(describe_line(*stack_line(worker)) == "dataset.py:31 in Squares.__getitem__");
    }
    SECTION("a stack of library frames only is led by its innermost one, marked as library") {
        std::vector<PythonFrame> library = {frame(kThreading, "Event.wait", 622),
                                            frame(kWorkerLoop, "_worker_loop", 308)};
        auto lead = stack_line(library);
        REQUIRE(lead);
        CHECK(lead->library);
        CHECK(describe_line(*lead) == "threading.py:622 in Event.wait");
    }
    SECTION("a forked worker's frames inherited from its parent never lead") {
        const std::string process = "/usr/lib/python3.11/multiprocessing/process.py";
        std::vector<PythonFrame> idle = {frame("/usr/lib/python3.11/queue.py", "Queue.get", 180),
                                         frame(kWorkerLoop, "_worker_loop", 300),
                                         frame(process, "BaseProcess.run", 108),
                                         frame(process, "BaseProcess._bootstrap", 314),
                                         frame(kTorch, "__iter__", 440),
                                         frame("/home/me/train.py", "main", 32)};
        auto lead = stack_line(idle);
        REQUIRE(lead);
        CHECK(lead->library);
        CHECK(describe_line(*lead) == "queue.py:180 in Queue.get");
    }
    SECTION("frames whose code could not be read lead nothing") {
        CHECK_FALSE(leading_frame({PythonFrame{}}));
    }
}

TEST_CASE("runs of library frames fold into one line", "[analysis][python]") {
    std::vector<PythonFrame> frames = {
        frame(kThreading, "Condition.wait", 320), frame(kTorch, "_next_data", 1329),
        frame(kTorch, "__next__", 630), frame("/home/me/train.py", "train", 57),
        frame("<frozen runpy>", "_run_code", 88)};
    CHECK(folded_python_stack(frames) ==
          std::vector<std::string>{"[3 library frames: stdlib, torch]", "train.py:57 in train",
                                   "[1 library frame: stdlib]"});
}

TEST_CASE("weighed lines: the user's own line leads, library lines only without one",
          "[analysis][python]") {
    LineTally tally;
    tally.add({frame(kThreading, "Event.wait", 622)}, 90);  // most time, but the library's
    tally.add({frame("/home/me/train.py", "step", 10)}, 4);
    tally.add({frame("/home/me/train.py", "step", 12)}, 6);
    auto top = tally.top();
    REQUIRE(top);
    CHECK(top->line == 12);
    CHECK(top->stacks == 1);
    CHECK(top->stacks_total == 3);
    CHECK(top->share == Approx(0.06));

    LineTally counted;  // no time behind the stacks: counted
    counted.add({frame("/home/me/a.py", "f", 1)}, 0);
    counted.add({frame("/home/me/a.py", "f", 2)}, 0);
    counted.add({frame("/home/me/a.py", "f", 2)}, 0);
    REQUIRE(counted.top());
    CHECK(counted.top()->line == 2);
    CHECK(counted.top()->share == Approx(2.0 / 3.0));
    CHECK_FALSE(LineTally{}.top());
}

TEST_CASE("native frames above the interpreter loop, then the Python frames, in call order",
          "[analysis][python]") {
    std::vector<StackFrame> natives = {native("cudaStreamSynchronize", "libcudart.so.13"),
                                       native("ffi_call", "libffi.so.8"),
                                       native("_ctypes_callproc", "_ctypes.so"),
                                       native("_PyEval_EvalFrameDefault", "python3.11"),
                                       native("PyEval_EvalCode", "python3.11"),
                                       native("main", "python3.11")};
    std::vector<PythonFrame> python = {frame("/home/me/train.py", "sync_once", 31),
                                       frame("/home/me/train.py", "<module>", 40)};
    MergedStack merged = merge_frames(natives, python);
    REQUIRE(merged.frames.size() == 5);
    CHECK(merged.interpreter_frames_hidden == 3);
    CHECK(merged.frames[0].native.symbol == "cudaStreamSynchronize");
    CHECK(merged.frames[2].native.symbol == "_ctypes_callproc");
    CHECK(merged.frames[3].python);
    CHECK(merged.frames[3].code.function == "sync_once");
    CHECK(merged.frames[4].code.function == "<module>");

    SECTION("a native walk that stopped before the loop: Python frames follow all of it") {
        MergedStack short_walk = merge_frames({natives[0], natives[1]}, python);
        REQUIRE(short_walk.frames.size() == 4);
        CHECK_FALSE(short_walk.frames[1].python);
        CHECK(short_walk.frames[2].python);
        CHECK(short_walk.interpreter_frames_hidden == 0);
    }
    SECTION("without Python frames the native stack is unchanged") {
        MergedStack plain = merge_frames(natives, {});
        CHECK(plain.frames.size() == natives.size());
        CHECK(plain.interpreter_frames_hidden == 0);
    }
}

namespace {

constexpr int kSteps = 100;
constexpr std::int64_t kStepNs = 10 * kMs;
constexpr std::int64_t kPoll = 7;

tracedb::PythonStackRecord python_stack(const std::vector<PythonFrame>& frames) {
    tracedb::PythonStackRecord record;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        record.frames.push_back({.depth = static_cast<std::int64_t>(i),
                                 .file = frames[i].file,
                                 .function = frames[i].function,
                                 .line = frames[i].line,
                                 .first_line = 1,
                                 .code_address = 0x7f0000 + static_cast<std::int64_t>(i),
                                 .instr_offset = 8});
    }
    return record;
}

// A trainer whose workers preempt it and end its waits for batches, with the Python stacks the
// collector takes: its sync calls at train.py:61, its switch-outs (preempted in train.py:60,
// asleep for a batch at train.py:55 under torch's frames) and the workers' switch-outs after
// taking its CPU (in their __getitem__, or in torch's worker loop).
struct PythonTrainer {
    FixtureBuilder fixture{2};
    std::int64_t process = fixture.process(100, "python3");
    std::int64_t thread = fixture.thread(process, 100, "python3");
    std::int64_t worker_process = fixture.process(101, "pt_data_worker", process);
    std::int64_t worker = fixture.thread(worker_process, 101, "pt_data_worker");

    // A CUDA call's stack has its native frames too; a switch-out stack only Python frames.
    std::int64_t stack(std::int64_t owner, const std::vector<PythonFrame>& frames,
                       bool cuda_call = false) {
        std::vector<tracedb::StackFrameRecord> natives;
        if (cuda_call) {
            natives.push_back({.depth = 0, .address = 0x7f00, .symbol = "cudaStreamSynchronize"});
        }
        auto id = fixture.writer().add_stack(owner, natives, python_stack(frames));
        REQUIRE(id);
        return *id;
    }

    TraceModel record() {
        auto sync_stack = stack(process, {frame("/w/train.py", "step", 61)}, true);
        auto preempted_stack = stack(process, {frame("/w/train.py", "step", 60)});
        auto waiting_stack =
            stack(process, {frame(kThreading, "Condition.wait", 320),
                            frame(kTorch, "__next__", 630), frame("/w/train.py", "train", 55)});
        auto getitem_stack =
            stack(worker_process, {frame("/w/dataset.py", "Squares.__getitem__", 31),
                                   frame(kWorkerLoop, "_worker_loop", 308)});
        auto worker_loop_stack = stack(worker_process, {frame(kWorkerLoop, "_worker_loop", 300)});
        for (int i = 0; i < kSteps; ++i) {
            const std::int64_t start = i * kStepNs;
            fixture.call(thread, op::kLaunchKernel, start, 20 * kUs);
            REQUIRE(fixture.writer().add_cuda_call({.thread_id = thread,
                                                    .op_id = op::kStreamSynchronize,
                                                    .ts_ns = start + 50 * kUs,
                                                    .dur_ns = 1 * kMs,
                                                    .stack_id = sync_stack}));
            const std::int64_t preempted_at = start + 1500 * kUs, asleep_at = start + 4 * kMs;
            fixture.preempted(thread, preempted_at, 2 * kMs, worker);
            fixture.woken(thread, asleep_at, 4 * kMs + 100 * kUs, 100 * kUs,
                          {.waker_thread_id = worker, .syscall_nr = kPoll});
            switch_out(thread, preempted_at, preempted_stack, tracedb::OffCpuReason::kPreempted);
            switch_out(thread, asleep_at, waiting_stack, tracedb::OffCpuReason::kBlocked);
            // The worker gives the CPU up in __getitem__ three times in four.
            REQUIRE(fixture.writer().add_switch_out_stack(
                {.thread_id = worker,
                 .ts_ns = preempted_at + 2 * kMs,
                 .stack_id = i % 4 == 0 ? worker_loop_stack : getitem_stack,
                 .role = tracedb::SwitchRole::kCompetitor,
                 .reason = tracedb::OffCpuReason::kPreempted,
                 .gpu_thread_id = thread,
                 .gpu_switch_out_ns = preempted_at}));
        }
        fixture.snapshots(kSteps * kStepNs, 98, 5);
        return fixture.load(kSteps * kStepNs);
    }

    void switch_out(std::int64_t t, std::int64_t ts, std::int64_t stack_id,
                    tracedb::OffCpuReason reason) {
        REQUIRE(fixture.writer().add_switch_out_stack(
            {.thread_id = t, .ts_ns = ts, .stack_id = stack_id, .reason = reason}));
    }
};

}  // namespace

TEST_CASE("a chain names where the GPU thread waits and where its workers spent its CPU",
          "[analysis][python]") {
    PythonTrainer run;
    TraceModel model = run.record();
    Diagnosis d = diagnose(model, DiagnosisOptions{});
    REQUIRE_FALSE(d.chains.empty());
    const CausalChain& top = d.chains.front();
    REQUIRE(top.actor.kind == CauseKind::kDataLoaderWorkers);
    // Asleep for batches (4 ms a step) weighs more than preempted (2 ms): the loop's line.
    REQUIRE(top.gpu_thread_line);
    CHECK(describe_line(*top.gpu_thread_line) == "train.py:55 in train");
    CHECK(top.gpu_thread_line->share == Approx(4.1 / 6.1));
    // The worker's own line leads, though a quarter of its samples are in torch's loop. (The
    // last step's preemption follows the last call: outside the loop, not weighed.)
    REQUIRE(top.actor_line);
    CHECK(describe_line(*top.actor_line) == "dataset.py:31 in Squares.__getitem__");
    CHECK(top.actor_line->stacks == 74);
    CHECK(top.actor_line->stacks_total == kSteps - 1);
    CHECK(report::code_summary(top) ==
          "waits at train.py:55 in train; workers spend CPU at dataset.py:31 in "
          "Squares.__getitem__");
    auto json = report::to_json(top);
    CHECK(json["gpu_thread_line"]["line"] == 55);
    CHECK(json["actor_line"]["function"] == "Squares.__getitem__");
    CHECK(json["code"] == report::code_summary(top));
}

TEST_CASE("a chain of the device's own time names the line of its calls", "[analysis][python]") {
    FixtureBuilder fixture{2};
    auto process = fixture.process(100, "python3");
    auto thread = fixture.thread(process, 100, "python3");
    auto stack = fixture.writer().add_stack(
        process, {{.depth = 0, .address = 0x7f00, .symbol = "cudaStreamSynchronize"}},
        python_stack({frame(kTorch, "synchronize", 10), frame("/w/train.py", "train_step", 57)}));
    REQUIRE(stack);
    for (int i = 0; i < kSteps; ++i) {
        fixture.call(thread, op::kLaunchKernel, i * kStepNs, 20 * kUs);
        REQUIRE(fixture.writer().add_cuda_call({.thread_id = thread,
                                                .op_id = op::kStreamSynchronize,
                                                .ts_ns = i * kStepNs + 50 * kUs,
                                                .dur_ns = 9 * kMs,
                                                .stack_id = *stack}));
    }
    fixture.snapshots(kSteps * kStepNs, 20, 1);
    Diagnosis d = diagnose(fixture.load(kSteps * kStepNs), DiagnosisOptions{});
    auto gpu = std::find_if(d.chains.begin(), d.chains.end(), [](const CausalChain& c) {
        return c.root_cause_class == VerdictClass::kGpuBound;
    });
    REQUIRE(gpu != d.chains.end());
    REQUIRE(gpu->gpu_thread_line);
    CHECK(report::code_summary(*gpu) == "waits at train.py:57 in train_step");
}

TEST_CASE("get_stacks leads each stack with the user's line and merges its frames",
          "[analysis][python]") {
    PythonTrainer run;
    TraceModel model = run.record();
    auto reader = tracedb::TraceReader::open(run.fixture.path());
    REQUIRE(reader);
    auto report = top_stacks(*reader, model, {}, 5);
    REQUIRE(report);
    REQUIRE(report->stacks.size() == 1);  // only the sync calls carry a stack
    const StackEntry& entry = report->stacks[0];
    REQUIRE(entry.user_line);
    CHECK(describe_line(*entry.user_line) == "train.py:61 in step");
    CHECK(entry.python_truncated == false);
    REQUIRE(entry.merged.frames.size() == 2);
    CHECK(entry.merged.frames[0].native.symbol == "cudaStreamSynchronize");
    CHECK(entry.merged.frames[1].code.line == 61);
    auto json = report::to_json(report::StacksAnswer{.report = *report, .depth = 16});
    CHECK(json["stacks"][0]["user_line"]["text"] == "train.py:61 in step");
    CHECK(json["stacks"][0]["merged_frames"][1]["kind"] == "python");
}

TEST_CASE("a trace without Python frames names no line", "[analysis][python]") {
    FixtureBuilder fixture{2};
    auto process = fixture.process(100, "python3");
    auto thread = fixture.thread(process, 100, "python3");
    for (int i = 0; i < kSteps; ++i) {
        fixture.call(thread, op::kStreamSynchronize, i * kStepNs, 9 * kMs);
    }
    Diagnosis d = diagnose(fixture.load(kSteps * kStepNs), DiagnosisOptions{});
    for (const auto& chain : d.chains) {
        CHECK_FALSE(chain.gpu_thread_line);
        CHECK_FALSE(chain.actor_line);
        CHECK(report::code_summary(chain).empty());
        CHECK_FALSE(report::to_json(chain).contains("code"));
    }
}
