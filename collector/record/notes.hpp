#pragma once
// The collector's own messages during a recording: one line each on stderr, none with --quiet.

#include <string>

#include "collector/record/record_options.hpp"

namespace causeway::collector {

void note(const RecordOptions& options, const std::string& message);

}  // namespace causeway::collector
