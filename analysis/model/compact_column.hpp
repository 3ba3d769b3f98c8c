#pragma once
// Columns of cuda_call held in fewer bytes than their values' type, read back exactly. A call of
// a 100M-call trace costs what its columns cost, so each is kept in the narrowest width that
// holds almost every value; the few that do not fit are kept aside, whole, and found by index.
//  * NarrowColumn: a narrower integer (ids, durations, byte counts, return codes).
//  * BlockOffsetColumn: offsets from the first of each block of consecutive rows (TimeColumn:
//    timestamps in 32 bits).
//  * MostlyUsualColumn: for columns whose rows mostly hold one value (no byte count, no error, no
//    stack): only the other rows, by block of 256, while they are at most a quarter of the rows;
//    otherwise every row, as NarrowColumn or CallColumn.
//  * ByteWhenSmallColumn: ids (threads, ops) in one byte a row when every one of them fits.
//  * FlagColumn: a yes or no per row, in one bit.
// A NarrowColumn is built from a loaded column, a BlockOffsetColumn from one or row by row; neither
// changes a row once it is stored.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <utility>
#include <vector>

#include "analysis/model/call_column.hpp"
#include "analysis/model/row_iterator.hpp"

namespace causeway::analysis {

// `later - earlier` when it fits below `aside` (measured unsigned: the difference of hostile values
// may not fit int64); else `aside`, for a value to be kept aside, whole.
inline std::uint32_t narrow_distance(std::int64_t earlier, std::int64_t later,
                                     std::uint32_t aside) {
    const std::uint64_t distance =
        static_cast<std::uint64_t>(later) - static_cast<std::uint64_t>(earlier);
    return later >= earlier && distance < aside ? static_cast<std::uint32_t>(distance) : aside;
}

// Values that did not fit a narrow column: (row, value), in row order.
template <class Wide>
class WideValues {
  public:
    void add(std::size_t row, Wide value) { values_.emplace_back(row, value); }
    Wide at(std::size_t row) const {
        auto it = std::lower_bound(values_.begin(), values_.end(), row,
                                   [](const std::pair<std::size_t, Wide>& entry, std::size_t r) {
                                       return entry.first < r;
                                   });
        return it->second;  // every escaped row was added
    }
    // Adds `later`'s values, every one of a later row than these.
    void append(const WideValues& later) {
        values_.insert(values_.end(), later.values_.begin(), later.values_.end());
    }
    std::size_t bytes() const { return values_.capacity() * sizeof(values_[0]); }
    bool operator==(const WideValues&) const = default;
    // Drops the values of the rows `gone` picks.
    template <class Gone>
    void erase_rows(Gone gone) {
        std::erase_if(values_, [&gone](const std::pair<std::size_t, Wide>& entry) {
            return gone(entry.first);
        });
    }

  private:
    std::vector<std::pair<std::size_t, Wide>> values_;
};

template <class Wide, class Narrow>
class NarrowColumn {
    static_assert(sizeof(Narrow) < sizeof(Wide));
    // Marks a row whose value is kept in wide_: a value at one end of Narrow's range.
    static constexpr Narrow kEscape = std::numeric_limits<Narrow>::is_signed
                                          ? std::numeric_limits<Narrow>::min()
                                          : std::numeric_limits<Narrow>::max();

  public:
    NarrowColumn() = default;
    explicit NarrowColumn(const CallColumn<Wide>& values) : narrow_(values.size()) {
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (!store(narrow_[i], values[i])) {
                wide_.add(i, values[i]);
            }
        }
    }

    Wide operator[](std::size_t i) const {
        Narrow v = narrow_[i];
        return v != kEscape ? static_cast<Wide>(v) : wide_.at(i);
    }
    std::size_t size() const { return narrow_.size(); }
    std::size_t bytes() const { return narrow_.capacity() * sizeof(Narrow) + wide_.bytes(); }
    bool operator==(const NarrowColumn&) const = default;

