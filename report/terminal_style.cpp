#include "report/terminal_style.hpp"

#include <unistd.h>

#include <cstdlib>

namespace causeway::report {

std::string printable(const std::string& text) {
    std::string out = text;
    for (char& c : out) {
        auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7F) {
            c = '?';
        }
    }
    return out;
}

TerminalStyle TerminalStyle::for_stdout() {
    const char* no_color = std::getenv("NO_COLOR");
    bool disabled = no_color != nullptr && no_color[0] != '\0';
    return TerminalStyle(!disabled && ::isatty(STDOUT_FILENO) == 1);
}

std::string TerminalStyle::wrap(const char* code, const std::string& text) const {
    if (!enabled_) {
        return text;
    }
    return std::string("\033[") + code + "m" + text + "\033[0m";
}

}  // namespace causeway::report
