#include "cli/heap_setup.hpp"

#include <malloc.h>

namespace causeway::cli {

void keep_large_blocks_in_heap() {
    // Fails only for an unknown option: the heap then works as glibc's default.
    static_cast<void>(::mallopt(M_MMAP_MAX, 0));
}

}  // namespace causeway::cli
