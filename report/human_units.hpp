#pragma once
// Numbers as a person reads them, for the sentences of a diagnosis and for the CLI's tables:
// "3.1 GiB", "1.2k/s", "83%". Durations ("40.2 ms") are base/duration_text.hpp's.

#include <string>

#include "base/duration_text.hpp"

namespace causeway::report {

std::string format_bytes(double bytes);                  // 512 B, 4.0 KiB, 3.1 GiB
std::string format_rate(double per_s);                   // 1.2k/s, 350/s
std::string format_throughput(double bytes_per_s);       // 2.4 GiB/s
std::string format_percent(double ratio);                // 0.834 -> "83%", 0.004 -> "0.4%"
std::string format_ratio(double ratio);                  // 350x, 4.5x
std::string format_decimal(double value, int decimals);  // format_decimal(5.234, 1) -> "5.2"

}  // namespace causeway::report
