// cw_dlopen_late LIBCUDART N: loads a CUDA runtime with dlopen at run time (as PyTorch does) and
// calls cudaMalloc N times right after the load returns, then cudaFree on each pointer. Not
// linked against any CUDA library, so the collector can only find the runtime when it is mapped.
#include <dlfcn.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: cw_dlopen_late LIBCUDART N\n");
        return 2;
    }
    void* runtime = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (runtime == nullptr) {
        std::fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror());
        return 1;
    }
    using Malloc = int (*)(void**, std::size_t);
    using Free = int (*)(void*);
    auto cuda_malloc = reinterpret_cast<Malloc>(dlsym(runtime, "cudaMalloc"));
    auto cuda_free = reinterpret_cast<Free>(dlsym(runtime, "cudaFree"));
    if (cuda_malloc == nullptr || cuda_free == nullptr) {
        std::fprintf(stderr, "%s lacks cudaMalloc/cudaFree\n", argv[1]);
        return 1;
    }
    int n = std::atoi(argv[2]);
    std::vector<void*> pointers(n);
    int last = 0;
    for (int i = 0; i < n; ++i) {
        last = cuda_malloc(&pointers[i], 4096);
    }
    for (void* pointer : pointers) {
        cuda_free(pointer);
    }
    std::printf("cudaMalloc %d %d\n", n, last);
    return 0;
}
