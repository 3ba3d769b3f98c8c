#include "tracedb/btree_scan.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>

namespace causeway::tracedb {
namespace {

constexpr std::size_t kFileHeaderBytes = 100;
constexpr std::uint8_t kInteriorTablePage = 0x05;
constexpr std::uint8_t kLeafTablePage = 0x0D;
constexpr int kMaxDepth = 20;  // a b-tree of 4 KiB pages is a handful of levels deep

std::uint32_t big_endian(const std::uint8_t* p, int bytes) {
    std::uint32_t value = 0;
    for (int i = 0; i < bytes; ++i) {
        value = value << 8 | p[i];
    }
    return value;
}

// SQLite's varint: 1 to 9 bytes, 7 bits per byte (8 in the ninth), most significant first.
bool read_varint(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& value) {
    value = 0;
    for (int i = 0; i < 9; ++i) {
        if (p >= end) {
            return false;
        }
        std::uint8_t byte = *p++;
        if (i == 8) {
            value = value << 8 | byte;
            return true;
        }
        value = value << 7 | (byte & 0x7F);
        if ((byte & 0x80) == 0) {
            return true;
        }
    }
    return true;
}

// A big-endian two's-complement integer of `bytes` bytes.
std::int64_t signed_big_endian(const std::uint8_t* p, int bytes) {
    std::uint64_t value = p[0] & 0x80 ? ~std::uint64_t{0} : 0;
    for (int i = 0; i < bytes; ++i) {
        value = value << 8 | p[i];
    }
    return static_cast<std::int64_t>(value);
}

// Bytes of an integer serial type (1-6); 0 for the constants 8 and 9 and for NULL.
int integer_bytes(std::uint64_t serial_type) {
    static constexpr int kBytes[] = {0, 1, 2, 3, 4, 6, 8};
    return serial_type <= 6 ? kBytes[serial_type] : 0;
}

Error refused(const std::string& path, const std::string& why) {
    return Error{"cannot read " + path + " page by page: " + why};
}

}  // namespace

Result<BtreeTableScan> BtreeTableScan::open(const Database& db, const std::string& path,
                                            const std::string& table) {
    BtreeTableScan scan;
    scan.path_ = path;
    auto info = db.prepare("SELECT name, pk AND upper(type) = 'INTEGER' FROM pragma_table_info(?)");
    if (!info) {
        return info.error();
    }
    info->bind(1, table);
    while (info->step() == SQLITE_ROW) {
        if (info->column_int64(1) != 0) {
            return refused(path, table +
                                     " has a rowid alias (an INTEGER PRIMARY KEY column), "
                                     "which the record leaves NULL");
        }
        scan.columns_.push_back(info->column_text(0));
    }
    if (scan.columns_.empty() || scan.columns_.size() > kMaxColumns) {
        return refused(path, table + " has " + std::to_string(scan.columns_.size()) + " columns");
    }
    auto root = db.prepare(
        "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ? AND "
        "sql NOT LIKE '%WITHOUT ROWID%'");
    if (!root) {
        return root.error();
    }
    root->bind(1, table);
    if (root->step() != SQLITE_ROW) {
        return refused(path, table + " is not a rowid table");
    }
    auto root_page = root->column_int64(0);

    scan.fd_ = UniqueFd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!scan.fd_) {
        return refused(path, std::strerror(errno));
    }
    std::uint8_t header[kFileHeaderBytes];
    struct stat st {};
    if (::pread(scan.fd_.get(), header, sizeof(header), 0) !=
            static_cast<ssize_t>(sizeof(header)) ||
        ::fstat(scan.fd_.get(), &st) != 0) {
        return refused(path, "the file header cannot be read");
    }
    if (header[18] != 1 || header[19] != 1) {
        return refused(path, "the file is in WAL mode (pages may be in the -wal file)");
    }
    std::uint32_t page_size = big_endian(header + 16, 2);
    scan.page_size_ = page_size == 1 ? 65536 : page_size;
    if (scan.page_size_ < 512 || (scan.page_size_ & (scan.page_size_ - 1)) != 0 ||
        header[20] >= scan.page_size_ - 480) {
        return refused(path, "the header gives an invalid page size");
    }
    scan.usable_size_ = scan.page_size_ - header[20];
    scan.page_count_ = static_cast<std::uint32_t>(st.st_size / scan.page_size_);
    if (root_page < 2 || root_page > scan.page_count_) {
        return refused(path, "the root page of " + table + " is outside the file");
    }
    std::vector<std::uint8_t> page;
    if (auto status = scan.collect_leaves(static_cast<std::uint32_t>(root_page),
                                          std::numeric_limits<std::int64_t>::max(), 0, page);
        !status) {
        return status.error();
    }
    return scan;
}

Status BtreeTableScan::read_page(std::uint32_t number, std::vector<std::uint8_t>& page) const {
    if (number < 2 || number > page_count_) {
        return refused(path_,
                       "a b-tree points at page " + std::to_string(number) + ", outside the file");
    }
    page.resize(page_size_);
    auto offset = static_cast<off_t>(number - 1) * page_size_;
    if (::pread(fd_.get(), page.data(), page_size_, offset) != static_cast<ssize_t>(page_size_)) {
        return refused(path_, "page " + std::to_string(number) + " cannot be read");
    }
    return Ok{};
}

