#pragma once
// Reads the rows of one rowid table straight from the b-tree pages of the database file, for
// tables of integer columns with millions of rows (cuda_call): SQLite's per-row cost (VDBE step,
// one API call per column) is most of the time spent loading such a table, and decoding a leaf
// page directly is several times cheaper. Only what this reader fully understands is read
// (https://www.sqlite.org/fileformat2.html: table b-tree pages, records of NULLs and integers,
// no overflow pages, a rollback-journal file under a read transaction); anything else is
// refused, and the caller reads the table with SQL instead.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tracedb/result.hpp"
#include "tracedb/sqlite.hpp"
#include "tracedb/unique_fd.hpp"

namespace causeway::tracedb {

class BtreeTableScan {
  public:
    static constexpr int kMaxColumns = 16;

    // One row: its rowid and its first kMaxColumns columns; bit i of null_columns is set when
    // column i is NULL (or absent from the record).
    struct Row {
        std::int64_t rowid = 0;
        std::uint32_t null_columns = 0;
        std::array<std::int64_t, kMaxColumns> columns{};
        bool is_null(int column) const { return (null_columns >> column & 1U) != 0; }
    };

    // A leaf page of the table, in key order, with the largest rowid it may hold (the key of
    // the interior cell that points to it; INT64_MAX for the last leaf).
    struct Leaf {
        std::uint32_t page = 0;
        std::int64_t max_rowid = 0;
    };

    // Maps the table's pages. `db` must be a read transaction on `path` that stays open while
    // the scan is used (it holds the SHARED lock that keeps writers from changing the file).
    // Refused, saying why: a WAL-mode file (pages may be in the WAL), a table that is not a
    // rowid table or has a rowid alias column, more than kMaxColumns columns, a page that is not
    // a table b-tree page.
    static Result<BtreeTableScan> open(const Database& db, const std::string& path,
                                       const std::string& table);

    const std::vector<Leaf>& leaves() const { return leaves_; }
    // Column names in record order.
    const std::vector<std::string>& columns() const { return columns_; }

    // Replaces `rows` with the rows of leaf `leaf`, in rowid order. `page` is scratch space of
    // the caller's thread: several threads may read different leaves at once. Refuses a row
    // it cannot decode (a text, blob or real value, an overflow page).
    Status read_leaf(std::size_t leaf, std::vector<std::uint8_t>& page,
                     std::vector<Row>& rows) const;

  private:
    BtreeTableScan() = default;
    Status read_page(std::uint32_t number, std::vector<std::uint8_t>& page) const;
    Status collect_leaves(std::uint32_t page_number, std::int64_t max_rowid, int depth,
                          std::vector<std::uint8_t>& page);

    UniqueFd fd_;
    std::string path_;
    std::uint32_t page_size_ = 0;
    std::uint32_t usable_size_ = 0;
    std::uint32_t page_count_ = 0;
    std::vector<Leaf> leaves_;
    std::vector<std::string> columns_;
};

}  // namespace causeway::tracedb
