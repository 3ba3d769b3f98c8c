#include "report/text_table.hpp"

#include <algorithm>

namespace causeway::report {
namespace {

// Display width: UTF-8 continuation bytes take no column.
std::size_t display_width(const std::string& text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

}  // namespace

TextTable::TextTable(std::vector<std::string> headers, std::vector<Align> align)
    : headers_(std::move(headers)), align_(std::move(align)) {
    align_.resize(headers_.size(), Align::kLeft);
}

void TextTable::add_row(std::vector<std::string> cells) {
    cells.resize(headers_.size());
    rows_.push_back(std::move(cells));
}

std::string TextTable::render(const std::string& indent) const {
    std::vector<std::size_t> widths(headers_.size(), 0);
    for (std::size_t c = 0; c < headers_.size(); ++c) {
        widths[c] = display_width(headers_[c]);
        for (const auto& row : rows_) {
            widths[c] = std::max(widths[c], display_width(row[c]));
        }
    }
    auto line = [&](const std::vector<std::string>& cells) {
        std::string out = indent;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            std::string pad(widths[c] - display_width(cells[c]), ' ');
            bool last = c + 1 == cells.size();
            if (align_[c] == Align::kRight) {
                out += pad + cells[c];
            } else {
                out += cells[c] + (last ? "" : pad);
            }
            out += last ? "" : "  ";
        }
        return out + "\n";
    };
    std::string out = line(headers_);
    for (const auto& row : rows_) {
        out += line(row);
    }
    return out;
}

}  // namespace causeway::report
