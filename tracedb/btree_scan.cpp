#include "tracedb/btree_scan.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <limits>
#include <string_view>

#include "tracedb/sqlite_header.hpp"

namespace causeway::tracedb {
namespace {

constexpr std::uint8_t kInteriorTablePage = 0x05;
constexpr std::uint8_t kLeafTablePage = 0x0D;
constexpr std::uint32_t kLeafHeaderBytes = 8;
constexpr std::uint32_t kInteriorHeaderBytes = 12;
constexpr std::uint32_t kMinCellBytes = 4;  // SQLite pads smaller table-leaf cells to 4 bytes
constexpr int kMaxDepth = 20;  // a b-tree of 512-byte pages holding 2^63 rows is less deep
constexpr std::int64_t kMinKey = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMaxKey = std::numeric_limits<std::int64_t>::max();
// Bytes read into a page's buffer past the page's end: an integer at the page's last byte is still
// read with one 8-byte load (signed_big_endian).
constexpr std::size_t kPageSlack = 7;

// SQLite's varint: 1 to 9 bytes, 7 bits per byte (8 in the ninth), most significant first.
bool read_long_varint(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& value) {
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

// One byte is every serial type of an integer and most payload sizes: that case inline.
inline bool read_varint(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& value) {
    if (p < end && *p < 0x80) {
        value = *p++;
        return true;
    }
    return read_long_varint(p, end, value);
}

// A big-endian two's-complement integer of `bytes` bytes (1 to 8) that starts at `p`, read as one
// 8-byte load whatever its width: a byte loop of the value's width mispredicted its end on most
// values. The bytes after the value are shifted out, so `p` needs 8 readable bytes: a page is read
// into a buffer kPageSlack bytes longer than the page.
std::int64_t signed_big_endian(const std::uint8_t* p, int bytes) {
    static_assert(std::endian::native == std::endian::little);
    std::uint64_t word = 0;
    std::memcpy(&word, p, sizeof(word));
    return static_cast<std::int64_t>(__builtin_bswap64(word)) >> (64 - 8 * bytes);
}

// Bytes of the value of a serial type; -1 for the reserved types 10 and 11.
std::int64_t value_bytes(std::uint64_t serial_type) {
    static constexpr int kBytes[] = {0, 1, 2, 3, 4, 6, 8, 8, 0, 0, -1, -1};
    if (serial_type < std::size(kBytes)) {
        return kBytes[serial_type];
    }
    return static_cast<std::int64_t>((serial_type - 12) / 2);
}

bool is_integer_type(std::uint64_t serial_type) {
    return (serial_type >= 1 && serial_type <= 6) || serial_type == 8 || serial_type == 9;
}

// Whether SQLite gives a column of this declared type REAL affinity
// (https://www.sqlite.org/datatype3.html, 3.1): it then turns a stored integer into a floating
// point value when the column is read, which this reader would not.
bool has_real_affinity(std::string type) {
    for (char& c : type) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    auto has = [&type](const char* part) { return type.find(part) != std::string::npos; };
    if (has("INT") || has("CHAR") || has("CLOB") || has("TEXT") || has("BLOB") || type.empty()) {
        return false;  // INTEGER, TEXT or BLOB affinity: rules 1 to 3 come first
    }
    return has("REAL") || has("FLOA") || has("DOUB");
}

struct ParsedDefault {
    bool known = false;  // false: an expression left for SQL
    bool null = false;
    std::int64_t value = 0;
};

// The text of a column's DEFAULT as SQLite keeps it (pragma table_xinfo's dflt_value): NULL and
// decimal integer literals are evaluated here; anything else is left for SQL.
ParsedDefault parse_default(const std::optional<std::string>& text) {
    if (!text || (text->size() == 4 && ::strncasecmp(text->c_str(), "null", 4) == 0)) {
        return {true, true, 0};
    }
    std::string_view literal = *text;
    if (!literal.empty() && literal.front() == '+') {
        literal.remove_prefix(1);  // from_chars takes '-' but not '+'
    }
    std::string_view digits =
        !literal.empty() && literal.front() == '-' ? literal.substr(1) : literal;
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
        return {};
    }
    std::int64_t value = 0;
    const char* end = literal.data() + literal.size();
    auto [stop, error] = std::from_chars(literal.data(), end, value);
    // Out of range: SQLite makes it a REAL, which this reader does not produce.
    return {error == std::errc{} && stop == end, false, value};
}

}  // namespace

ScanRefusal BtreeTableScan::unsupported(const std::string& why) const {
    return {ScanRefusal::Kind::kUnsupported, "cannot read " + path_ + " page by page: " + why};
}

ScanRefusal BtreeTableScan::damaged(const std::string& why) const {
    return {ScanRefusal::Kind::kDamaged, path_ + " is damaged: in the b-tree of " + table_ + ", " +
                                             why + " (PRAGMA integrity_check names every problem)"};
}

ScanResult<BtreeTableScan> BtreeTableScan::open(const Database& db, const std::string& path,
                                                const std::string& table,
                                                const std::vector<std::string>& columns) {
    BtreeTableScan scan;
    scan.path_ = path;
    scan.table_ = table;
    auto failed = [&scan](const std::string& why) { return scan.unsupported(why); };
    if (columns.empty() || columns.size() > kMaxColumns) {
        return failed(std::to_string(columns.size()) + " columns asked for");
    }
    auto info = db.prepare(
        "SELECT name, pk AND upper(type) = 'INTEGER', dflt_value, hidden, \"notnull\", type "
        "FROM pragma_table_xinfo(?) ORDER BY cid");
    if (!info) {
        return failed(info.error().message);
    }
    info->bind(1, table);
    while (info->step() == SQLITE_ROW) {
        if (info->column_int64(1) != 0) {
            return failed(table +
                          " has a rowid alias (an INTEGER PRIMARY KEY column), which the record "
                          "leaves NULL");
        }
        if (info->column_int64(3) != 0) {
            return failed(table + " has a generated or hidden column");
        }
        Column column;
        column.name = info->column_text(0);
        column.real_affinity = has_real_affinity(info->column_text(5));
        column.not_null = info->column_int64(4) != 0;
        auto declared = info->column_optional_text(2);
        ParsedDefault parsed = parse_default(declared);
        column.fallback.kind = !parsed.known ? Default::Kind::kOther
                               : parsed.null ? Default::Kind::kNull
                                             : Default::Kind::kInteger;
        column.fallback.value = parsed.value;
        column.fallback.text = declared.value_or("NULL");
        scan.columns_.push_back(std::move(column));
    }
    for (std::size_t wanted = 0; wanted < columns.size(); ++wanted) {
        auto it = std::find_if(scan.columns_.begin(), scan.columns_.end(),
                               [&](const Column& c) { return c.name == columns[wanted]; });
        if (it == scan.columns_.end()) {
            return failed(table + " has no column " + columns[wanted]);
        }
        if (it->real_affinity) {
            return failed(table + "." + it->name + " is declared with REAL affinity");
        }
        it->wanted = static_cast<int>(wanted);
    }
    for (const Column& column : scan.columns_) {
        scan.slots_.push_back({static_cast<std::int8_t>(column.wanted), column.not_null});
    }
    auto root = db.prepare(
        "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ? AND "
        "sql NOT LIKE '%WITHOUT ROWID%'");
    if (!root) {
        return failed(root.error().message);
    }
    root->bind(1, table);
    if (root->step() != SQLITE_ROW) {
        return failed(table + " is not a rowid table");
    }
    auto root_page = root->column_int64(0);

    scan.fd_ = UniqueFd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!scan.fd_) {
        return failed(std::strerror(errno));
    }
    std::uint8_t header[kSqliteHeaderBytes];
    struct stat st {};
    if (::pread(scan.fd_.get(), header, sizeof(header), 0) !=
            static_cast<ssize_t>(sizeof(header)) ||
        ::fstat(scan.fd_.get(), &st) != 0) {
        return failed("the file header cannot be read");
    }
    const SqliteHeader decoded = decode_sqlite_header(header);
    if (!decoded.rollback_journal) {
        return failed("the file is in WAL mode (pages may be in the -wal file)");
    }
    scan.page_size_ = decoded.page_size;
    if (scan.page_size_ < 512 || (scan.page_size_ & (scan.page_size_ - 1)) != 0 ||
        scan.page_size_ - decoded.reserved < 480) {  // the least usable size SQLite allows
        return failed("the header gives an invalid page size");
    }
    scan.usable_size_ = scan.page_size_ - decoded.reserved;
    auto file_pages = static_cast<std::uint64_t>(st.st_size) / scan.page_size_;
    scan.page_count_ = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(file_pages, std::numeric_limits<std::uint32_t>::max()));
    if (decoded.page_count_valid) {
        scan.page_count_ = std::min(scan.page_count_, decoded.page_count);
    }
    if (root_page < 2 || root_page > scan.page_count_) {
        return scan.damaged("the root page " + std::to_string(root_page) + " is outside the file");
    }
    scan.reached_.assign(scan.page_count_ + std::size_t{1}, false);
    Buffer buffer;
    if (auto status = scan.collect_leaves(static_cast<std::uint32_t>(root_page), {kMinKey, kMaxKey},
                                          0, buffer.page, buffer.extents);
        !status) {
        return status.error();
    }
    scan.reached_ = {};
    return scan;
}

