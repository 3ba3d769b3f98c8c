#pragma once
// A memory budget for the SQLite work of one thread, so that one query a person or a model
// wrote cannot take the process's memory.
//
// Why not SQLite's own limits: sqlite3_hard_heap_limit64 and sqlite3_soft_heap_limit64 count
// every connection of the process. A hard limit small enough to stop one hostile query would
// fail the model loading and the other tools running beside it in the server; a soft limit only
// trims page caches and never fails an allocation. So SQLite's allocator is wrapped once, before
// SQLite initialises (a static initializer of this file), by one that charges every allocation
// made on a thread with an active budget to that budget and refuses (SQLITE_NOMEM) what would
// exceed it. Threads without a budget (the collector's writer, model loading, other tools) go
// straight to SQLite's default allocator at the cost of one thread-local read. A query runs on
// one thread (SQLite starts no helper threads unless PRAGMA threads asks, and run_sql refuses
// that pragma), so its budget sees all of its allocations.

#include <cstdint>

namespace causeway::analysis {

class SqlMemoryBudget {
  public:
    // Charges this thread's SQLite allocations to a budget of `limit_bytes` until destroyed. A
    // budget started while another is active replaces it until it ends.
    explicit SqlMemoryBudget(std::int64_t limit_bytes);
    ~SqlMemoryBudget();
    SqlMemoryBudget(const SqlMemoryBudget&) = delete;
    SqlMemoryBudget& operator=(const SqlMemoryBudget&) = delete;

    // Whether an allocation was refused because it would have passed the limit.
    bool exceeded() const { return exceeded_; }
    // Most bytes held at once since the budget started (net of frees).
    std::int64_t peak_bytes() const { return peak_bytes_; }

    // False when SQLite was initialised before the wrapper could be installed (another static
    // initializer opened a database first): budgets then cannot be enforced.
    static bool enforced();

  private:
    friend struct SqlMemoryBudgetAccounting;
    std::int64_t limit_bytes_;
    std::int64_t used_bytes_ = 0;
    std::int64_t peak_bytes_ = 0;
    bool exceeded_ = false;
    SqlMemoryBudget* previous_;
};

}  // namespace causeway::analysis
