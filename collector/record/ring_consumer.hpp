#pragma once
// The ring buffers of a recording: opening them, one turn of polling with a per-ring budget, the
// callbacks that hand each record to the event writer (and each new process to the registry, each
// loader event to the dlopen stops), and the drain after the loop.

#include <bpf/libbpf.h>

#include <cstdint>
#include <memory>
#include <optional>

#include "base/result.hpp"
#include "collector/attach/bpf_programs.hpp"
#include "collector/events/event_writer.hpp"
#include "collector/events/thread_registry.hpp"
#include "collector/python/processes.hpp"
#include "collector/record/loader_stops.hpp"

namespace causeway::collector {

class RingConsumer {
  public:
    // `python` is empty until the recording starts following Python processes.
    RingConsumer(EventWriter& events, ThreadRegistry& registry, LoaderStops& loader_stops,
                 std::optional<PythonProcesses>& python)
        : events_(events), registry_(registry), loader_stops_(loader_stops), python_(python) {}
    // The rings call back into this object.
    RingConsumer(const RingConsumer&) = delete;
    RingConsumer& operator=(const RingConsumer&) = delete;

    // The lifecycle, sched and CUDA rings.
    Status open(const BpfPrograms& programs);
    // The ring of switch-out Python stacks (--stacks python).
    Status open_stack_ring(const BpfPrograms& programs);
    bool is_open() const { return life_ring_ != nullptr; }
    // Frees the rings, before the programs that hold their maps go.
    void close();

    // One turn: waits for the lifecycle ring (not when the last turn left records behind), then
    // takes at most a budget of records from each ring.
    Status consume_once();
    // After the loop: what the rings still hold, bounded (a command left running after
    // --duration keeps producing).
    void drain();

    // The first failure of a callback (a record that could not be written).
    const std::optional<Error>& callback_error() const { return callback_error_; }
    std::int64_t sched_events() const { return sched_events_; }
    std::int64_t life_events() const { return life_events_; }
    std::int64_t forks() const { return forks_; }  // processes forked in the traced tree

  private:
    struct RingDeleter {
        void operator()(ring_buffer* ring) const { ring_buffer__free(ring); }
    };
    using Ring = std::unique_ptr<ring_buffer, RingDeleter>;

    static int on_cuda(void* self, void* data, std::size_t size);
    static int on_sched(void* self, void* data, std::size_t size);
    static int on_life(void* self, void* data, std::size_t size);
    static int on_stack_sample(void* self, void* data, std::size_t size);
    // A new turn: every ring's budget full again, nothing left behind yet.
    void start_turn();
    // Counts one record against the turn's budget for its ring; kTurnBudgetSpent when used up.
    int spend(std::int64_t& budget);
    int fail(Status status);
    // A record handed to the writer: fail() when it could not be written, else spend().
    int written(Status status, std::int64_t& budget);

    EventWriter& events_;
    ThreadRegistry& registry_;
    LoaderStops& loader_stops_;
    std::optional<PythonProcesses>& python_;

    Ring life_ring_, sched_ring_, cuda_ring_;
    Ring stack_ring_;  // switch-out Python stacks
    std::optional<Error> callback_error_;
    std::int64_t sched_events_ = 0;
    std::int64_t life_events_ = 0;
    std::int64_t forks_ = 0;
    std::int64_t sched_budget_ = 0;
    std::int64_t cuda_budget_ = 0;
    bool rings_busy_ = false;  // the last turn used up a budget: poll again without waiting
};

}  // namespace causeway::collector
