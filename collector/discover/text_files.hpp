#pragma once
// Small text files of /proc, /sys and the cgroup filesystems, read whole and cut into parts.

#include <string>
#include <vector>

namespace causeway::collector {

// The file's contents; "" when it cannot be read.
std::string read_text_file(const std::string& path);

// The non-empty parts of `text` between `separator`s.
std::vector<std::string> split(const std::string& text, char separator);

}  // namespace causeway::collector
