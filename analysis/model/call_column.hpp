#pragma once
// The storage of a cuda_call column in memory.

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace causeway::analysis {

// A column of cuda_call in memory. Growing it leaves new elements uninitialised (they are all
// written right after): the loader sizes each column once for millions of rows and fills it from
// several threads, so the pages are first touched by the threads that fill them, not zeroed by
// one thread beforehand.
template <class T>
struct UninitialisedAllocator : std::allocator<T> {
    static constexpr std::size_t kHugeBytes = 2 << 20;
    template <class U>
    struct rebind {
        using other = UninitialisedAllocator<U>;
    };
    UninitialisedAllocator() = default;
    template <class U>
    explicit UninitialisedAllocator(const UninitialisedAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        std::size_t bytes = n * sizeof(T);
        if (bytes < kHugeBytes) {
            return std::allocator<T>::allocate(n);
        }
        // Millions of rows: 2 MiB pages take a page fault per 2 MiB instead of per 4 KiB, which
        // in a VM was up to a second of system time for a 10M-call trace.
        std::size_t rounded = (bytes + kHugeBytes - 1) / kHugeBytes * kHugeBytes;
        void* p = std::aligned_alloc(kHugeBytes, rounded);
        if (p == nullptr) {
            throw std::bad_alloc();
        }
        ::madvise(p, rounded, MADV_HUGEPAGE);
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) < kHugeBytes) {
            std::allocator<T>::deallocate(p, n);
        } else {
            std::free(p);
        }
    }
    template <class U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};
template <class T>
using CallColumn = std::vector<T, UninitialisedAllocator<T>>;

}  // namespace causeway::analysis
