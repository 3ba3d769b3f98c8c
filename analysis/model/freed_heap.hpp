#pragma once
// Memory a large pass freed, given back to the system. glibc keeps a freed block in its heap for
// the next allocation, resident, and the CLI serves even large blocks from the heap
// (cli/heap_setup.hpp): on a 100M-call trace the loaded columns, the accounting's durations and
// the queues' working lists (0.5-0.7 GB each) would stay resident beside what is built after
// them.

namespace causeway::analysis {

// Gives the heap's free pages back (malloc_trim). Between passes, not inside one: it walks the
// heap.
void give_back_freed_heap();

}  // namespace causeway::analysis
