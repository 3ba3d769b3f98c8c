#pragma once
// The storage of a cuda_call column in memory, and of other lists of millions written once in
// order (the device queue's periods).

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace causeway::analysis {

// A column of cuda_call in memory. Growing it leaves new elements uninitialised (they are all
// written right after; a member's default initialiser still runs): the loader sizes each column
// once for millions of rows and fills it from several threads, so the pages are first touched by
// the threads that fill them, not zeroed by one thread beforehand.
template <class T>
struct UninitialisedAllocator : std::allocator<T> {
    static constexpr std::size_t kLargeBytes = 2 << 20;
    static constexpr std::size_t kPageBytes = 4096;
    template <class U>
    struct rebind {
        using other = UninitialisedAllocator<U>;
    };
    UninitialisedAllocator() = default;
    template <class U>
    explicit UninitialisedAllocator(const UninitialisedAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        std::size_t bytes = n * sizeof(T);
        if (bytes < kLargeBytes) {
            return std::allocator<T>::allocate(n);
        }
        // Millions of rows, written once in order and then read in order: 4 KiB pages, even
        // where the system gives the heap huge pages (transparent_hugepage "always";
        // cli/heap_setup.hpp). A column gains little from huge pages (a TLB miss per 4 KiB of a
        // scan), and on the 2-CPU VMs the bench runs on, the kernel took two to three times the
        // system time to fault them in: explain on 100M calls spent 4.5 s instead of 13-15 s in
        // the kernel and finished 6 s sooner (README, the twelfth step).
        std::size_t rounded = (bytes + kPageBytes - 1) / kPageBytes * kPageBytes;
        void* p = std::aligned_alloc(kPageBytes, rounded);
        if (p == nullptr) {
            throw std::bad_alloc();
        }
        ::madvise(p, rounded, MADV_NOHUGEPAGE);
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) < kLargeBytes) {
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
