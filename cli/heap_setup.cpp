#include "cli/heap_setup.hpp"

#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace causeway::cli {

void run_with_huge_page_heap(char** argv) {
    constexpr const char* kTunable = "glibc.malloc.hugetlb";
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    const std::string before = tunables != nullptr ? tunables : "";
    if (before.find(kTunable) != std::string::npos) {
        return;
    }
    const std::string with = (before.empty() ? "" : before + ":") + kTunable + "=1";
    if (::setenv("GLIBC_TUNABLES", with.c_str(), 1) != 0) {
        return;
    }
    // The file itself, not /proc/self/exe, so the process keeps its name ("causeway").
    char self[4096];
    const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (length > 0) {
        self[length] = '\0';
        ::execv(self, argv);
    }
    // Not run again (no /proc): go on without, leaving the environment as it was.
    if (tunables != nullptr) {
        ::setenv("GLIBC_TUNABLES", before.c_str(), 1);
    } else {
        ::unsetenv("GLIBC_TUNABLES");
    }
}

void keep_large_blocks_in_heap() {
    // Fails only for an unknown option: the heap then works as glibc's default.
    static_cast<void>(::mallopt(M_MMAP_MAX, 0));
}

}  // namespace causeway::cli
