#include "analysis/sql/sql_memory_budget.hpp"

#include <sqlite3.h>

#include "analysis/model/freed_heap.hpp"

namespace causeway::analysis {
namespace {

sqlite3_mem_methods default_allocator{};
thread_local SqlMemoryBudget* active_budget = nullptr;

// A budget that held more than this gives the freed memory back to the system when it ends:
// glibc keeps what a thread freed in that thread's arena (allocations this size come from the
// arena once its dynamic mmap threshold has risen), so eight worker threads that each ran one
// 128 MiB query kept a gigabyte resident.
constexpr std::int64_t kReturnToSystemBytes = 16 << 20;

}  // namespace

// The wrapped allocator's callbacks; a friend so they can update the budget's counters.
struct SqlMemoryBudgetAccounting {
    static bool charge(SqlMemoryBudget& budget, std::int64_t bytes) {
        if (budget.used_bytes_ + bytes > budget.limit_bytes_) {
            budget.exceeded_ = true;
            return false;
        }
        return true;
    }
    static void record(SqlMemoryBudget& budget, std::int64_t bytes) {
        budget.used_bytes_ += bytes;
        if (budget.used_bytes_ > budget.peak_bytes_) {
            budget.peak_bytes_ = budget.used_bytes_;
        }
    }

    static void* allocate(int bytes) {
        SqlMemoryBudget* budget = active_budget;
        if (budget == nullptr) {
            return default_allocator.xMalloc(bytes);
        }
        if (!charge(*budget, default_allocator.xRoundup(bytes))) {
            return nullptr;
        }
        void* memory = default_allocator.xMalloc(bytes);
        if (memory != nullptr) {
            record(*budget, default_allocator.xSize(memory));
        }
        return memory;
    }

    static void release(void* memory) {
        SqlMemoryBudget* budget = active_budget;
        if (budget != nullptr && memory != nullptr) {
            // Memory allocated before the budget started counts as given back: the budget is
            // the growth of this thread's SQLite memory while it is active.
            record(*budget, -default_allocator.xSize(memory));
        }
        default_allocator.xFree(memory);
    }

    static void* reallocate(void* memory, int bytes) {
        SqlMemoryBudget* budget = active_budget;
        if (budget == nullptr) {
            return default_allocator.xRealloc(memory, bytes);
        }
        const std::int64_t before = default_allocator.xSize(memory);
        if (!charge(*budget, default_allocator.xRoundup(bytes) - before)) {
            return nullptr;
        }
        void* moved = default_allocator.xRealloc(memory, bytes);
        if (moved != nullptr) {
            record(*budget, default_allocator.xSize(moved) - before);
        }
        return moved;
    }

    static int size(void* memory) { return default_allocator.xSize(memory); }
    static int roundup(int bytes) { return default_allocator.xRoundup(bytes); }
    static int init(void* data) { return default_allocator.xInit(data); }
    static void shutdown(void* data) { default_allocator.xShutdown(data); }
};

namespace {

// Runs before main(): SQLite accepts a new allocator only before it initialises.
bool install_budget_allocator() {
    if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &default_allocator) != SQLITE_OK) {
        return false;
    }
    static sqlite3_mem_methods budgeted{
        SqlMemoryBudgetAccounting::allocate,   SqlMemoryBudgetAccounting::release,
        SqlMemoryBudgetAccounting::reallocate, SqlMemoryBudgetAccounting::size,
        SqlMemoryBudgetAccounting::roundup,    SqlMemoryBudgetAccounting::init,
        SqlMemoryBudgetAccounting::shutdown,   nullptr};
    return sqlite3_config(SQLITE_CONFIG_MALLOC, &budgeted) == SQLITE_OK;
}

const bool budget_allocator_installed = install_budget_allocator();

}  // namespace

SqlMemoryBudget::SqlMemoryBudget(std::int64_t limit_bytes)
    : limit_bytes_(limit_bytes), previous_(active_budget) {
    active_budget = this;
}

SqlMemoryBudget::~SqlMemoryBudget() {
    active_budget = previous_;
    if (peak_bytes_ > kReturnToSystemBytes) {
        give_back_freed_heap();
    }
}

bool SqlMemoryBudget::enforced() {
    return budget_allocator_installed;
}

}  // namespace causeway::analysis
