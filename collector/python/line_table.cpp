#include "collector/python/line_table.hpp"

namespace causeway::collector {

namespace {

constexpr int kCodeUnitBytes = 2;
// Entry codes (bits 3-6 of an entry's first byte).
constexpr int kShortFormLast = 9;  // 0-9: same line, columns in one more byte
constexpr int kOneLineFirst = 10;  // 10-12: line delta code - 10, two column bytes
constexpr int kOneLineLast = 12;
constexpr int kNoColumns = 13;   // line delta as a signed varint
constexpr int kLongForm = 14;    // line delta, end line delta, column, end column
constexpr int kNoLocation = 15;  // no line at all

class Reader {
  public:
    explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
    bool done() const { return at_ >= bytes_.size(); }
    std::uint8_t byte() { return done() ? 0 : bytes_[at_++]; }
    // 6 bits per byte, least significant first, bit 6 set when another byte follows.
    std::uint32_t varint() {
        std::uint8_t read = byte();
        std::uint32_t value = read & 63;
        for (int shift = 6; (read & 64) != 0 && !done() && shift < 32; shift += 6) {
            read = byte();
            value |= static_cast<std::uint32_t>(read & 63) << shift;
        }
        return value;
    }
    std::int32_t signed_varint() {
        std::uint32_t value = varint();
        return (value & 1) != 0 ? -static_cast<std::int32_t>(value >> 1)
                                : static_cast<std::int32_t>(value >> 1);
    }

  private:
    std::span<const std::uint8_t> bytes_;
    std::size_t at_ = 0;
};

}  // namespace

std::optional<int> line_for_offset(std::span<const std::uint8_t> line_table, int first_line,
                                   std::int64_t instr_offset) {
    if (instr_offset < 0) {
        return first_line;
    }
    Reader reader(line_table);
    int line = first_line;
    std::int64_t start = 0;
    while (!reader.done()) {
        std::uint8_t first = reader.byte();
        if ((first & 0x80) == 0) {
            return std::nullopt;  // not at an entry's start: a table this decoder does not know
        }
        int code = (first >> 3) & 15;
        std::int64_t end = start + ((first & 7) + 1) * kCodeUnitBytes;
        bool has_line = true;
        if (code <= kShortFormLast) {
            reader.byte();
        } else if (code <= kOneLineLast) {
            line += code - kOneLineFirst;
            reader.byte();
            reader.byte();
        } else if (code == kNoColumns) {
            line += reader.signed_varint();
        } else if (code == kLongForm) {
            line += reader.signed_varint();
            reader.varint();
            reader.varint();
            reader.varint();
        } else {
            static_assert(kNoLocation == 15);
            has_line = false;
        }
        if (instr_offset < end) {
            return has_line ? std::optional<int>(line) : std::nullopt;
        }
        start = end;
    }
    return std::nullopt;
}

}  // namespace causeway::collector
