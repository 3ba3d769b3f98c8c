#include "tests/support/runtime_guard.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>

namespace causeway::testing {

std::string missing_runtime_capability() {
    if (!std::filesystem::exists("/sys/kernel/btf/vmlinux")) {
        return "the kernel has no BTF (/sys/kernel/btf/vmlinux is missing)";
    }
    if (::geteuid() != 0) {
        return "not running as root (runtime tests attach eBPF probes; run them with sudo)";
    }
    return {};
}

void require_runtime_or_skip() {
    auto missing = missing_runtime_capability();
    if (missing.empty()) {
        return;
    }
    const char* required = std::getenv("CAUSEWAY_REQUIRE_RUNTIME");
    if (required != nullptr && std::string_view(required) == "1") {
        FAIL("runtime test cannot run: " << missing << " (CAUSEWAY_REQUIRE_RUNTIME=1)");
    }
    std::fprintf(stderr, "skipped: %s\n", missing.c_str());
    std::fflush(stderr);
    std::_Exit(77);
}

}  // namespace causeway::testing