ScanStatus BtreeTableScan::read_page(std::uint32_t number, std::vector<std::uint8_t>& page) const {
    if (number < 2 || number > page_count_) {
        return damaged("a cell points at page " + std::to_string(number) + ", outside the file");
    }
    page.resize(page_size_ + kPageSlack);
    auto offset = static_cast<off_t>(number - 1) * page_size_;
    if (::pread(fd_.get(), page.data(), page_size_, offset) != static_cast<ssize_t>(page_size_)) {
        return unsupported("page " + std::to_string(number) +
                           " cannot be read: " + std::strerror(errno));
    }
    return Ok{};
}

ScanStatus BtreeTableScan::check_layout(
    std::uint32_t page_number, const std::vector<std::uint8_t>& page, std::uint32_t header_bytes,
    std::vector<std::pair<std::uint32_t, std::uint32_t>>& extents) const {
    const std::uint8_t* base = page.data();
    auto where = [&] { return "page " + std::to_string(page_number); };  // built only for a refusal
    std::uint32_t pointers_end = header_bytes + 2 * big_endian(base + 3, 2);
    std::uint32_t content_start = big_endian(base + 5, 2);
    content_start = content_start == 0 ? 65536 : content_start;
    if (content_start < pointers_end || content_start > usable_size_) {
        return damaged(where() + " has its cell content area over its cell pointers");
    }
    // Free blocks are chained in rising order, which also ends the walk.
    std::uint32_t previous_end = content_start;
    for (std::uint32_t block = big_endian(base + 1, 2); block != 0;
         block = big_endian(base + block, 2)) {
        if (block < previous_end || block + kMinCellBytes > usable_size_) {
            return damaged(where() + " has a free block out of order or outside the page");
        }
        std::uint32_t size = big_endian(base + block + 2, 2);
        if (size < kMinCellBytes || block + size > usable_size_) {
            return damaged(where() + " has a free block of an impossible size");
        }
        extents.emplace_back(block, block + size);
        previous_end = block + size;
    }
    std::uint64_t covered = base[7];  // fragmented free bytes
    for (const auto& [begin, end] : extents) {
        if (begin < content_start || end > usable_size_) {
            return damaged(where() + " has a cell outside its cell content area");
        }
        covered += end - begin;
    }
    // Cells are usually stored from the end of the page down, free blocks from low to high.
    if (!std::is_sorted(extents.begin(), extents.end())) {
        if (std::is_sorted(extents.rbegin(), extents.rend())) {
            std::reverse(extents.begin(), extents.end());
        } else {
            std::sort(extents.begin(), extents.end());
        }
    }
    for (std::size_t i = 1; i < extents.size(); ++i) {
        if (extents[i].first < extents[i - 1].second) {
            return damaged(where() + " has two cells that overlap");
        }
    }
    if (covered != usable_size_ - content_start) {
        return damaged(where() +
                       " has cells and free space that do not add up to its content area");
    }
    return Ok{};
}

