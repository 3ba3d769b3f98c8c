#include "collector/record/libbpf_log.hpp"

#include <bpf/libbpf.h>

#include <cstdarg>
#include <cstdio>

namespace causeway::collector {
namespace {

int print_libbpf_verbose(libbpf_print_level, const char* format, va_list args) {
    return std::vfprintf(stderr, format, args);
}

int print_libbpf_quiet(libbpf_print_level, const char*, va_list) {
    return 0;
}

}  // namespace

void route_libbpf_messages(bool verbose) {
    libbpf_set_print(verbose ? print_libbpf_verbose : print_libbpf_quiet);
}

}  // namespace causeway::collector
