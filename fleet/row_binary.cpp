#include "fleet/row_binary.hpp"

#include <bit>
#include <cstring>

namespace causeway::fleet {

static_assert(std::endian::native == std::endian::little,
              "RowBinary is little-endian; this build copies numbers as they are in memory");

void append_leb128(std::string& out, std::uint64_t value) {
    do {
        auto byte = static_cast<std::uint8_t>(value & 0x7f);
        value >>= 7;
        out += static_cast<char>(value != 0 ? (byte | 0x80) : byte);
    } while (value != 0);
}

void RowBinaryWriter::raw(const void* data, std::size_t size) {
    bytes_.append(static_cast<const char*>(data), size);
}

void RowBinaryWriter::int64(std::int64_t value) {
    raw(&value, sizeof value);
}
void RowBinaryWriter::uint64(std::uint64_t value) {
    raw(&value, sizeof value);
}
void RowBinaryWriter::uint8(std::uint8_t value) {
    raw(&value, sizeof value);
}
void RowBinaryWriter::float64(double value) {
    raw(&value, sizeof value);
}
void RowBinaryWriter::null_flag(bool is_null) {
    uint8(is_null ? 1 : 0);
}

void RowBinaryWriter::string(std::string_view value) {
    append_leb128(bytes_, value.size());
    raw(value.data(), value.size());
}

Status RowBinaryReader::take(void* out, std::size_t size) {
    if (bytes_.size() - position_ < size) {
        return Error{what_ + ": the server's RowBinary answer ends in the middle of a row (" +
                     std::to_string(bytes_.size()) + " bytes); run the command again"};
    }
    std::memcpy(out, bytes_.data() + position_, size);
    position_ += size;
    return Ok{};
}

template <class T>
Result<T> RowBinaryReader::number() {
    T value{};
    if (auto s = take(&value, sizeof value); !s) {
        return s.error();
    }
    return value;
}

Result<std::int64_t> RowBinaryReader::int64() {
    return number<std::int64_t>();
}
Result<std::uint64_t> RowBinaryReader::uint64() {
    return number<std::uint64_t>();
}
Result<std::uint8_t> RowBinaryReader::uint8() {
    return number<std::uint8_t>();
}
Result<double> RowBinaryReader::float64() {
    return number<double>();
}

Result<bool> RowBinaryReader::null_flag() {
    auto flag = uint8();
    if (!flag) {
        return flag.error();
    }
    return *flag != 0;
}

Result<std::string> RowBinaryReader::string() {
    std::uint64_t length = 0;
    for (int shift = 0;; shift += 7) {
        auto byte = uint8();
        if (!byte) {
            return byte.error();
        }
        if (shift > 56) {
            return Error{what_ + ": a string length in the server's RowBinary answer is malformed"};
        }
        length |= static_cast<std::uint64_t>(*byte & 0x7f) << shift;
        if ((*byte & 0x80) == 0) {
            break;
        }
    }
    std::string value(length <= bytes_.size() - position_ ? length : 0, '\0');
    if (value.size() != length) {
        return Error{what_ + ": the server's RowBinary answer ends in the middle of a string"};
    }
    if (auto s = take(value.data(), length); !s) {
        return s.error();
    }
    return value;
}

}  // namespace causeway::fleet
