#include "bench/synth/synthetic_trace.hpp"

#include <algorithm>
#include <optional>
#include <random>
#include <vector>

#include "bench/synth/synthetic_cast.hpp"
#include "bpf/causeway_abi.h"
#include "tracedb/writer.hpp"

namespace causeway::bench {
namespace {

using tracedb::CudaCallRecord;
using tracedb::OffCpuReason;
using tracedb::TraceWriter;

constexpr std::int64_t kUs = 1'000;
constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kSnapshotPeriodNs = 1'000 * kMs;
constexpr std::int64_t kGpuStepNs = 3 * kMs;          // device time of one training step
constexpr std::int64_t kKernelsPerStep = 20;          // launches per step (count)
constexpr std::int64_t kInputBytes = 6 << 20;         // one batch of images (bytes)
constexpr std::int64_t kLabelBytes = 2 << 10;         // its labels (bytes)
constexpr std::int64_t kAllocBytes = 64 << 20;        // caching-allocator growth (bytes)
constexpr std::int64_t kAllocatorChurnPeriod = 50;    // steps between cudaMalloc/cudaFree pairs
constexpr std::int64_t kWorkerPagesPerBatch = 1'536;  // pages a worker touches per batch (count)
constexpr std::int64_t kMainPagesPerStep = 64;        // pages the training process touches
constexpr std::int64_t kSubFloorSwitchesPerStep = 6;  // short sleeps of the training thread
constexpr std::int64_t kSubFloorSleepNs = 10 * kUs;   // ... each this long (ns)

// cuda_op ids as the collector records them (schemas/trace.sql's cuda_op), and cudaMemcpyKind
// values.
constexpr std::int64_t kCudaMalloc = CW_OP_cudaMalloc;
constexpr std::int64_t kCudaFree = CW_OP_cudaFree;
constexpr std::int64_t kCudaMemcpy = CW_OP_cudaMemcpy;
constexpr std::int64_t kCudaMemcpyAsync = CW_OP_cudaMemcpyAsync;
constexpr std::int64_t kCudaLaunchKernel = CW_OP_cudaLaunchKernel;
constexpr std::int64_t kCudaStreamSynchronize = CW_OP_cudaStreamSynchronize;
constexpr std::int64_t kCudaEventRecord = CW_OP_cudaEventRecord;
constexpr std::int64_t kHostToDevice = 1;
constexpr std::int64_t kDeviceToHost = 2;

class Generator {
  public:
    Generator(TraceWriter& writer, SyntheticCast cast, const SyntheticTraceOptions& options)
        : writer_(writer), cast_(std::move(cast)), options_(options), rng_(options.seed) {}

    Status run() {
        while (calls_ < options_.cuda_calls) {
            if (auto status = step(); !status) {
                return status;
            }
        }
        return Ok{};
    }

    Result<SyntheticTraceSummary> finish() {
        for (auto& process : cast_.processes) {
            if (auto status = flush_pages(process); !status) {
                return status.error();
            }
        }
        for (std::size_t i = 0; i < cast_.threads.size(); ++i) {
            if (i == cast_.outsider) {
                continue;  // totals are kept for traced threads only
            }
            auto& total = cast_.threads[i].total;
            total.oncpu_ns = std::max<std::int64_t>(
                0, now_ - total.preempted_ns - total.blocked_ns - total.runq_wait_ns);
            if (auto status = writer_.put_thread_sched_total(total); !status) {
                return status.error();
            }
        }
        if (auto status = writer_.finish(now_); !status) {
            return status.error();
        }
        return SyntheticTraceSummary{calls_, offcpu_rows_, page_rows_, snapshot_rows_, now_};
    }

  private:
    bool contended() const {
        return calls_ >= options_.cuda_calls / 3 && calls_ < 2 * options_.cuda_calls / 3;
    }
    std::int64_t uniform(std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_);
    }
    // Who takes the CPU from a preempted thread: mostly DataLoader workers, sometimes a kworker.
    std::int64_t competitor() {
        if (uniform(0, 99) < 15) {
            return cast_.threads[cast_.outsider].id;
        }
        return cast_.threads[cast_.workers[uniform(0, cast_.workers.size() - 1)]].id;
    }

    CudaCallRecord call(std::int64_t op, std::int64_t dur_ns, std::optional<std::int64_t> stack) {
        CudaCallRecord record;
        record.thread_id = cast_.threads[cast_.main].id;
        record.op_id = op;
        record.ts_ns = now_;
        record.dur_ns = dur_ns;
        record.stack_id = stack;
        return record;
    }

    // Writes a call of the training thread (which starts at now_) and moves now_ past it and a
    // gap of Python time. Beyond the requested count nothing is written.
    Status emit(const CudaCallRecord& record, std::int64_t gap_ns) {
        if (calls_ >= options_.cuda_calls) {
            return Ok{};
        }
        ++calls_;
        now_ = record.ts_ns + record.dur_ns + gap_ns;
        return writer_.add_cuda_call(record);
    }

