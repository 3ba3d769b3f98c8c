#pragma once
// A buffer of freshly mapped anonymous pages, unmapped when it goes away. Every batch collated
// into a new FreshPages makes the kernel allocate and zero its pages again (mm_page_alloc), as a
// new tensor of that size does in PyTorch's CPU allocator.

#include <cstddef>

namespace causeway::scenarios {

class FreshPages {
  public:
    explicit FreshPages(std::size_t bytes);  // throws std::system_error when mmap fails
    ~FreshPages();
    FreshPages(const FreshPages&) = delete;
    FreshPages& operator=(const FreshPages&) = delete;

    float* floats() const { return static_cast<float*>(address_); }
    std::size_t bytes() const { return bytes_; }

  private:
    void* address_;
    std::size_t bytes_;
};

}  // namespace causeway::scenarios
