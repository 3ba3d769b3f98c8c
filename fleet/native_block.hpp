#pragma once
// One block of ClickHouse's Native format, the column-oriented body that an INSERT reads with
// the least work: the count of columns and of rows (LEB128), then for each column its name, its
// type and the values of every row together. Numbers are little-endian and fixed-width, a String
// is a LEB128 length and its bytes, and a Nullable(T) column is one byte a row (1 = NULL) followed
// by T for every row (0 or empty where NULL). 18.16 and current releases read it alike over HTTP.
//
// Rows are added value by value, each column's values in order; `take` checks that every column
// got a value in each row. A column that holds one value in every row (the owner of pushed rows)
// is given it once, and gets no value per row.

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace causeway::fleet {

enum class NativeType { kInt64, kUInt64, kFloat64, kString };

struct NativeColumn {
    std::string name;
    NativeType type = NativeType::kInt64;
    bool nullable = false;
};

class NativeBlockWriter {
  public:
    explicit NativeBlockWriter(std::vector<NativeColumn> columns);

    // Every row, from the next block on, holds `value` in `column` (which is not Nullable).
    void repeat_string(std::size_t column, std::string_view value);
    void repeat_uint64(std::size_t column, std::uint64_t value);

    // The value of column `column` in the row being added (inline: called for every value of
    // millions of rows).
    void int64(std::size_t column, std::int64_t value) {
        number(column, static_cast<std::uint64_t>(value));
    }
    void uint64(std::size_t column, std::uint64_t value) { number(column, value); }
    void float64(std::size_t column, double value) {
        number(column, std::bit_cast<std::uint64_t>(value));
    }
    void string(std::size_t column, std::string_view value);
    // NULL in a Nullable column: the value under it is the type's default (0, or "").
    void null(std::size_t column) {
        Values& values = columns_[column];
        values.nulls.push_back(1);
        if (values.column.type == NativeType::kString) {
            values.starts.push_back(values.strings.size());
            values.strings += '\0';
        } else {
            values.numbers.push_back(0);
        }
    }
    // Ends the row: every column has its value.
    void end_row() { ++rows_; }

    std::size_t rows() const { return rows_; }
    // Room for `rows` rows of the numbers (a String's length is not known ahead).
    void reserve(std::size_t rows);

    // Replaces `block` with the block of the rows added since the last take (keeping its
    // capacity: a buffer used again is not cleared page by page by the kernel again), leaving the
    // writer empty. `order` lists the rows (numbered from 0 as added) in the order to write
    // them, each once; empty: as added. An error, and nothing taken, when a column holds more or
    // fewer values than the block has rows, or `order` is not one of each row.
    Status take(const std::vector<std::uint32_t>& order, std::string& block);

  private:
    struct Values {
        NativeColumn column;
        std::string type_name;               // Int64, Nullable(String), ...
        std::vector<std::uint8_t> nulls;     // one a row, for a Nullable column
        std::vector<std::uint64_t> numbers;  // a number column's values, as their bits
        std::string strings;                 // a String column's values, as written
        std::vector<std::size_t> starts;     // where each value starts in `strings`
        std::string repeated;  // the one value of a column that repeats it, as written
        std::size_t count() const {
            return column.type == NativeType::kString ? starts.size() : numbers.size();
        }
    };
    void number(std::size_t column, std::uint64_t bits) {
        Values& values = columns_[column];
        if (values.column.nullable) {
            values.nulls.push_back(0);
        }
        values.numbers.push_back(bits);
    }
    Status check(const std::vector<std::uint32_t>& order) const;
    void write_values(const Values& values, const std::vector<std::uint32_t>& order,
                      std::string& block) const;

    std::vector<Values> columns_;
    std::size_t rows_ = 0;
};

}  // namespace causeway::fleet
