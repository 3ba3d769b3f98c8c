#include "per_thread_stream.hpp"

#include "driver_state.hpp"

namespace fakecuda {
namespace {

class PerThreadStream {
  public:
    PerThreadStream() = default;
    PerThreadStream(const PerThreadStream&) = delete;
    PerThreadStream& operator=(const PerThreadStream&) = delete;

    // At thread exit. Not in a child forked after initialisation, where the device is off limits
    // (its locks may have been held by threads that do not exist there).
    ~PerThreadStream() {
        if (Device* device = initialized_device(); device != nullptr && handle_ != nullptr) {
            device->destroy_stream(handle_);
        }
    }

    CUstream get(Device& device) {
        if (handle_ == nullptr) {
            handle_ = device.create_stream(CU_STREAM_DEFAULT);
        }
        return handle_;
    }

  private:
    CUstream handle_ = nullptr;
};

}  // namespace

CUstream per_thread_stream(Device& device) {
    thread_local PerThreadStream stream;
    return stream.get(device);
}

}  // namespace fakecuda
