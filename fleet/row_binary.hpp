#pragma once
// ClickHouse's RowBinary format, both ways: little-endian fixed-width numbers, strings as a LEB128
// length and bytes, Nullable(T) as one byte (1 = NULL) then T when not NULL. 18.16 and current
// releases read and write it alike, and it costs no escaping or parsing of text.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/result.hpp"

namespace causeway::fleet {

// Appends `value` as an unsigned LEB128 number (7 bits a byte, low first), as ClickHouse writes
// lengths and counts.
void append_leb128(std::string& out, std::uint64_t value);

// Appends values to a RowBinary body.
class RowBinaryWriter {
  public:
    void int64(std::int64_t value);
    void uint64(std::uint64_t value);
    void uint8(std::uint8_t value);
    void float64(double value);
    void string(std::string_view value);
    // The NULL flag of a Nullable column; the value follows when `is_null` is false.
    void null_flag(bool is_null);

    const std::string& bytes() const { return bytes_; }
    std::size_t size() const { return bytes_.size(); }
    void clear() { bytes_.clear(); }
    // The body so far, leaving the writer empty with room for as much again.
    std::string take() {
        std::string body = std::exchange(bytes_, {});
        bytes_.reserve(body.size());
        return body;
    }

  private:
    void raw(const void* data, std::size_t size);
    std::string bytes_;
};

// Reads values from a RowBinary response. Every read fails, naming `what`, on a body that ends
// early (a response cut by a dying server).
class RowBinaryReader {
  public:
    RowBinaryReader(std::string_view bytes, std::string what)
        : bytes_(bytes), what_(std::move(what)) {}
    bool at_end() const { return position_ == bytes_.size(); }

    Result<std::int64_t> int64();
    Result<std::uint64_t> uint64();
    Result<std::uint8_t> uint8();
    Result<double> float64();
    Result<std::string> string();
    // The NULL flag of a Nullable column: true when the value is NULL (and absent).
    Result<bool> null_flag();

  private:
    Status take(void* out, std::size_t size);
    template <class T>
    Result<T> number();
    std::string_view bytes_;
    std::size_t position_ = 0;
    std::string what_;
};

}  // namespace causeway::fleet
