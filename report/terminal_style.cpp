#include "report/terminal_style.hpp"

#include <unistd.h>

#include <cstdlib>
#include <limits>

#include "report/untrusted_text.hpp"

namespace causeway::report {

std::string printable(const std::string& text) {
    return sanitize_untrusted(text, std::numeric_limits<std::size_t>::max());
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
