#pragma once
// The heap in 2 MiB pages. A trace of millions of calls makes the analysis allocate gigabytes,
// which in 4 KiB pages is a page fault (and a page cleared) per 4 KiB: on a 10M-call trace,
// about a second of system time of a 4-second explain. glibc backs its heap with transparent huge
// pages only when told before main() (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, glibc 2.35+), so
// causeway runs itself again with that set. The kernel still decides (its transparent_hugepage
// setting): "madvise" and "always" give huge pages, "never" none.

namespace causeway::cli {

// Runs this program again (same arguments, same process) with the tunable added to
// GLIBC_TUNABLES, unless that already names it (the second run, or the user's own choice). Returns
// only where it did not: the program goes on as it is.
void run_with_huge_page_heap(char** argv);

}  // namespace causeway::cli
