#include "analysis/measure/cpu_takers.hpp"

#include "analysis/model/saturating.hpp"

namespace causeway::analysis {

std::vector<std::int64_t> cpu_taken_by_process(const TraceModel& model,
                                               const ResolvedFilter& filter) {
    std::vector<std::int64_t> taken(model.processes.size(), 0);
    for (std::size_t t = 0; t < model.threads.size(); ++t) {
        int thread = static_cast<int>(t);
        if (!filter.thread_selected(thread) || !model.process_of_thread(thread).in_tree) {
            continue;
        }
        for (const OffCpuInterval& o : model.offcpu_by_thread[t]) {
            if (!o.preempted || o.next_thread_index < 0 || !filter.window().contains(o.ts_ns)) {
                continue;
            }
            auto process = static_cast<std::size_t>(
                model.threads[static_cast<std::size_t>(o.next_thread_index)].process_index);
            if (!model.processes[process].in_tree) {
                add_to(taken[process], o.dur_ns);
            }
        }
    }
    return taken;
}

}  // namespace causeway::analysis
