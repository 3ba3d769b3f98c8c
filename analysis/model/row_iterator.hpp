#pragma once
// A random-access iterator over a column that reads its rows by value (column[k]): the compact
// columns and lists keep no row as it is read back, so there is nothing to point to. Each row is
// given by value; operator-> holds a copy.

#include <compare>
#include <cstddef>
#include <iterator>
#include <utility>

namespace causeway::analysis {

template <class Column>
class RowIterator {
  public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = decltype(std::declval<const Column&>()[0]);
    using difference_type = std::ptrdiff_t;
    using reference = value_type;
    struct pointer {
        value_type row;
        const value_type* operator->() const { return &row; }
    };

    RowIterator() = default;
    RowIterator(const Column* column, std::size_t at) : column_(column), at_(at) {}
    value_type operator*() const { return (*column_)[at_]; }
    pointer operator->() const { return {(*column_)[at_]}; }
    value_type operator[](difference_type n) const { return *(*this + n); }
    RowIterator& operator++() { return *this += 1; }
    RowIterator operator++(int) {
        RowIterator was = *this;
        ++*this;
        return was;
    }
    RowIterator& operator--() { return *this -= 1; }
    RowIterator operator--(int) {
        RowIterator was = *this;
        --*this;
        return was;
    }
    RowIterator& operator+=(difference_type n) {
        at_ = static_cast<std::size_t>(static_cast<difference_type>(at_) + n);
        return *this;
    }
    RowIterator& operator-=(difference_type n) { return *this += -n; }
    friend RowIterator operator+(RowIterator i, difference_type n) { return i += n; }
    friend RowIterator operator+(difference_type n, RowIterator i) { return i += n; }
    friend RowIterator operator-(RowIterator i, difference_type n) { return i -= n; }
    friend difference_type operator-(const RowIterator& a, const RowIterator& b) {
        return static_cast<difference_type>(a.at_) - static_cast<difference_type>(b.at_);
    }
    friend bool operator==(const RowIterator& a, const RowIterator& b) { return a.at_ == b.at_; }
    friend auto operator<=>(const RowIterator& a, const RowIterator& b) { return a.at_ <=> b.at_; }

  private:
    const Column* column_ = nullptr;
    std::size_t at_ = 0;
};

}  // namespace causeway::analysis
