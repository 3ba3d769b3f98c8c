#include "fleet/native_block.hpp"

#include <algorithm>
#include <cstring>

#include "fleet/row_binary.hpp"

namespace causeway::fleet {

static_assert(std::endian::native == std::endian::little,
              "Native is little-endian; this build copies numbers as they are in memory");

namespace {

std::string type_name(const NativeColumn& column) {
    const char* type = column.type == NativeType::kInt64     ? "Int64"
                       : column.type == NativeType::kUInt64  ? "UInt64"
                       : column.type == NativeType::kFloat64 ? "Float64"
                                                             : "String";
    return column.nullable ? std::string("Nullable(") + type + ")" : type;
}

}  // namespace

NativeBlockWriter::NativeBlockWriter(std::vector<NativeColumn> columns) {
    columns_.reserve(columns.size());
    for (NativeColumn& column : columns) {
        std::string type = type_name(column);
        columns_.push_back({std::move(column), std::move(type), {}, {}, {}, {}, {}});
    }
}

void NativeBlockWriter::repeat_string(std::size_t column, std::string_view value) {
    std::string& repeated = columns_[column].repeated;
    repeated.clear();
    append_leb128(repeated, value.size());
    repeated += value;
}

void NativeBlockWriter::repeat_uint64(std::size_t column, std::uint64_t value) {
    columns_[column].repeated.assign(reinterpret_cast<const char*>(&value), sizeof value);
}

void NativeBlockWriter::string(std::size_t column, std::string_view value) {
    Values& values = columns_[column];
    if (values.column.nullable) {
        values.nulls.push_back(0);
    }
    values.starts.push_back(values.strings.size());
    append_leb128(values.strings, value.size());
    values.strings += value;
}

void NativeBlockWriter::reserve(std::size_t rows) {
    for (Values& values : columns_) {
        if (values.column.nullable) {
            values.nulls.reserve(rows);
        }
        if (values.column.type != NativeType::kString) {
            values.numbers.reserve(rows);
        }
    }
}

Status NativeBlockWriter::check(const std::vector<std::uint32_t>& order) const {
    for (const Values& values : columns_) {
        if (values.repeated.empty() && values.count() != rows_) {
            return Error{"column " + values.column.name + " of a Native block holds " +
                         std::to_string(values.count()) + " values for " + std::to_string(rows_) +
                         " rows"};
        }
    }
    if (order.empty()) {
        return Ok{};
    }
    std::vector<bool> seen(rows_);
    for (std::uint32_t row : order) {
        if (row >= rows_ || seen[row]) {
            return Error{"the order of a Native block's rows names row " + std::to_string(row) +
                         " of " + std::to_string(rows_) + (row < rows_ ? " twice" : "")};
        }
        seen[row] = true;
    }
    if (order.size() != rows_) {
        return Error{"the order of a Native block's rows names " + std::to_string(order.size()) +
                     " of its " + std::to_string(rows_)};
    }
    return Ok{};
}

void NativeBlockWriter::write_values(const Values& values, const std::vector<std::uint32_t>& order,
                                     std::string& block) const {
    if (!values.repeated.empty()) {
        // One copy, then what is written so far copied after itself until every row has one.
        const std::size_t at = block.size();
        const std::size_t size = values.repeated.size() * rows_;
        block.resize(at + size);
        char* out = block.data() + at;
        std::size_t written = std::min(values.repeated.size(), size);
        std::memcpy(out, values.repeated.data(), written);
        while (written < size) {
            const std::size_t copied = std::min(written, size - written);
            std::memcpy(out + written, out, copied);
            written += copied;
        }
        return;
    }
    const bool is_string = values.column.type == NativeType::kString;
    // Sized first, then filled in place.
    const std::size_t at = block.size();
    block.resize(at + values.nulls.size() +
                 (is_string ? values.strings.size() : values.numbers.size() * 8));
    char* out = block.data() + at;
    for (std::size_t k = 0; k < values.nulls.size(); ++k) {
        *out++ = static_cast<char>(values.nulls[order.empty() ? k : order[k]]);
    }
    if (is_string) {
        for (std::size_t k = 0; k < values.starts.size(); ++k) {
            const std::size_t row = order.empty() ? k : order[k];
            const std::size_t start = values.starts[row];
            const std::size_t end =
                row + 1 < values.starts.size() ? values.starts[row + 1] : values.strings.size();
            std::memcpy(out, values.strings.data() + start, end - start);
            out += end - start;
        }
        return;
    }
    if (order.empty()) {
        std::memcpy(out, values.numbers.data(), values.numbers.size() * 8);
        return;
    }
    for (std::uint32_t row : order) {
        std::memcpy(out, &values.numbers[row], 8);
        out += 8;
    }
}

Status NativeBlockWriter::take(const std::vector<std::uint32_t>& order, std::string& block) {
    if (auto checked = check(order); !checked) {
        return checked;
    }
    std::size_t size = 20;
    for (const Values& values : columns_) {
        size += values.column.name.size() + values.type_name.size() + values.nulls.size() +
                values.strings.size() + values.numbers.size() * 8 + values.repeated.size() * rows_ +
                4;
    }
    block.clear();
    block.reserve(size);
    append_leb128(block, columns_.size());
    append_leb128(block, rows_);
    for (Values& values : columns_) {
        append_leb128(block, values.column.name.size());
        block += values.column.name;
        append_leb128(block, values.type_name.size());
        block += values.type_name;
        write_values(values, order, block);
        values.nulls.clear();
        values.numbers.clear();
        values.strings.clear();
        values.starts.clear();
    }
    rows_ = 0;
    return Ok{};
}

}  // namespace causeway::fleet
