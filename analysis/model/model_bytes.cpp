#include "analysis/model/model_bytes.hpp"

namespace causeway::analysis {
namespace {

template <class Vector>
std::size_t vector_bytes(const Vector& v) {
    return v.capacity() * sizeof(typename Vector::value_type);
}

template <class Vector>
std::size_t nested_bytes(const Vector& outer) {
    std::size_t bytes = vector_bytes(outer);
    for (const auto& inner : outer) {
        bytes += vector_bytes(inner);
    }
    return bytes;
}

std::size_t text_bytes(const std::optional<std::string>& text) {
    return text ? text->capacity() : 0;
}

}  // namespace

std::size_t model_bytes(const TraceModel& model) {
    const CudaCalls& c = model.calls;
    std::size_t bytes = c.thread_index.bytes() + c.op_index.bytes() + c.ts_ns.bytes() +
                        c.dur_ns.bytes() + c.bytes.bytes() + c.host_pinned.bytes() + c.ret.bytes() +
                        c.stack_id.bytes() + c.enclosed.bytes();
    bytes += vector_bytes(model.calls_by_thread) + nested_bytes(model.offcpu_by_thread);
    for (const auto& calls : model.calls_by_thread) {
        bytes += calls.bytes();
    }
    bytes += vector_bytes(model.processes) + vector_bytes(model.threads) + vector_bytes(model.ops) +
             vector_bytes(model.sched_by_thread) + vector_bytes(model.page_alloc) +
             vector_bytes(model.snapshots) + vector_bytes(model.cgroup_samples) +
             vector_bytes(model.data_quality) + vector_bytes(model.event_counts) +
             vector_bytes(model.probes) + vector_bytes(model.switch_outs);
    for (const ProcessInfo& p : model.processes) {
        bytes += p.comm.capacity() + text_bytes(p.cmdline) + vector_bytes(p.thread_indices);
    }
    for (const ThreadInfo& t : model.threads) {
        bytes += t.comm.capacity();
        for (const std::string& former : t.former_comms) {
            bytes += sizeof former + former.capacity();
        }
    }
    for (const auto& [stack, frames] : model.python_frames) {
        bytes += sizeof stack + vector_bytes(frames);
        for (const PythonFrame& f : frames) {
            bytes += text_bytes(f.file) + text_bytes(f.function);
        }
    }
    return bytes;
}

}  // namespace causeway::analysis
