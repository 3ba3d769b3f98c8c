#include "tracedb/space_reserve.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <utility>

#include "base/unique_fd.hpp"

namespace causeway::tracedb {

SpaceReserve SpaceReserve::allocate(std::string path, std::size_t bytes) {
    SpaceReserve reserve;
    UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
    if (!fd) {
        return reserve;
    }
    // posix_fallocate, not a sparse file: the blocks must be taken now to be given back later.
    if (::posix_fallocate(fd.get(), 0, static_cast<off_t>(bytes)) != 0) {
        ::unlink(path.c_str());
        return reserve;
    }
    reserve.path_ = std::move(path);
    return reserve;
}

SpaceReserve::SpaceReserve(SpaceReserve&& other) noexcept : path_(std::exchange(other.path_, {})) {}

SpaceReserve& SpaceReserve::operator=(SpaceReserve&& other) noexcept {
    if (this != &other) {
        release();
        path_ = std::exchange(other.path_, {});
    }
    return *this;
}

void SpaceReserve::release() {
    if (!path_.empty()) {
        ::unlink(path_.c_str());
        path_.clear();
    }
}

}  // namespace causeway::tracedb
