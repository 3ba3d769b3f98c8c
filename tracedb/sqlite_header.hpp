#pragma once
// The fields of a SQLite file's 100-byte header (https://www.sqlite.org/fileformat.html) that the
// reader's checks and the page scan use, decoded in one place.

#include <cstddef>
#include <cstdint>

namespace causeway::tracedb {

inline constexpr std::size_t kSqliteHeaderBytes = 100;

// An unsigned integer of `bytes` (1 to 4) bytes, most significant first, as SQLite stores them.
inline std::uint32_t big_endian(const std::uint8_t* p, int bytes) {
    std::uint32_t value = 0;
    for (int i = 0; i < bytes; ++i) {
        value = value << 8 | p[i];
    }
    return value;
}

struct SqliteHeader {
    bool magic = false;            // starts with "SQLite format 3\0"
    std::uint32_t page_size = 0;   // bytes; the stored 1 means 65536
    std::uint32_t reserved = 0;    // bytes at the end of each page that hold no content
    std::uint32_t page_count = 0;  // pages, as the header states it
    // The stated page count is current only when the change counter equals
    // "version-valid-for"; SQLite then ignores pages past it.
    bool page_count_valid = false;
    bool rollback_journal = false;  // read and write versions 1 (2: WAL)
};

SqliteHeader decode_sqlite_header(const std::uint8_t (&bytes)[kSqliteHeaderBytes]);

}  // namespace causeway::tracedb
