#pragma once
// A number as a person reads it, to three significant digits with its unit: "1.23 ms",
// "12.3 GiB", "123 us". Shared by the duration text (duration_text.hpp) and the report's units.

#include <string>

namespace causeway {

std::string three_significant_digits(double value, const char* unit);

}  // namespace causeway