    // Filling rows in parallel parts (the loader): each part stores into its rows of
    // narrow_values() and keeps the values that did not fit aside; they are added afterwards, in
    // row order, with add_wide().
    CallColumn<Narrow>& narrow_values() { return narrow_; }
    // False when `value` does not fit: `slot` then marks it as kept aside.
    static bool store(Narrow& slot, Wide value) {
        const bool narrow = fits(value);
        slot = narrow ? static_cast<Narrow>(value) : kEscape;
        return narrow;
    }
    void add_wide(std::size_t row, Wide value) { wide_.add(row, value); }

    // Sets every row whose value `pick` picks to kTo; returns how many it set.
    template <Wide kTo, class Pick>
    std::int64_t replace_if(Pick pick) {
        static_assert(fits(kTo));
        std::int64_t replaced = 0;
        bool wide_replaced = false;
        for (std::size_t i = 0; i < narrow_.size(); ++i) {
            if (pick((*this)[i])) {
                wide_replaced = wide_replaced || narrow_[i] == kEscape;
                narrow_[i] = static_cast<Narrow>(kTo);
                ++replaced;
            }
        }
        if (wide_replaced) {
            wide_.erase_rows([this](std::size_t row) { return narrow_[row] != kEscape; });
        }
        return replaced;
    }

  private:
    static constexpr bool fits(Wide v) {
        return v >= static_cast<Wide>(std::numeric_limits<Narrow>::min()) &&
               v <= static_cast<Wide>(std::numeric_limits<Narrow>::max()) &&
               v != static_cast<Wide>(kEscape);
    }

    CallColumn<Narrow> narrow_;
    WideValues<Wide> wide_;
};

// Values as signed offsets from the first of each block of 256 consecutive rows: timestamps in
// 32 bits (rows come in about time order, so a block spans milliseconds, not seconds), a thread's
// call indices in 16 (its calls lie close together in the trace). A value further than Offset
// holds from its block's first is kept aside, whole.
template <class Wide, class Offset>
class BlockOffsetColumn {
    static constexpr unsigned kBlockShift = 8;  // 256 rows a block
    static constexpr Offset kEscape = std::numeric_limits<Offset>::min();

  public:
    using const_iterator = RowIterator<BlockOffsetColumn>;

    BlockOffsetColumn() = default;
    // From any column of Wide values.
    template <class Values>
    explicit BlockOffsetColumn(const Values& values) {
        reserve(values.size());
        for (Wide value : values) {
            push_back(value);
        }
    }
    BlockOffsetColumn(std::initializer_list<Wide> values)
        : BlockOffsetColumn(std::vector<Wide>(values)) {}

    void reserve(std::size_t rows) {
        offsets_.reserve(rows);
        block_first_.reserve((rows >> kBlockShift) + 1);
    }
    void push_back(Wide value) {
        const std::size_t row = offsets_.size();
        if ((row & kBlockMask) == 0) {
            block_first_.push_back(value);
        }
        offsets_.push_back(0);
        if (!store_offset(row, value)) {
            wide_.add(row, value);
        }
    }

    // Filling rows in parallel parts (the loader): the column is sized for every part's rows
    // (size_for_fill), each part stores its rows in order from its first with a PartFill of its
    // own, and then each part's rows are either finished where they lie, in row order
    // (finish_fill, once every block's first row is stored), or read out (value_at).
    struct PartFill {
        std::size_t first_row = 0;
        // The part's first rows, in a block begun before first_row: its first value is another
        // part's.
        std::vector<Wide> in_earlier_block;
        WideValues<Wide> aside;  // too far from their block's first
    };
    void size_for_fill(std::size_t rows) {
        offsets_.resize(rows);
        block_first_.resize((rows >> kBlockShift) + 1);
    }
    void fill(PartFill& part, std::size_t row, Wide value) {
        const std::size_t block_row = row & ~kBlockMask;
        if (block_row < part.first_row) {
            part.in_earlier_block.push_back(value);
            return;
        }
        if (row == block_row) {
            block_first_[row >> kBlockShift] = value;
        }
        if (!store_offset(row, value)) {
            part.aside.add(row, value);
        }
    }
    void finish_fill(const PartFill& part) {
        std::size_t row = part.first_row;
        for (Wide value : part.in_earlier_block) {
            if (!store_offset(row, value)) {
                wide_.add(row, value);
            }
            ++row;
        }
        wide_.append(part.aside);
    }
    Wide value_at(const PartFill& part, std::size_t row) const {
        if (const std::size_t k = row - part.first_row; k < part.in_earlier_block.size()) {
            return part.in_earlier_block[k];
        }
        if (const Offset offset = offsets_[row]; offset != kEscape) {
            return from_block_first(row, offset);
        }
        return part.aside.at(row);
    }
    // Keeps the first `rows` rows, every part finished.
    void end_fill(std::size_t rows) {
        offsets_.resize(rows);
        block_first_.resize((rows + kBlockMask) >> kBlockShift);
    }

