#include "analysis/model/text_caps.hpp"

namespace causeway::analysis {

std::string capped(std::string_view text, std::size_t max_bytes) {
    if (text.size() <= max_bytes) {
        return std::string(text);
    }
    std::size_t keep = max_bytes;
    // Do not end inside a UTF-8 sequence: back up over continuation bytes (10xxxxxx).
    while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) {
        --keep;
    }
    return std::string(text.substr(0, keep)) + " [... cut, " + std::to_string(text.size()) +
           " bytes]";
}

std::string column_capped(const tracedb::Statement& stmt, int column, std::size_t max_bytes) {
    const auto* text = sqlite3_column_text(stmt.get(), column);
    if (text == nullptr) {
        return {};
    }
    return capped(
        std::string_view(reinterpret_cast<const char*>(text),
                         static_cast<std::size_t>(sqlite3_column_bytes(stmt.get(), column))),
        max_bytes);
}

std::optional<std::string> optional_column_capped(const tracedb::Statement& stmt, int column,
                                                  std::size_t max_bytes) {
    if (stmt.column_is_null(column)) {
        return std::nullopt;
    }
    return column_capped(stmt, column, max_bytes);
}

}  // namespace causeway::analysis
