#pragma once
// The device model's timings, read once from FAKECUDA_* environment variables (see fakecuda.h).

#include <string>

#include "fakecuda.h"

namespace fakecuda {

struct LoadedConfig {
    fakecudaConfig config;
    // Empty when every FAKECUDA_* variable was valid; otherwise one line per invalid variable,
    // saying which, its value and what is expected. The defaults are kept for those.
    std::string error;
};

fakecudaConfig default_config();

// Reads the FAKECUDA_* variables of the current environment over the defaults.
LoadedConfig load_config_from_environment();

}  // namespace fakecuda
