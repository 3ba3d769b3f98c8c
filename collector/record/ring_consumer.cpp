#include "collector/record/ring_consumer.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace causeway::collector {
namespace {

constexpr int kPollTimeoutMs = 20;  // CUDA and sched rings wake nobody
// Records taken from one ring per loop turn, so snapshots, commits and late libraries are not
// starved while a busy workload keeps a ring full.
constexpr std::int64_t kRecordsPerTurn = 65'536;
constexpr int kTurnBudgetSpent = -EAGAIN;  // a callback's "stop here, not an error"

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

void RingConsumer::start_turn() {
    rings_busy_ = false;
    sched_budget_ = cuda_budget_ = kRecordsPerTurn;
}

int RingConsumer::spend(std::int64_t& budget) {
    if (--budget > 0) {
        return 0;
    }
    rings_busy_ = true;
    return kTurnBudgetSpent;
}

int RingConsumer::fail(Status status) {
    if (!status && !callback_error_) {
        callback_error_ = status.error();
    }
    return status ? 0 : -1;
}

int RingConsumer::written(Status status, std::int64_t& budget) {
    if (int rc = fail(std::move(status)); rc != 0) {
        return rc;
    }
    return spend(budget);
}

int RingConsumer::on_cuda(void* self, void* data, std::size_t size) {
    auto* consumer = static_cast<RingConsumer*>(self);
    // NCCL calls come as the larger struct cw_nccl_call on the same ring.
    if (size == sizeof(cw_nccl_call)) {
        auto nccl = copy_event<cw_nccl_call>(data, size);
        return nccl ? consumer->written(consumer->events_.on_nccl_call(*nccl),
                                        consumer->cuda_budget_)
                    : 0;
    }
    auto event = copy_event<cw_cuda_call>(data, size);
    return event ? consumer->written(consumer->events_.on_cuda_call(*event), consumer->cuda_budget_)
                 : 0;
}

int RingConsumer::on_sched(void* self, void* data, std::size_t size) {
    auto* consumer = static_cast<RingConsumer*>(self);
    auto event = copy_event<cw_offcpu>(data, size);
    if (!event) {
        return 0;
    }
    ++consumer->sched_events_;
    return consumer->written(consumer->events_.on_offcpu(*event), consumer->sched_budget_);
}

int RingConsumer::on_life(void* self, void* data, std::size_t size) {
    auto* consumer = static_cast<RingConsumer*>(self);
    auto copied = copy_event<cw_life_event>(data, size);
    if (!copied) {
        return 0;
    }
    const cw_life_event& event = *copied;
    ++consumer->life_events_;
    if (event.kind == CW_LIFE_LOADER) {
        consumer->loader_stops_.on_loader_event(event.tgid);
        return 0;
    }
    if (event.kind == CW_LIFE_FORK) {
        ++consumer->forks_;
    }
    if (int rc = consumer->fail(consumer->registry_.on_life_event(event)); rc != 0) {
        return rc;
    }
    auto& python = consumer->python_;
    if (python && event.kind == CW_LIFE_FORK) {
        python->on_fork(event.ppid, event.tgid);
    } else if (python && event.kind == CW_LIFE_EXEC) {
        python->on_exec(event.tgid);
        return consumer->fail(python->inspect(event.tgid));
    }
    return 0;
}

int RingConsumer::on_stack_sample(void* self, void* data, std::size_t size) {
    auto* consumer = static_cast<RingConsumer*>(self);
    auto event = copy_event<cw_switch_stack>(data, size);
    return event ? consumer->fail(consumer->events_.on_switch_stack(*event)) : 0;
}

Status RingConsumer::open(const BpfPrograms& programs) {
    struct Spec {
        Ring* ring;
        int fd;
        ring_buffer_sample_fn callback;
        const char* name;
    };
    const Spec specs[] = {
        {&life_ring_, programs.life_events_fd(), on_life, "lifecycle"},
        {&sched_ring_, programs.sched_events_fd(), on_sched, "sched"},
        {&cuda_ring_, programs.cuda_events_fd(), on_cuda, "cuda"},
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

Status RingConsumer::open_stack_ring(const BpfPrograms& programs) {
    stack_ring_.reset(
        ring_buffer__new(programs.stack_samples_fd(), on_stack_sample, this, nullptr));
    if (!stack_ring_) {
        return Error{std::string("cannot open the Python stack ring buffer: ") +
                     std::strerror(errno)};
    }
    return Ok{};
}

void RingConsumer::close() {
    stack_ring_.reset();
    cuda_ring_.reset();
    sched_ring_.reset();
    life_ring_.reset();
}

Status RingConsumer::consume_once() {
    // Lifecycle first, so a new process or thread has its row before its other events.
    int rc = ring_buffer__poll(life_ring_.get(), rings_busy_ ? 0 : kPollTimeoutMs);
    start_turn();
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
    return Ok{};
}

void RingConsumer::drain() {
    for (int turn = 0; turn < 64 && !callback_error_; ++turn) {
        start_turn();
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
