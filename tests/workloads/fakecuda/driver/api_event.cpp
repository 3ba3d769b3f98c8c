// Exported driver entry points: events.

#include <memory>

#include "api_support.hpp"
#include "cuda.h"

using fakecuda::Device;
using fakecuda::EventRecord;
using fakecuda::HostWait;
using fakecuda::Nanos;
using fakecuda::Stream;
using fakecuda::WaitMode;
using fakecuda::with_device;
using fakecuda::with_stream;

namespace {

constexpr unsigned kKnownEventFlags = CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING;
constexpr double kNanosPerMillisecond = 1e6;

}  // namespace

CUresult cuEventCreate(CUevent* phEvent, unsigned int Flags) {
    return with_device([&](Device& device) {
        if (phEvent == nullptr || (Flags & ~kKnownEventFlags) != 0) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        *phEvent = device.events().create(Flags);
        return CUDA_SUCCESS;
    });
}

CUresult cuEventDestroy_v2(CUevent hEvent) {
    return with_device([&](Device& device) {
        return device.events().destroy(hEvent) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
    });
}

// Queues a zero-length op that stamps the device time at which the stream reaches it.
CUresult cuEventRecord(CUevent hEvent, CUstream hStream) {
    return with_stream(hStream, [&](Device& device, const std::shared_ptr<Stream>& stream) {
        if (!device.events().lookup(hEvent)) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        auto record = std::make_shared<EventRecord>();
        fakecuda::DeviceOp stamp;
        stamp.run = [record](Nanos start_ns) { record->device_ts_ns.store(start_ns); };
        record->position = device.enqueue(stream, std::move(stamp));
        return device.events().set_record(hEvent, std::move(record)) ? CUDA_SUCCESS
                                                                     : CUDA_ERROR_INVALID_HANDLE;
    });
}

CUresult cuEventQuery(CUevent hEvent) {
    return with_device([&](Device& device) {
        auto event = device.events().lookup(hEvent);
        if (!event) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        const bool done =
            !event->record || event->record->position.stream->reached(event->record->position.seq);
        return done ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
    });
}

// Waits as the device flags say, or blocks for an event created with CU_EVENT_BLOCKING_SYNC.
CUresult cuEventSynchronize(CUevent hEvent) {
    return with_device([&](Device& device) {
        auto event = device.events().lookup(hEvent);
        if (!event) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        if (event->record) {
            const HostWait wait = (event->flags & CU_EVENT_BLOCKING_SYNC) != 0
                                      ? HostWait(WaitMode::kBlock, 0)
                                      : device.host_wait();
            wait.until_reached(*event->record->position.stream, event->record->position.seq);
        }
        return CUDA_SUCCESS;
    });
}

CUresult cuEventElapsedTime_v2(float* pMilliseconds, CUevent hStart, CUevent hEnd) {
    return with_device([&](Device& device) {
        auto start = device.events().lookup(hStart);
        auto end = device.events().lookup(hEnd);
        if (pMilliseconds == nullptr) {
            return CUDA_ERROR_INVALID_VALUE;
        }
        if (!start || !end || !start->record || !end->record ||
            ((start->flags | end->flags) & CU_EVENT_DISABLE_TIMING) != 0) {
            return CUDA_ERROR_INVALID_HANDLE;
        }
        for (const auto* record : {start->record.get(), end->record.get()}) {
            if (!record->position.stream->reached(record->position.seq)) {
                return CUDA_ERROR_NOT_READY;
            }
        }
        const double elapsed_ns = static_cast<double>(end->record->device_ts_ns.load()) -
                                  static_cast<double>(start->record->device_ts_ns.load());
        *pMilliseconds = static_cast<float>(elapsed_ns / kNanosPerMillisecond);
        return CUDA_SUCCESS;
    });
}