ScanStatus BtreeTableScan::collect_leaves(
    std::uint32_t page_number, KeyRange keys, int depth, std::vector<std::uint8_t>& page,
    std::vector<std::pair<std::uint32_t, std::uint32_t>>& extents) {
    auto where = [&] { return "page " + std::to_string(page_number); };  // built only for a refusal
    if (depth > kMaxDepth) {
        return damaged("the tree is deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    if (auto status = read_page(page_number, page); !status) {
        return status;
    }
    if (reached_[page_number]) {
        return damaged(where() + " is reached twice");
    }
    reached_[page_number] = true;
    std::uint32_t cells = big_endian(page.data() + 3, 2);
    if (page[0] == kLeafTablePage) {
        if (leaf_depth_ >= 0 && leaf_depth_ != depth) {
            return damaged("leaves lie at different depths (" + where() + ")");
        }
        leaf_depth_ = depth;
        if (kLeafHeaderBytes + 2 * cells > usable_size_) {
            return damaged(where() + " claims more cells than it can hold");
        }
        leaves_.push_back({page_number, cells, keys.min, keys.max});
        rows_ += cells;
        return Ok{};
    }
    if (page[0] != kInteriorTablePage) {
        return damaged(where() + " is not a table b-tree page");
    }
    std::uint32_t pointers_end = kInteriorHeaderBytes + 2 * cells;
    if (pointers_end > usable_size_) {
        return damaged(where() + " claims more cells than it can hold");
    }
    // The children are read into the same buffer: take this page's cells out first. Child i
    // holds the keys above the previous cell's key, up to its own cell's key.
    std::vector<std::pair<std::uint32_t, KeyRange>> children;
    const std::uint8_t* end = page.data() + usable_size_;
    extents.clear();
    std::int64_t next_min = keys.min;
    bool none_left = false;  // a key equal to the largest possible one closes the range
    for (std::uint32_t i = 0; i < cells; ++i) {
        std::uint32_t offset = big_endian(page.data() + kInteriorHeaderBytes + 2 * i, 2);
        if (offset < pointers_end || offset + 4 >= usable_size_) {
            return damaged(where() + " has a cell outside its cell content area");
        }
        const std::uint8_t* p = page.data() + offset + 4;
        std::uint64_t raw_key = 0;
        if (!read_varint(p, end, raw_key)) {
            return damaged(where() + " has a key cut off by the page's end");
        }
        auto key = static_cast<std::int64_t>(raw_key);
        if (none_left || key < next_min || key > keys.max) {
            return damaged(where() + " has keys out of order");
        }
        extents.emplace_back(offset, static_cast<std::uint32_t>(p - page.data()));
        children.emplace_back(big_endian(page.data() + offset, 4), KeyRange{next_min, key});
        none_left = key == kMaxKey;
        next_min = none_left ? key : key + 1;
    }
    // After a key of INT64_MAX no rowid fits: {max, min} lets none through the checks.
    children.emplace_back(big_endian(page.data() + 8, 4),
                          none_left ? KeyRange{kMaxKey, kMinKey} : KeyRange{next_min, keys.max});
    if (auto status = check_layout(page_number, page, kInteriorHeaderBytes, extents); !status) {
        return status;
    }
    for (const auto& [child, range] : children) {
        if (auto status = collect_leaves(child, range, depth + 1, page, extents); !status) {
            return status;
        }
    }
    return Ok{};
}

ScanStatus BtreeTableScan::decode_record(const std::uint8_t* record, const std::uint8_t* record_end,
                                         Row& row) const {
    const std::uint8_t* types = record;
    std::uint64_t header_bytes = 0;
    if (!read_varint(types, record_end, header_bytes) ||
        header_bytes < static_cast<std::uint64_t>(types - record) ||
        header_bytes > static_cast<std::uint64_t>(record_end - record)) {
        return damaged("a record header runs past its record");
    }
    const std::uint8_t* types_end = record + header_bytes;
    const std::uint8_t* body = types_end;
    row.null_columns = 0;
    const std::size_t column_count = slots_.size();
    std::size_t column = 0;
    for (; types < types_end; ++column) {
        std::uint64_t type = 0;
        if (!read_varint(types, types_end, type) || column >= column_count) {
            return damaged("a record holds more values than " + table_ + " has columns");
        }
        std::int64_t bytes = value_bytes(type);
        if (bytes < 0 || bytes > record_end - body) {
            return damaged("a value runs past its record");
        }
        const Slot slot = slots_[column];
        if (slot.wanted >= 0) {
            if (type == 0) {
                if (slot.not_null) {
                    return damaged("a NULL is stored in " + columns_[column].name +
                                   ", declared NOT NULL");
                }
                row.null_columns |= 1U << slot.wanted;
            } else if (!is_integer_type(type)) {
                return unsupported(columns_[column].name + " holds a value that is not an integer");
            } else {
                row.columns[static_cast<std::size_t>(slot.wanted)] =
                    type >= 8 ? static_cast<std::int64_t>(type - 8)
                              : signed_big_endian(body, static_cast<int>(bytes));
            }
        }
        body += bytes;
    }
    if (body != record_end) {
        return damaged("a record is longer than its values");
    }
    // Columns added after the row was written: SQLite reads their DEFAULT.
    for (; column < column_count; ++column) {
        const Column& c = columns_[column];
        if (c.wanted < 0) {
            continue;
        }
        switch (c.fallback.kind) {
            case Default::Kind::kNull:
                row.null_columns |= 1U << c.wanted;
                break;
            case Default::Kind::kInteger:
                row.columns[static_cast<std::size_t>(c.wanted)] = c.fallback.value;
                break;
            case Default::Kind::kOther:
                return unsupported("rows written before " + c.name +
                                   " was added read its DEFAULT " + c.fallback.text +
                                   ", which is not an integer literal");
        }
    }
    return Ok{};
}

ScanStatus BtreeTableScan::read_leaf(std::size_t leaf, Buffer& buffer,
                                     std::vector<Row>& rows) const {
    const Leaf& l = leaves_.at(leaf);
    std::vector<std::uint8_t>& page = buffer.page;
    if (auto status = read_page(l.page, page); !status) {
        return status;
    }
    auto where = [&] { return "page " + std::to_string(l.page); };  // built only for a refusal
    const std::uint8_t* base = page.data();
    const std::uint8_t* page_end = base + usable_size_;
    std::uint32_t cells = big_endian(base + 3, 2);
    if (page[0] != kLeafTablePage || cells != l.cells) {
        return damaged(where() +
                       " changed while it was read (was the file written without a lock?)");
    }
    const std::uint32_t max_local = usable_size_ - 35;
    const std::uint32_t pointers_end = kLeafHeaderBytes + 2 * cells;
    auto& extents = buffer.extents;
    extents.clear();
    // The rows of the leaf before are written over, not made anew: a row is 144 bytes, and
    // zeroing them for every leaf wrote 144 bytes more per row read (a third of the
    // instructions of decoding it, and 14 GB of memory written at 100M calls).
    rows.resize(cells);
    // A value this reader does not decode is reported only once the page's layout is known to
    // be sound: damage found later in the page outweighs it.
    std::optional<ScanRefusal> undecoded;
    for (std::uint32_t i = 0; i < cells; ++i) {
        std::uint32_t offset = big_endian(base + kLeafHeaderBytes + 2 * i, 2);
        if (offset < pointers_end || offset >= usable_size_) {
            return damaged(where() + " has a cell outside its cell content area");
        }
        const std::uint8_t* p = base + offset;
        std::uint64_t payload = 0, rowid = 0;
        if (!read_varint(p, page_end, payload) || !read_varint(p, page_end, rowid)) {
            return damaged(where() + " has a cell cut off by the page's end");
        }
        if (payload > max_local) {
            return unsupported("a row of " + where() + " continues on an overflow page");
        }
        if (payload > static_cast<std::uint64_t>(page_end - p)) {
            return damaged(where() + " has a record that runs past the page's end");
        }
        const std::uint8_t* record_end = p + payload;
        extents.emplace_back(offset, std::max(static_cast<std::uint32_t>(record_end - base),
                                              offset + kMinCellBytes));
        auto key = static_cast<std::int64_t>(rowid);
        if (key < l.min_rowid || key > l.max_rowid || (i > 0 && key <= rows[i - 1].rowid)) {
            return damaged(where() + " has rowids out of order");
        }
        rows[i].rowid = key;
        if (!undecoded) {
            if (auto status = decode_record(p, record_end, rows[i]); !status) {
                if (status.error().kind == ScanRefusal::Kind::kDamaged) {
                    return status.error();
                }
                undecoded = status.error();
            }
        }
    }
    if (auto status = check_layout(l.page, page, kLeafHeaderBytes, extents); !status) {
        return status;
    }
    if (undecoded) {
        return *undecoded;
    }
    return Ok{};
}

}  // namespace causeway::tracedb
