#pragma once
// An aligned text table for the terminal: left-aligned text columns, right-aligned numbers.

#include <string>
#include <vector>

namespace causeway::report {

class TextTable {
  public:
    enum class Align { kLeft, kRight };

    // One header per column; `align` per column (missing ones are left-aligned).
    TextTable(std::vector<std::string> headers, std::vector<Align> align);

    void add_row(std::vector<std::string> cells);
    bool empty() const { return rows_.empty(); }
    // Rendered with two spaces between columns and `indent` before each line, ending in '\n'.
    std::string render(const std::string& indent = "  ") const;

  private:
    std::vector<std::string> headers_;
    std::vector<Align> align_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace causeway::report
