#include "report/untrusted_text.hpp"

namespace causeway::report {
namespace {

// Decodes one UTF-8 sequence at `text[i]`; returns its length, or 0 when it is invalid.
std::size_t utf8_sequence(std::string_view text, std::size_t i, char32_t& code_point) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
    const unsigned char lead = byte(0);
    std::size_t length = 0;
    if (lead < 0x80) {
        code_point = lead;
        return 1;
    } else if ((lead & 0xE0) == 0xC0) {
        length = 2;
        code_point = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3;
        code_point = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4;
        code_point = lead & 0x07;
    } else {
        return 0;
    }
    if (i + length > text.size()) {
        return 0;
    }
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(k) & 0xC0) != 0x80) {
            return 0;
        }
        code_point = (code_point << 6) | (byte(k) & 0x3F);
    }
    static constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code_point < kSmallest[length] || code_point > 0x10FFFF ||
        (code_point >= 0xD800 && code_point <= 0xDFFF)) {
        return 0;
    }
    return length;
}

// C0/C1 controls (tab kept as a space), and the bidi controls that reorder what a reader sees
// (U+061C, U+200E/F, U+202A-202E, U+2066-2069), plus zero-width joiners and the BOM.
bool is_stripped(char32_t c) {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x061C || c == 0x200B || c == 0x200C ||
           c == 0x200D || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069) || c == 0xFEFF;
}

}  // namespace

std::string sanitize_untrusted(std::string_view text, std::size_t max_bytes) {
    std::string out;
    out.reserve(std::min(text.size(), max_bytes));
    std::size_t i = 0;
    while (i < text.size()) {
        char32_t code_point = 0;
        const std::size_t length = utf8_sequence(text, i, code_point);
        std::string_view piece = length == 0 ? "\xEF\xBF\xBD" : text.substr(i, length);
        i += length == 0 ? 1 : length;
        if (length != 0 && is_stripped(code_point)) {
            piece = code_point == '\t' || code_point == '\n' ? " " : "";
        }
        if (out.size() + piece.size() > max_bytes) {
            out += "…";
            break;
        }
        out += piece;
    }
    return out;
}

}  // namespace causeway::report