    Status offcpu(std::size_t thread_index, std::int64_t ts_ns, std::int64_t dur_ns,
                  OffCpuReason reason, std::int64_t runq_wait_ns,
                  std::optional<std::int64_t> next_thread_id) {
        auto& total = cast_.threads[thread_index].total;
        if (reason == OffCpuReason::kPreempted) {
            ++total.involuntary_switches;
            total.preempted_ns += dur_ns;
        } else {
            ++total.voluntary_switches;
            ++total.wakeups;
            total.blocked_ns += dur_ns - runq_wait_ns;
            total.runq_wait_ns += runq_wait_ns;
        }
        ++offcpu_rows_;
        return writer_.add_offcpu({cast_.threads[thread_index].id, ts_ns, dur_ns, reason,
                                   runq_wait_ns, uniform(0, 1), next_thread_id});
    }

    // The input batch: a pageable copy staged through the CPU, preempted when contended.
    Status input_copy(bool contention) {
        auto copy = call(kCudaMemcpyAsync, uniform(500, 700) * kUs, cast_.copy_stack);
        copy.bytes = kInputBytes;
        copy.copy_kind = kHostToDevice;
        copy.host_pinned = 0;
        copy.stream_id = cast_.stream;
        if (contention) {
            std::int64_t preempted_ns = uniform(300, 2'000) * kUs;
            auto status = offcpu(cast_.main, now_ + copy.dur_ns / 2, preempted_ns,
                                 OffCpuReason::kPreempted, preempted_ns, competitor());
            if (!status) {
                return status;
            }
            copy.dur_ns += preempted_ns;
        }
        if (auto status = emit(copy, uniform(5, 15) * kUs); !status) {
            return status;
        }
        auto labels = call(kCudaMemcpyAsync, uniform(6, 10) * kUs, cast_.copy_stack);
        labels.bytes = kLabelBytes;
        labels.copy_kind = kHostToDevice;
        labels.host_pinned = 0;
        labels.stream_id = cast_.stream;
        return emit(labels, uniform(20, 60) * kUs);
    }

    // Waits for the step's kernels: blocked in the driver, and when contended the wake-up
    // waits behind the workers on the run queue.
    Status synchronize(bool contention, std::int64_t gpu_start_ns) {
        auto sync = call(kCudaStreamSynchronize,
                         std::max(gpu_start_ns + kGpuStepNs - now_, 8 * kUs), cast_.sync_stack);
        sync.stream_id = cast_.stream;
        if (sync.dur_ns > kSyntheticOffcpuFloorNs + 20 * kUs) {
            std::int64_t runq_ns = contention ? uniform(300, 1'500) * kUs : uniform(3, 20) * kUs;
            sync.dur_ns += contention ? runq_ns : 0;
            auto next = contention ? std::optional<std::int64_t>(competitor()) : std::nullopt;
            auto status = offcpu(cast_.main, now_ + 5 * kUs, sync.dur_ns - 10 * kUs,
                                 OffCpuReason::kBlocked, runq_ns, next);
            if (!status) {
                return status;
            }
        }
        return emit(sync, uniform(5, 10) * kUs);
    }

    Status allocator_churn() {
        auto alloc = call(kCudaMalloc, uniform(200, 400) * kUs, std::nullopt);
        alloc.bytes = kAllocBytes;
        if (auto status = emit(alloc, uniform(5, 20) * kUs); !status) {
            return status;
        }
        return emit(call(kCudaFree, uniform(150, 300) * kUs, std::nullopt), uniform(5, 20) * kUs);
    }

    // One worker prepares the next batch: it sleeps on the index queue, touches its pages and,
    // when contended, is itself preempted by its siblings.
    Status worker_batch(bool contention, std::int64_t step_start_ns) {
        std::size_t worker = cast_.workers[step_ % cast_.workers.size()];
        std::int64_t runq_ns = uniform(2, 50) * kUs;
        auto status = offcpu(worker, step_start_ns, uniform(2, 4) * kMs, OffCpuReason::kBlocked,
                             runq_ns, cast_.threads[cast_.main].id);
        if (status && contention) {
            std::int64_t preempted_ns = uniform(100, 500) * kUs;
            status = offcpu(worker, step_start_ns + 5 * kMs, preempted_ns, OffCpuReason::kPreempted,
                            preempted_ns, competitor());
        }
        if (!status) {
            return status;
        }
        auto& process = cast_.processes[cast_.threads[worker].process_index];
        return add_pages(process, step_start_ns, kWorkerPagesPerBatch);
    }

    Status pin_memory_event(std::int64_t step_start_ns) {
        CudaCallRecord record;
        record.thread_id = cast_.threads[cast_.pin_memory].id;
        record.op_id = kCudaEventRecord;
        record.ts_ns = step_start_ns + uniform(100, 900) * kUs;
        record.dur_ns = uniform(3, 6) * kUs;
        record.stream_id = cast_.stream;
        if (calls_ >= options_.cuda_calls) {
            return Ok{};
        }
        ++calls_;
        return writer_.add_cuda_call(record);
    }

    Status add_pages(SyntheticProcess& process, std::int64_t ts_ns, std::int64_t pages) {
        std::int64_t bucket_ns = ts_ns - ts_ns % kSyntheticPageBucketNs;
        if (process.pending.count > 0 && process.pending.bucket_ns != bucket_ns) {
            if (auto status = flush_pages(process); !status) {
                return status;
            }
        }
        process.pending.bucket_ns = bucket_ns;
        process.pending.count += pages;
        process.pending.bytes += pages * 4096;
        return Ok{};
    }

    Status flush_pages(SyntheticProcess& process) {
        if (process.pending.count == 0) {
            return Ok{};
        }
        ++page_rows_;
        auto status = writer_.add_page_alloc(process.pending);
        process.pending.count = 0;
        process.pending.bytes = 0;
        return status;
    }

    Status snapshot_if_due(bool contention) {
        if (now_ < next_snapshot_ns_) {
            return Ok{};
        }
        tracedb::SnapshotRecord snapshot;
        snapshot.ts_ns = next_snapshot_ns_;
        snapshot.cpu_busy_pct = contention ? 98.5 : 71.0;
        snapshot.cpu_user_pct = contention ? 90.0 : 63.0;
        snapshot.cpu_system_pct = contention ? 8.5 : 8.0;
        snapshot.cpu_iowait_pct = 0.0;
        snapshot.mem_total_bytes = std::int64_t{24} << 30;
        snapshot.mem_available_bytes = (std::int64_t{20} << 30) - uniform(0, 256) * (1 << 20);
        snapshot.load1 = contention ? 5.2 : 2.1;
        snapshot.procs_running = contention ? 5 : 2;
        snapshot.ctxt_per_s = contention ? 41'000.0 : 8'500.0;
        next_snapshot_ns_ += kSnapshotPeriodNs;
        ++snapshot_rows_;
        return writer_.add_snapshot(snapshot);
    }

    Status step() {
        const bool contention = contended();
        const std::int64_t step_start_ns = now_;
        Status status = worker_batch(contention, step_start_ns);
        if (status) {
            status = pin_memory_event(step_start_ns);
        }
        if (status) {
            status = input_copy(contention);
        }
        const std::int64_t gpu_start_ns = now_;
        for (std::int64_t k = 0; status && k < kKernelsPerStep; ++k) {
            status = emit(call(kCudaLaunchKernel, uniform(4, 12) * kUs, cast_.launch_stack),
                          uniform(2, 20) * kUs);
        }
        if (status && step_ % kAllocatorChurnPeriod == 0) {
            status = allocator_churn();
        }
        if (status) {
            status = synchronize(contention, gpu_start_ns);
        }
        if (status) {
            auto loss = call(kCudaMemcpy, uniform(12, 20) * kUs, cast_.item_stack);
            loss.bytes = 4;
            loss.copy_kind = kDeviceToHost;
            status = emit(loss, uniform(100, 300) * kUs);
        }
        if (status) {
            auto& main_thread = cast_.threads[cast_.main].total;
            main_thread.voluntary_switches += kSubFloorSwitchesPerStep;
            main_thread.wakeups += kSubFloorSwitchesPerStep;
            main_thread.blocked_ns += kSubFloorSwitchesPerStep * kSubFloorSleepNs;
            status = add_pages(cast_.processes[cast_.threads[cast_.main].process_index],
                               step_start_ns, kMainPagesPerStep);
        }
        if (status) {
            status = snapshot_if_due(contention);
        }
        ++step_;
        return status;
    }

    TraceWriter& writer_;
    SyntheticCast cast_;
    SyntheticTraceOptions options_;
    std::mt19937_64 rng_;
    std::int64_t now_ = 0;  // the training thread's clock (ns since start)
    std::int64_t next_snapshot_ns_ = kSnapshotPeriodNs;
    std::int64_t step_ = 0;
    std::int64_t calls_ = 0;
    std::int64_t offcpu_rows_ = 0;
    std::int64_t page_rows_ = 0;
    std::int64_t snapshot_rows_ = 0;
};

}  // namespace

Result<SyntheticTraceSummary> write_synthetic_trace(const std::string& path,
                                                    const SyntheticTraceOptions& options) {
    if (options.cuda_calls <= 0 || options.workers <= 0) {
        return Error{"a synthetic trace needs at least one CUDA call and one worker"};
    }
    auto writer = TraceWriter::create(path, synthetic_session(options));
    if (!writer) {
        return writer.error();
    }
    auto cast = add_synthetic_cast(*writer, options.workers);
    if (!cast) {
        return cast.error();
    }
    Generator generator(*writer, std::move(cast.value()), options);
    if (auto status = generator.run(); !status) {
        return status.error();
    }
    return generator.finish();
}

}  // namespace causeway::bench
