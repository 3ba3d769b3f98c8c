#include "analysis/model/compact_column.hpp"

namespace causeway::analysis {

TimeColumn::TimeColumn(const CallColumn<std::int64_t>& values) : offsets_(values.size()) {
    constexpr std::size_t kBlock = std::size_t{1} << kBlockShift;
    block_start_.reserve((values.size() + kBlock - 1) / kBlock);
    for (std::size_t first = 0; first < values.size(); first += kBlock) {
        std::size_t end = std::min(values.size(), first + kBlock);
        auto begin = values.begin() + static_cast<std::ptrdiff_t>(first);
        std::int64_t start =
            *std::min_element(begin, values.begin() + static_cast<std::ptrdiff_t>(end));
        block_start_.push_back(start);
        for (std::size_t i = first; i < end; ++i) {
            // Unsigned: the distance from the block's start may not fit int64 in a hostile file.
            std::uint64_t offset =
                static_cast<std::uint64_t>(values[i]) - static_cast<std::uint64_t>(start);
            if (offset < kEscape) {
                offsets_[i] = static_cast<std::uint32_t>(offset);
            } else {
                offsets_[i] = kEscape;
                wide_.add(i, values[i]);
            }
        }
    }
}

}  // namespace causeway::analysis
