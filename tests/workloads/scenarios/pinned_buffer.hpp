#pragma once
// Page-locked host memory from cudaMallocHost, freed with cudaFreeHost: the buffer a copy must come
// from for the device to read it directly (no staging through a pageable bounce buffer).

#include <cstddef>

namespace causeway::scenarios {

class PinnedBuffer {
  public:
    explicit PinnedBuffer(std::size_t bytes);  // exits through check_cuda when allocation fails
    ~PinnedBuffer();
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;

    float* floats() const { return static_cast<float*>(address_); }
    std::size_t bytes() const { return bytes_; }

  private:
    void* address_ = nullptr;
    std::size_t bytes_;
};

}  // namespace causeway::scenarios
