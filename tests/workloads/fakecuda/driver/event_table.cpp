#include "event_table.hpp"

#include <utility>

namespace fakecuda {

CUevent EventTable::create(unsigned flags) {
    auto event = std::make_unique<CUevent_st>();
    event->state.flags = flags;
    CUevent handle = event.get();
    std::lock_guard lock(mutex_);
    events_.emplace(handle, std::move(event));
    return handle;
}

bool EventTable::destroy(CUevent handle) {
    std::unique_ptr<CUevent_st> destroyed;  // released after the lock: may end a stream
    std::lock_guard lock(mutex_);
    auto found = events_.find(handle);
    if (found == events_.end()) {
        return false;
    }
    destroyed = std::move(found->second);
    events_.erase(found);
    return true;
}

std::optional<EventState> EventTable::lookup(CUevent handle) const {
    std::lock_guard lock(mutex_);
    auto found = events_.find(handle);
    if (found == events_.end()) {
        return std::nullopt;
    }
    return found->second->state;
}

bool EventTable::set_record(CUevent handle, std::shared_ptr<const EventRecord> record) {
    std::shared_ptr<const EventRecord> previous;  // released after the lock: may end a stream
    std::lock_guard lock(mutex_);
    auto found = events_.find(handle);
    if (found == events_.end()) {
        return false;
    }
    previous = std::exchange(found->second->state.record, std::move(record));
    return true;
}

}  // namespace fakecuda
