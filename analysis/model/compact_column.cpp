#include "analysis/model/compact_column.hpp"

namespace causeway::analysis {

TimeColumn::TimeColumn(const CallColumn<std::int64_t>& values) {
    reserve(values.size());
    for (std::int64_t value : values) {
        push_back(value);
    }
}

TimeColumn::TimeColumn(std::initializer_list<std::int64_t> values) {
    reserve(values.size());
    for (std::int64_t value : values) {
        push_back(value);
    }
}

void TimeColumn::reserve(std::size_t rows) {
    offsets_.reserve(rows);
    block_start_.reserve((rows >> kBlockShift) + 1);
}

void TimeColumn::push_back(std::int64_t value) {
    const std::size_t row = offsets_.size();
    if ((row & ((std::size_t{1} << kBlockShift) - 1)) == 0) {
        block_start_.push_back(value);
    }
    const std::int64_t start = block_start_.back();
    // The distance is measured unsigned: two hostile timestamps may lie further apart than int64.
    constexpr std::uint64_t kMost = std::numeric_limits<std::int32_t>::max();
    const bool fits =
        value >= start
            ? static_cast<std::uint64_t>(value) - static_cast<std::uint64_t>(start) <= kMost
            : static_cast<std::uint64_t>(start) - static_cast<std::uint64_t>(value) <= kMost;
    if (fits) {
        offsets_.push_back(static_cast<std::int32_t>(value - start));
    } else {
        offsets_.push_back(kEscape);
        wide_.add(row, value);
    }
}

}  // namespace causeway::analysis
