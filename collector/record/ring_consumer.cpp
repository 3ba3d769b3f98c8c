// The ring buffers: opening them, one turn of polling with a per-ring budget, the callbacks that
// hand each record to the event writer, and the drain after the loop.
#include <bpf/bpf.h>

#include <algorithm>
#include <cstring>

#include "collector/record/recorder_state.hpp"

namespace causeway::collector {
namespace {

// The record in a ring sample, copied out (a sample need not be aligned for it); nullopt when
// the sample is too short to hold one.
template <class Event>
std::optional<Event> copy_event(const void* data, std::size_t size) {
    if (size < sizeof(Event)) {
        return std::nullopt;
    }
    Event event;
    std::memcpy(&event, data, sizeof(event));
    return event;
}

}  // namespace

int Recorder::spend(std::int64_t& budget) {
    if (--budget > 0) {
        return 0;
    }
    rings_busy_ = true;
    return kTurnBudgetSpent;
}

int Recorder::fail(Status status) {
    if (!status && !callback_error_) {
        callback_error_ = status.error();
    }
    return status ? 0 : -1;
}

int Recorder::written(Status status, std::int64_t& budget) {
    if (int rc = fail(std::move(status)); rc != 0) {
        return rc;
    }
    return spend(budget);
}

int Recorder::on_cuda(void* self, void* data, std::size_t size) {
    auto* recorder = static_cast<Recorder*>(self);
    // NCCL calls come as the larger struct cw_nccl_call on the same ring.
    if (size == sizeof(cw_nccl_call)) {
        auto nccl = copy_event<cw_nccl_call>(data, size);
        return nccl ? recorder->written(recorder->events_.on_nccl_call(*nccl),
                                        recorder->cuda_budget_)
                    : 0;
    }
    auto event = copy_event<cw_cuda_call>(data, size);
    return event ? recorder->written(recorder->events_.on_cuda_call(*event), recorder->cuda_budget_)
                 : 0;
}

int Recorder::on_sched(void* self, void* data, std::size_t size) {
    auto* recorder = static_cast<Recorder*>(self);
    auto event = copy_event<cw_offcpu>(data, size);
    if (!event) {
        return 0;
    }
    ++recorder->sched_events_;
    return recorder->written(recorder->events_.on_offcpu(*event), recorder->sched_budget_);
}

int Recorder::on_life(void* self, void* data, std::size_t size) {
    auto* recorder = static_cast<Recorder*>(self);
    auto copied = copy_event<cw_life_event>(data, size);
    if (!copied) {
        return 0;
    }
    const cw_life_event& event = *copied;
    ++recorder->life_events_;
    if (event.kind == CW_LIFE_LOADER) {
        recorder->loader_stops_.on_loader_event(event.tgid);
        return 0;
    }
    if (event.kind == CW_LIFE_FORK) {
        ++recorder->processes_seen_;
    }
    if (int rc = recorder->fail(recorder->registry_.on_life_event(event)); rc != 0) {
        return rc;
    }
    if (recorder->python_ && event.kind == CW_LIFE_FORK) {
        recorder->python_->on_fork(event.ppid, event.tgid);
    } else if (recorder->python_ && event.kind == CW_LIFE_EXEC) {
        recorder->python_->on_exec(event.tgid);
        return recorder->fail(recorder->inspect_python(event.tgid));
    }
    return 0;
}

int Recorder::on_stack_sample(void* self, void* data, std::size_t size) {
    auto* recorder = static_cast<Recorder*>(self);
    auto event = copy_event<cw_switch_stack>(data, size);
    return event ? recorder->fail(recorder->events_.on_switch_stack(*event)) : 0;
}

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
    stack_ring_.reset(
        ring_buffer__new(programs_->stack_samples_fd(), on_stack_sample, this, nullptr));
    if (!stack_ring_) {
        return Error{std::string("cannot open the Python stack ring buffer: ") +
                     std::strerror(errno)};
    }
    return Ok{};
}

Status Recorder::open_rings() {
    struct Spec {
        Ring* ring;
        int fd;
        ring_buffer_sample_fn callback;
        const char* name;
    };
    const Spec specs[] = {
        {&life_ring_, programs_->life_events_fd(), on_life, "lifecycle"},
        {&sched_ring_, programs_->sched_events_fd(), on_sched, "sched"},
        {&cuda_ring_, programs_->cuda_events_fd(), on_cuda, "cuda"},
    };
    for (const auto& spec : specs) {
        spec.ring->reset(ring_buffer__new(spec.fd, spec.callback, this, nullptr));
        if (!*spec.ring) {
            return Error{std::string("cannot open the ") + spec.name +
                         " ring buffer: " + std::strerror(errno)};
        }
    }
    return Ok{};
}

Status Recorder::consume_once() {
    // Lifecycle first, so a new process or thread has its row before its other events.
    int rc = ring_buffer__poll(life_ring_.get(), rings_busy_ ? 0 : kPollTimeoutMs);
    rings_busy_ = false;
    sched_budget_ = cuda_budget_ = kRecordsPerTurn;
    if (rc >= 0) {
        ring_buffer__consume(sched_ring_.get());
        ring_buffer__consume(cuda_ring_.get());
        if (stack_ring_) {
            ring_buffer__consume(stack_ring_.get());
        }
    }
    if (callback_error_) {
        return *callback_error_;
    }
    if (rc < 0 && rc != -EINTR) {
        return Error{std::string("cannot read the ring buffers: ") + std::strerror(-rc)};
    }
    if (loader_stops_.pending()) {
        return handle_loader_events();
    }
    return Ok{};
}

void Recorder::drain_rings() {
    // Bounded: a command left running after --duration keeps producing.
    for (int turn = 0; turn < 64 && !callback_error_; ++turn) {
        rings_busy_ = false;
        sched_budget_ = cuda_budget_ = kRecordsPerTurn;
        int consumed = std::max(ring_buffer__consume(life_ring_.get()), 0) +
                       std::max(ring_buffer__consume(sched_ring_.get()), 0) +
                       std::max(ring_buffer__consume(cuda_ring_.get()), 0);
        if (stack_ring_) {
            consumed += std::max(ring_buffer__consume(stack_ring_.get()), 0);
        }
        if (consumed == 0 && !rings_busy_) {
            break;
        }
    }
}

}  // namespace causeway::collector
