#include "tests/workloads/scenarios/fresh_pages.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <string>
#include <system_error>

namespace causeway::scenarios {

FreshPages::FreshPages(std::size_t bytes)
    : address_(::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)),
      bytes_(bytes) {
    if (address_ == MAP_FAILED) {
        throw std::system_error(errno, std::generic_category(),
                                "cannot map " + std::to_string(bytes) + " bytes for a batch");
    }
}

FreshPages::~FreshPages() {
    ::munmap(address_, bytes_);
}

}  // namespace causeway::scenarios
