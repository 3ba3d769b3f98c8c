// realcuda_calls N: calls each traced CUDA runtime function exactly N times with fixed,
// recognisable arguments (copies of 4096 bytes, kind cudaMemcpyHostToDevice) and prints one line
// per function: `<name> <calls> <last return code>`. Built against the real CUDA 13 runtime;
// without a GPU every call returns cudaErrorInsufficientDriver (35). Run with LD_LIBRARY_PATH
// pointing at the fake runtime's folder it exercises the fake instead (same ABI).

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr size_t kCopyBytes = 4096;

// Stands in for a kernel: the runtime only sees its address.
void recognisable_kernel() {}

struct CallCount {
    const char* name;
    long calls = 0;
    cudaError_t last = cudaSuccess;
};

class Tally {
  public:
    // Returns `result` after counting it against `name` (calls are listed in first-call order).
    cudaError_t count(const char* name, cudaError_t result) {
        for (CallCount& entry : entries_) {
            if (std::string(entry.name) == name) {
                ++entry.calls;
                entry.last = result;
                return result;
            }
        }
        entries_.push_back(CallCount{name, 1, result});
        return result;
    }

    void print() const {
        for (const CallCount& entry : entries_) {
            std::printf("%s %ld %d\n", entry.name, entry.calls, static_cast<int>(entry.last));
        }
    }

  private:
    std::vector<CallCount> entries_;
};

// One round: every listed function once. Buffers from cudaHostAlloc are reclaimed at exit, so
// that cudaFreeHost, like every other function, is called exactly once per round.
void run_round(Tally& tally, cudaEvent_t event, const unsigned char* pageable) {
    void* device = nullptr;
    void* pinned = nullptr;
    void* portable = nullptr;
    tally.count("cudaMalloc", cudaMalloc(&device, kCopyBytes));
    tally.count("cudaMallocHost", cudaMallocHost(&pinned, kCopyBytes));
    tally.count("cudaHostAlloc", cudaHostAlloc(&portable, kCopyBytes, cudaHostAllocDefault));
    tally.count("cudaMemcpy", cudaMemcpy(device, pageable, kCopyBytes, cudaMemcpyHostToDevice));
    tally.count("cudaMemcpyAsync",
                cudaMemcpyAsync(device, pageable, kCopyBytes, cudaMemcpyHostToDevice, nullptr));
    void* no_args[] = {nullptr};
    tally.count("cudaLaunchKernel",
                cudaLaunchKernel(reinterpret_cast<const void*>(&recognisable_kernel), dim3(1),
                                 dim3(1), no_args, 0, nullptr));
    tally.count("cudaStreamSynchronize", cudaStreamSynchronize(nullptr));
    tally.count("cudaDeviceSynchronize", cudaDeviceSynchronize());
    tally.count("cudaEventSynchronize", cudaEventSynchronize(event));
    tally.count("cudaFree", cudaFree(device));
    tally.count("cudaFreeHost", cudaFreeHost(pinned));
}

}  // namespace

int main(int argc, char** argv) {
    char* end = nullptr;
    const long rounds = argc == 2 ? std::strtol(argv[1], &end, 10) : -1;
    if (argc != 2 || *end != '\0' || rounds < 0) {
        std::fprintf(stderr,
                     "usage: realcuda_calls N\n"
                     "  calls each traced CUDA runtime function N times (N >= 0) and prints\n"
                     "  '<function> <calls> <last return code>' per function\n");
        return 2;
    }
    std::vector<unsigned char> pageable(kCopyBytes, 0xCA);
    // Set-up outside the counted functions: an event (recorded once) to synchronise on.
    cudaEvent_t event = nullptr;
    if (cudaEventCreate(&event) == cudaSuccess) {
        cudaEventRecord(event, nullptr);
    }
    Tally tally;
    for (long round = 0; round < rounds; ++round) {
        run_round(tally, event, pageable.data());
    }
    tally.print();
    return 0;
}
