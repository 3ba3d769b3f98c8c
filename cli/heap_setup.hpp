#pragma once
// How causeway's heap gets its memory. A trace of millions of calls makes the analysis allocate
// gigabytes, and every page it touches for the first time is a page fault and a page cleared.
//  * In 2 MiB pages: in 4 KiB pages, on a 10M-call trace, about a second of system time of a
//    4-second explain. glibc backs its heap with transparent huge pages only when told before
//    main() (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, glibc 2.35+), so causeway runs itself again
//    with that set. The kernel still decides (its transparent_hugepage setting): "madvise" and
//    "always" give huge pages, "never" none. The calls' columns and the queue's periods, written
//    once and read in order, are the exception: on 4 KiB pages (analysis/model/call_column.hpp).
//  * Large blocks from the heap, not each its own mapping: glibc maps a block of more than 32 MiB
//    on its own and unmaps it when it is freed, so the next one touches fresh pages again. A
//    100M-call explain mapped 11 GiB that way for a peak of 4.6 GiB; from the heap, a freed
//    block's pages are used again (the heap's free top is still given back).

namespace causeway::cli {

// Runs this program again (same arguments, same process) with the tunable added to
// GLIBC_TUNABLES, unless that already names it (the second run, or the user's own choice). Returns
// only where it did not: the program goes on as it is.
void run_with_huge_page_heap(char** argv);

// Serves every block from the heap (mallopt M_MMAP_MAX 0). Where the heap cannot grow, glibc
// still maps the block.
void keep_large_blocks_in_heap();

}  // namespace causeway::cli
