#pragma once
// Reads chosen integer columns of one rowid table straight from the b-tree pages of the database
// file, for tables with millions of rows (cuda_call): SQLite's per-row cost (VDBE step, one API
// call per column) is most of the time spent loading such a table, and decoding a leaf page
// directly is several times cheaper. Only what this reader fully understands is read
// (https://www.sqlite.org/fileformat2.html: table b-tree pages, integer or NULL values in the
// columns asked for, no overflow pages, a rollback-journal file under a read transaction);
// anything else is refused and the caller reads the table with SQL instead.
//
// What SQLite would read is what this reader reads, or it refuses:
// - a record shorter than its table (a column added with ALTER TABLE ... ADD COLUMN after the
//   row was written, kept short by VACUUM) takes the column's DEFAULT, as SQLite does; a
//   default other than NULL or an integer literal is refused;
// - the b-tree is checked as it is walked, as PRAGMA quick_check checks it: every page reached
//   once, all leaves at one depth, keys in order and inside their parent's bounds, cells and
//   free blocks covering the cell content area exactly, records whose header and values fill
//   them exactly. A file that fails is refused as damaged, never read half-right.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "base/unique_fd.hpp"
#include "tracedb/sqlite.hpp"

namespace causeway::tracedb {

// Why the page reader did not read a table.
struct ScanRefusal {
    enum class Kind {
        kUnsupported,  // legal content this reader does not decode: SQL reads the same rows
        kDamaged,      // the b-tree contradicts itself: the file is corrupt
    };
    Kind kind = Kind::kUnsupported;
    std::string reason;  // "cannot read run.db page by page: ..."
};
template <class T>
using ScanResult = Result<T, ScanRefusal>;
using ScanStatus = ScanResult<Ok>;

class BtreeTableScan {
  public:
    static constexpr int kMaxColumns = 16;  // columns one scan can be asked for

    // One row: its rowid and the asked-for columns, in the order asked; bit i of null_columns is
    // set when column i is NULL, and then columns[i] holds no value of this row.
    struct Row {
        std::int64_t rowid = 0;
        std::uint32_t null_columns = 0;
        std::array<std::int64_t, kMaxColumns> columns{};
        bool is_null(int column) const { return (null_columns >> column & 1U) != 0; }
    };

    // A leaf page of the table, in key order: how many rows it holds and the rowids it may hold
    // (both bounds inclusive, from the keys of the interior cells above it).
    struct Leaf {
        std::uint32_t page = 0;
        std::uint32_t cells = 0;
        std::int64_t min_rowid = 0;
        std::int64_t max_rowid = 0;
    };

    // Scratch space of one thread: several threads may read different leaves at once.
    struct Buffer {
        std::vector<std::uint8_t> page;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> extents;  // [begin, end) of cells
    };

    // Maps the table's pages and checks the structure of its interior pages. `db` must be a
    // read transaction on `path` that stays open while the scan is used (it holds the SHARED
    // lock that keeps writers from changing the file). Unsupported: a WAL-mode file (pages may
    // be in the WAL), a table that is not a plain rowid table, has a rowid alias column or a
    // generated column, or lacks a column asked for, or gives one REAL affinity; more than
    // kMaxColumns columns asked for.
    static ScanResult<BtreeTableScan> open(const Database& db, const std::string& path,
                                           const std::string& table,
                                           const std::vector<std::string>& columns);

    const std::vector<Leaf>& leaves() const { return leaves_; }
    std::int64_t rows() const { return rows_; }

    // Replaces `rows` with the rows of leaf `leaf`, in rowid order (reusing the rows it holds);
    // after a refusal what it holds is not the leaf's. Unsupported: a text, blob or real value in
    // a column asked for, a row with an overflow page, a missing value whose default is not a
    // NULL or integer literal.
    ScanStatus read_leaf(std::size_t leaf, Buffer& buffer, std::vector<Row>& rows) const;

  private:
    // What a column's value is when a record ends before it.
    struct Default {
        enum class Kind { kNull, kInteger, kOther } kind = Kind::kNull;
        std::int64_t value = 0;
        std::string text;  // as declared, to name it when refused
    };
    struct Column {
        int wanted = -1;  // index among the columns asked for; -1 when not asked for
        bool not_null = false;
        bool real_affinity = false;  // SQLite reads its integers as floating point
        std::string name;
        Default fallback;
    };
    // Bounds of the keys under one interior cell, both inclusive.
    struct KeyRange {
        std::int64_t min = 0;
        std::int64_t max = 0;
    };

    BtreeTableScan() = default;
    ScanStatus read_page(std::uint32_t number, std::vector<std::uint8_t>& page) const;
    ScanStatus collect_leaves(std::uint32_t page_number, KeyRange keys, int depth,
                              std::vector<std::uint8_t>& page,
                              std::vector<std::pair<std::uint32_t, std::uint32_t>>& extents);
    ScanStatus check_layout(std::uint32_t page_number, const std::vector<std::uint8_t>& page,
                            std::uint32_t header_bytes,
                            std::vector<std::pair<std::uint32_t, std::uint32_t>>& extents) const;
    ScanStatus decode_record(const std::uint8_t* record, const std::uint8_t* record_end,
                             Row& row) const;
    ScanRefusal unsupported(const std::string& why) const;
    ScanRefusal damaged(const std::string& why) const;

    UniqueFd fd_;
    std::string path_;
    std::string table_;
    std::uint32_t page_size_ = 0;
    std::uint32_t usable_size_ = 0;
    std::uint32_t page_count_ = 0;
    // What decoding a value needs of its column, kept apart from the names for the hot loop.
    struct Slot {
        std::int8_t wanted = -1;
        bool not_null = false;
    };

    std::vector<Column> columns_;  // in record order
    std::vector<Slot> slots_;      // in record order
    std::vector<Leaf> leaves_;
    std::int64_t rows_ = 0;
    int leaf_depth_ = -1;
    std::vector<bool> reached_;  // pages reached by the walk, by page number
};

}  // namespace causeway::tracedb
