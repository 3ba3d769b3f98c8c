#pragma once
// Colour for a person at a terminal, and only there: no escape codes when stdout is a pipe or a
// file, or when NO_COLOR is set (https://no-color.org).

#include <string>

namespace causeway::report {

// Text from the traced system (process names, command lines) as the MCP answers give it
// (sanitize_untrusted, uncapped): control and bidi-override characters removed, so a crafted name
// cannot move the cursor, recolour the terminal or reorder a line, and bytes that are not UTF-8
// shown as U+FFFD.
std::string printable(const std::string& text);

class TerminalStyle {
  public:
    // Decides once, from stdout and the environment.
    static TerminalStyle for_stdout();
    static TerminalStyle plain() { return TerminalStyle(false); }

    std::string bold(const std::string& text) const { return wrap("1", text); }
    std::string red(const std::string& text) const { return wrap("31", text); }
    std::string yellow(const std::string& text) const { return wrap("33", text); }
    std::string green(const std::string& text) const { return wrap("32", text); }
    std::string dim(const std::string& text) const { return wrap("2", text); }

  private:
    explicit TerminalStyle(bool enabled) : enabled_(enabled) {}
    std::string wrap(const char* code, const std::string& text) const;

    bool enabled_;
};

}  // namespace causeway::report
