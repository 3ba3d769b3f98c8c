#include "tests/scenarios/own_session.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace causeway::testing {

std::string run_in_own_session() {
    // setsid() fails for a process group leader; one that is already a session leader is fine.
    if (::getsid(0) != ::getpid() && ::setsid() < 0) {
        return std::string("cannot start a new session: ") + std::strerror(errno);
    }
    std::ofstream autogroup("/proc/self/autogroup");
    autogroup << "-20" << std::flush;
    if (!autogroup) {
        return "cannot set /proc/self/autogroup (no scheduler autogroups, or not root)";
    }
    return {};
}

}  // namespace causeway::testing