    Wide operator[](std::size_t i) const {
        const Offset offset = offsets_[i];
        return offset != kEscape ? from_block_first(i, offset) : wide_.at(i);
    }
    Wide back() const { return (*this)[size() - 1]; }
    std::size_t size() const { return offsets_.size(); }
    bool empty() const { return offsets_.empty(); }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }
    std::reverse_iterator<const_iterator> rbegin() const {
        return std::reverse_iterator<const_iterator>(end());
    }
    std::reverse_iterator<const_iterator> rend() const {
        return std::reverse_iterator<const_iterator>(begin());
    }
    std::size_t bytes() const {
        return offsets_.capacity() * sizeof(Offset) + block_first_.capacity() * sizeof(Wide) +
               wide_.bytes();
    }

  private:
    static constexpr std::size_t kBlockMask = (std::size_t{1} << kBlockShift) - 1;

    Wide from_block_first(std::size_t row, Offset offset) const {
        return static_cast<Wide>(static_cast<std::int64_t>(block_first_[row >> kBlockShift]) +
                                 offset);
    }
    // Stores `value` at `row` as its offset from its block's first; false where it does not fit
    // (the row is marked kept aside).
    bool store_offset(std::size_t row, Wide value) {
        const Wide first = block_first_[row >> kBlockShift];
        // The distance is measured unsigned: two hostile timestamps may lie further apart than
        // int64.
        constexpr auto kMost = static_cast<std::uint64_t>(std::numeric_limits<Offset>::max());
        const bool fits =
            value >= first
                ? static_cast<std::uint64_t>(value) - static_cast<std::uint64_t>(first) <= kMost
                : static_cast<std::uint64_t>(first) - static_cast<std::uint64_t>(value) <= kMost;
        offsets_[row] = fits ? static_cast<Offset>(static_cast<std::int64_t>(value) -
                                                   static_cast<std::int64_t>(first))
                             : kEscape;
        return fits;
    }

    CallColumn<Offset> offsets_;     // from the block's first value
    std::vector<Wide> block_first_;  // the first value of each block
    WideValues<Wide> wide_;
};

using TimeColumn = BlockOffsetColumn<std::int64_t, std::int32_t>;

template <class Column>
std::size_t column_bytes(const Column& column) {
    return column.bytes();
}
template <class T>
std::size_t column_bytes(const CallColumn<T>& column) {
    return column.capacity() * sizeof(T);
}

template <class Dense, auto kUsual>
class MostlyUsualColumn {
    static constexpr unsigned kBlockShift = 8;  // 256 rows a block
    using Wide = decltype(kUsual);

  public:
    MostlyUsualColumn() = default;
    // Takes a column of the same values over (Dense, or anything Dense is made from).
    template <class Values>
    explicit MostlyUsualColumn(Values values) : size_(values.size()) {
        if (!keep_unusual(values)) {
            dense_ = Dense(std::move(values));
        }
    }

    Wide operator[](std::size_t i) const {
        if (block_first_.empty()) {
            return dense_[i];
        }
        const std::size_t block = i >> kBlockShift;
        const auto first = offsets_.begin() + block_first_[block];
        const auto last = offsets_.begin() + block_first_[block + 1];
        const auto offset = static_cast<std::uint8_t>(i & kBlockMask);
        const auto it = std::lower_bound(first, last, offset);
        return it != last && *it == offset
                   ? static_cast<Wide>(
                         sparse_values_[static_cast<std::size_t>(it - offsets_.begin())])
                   : kUsual;
    }
    std::size_t size() const { return size_; }
    std::size_t bytes() const {
        return column_bytes(dense_) + column_bytes(sparse_values_) + offsets_.capacity() +
               block_first_.capacity() * sizeof(std::uint32_t);
    }

