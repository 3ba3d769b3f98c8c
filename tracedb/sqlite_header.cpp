#include "tracedb/sqlite_header.hpp"

#include <cstring>

namespace causeway::tracedb {
namespace {

constexpr char kSqliteMagic[] = "SQLite format 3";  // with its '\0', the first 16 bytes

}  // namespace

SqliteHeader decode_sqlite_header(const std::uint8_t (&bytes)[kSqliteHeaderBytes]) {
    SqliteHeader h;
    h.magic = std::memcmp(bytes, kSqliteMagic, sizeof kSqliteMagic) == 0;
    h.page_size = big_endian(bytes + 16, 2);
    if (h.page_size == 1) {
        h.page_size = 65536;
    }
    h.rollback_journal = bytes[18] == 1 && bytes[19] == 1;
    h.reserved = bytes[20];
    h.page_count = big_endian(bytes + 28, 4);
    h.page_count_valid = big_endian(bytes + 24, 4) == big_endian(bytes + 92, 4);
    return h;
}

}  // namespace causeway::tracedb