Status BtreeTableScan::collect_leaves(std::uint32_t page_number, std::int64_t max_rowid, int depth,
                                      std::vector<std::uint8_t>& page) {
    if (depth > kMaxDepth || leaves_.size() > page_count_) {
        return refused(path_, "the b-tree is deeper or larger than the file allows");
    }
    if (auto status = read_page(page_number, page); !status) {
        return status;
    }
    if (page[0] == kLeafTablePage) {
        leaves_.push_back({page_number, max_rowid});
        return Ok{};
    }
    if (page[0] != kInteriorTablePage) {
        return refused(path_,
                       "page " + std::to_string(page_number) + " is not a table b-tree page");
    }
    // The children are read into the same buffer: take this page's cells out first.
    std::uint32_t cells = big_endian(page.data() + 3, 2);
    std::vector<std::pair<std::uint32_t, std::int64_t>> children;
    const std::uint8_t* end = page.data() + usable_size_;
    for (std::uint32_t i = 0; i < cells; ++i) {
        std::uint32_t offset =
            12 + 2 * i < usable_size_ ? big_endian(page.data() + 12 + 2 * i, 2) : usable_size_;
        if (offset + 4 >= usable_size_) {
            return refused(path_,
                           "a cell of page " + std::to_string(page_number) + " lies outside it");
        }
        const std::uint8_t* p = page.data() + offset + 4;
        std::uint64_t key = 0;
        if (!read_varint(p, end, key)) {
            return refused(path_, "a key of page " + std::to_string(page_number) + " is cut off");
        }
        children.emplace_back(big_endian(page.data() + offset, 4), static_cast<std::int64_t>(key));
    }
    children.emplace_back(big_endian(page.data() + 8, 4), max_rowid);
    for (const auto& [child, child_max] : children) {
        if (auto status = collect_leaves(child, child_max, depth + 1, page); !status) {
            return status;
        }
    }
    return Ok{};
}

Status BtreeTableScan::read_leaf(std::size_t leaf, std::vector<std::uint8_t>& page,
                                 std::vector<Row>& rows) const {
    rows.clear();
    const Leaf& l = leaves_.at(leaf);
    if (auto status = read_page(l.page, page); !status) {
        return status;
    }
    auto corrupt = [&](const char* what) {
        return refused(path_, std::string(what) + " in page " + std::to_string(l.page));
    };
    if (page[0] != kLeafTablePage) {
        return corrupt("not a leaf");
    }
    const std::uint8_t* base = page.data();
    const std::uint8_t* page_end = base + usable_size_;
    const std::uint32_t max_local = usable_size_ - 35;
    std::uint32_t cells = big_endian(base + 3, 2);
    if (8 + 2 * cells > usable_size_) {
        return corrupt("a cell count too large");
    }
    rows.resize(cells);
    std::int64_t previous = std::numeric_limits<std::int64_t>::min();
    for (std::uint32_t i = 0; i < cells; ++i) {
        const std::uint8_t* p = base + big_endian(base + 8 + 2 * i, 2);
        std::uint64_t payload = 0, rowid = 0;
        if (p >= page_end || !read_varint(p, page_end, payload) ||
            !read_varint(p, page_end, rowid)) {
            return corrupt("a cell outside the page");
        }
        if (payload > max_local) {
            return corrupt("a row with an overflow page");
        }
        const std::uint8_t* record_end = p + payload;
        std::uint64_t header_size = 0;
        const std::uint8_t* types = p;
        if (record_end > page_end || !read_varint(types, record_end, header_size) ||
            header_size > payload) {
            return corrupt("a record outside the page");
        }
        const std::uint8_t* types_end = p + header_size;
        const std::uint8_t* body = types_end;
        Row& row = rows[i];
        row.rowid = static_cast<std::int64_t>(rowid);
        if (row.rowid <= previous || row.rowid > l.max_rowid) {
            return corrupt("rowids out of order");
        }
        previous = row.rowid;
        row.null_columns = ~std::uint32_t{0};  // cleared column by column; absent ones stay NULL
        for (int column = 0; types < types_end; ++column) {
            std::uint64_t type = 0;
            if (column >= kMaxColumns || !read_varint(types, types_end, type)) {
                return corrupt("a record header that does not fit the table");
            }
            if (type == 0) {
                continue;  // NULL: its bit stays set
            }
            row.null_columns &= ~(1U << column);
            if (type == 8 || type == 9) {
                row.columns[static_cast<std::size_t>(column)] = type == 9 ? 1 : 0;
            } else if (type <= 6) {
                int bytes = integer_bytes(type);
                if (body + bytes > record_end) {
                    return corrupt("a value outside its record");
                }
                row.columns[static_cast<std::size_t>(column)] = signed_big_endian(body, bytes);
                body += bytes;
            } else {
                return corrupt("a value that is not an integer");
            }
        }
    }
    return Ok{};
}

}  // namespace causeway::tracedb