  private:
    static constexpr std::size_t kBlockMask = (std::size_t{1} << kBlockShift) - 1;

    // Keeps the rows of `values` that are not kUsual; false (keeping nothing) where they are more
    // than a quarter of the rows. Counted first, so that nothing is allocated for a column kept
    // dense and the kept rows are allocated once at their size: grown by doubling, a 100M-call
    // trace's byte counts took 0.2 GB at the model's peak.
    template <class Values>
    bool keep_unusual(const Values& values) {
        std::size_t unusual = 0;
        for (std::size_t i = 0; i < size_; ++i) {
            if (values[i] != kUsual && ++unusual > size_ / 4) {
                return false;
            }
        }
        CallColumn<Wide> kept;
        kept.reserve(unusual);
        offsets_.reserve(unusual);
        block_first_.reserve((size_ >> kBlockShift) + 2);
        for (std::size_t i = 0; i < size_; ++i) {
            if ((i & kBlockMask) == 0) {
                block_first_.push_back(static_cast<std::uint32_t>(kept.size()));
            }
            if (Wide v = values[i]; v != kUsual) {
                offsets_.push_back(static_cast<std::uint8_t>(i & kBlockMask));
                kept.push_back(v);
            }
        }
        block_first_.push_back(static_cast<std::uint32_t>(kept.size()));
        sparse_values_ = Dense(std::move(kept));
        return true;
    }

    std::size_t size_ = 0;
    // Dense: every row (block_first_ empty). Sparse: the rows not kUsual, in row order, by block:
    // block b's are [block_first_[b], block_first_[b + 1]), each its row's offset in the block
    // and its value.
    Dense dense_;
    std::vector<std::uint32_t> block_first_;
    CallColumn<std::uint8_t> offsets_;
    Dense sparse_values_;
};

// Ids held in one byte a row when every one of them lies in [0, 255] (a trace with fewer threads
// that call CUDA and fewer ops than that, as almost every one is), else as Dense. Built from a
// Dense column, or anything Dense is made from, moved in.
template <class Dense>
class ByteWhenSmallColumn {
    using Wide = decltype(std::declval<const Dense&>()[0]);

  public:
    ByteWhenSmallColumn() = default;
    template <class Values>
    explicit ByteWhenSmallColumn(Values values) {
        if (!keep_bytes(values)) {
            dense_ = Dense(std::move(values));
        }
    }

    // Held in bytes when small_values_ holds any row (a column of no rows reads none).
    Wide operator[](std::size_t i) const {
        return !small_values_.empty() ? static_cast<Wide>(small_values_[i]) : dense_[i];
    }
    std::size_t size() const { return std::max(small_values_.size(), dense_.size()); }
    std::size_t bytes() const { return column_bytes(dense_) + small_values_.capacity(); }

  private:
    // Keeps `values` in a byte each; false (keeping nothing) at the first one that does not fit.
    template <class Values>
    bool keep_bytes(const Values& values) {
        CallColumn<std::uint8_t> kept(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) {
            const Wide v = values[i];
            if (v < 0 || v > std::numeric_limits<std::uint8_t>::max()) {
                return false;
            }
            kept[i] = static_cast<std::uint8_t>(v);
        }
        small_values_ = std::move(kept);
        return true;
    }

    Dense dense_;
    CallColumn<std::uint8_t> small_values_;
};

// One yes or no per row, in a bit a row: read by every pass over the calls, so a bit is read
// without a search.
class FlagColumn {
  public:
    FlagColumn() = default;
    explicit FlagColumn(std::size_t rows) : words_((rows + 63) / 64, 0), size_(rows) {}

    void set(std::size_t row) { words_[row >> 6] |= std::uint64_t{1} << (row & 63); }
    bool operator[](std::size_t row) const { return (words_[row >> 6] >> (row & 63)) & 1; }
    std::size_t size() const { return size_; }
    std::size_t bytes() const { return words_.capacity() * sizeof(std::uint64_t); }

  private:
    std::vector<std::uint64_t> words_;
    std::size_t size_ = 0;
};

}  // namespace causeway::analysis
