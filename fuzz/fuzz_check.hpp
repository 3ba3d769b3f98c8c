#pragma once
// What a fuzz target asserts about the code it drives. A broken promise aborts, which libFuzzer
// reports as a crash with the input that caused it (kept under build-fuzz/artifacts/).

#include <cstdio>
#include <cstdlib>

namespace causeway::fuzz {

inline void require(bool kept, const char* promise) {
    if (!kept) {
        std::fprintf(stderr, "fuzz: broken promise: %s\n", promise);
        std::abort();
    }
}

}  // namespace causeway::fuzz
