#include "collector/python/processes.hpp"

#include <set>
#include <vector>

#include "tracedb/data_quality_counters.hpp"

namespace causeway::collector {

namespace {
constexpr std::size_t kPidsNamed = 4;  // pids listed per reason in the data-quality row
}

PythonProcesses::PythonProcesses(Publish publish, Find find)
    : publish_(std::move(publish)), find_(std::move(find)) {}

Status PythonProcesses::inspect(std::uint32_t tgid) {
    if (readable_.count(tgid) != 0) {
        return Ok{};
    }
    auto found = find_(static_cast<int>(tgid));
    if (!found) {
        unreadable_[tgid] = found.error().message;
        return Ok{};
    }
    if (!*found) {
        return Ok{};  // no interpreter (yet: a libpython may still be loaded)
    }
    unreadable_.erase(tgid);
    cw_python_process layout = (*found)->offsets.walk;
    layout.runtime_addr = (*found)->runtime_addr;
    layout.runtime_size = (*found)->runtime_size;
    if (auto status = publish_(tgid, layout); !status) {
        return status;
    }
    readable_.emplace(tgid, std::move(**found));
    return Ok{};
}

void PythonProcesses::on_fork(std::uint32_t parent, std::uint32_t child) {
    if (auto it = readable_.find(parent); it != readable_.end()) {
        readable_.insert_or_assign(child, it->second);
    } else if (auto why = unreadable_.find(parent); why != unreadable_.end()) {
        unreadable_.insert_or_assign(child, why->second);
    }
}

void PythonProcesses::on_exec(std::uint32_t tgid) {
    // An unreadable interpreter stays counted: the process ran it while recorded.
    readable_.erase(tgid);
}

const PythonInterpreter* PythonProcesses::interpreter(std::uint32_t tgid) const {
    auto it = readable_.find(tgid);
    return it == readable_.end() ? nullptr : &it->second;
}

tracedb::DataQualityRecord PythonProcesses::unreadable_record() const {
    std::map<std::string, std::vector<std::uint32_t>> by_reason;
    for (const auto& [tgid, why] : unreadable_) {
        by_reason[why].push_back(tgid);
    }
    std::string description =
        tracedb::counter_spec(tracedb::DataQualityCounter::kPythonUnreadableInterpreters)
            .description;
    for (const auto& [why, tgids] : by_reason) {
        description += " " + why + " (pid";
        for (std::size_t i = 0; i < tgids.size() && i < kPidsNamed; ++i) {
            description += " " + std::to_string(tgids[i]);
        }
        description += tgids.size() > kPidsNamed ? " ...)." : ").";
    }
    auto count = static_cast<std::int64_t>(unreadable_.size());
    return tracedb::counter_record(tracedb::DataQualityCounter::kPythonUnreadableInterpreters,
                                   count, description);
}

}  // namespace causeway::collector
