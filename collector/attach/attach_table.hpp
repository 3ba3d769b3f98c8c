#pragma once
// Which CUDA symbols the collector attaches to, in which library, and whether recording is
// refused without them. Each symbol gets an entry uprobe and a return uprobe on the shared
// programs of bpf/cuda.bpf.c, with the op id as bpf_cookie.

#include <cstdint>
#include <span>

#include "collector/discover/discovery.hpp"

namespace causeway::collector {

struct CudaSymbol {
    const char* name;  // exported symbol; libbpf resolves versioned names by plain name
    std::uint16_t op;  // enum cw_cuda_op == cuda_op.id
    CudaLibraryKind library;
    // Every supported library of its kind has it: failing to attach it where the library exports
    // it is an error (calls are missing). A library that does not export it at all (a minimal or
    // older runtime) is only noted: nothing can call it there.
    bool required;
};

std::span<const CudaSymbol> cuda_symbols();

}  // namespace causeway::collector
