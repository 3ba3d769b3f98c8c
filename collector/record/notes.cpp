#include "collector/record/notes.hpp"

#include <cstdio>

namespace causeway::collector {

void note(const RecordOptions& options, const std::string& message) {
    if (!options.quiet) {
        std::fprintf(stderr, "causeway-collector: %s\n", message.c_str());
    }
}

}  // namespace causeway::collector
