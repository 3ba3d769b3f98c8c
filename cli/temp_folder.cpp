#include "cli/temp_folder.hpp"

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>

namespace causeway::cli {

Result<TempFolder> TempFolder::create(const std::string& purpose) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr ? tmp : "/tmp") + "/causeway.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
        return Error{"cannot create a temporary folder for " + purpose + " in " +
                     pattern.substr(0, pattern.rfind('/')) + " (set TMPDIR to a writable folder)"};
    }
    return TempFolder(pattern);
}

TempFolder::~TempFolder() {
    if (!path_.empty()) {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
}

}  // namespace causeway::cli
