#include "bench/synth/synthetic_cast.hpp"

#include <sys/utsname.h>

#include <string>

#include "tracedb/data_quality_counters.hpp"

namespace causeway::bench {
namespace {

constexpr std::int64_t kTrainingPid = 4'100;
constexpr std::int64_t kKworkerPid = 57;
constexpr std::int64_t kStreamHandle = 0x5555'a000'1000;
constexpr char kCudartPath[] =
    "/opt/conda/lib/python3.11/site-packages/nvidia/cuda_runtime/lib/"
    "libcudart.so.13";

std::string kernel_release() {
    utsname names{};
    return ::uname(&names) == 0 ? names.release : "unknown";
}

Result<std::size_t> add_thread(tracedb::TraceWriter& writer, SyntheticCast& cast,
                               std::size_t process_index, std::int64_t tid, const char* comm) {
    tracedb::ThreadRecord thread;
    thread.tid = tid;
    thread.process_id = cast.processes[process_index].id;
    thread.comm = comm;
    auto id = writer.add_thread(thread);
    if (!id) {
        return id.error();
    }
    SyntheticThread added;
    added.id = *id;
    added.process_index = process_index;
    added.total.thread_id = *id;
    cast.threads.push_back(added);
    return cast.threads.size() - 1;
}

Result<std::size_t> add_process(tracedb::TraceWriter& writer, SyntheticCast& cast,
                                const tracedb::ProcessRecord& process) {
    auto id = writer.add_process(process);
    if (!id) {
        return id.error();
    }
    SyntheticProcess added;
    added.id = *id;
    added.pending.process_id = *id;
    cast.processes.push_back(added);
    return cast.processes.size() - 1;
}

// Python frames down to the CUDA runtime entry point, innermost first.
Result<std::int64_t> add_stack(tracedb::TraceWriter& writer, std::int64_t process_id,
                               const char* cuda_symbol, const char* torch_symbol) {
    const std::vector<tracedb::StackFrameRecord> frames = {
        {0, 0x7f3a'1000'2000, kCudartPath, cuda_symbol, 0},
        {1, 0x7f3a'2000'4410, "libtorch_cuda.so", torch_symbol, 0x410},
        {2, 0x7f3a'3000'0120, "libtorch_python.so", "THPVariable_apply_", 0x120},
        {3, 0x0055'5555'6a10, "python3.11", "_PyEval_EvalFrameDefault", 0x1a10},
    };
    return writer.add_stack(process_id, frames);
}

Status add_probes(tracedb::TraceWriter& writer) {
    for (const char* symbol : {"cudaMalloc", "cudaFree", "cudaMemcpy", "cudaMemcpyAsync",
                               "cudaLaunchKernel", "cudaStreamSynchronize", "cudaEventRecord"}) {
        for (const char* kind : {"uprobe", "uretprobe"}) {
            if (auto status = writer.put_probe({kCudartPath, symbol, kind, true, true, {}});
                !status) {
                return status;
            }
        }
    }
    for (const char* tracepoint : {"sched_switch", "sched_wakeup", "sched_process_fork",
                                   "sched_process_exec", "sched_process_exit", "mm_page_alloc"}) {
        if (auto status = writer.put_probe({"", tracepoint, "tp_btf", true, true, {}}); !status) {
            return status;
        }
    }
    using tracedb::DataQualityCounter;
    for (DataQualityCounter counter :
         {DataQualityCounter::kCudaRingbufDrops, DataQualityCounter::kSchedRingbufDrops,
          DataQualityCounter::kLifecycleRingbufDrops}) {
        auto status = writer.put_data_quality(tracedb::counter_record(
            counter, 0,
            "Events the kernel could not hand to the collector (none: synthetic trace)."));
        if (!status) {
            return status;
        }
    }
    return Ok{};
}

}  // namespace

tracedb::SessionRecord synthetic_session(const SyntheticTraceOptions& options) {
    tracedb::SessionRecord session;
    session.host = "synthetic-bench";
    session.kernel = kernel_release();
    session.cpu_count = 2;
    session.cpu_model = "synthetic";
    session.mem_total_bytes = std::int64_t{24} << 30;
    session.command_line = "python3 train.py --num-workers " + std::to_string(options.workers);
    session.collector_version = "causeway-bench-synth";
    session.collector_flags =
        "--calls " + std::to_string(options.cuda_calls) + " --seed " + std::to_string(options.seed);
    session.source = "synthetic";
    session.offcpu_floor_ns = kSyntheticOffcpuFloorNs;
    session.page_bucket_ns = kSyntheticPageBucketNs;
    session.start_mono_ns = 1'000'000'000'000;
    session.start_wall_ns = 1'795'000'000'000'000'000;
    return session;
}

Result<SyntheticCast> add_synthetic_cast(tracedb::TraceWriter& writer, std::int64_t workers) {
    SyntheticCast cast;
    tracedb::ProcessRecord training;
    training.pid = kTrainingPid;
    training.comm = "python3";
    training.cmdline = "python3 train.py --num-workers " + std::to_string(workers);
    training.start_ns = 0;
    training.exec_ns = 0;
    auto training_index = add_process(writer, cast, training);
    if (!training_index) {
        return training_index.error();
    }
    auto main = add_thread(writer, cast, *training_index, kTrainingPid, "python3");
    auto pin = add_thread(writer, cast, *training_index, kTrainingPid + 1, "pt_pin_memory");
    if (!main || !pin) {
        return Error{"cannot add the training threads: " + (main ? pin : main).error().message};
    }
    cast.main = *main;
    cast.pin_memory = *pin;

    for (std::int64_t w = 0; w < workers; ++w) {
        tracedb::ProcessRecord worker;
        worker.pid = kTrainingPid + 2 + w;
        worker.parent_id = cast.processes[*training_index].id;
        worker.ppid = kTrainingPid;
        worker.comm = "pt_data_worker";
        worker.cmdline = training.cmdline;
        worker.start_ns = 1'000'000 + w;
        auto process_index = add_process(writer, cast, worker);
        if (!process_index) {
            return process_index.error();
        }
        auto thread = add_thread(writer, cast, *process_index, worker.pid, "pt_data_worker");
        if (!thread) {
            return thread.error();
        }
        cast.workers.push_back(*thread);
    }

    tracedb::ProcessRecord kworker;
    kworker.pid = kKworkerPid;
    kworker.comm = "kworker/1:2";
    kworker.in_tree = false;
    auto kworker_index = add_process(writer, cast, kworker);
    if (!kworker_index) {
        return kworker_index.error();
    }
    auto outsider = add_thread(writer, cast, *kworker_index, kKworkerPid, "kworker/1:2");
    if (!outsider) {
        return outsider.error();
    }
    cast.outsider = *outsider;

    const std::int64_t training_id = cast.processes[*training_index].id;
    auto stream = writer.add_stream(training_id, kStreamHandle);
    auto copy = add_stack(writer, training_id, "cudaMemcpyAsync", "at::native::copy_kernel_cuda");
    auto launch = add_stack(writer, training_id, "cudaLaunchKernel", "at::native::gpu_kernel");
    auto sync = add_stack(writer, training_id, "cudaStreamSynchronize",
                          "c10::cuda::CUDAStream::synchronize");
    auto item = add_stack(writer, training_id, "cudaMemcpy", "at::native::_local_scalar_dense");
    for (const auto* result : {&stream, &copy, &launch, &sync, &item}) {
        if (!*result) {
            return result->error();
        }
    }
    cast.stream = *stream;
    cast.copy_stack = *copy;
    cast.launch_stack = *launch;
    cast.sync_stack = *sync;
    cast.item_stack = *item;
    if (auto status = add_probes(writer); !status) {
        return status.error();
    }
    return cast;
}

}  // namespace causeway::bench
