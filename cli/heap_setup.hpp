#pragma once
// How causeway's heap gets its memory. A trace of millions of calls makes the analysis allocate
// gigabytes, and every page it touches for the first time is a page fault and a page cleared.
//  * In 4 KiB pages, glibc's default: causeway does not ask for huge pages (a user still may,
//    with GLIBC_TUNABLES=glibc.malloc.hugetlb=1; a transparent_hugepage setting of "always"
//    gives them anyway). On the 2-CPU VMs the bench runs on, whose free memory goes back to the
//    host (free page reporting), a 2 MiB page costs more to fault in than the 512 small pages it
//    replaces: explain on 100M calls took 21.8 s on 4 KiB pages against 22.8 s on 2 MiB (medians
//    of 8 runs each, interleaved), with 3.8-4.7 s of system CPU against 5.9-7.1 s (README, the
//    thirteenth step).
//  * Large blocks from the heap, not each its own mapping: glibc maps a block of more than 32 MiB
//    on its own and unmaps it when it is freed, so the next one touches fresh pages again. A
//    100M-call explain mapped 11 GiB that way for a peak of 4.6 GiB; from the heap, a freed
//    block's pages are used again (the heap's free top is still given back).

namespace causeway::cli {

// Serves every block from the heap (mallopt M_MMAP_MAX 0). Where the heap cannot grow, glibc
// still maps the block.
void keep_large_blocks_in_heap();

}  // namespace causeway::cli
