// ClickHouse's answers as the fleet reads them (fleet/row_binary.hpp) on any bytes: rows of a
// schema the input picks are read until the body ends or a read fails. A read never passes the
// body nor allocates more than the body holds (a string length of 2^62 fails, it is not
// allocated), a failure names what was being read, and what was read, written back with the
// writer, reads back to the same values.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "fleet/row_binary.hpp"
#include "fuzz/fuzz_check.hpp"

using causeway::fleet::RowBinaryReader;
using causeway::fleet::RowBinaryWriter;
using causeway::fuzz::require;

namespace {

enum class Kind { kInt64, kUInt64, kUInt8, kFloat64, kString, kNullableString, kCount };

// A double is kept as its bits, so that NaN compares equal to itself.
using Value = std::variant<std::int64_t, std::uint64_t, std::uint8_t, std::string, bool>;

constexpr std::string_view kWhat = "the fuzzed answer";

// Reads one value of `kind` into `values` (a NULL flag and, when not NULL, the string); false
// when the read failed, which must say what was read.
bool read_value(RowBinaryReader& in, Kind kind, std::vector<Value>& values) {
    auto failed = [](const causeway::Error& error) {
        require(error.message.rfind(kWhat, 0) == 0, "a failed read names what was read");
        return false;
    };
    switch (kind) {
        case Kind::kInt64: {
            auto v = in.int64();
            return v ? (values.emplace_back(*v), true) : failed(v.error());
        }
        case Kind::kUInt64: {
            auto v = in.uint64();
            return v ? (values.emplace_back(*v), true) : failed(v.error());
        }
        case Kind::kUInt8: {
            auto v = in.uint8();
            return v ? (values.emplace_back(*v), true) : failed(v.error());
        }
        case Kind::kFloat64: {
            auto v = in.float64();
            std::uint64_t bits = 0;
            if (v) {
                std::memcpy(&bits, &*v, sizeof bits);
            }
            return v ? (values.emplace_back(bits), true) : failed(v.error());
        }
        case Kind::kNullableString: {
            auto is_null = in.null_flag();
            if (!is_null) {
                return failed(is_null.error());
            }
            values.emplace_back(*is_null);
            if (*is_null) {
                return true;
            }
            [[fallthrough]];
        }
        case Kind::kString: {
            auto v = in.string();
            return v ? (values.emplace_back(*v), true) : failed(v.error());
        }
        case Kind::kCount:
            break;
    }
    return false;
}

void write_value(RowBinaryWriter& out, const Value& value) {
    if (const auto* v = std::get_if<std::int64_t>(&value)) {
        out.int64(*v);
    } else if (const auto* u = std::get_if<std::uint64_t>(&value)) {
        out.uint64(*u);
    } else if (const auto* b = std::get_if<std::uint8_t>(&value)) {
        out.uint8(*b);
    } else if (const auto* s = std::get_if<std::string>(&value)) {
        out.string(*s);
    } else {
        out.null_flag(std::get<bool>(value));
    }
}

// Reads rows of `schema` from `body` until it ends or a read fails; the values read.
std::vector<Value> read_rows(std::string_view body, const std::vector<Kind>& schema,
                             bool& complete) {
    RowBinaryReader in(body, std::string(kWhat));
    std::vector<Value> values;
    complete = true;
    while (!in.at_end()) {
        for (Kind kind : schema) {
            if (!read_value(in, kind, values)) {
                complete = false;
                return values;
            }
        }
    }
    return values;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // The first byte picks how many columns, the next ones their kinds; the rest is the body.
    if (size < 2) {
        return 0;
    }
    const std::size_t columns = 1 + data[0] % 6;
    if (size < 1 + columns) {
        return 0;
    }
    std::vector<Kind> schema;
    for (std::size_t c = 0; c < columns; ++c) {
        schema.push_back(static_cast<Kind>(data[1 + c] % static_cast<int>(Kind::kCount)));
    }
    const std::string_view body(reinterpret_cast<const char*>(data) + 1 + columns,
                                size - 1 - columns);
    bool complete = false;
    const std::vector<Value> values = read_rows(body, schema, complete);
    if (!complete) {
        return 0;
    }
    RowBinaryWriter echo;
    for (const Value& value : values) {
        write_value(echo, value);
    }
    require(echo.size() <= body.size(), "what was read is no larger written back");
    bool echo_complete = false;
    require(read_rows(echo.bytes(), schema, echo_complete) == values && echo_complete,
            "written back, the rows read back the same");
    return 0;
}
