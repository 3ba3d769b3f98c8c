#pragma once
// The readiness check (collector/discover/readiness.hpp) as JSON: the structuredContent of the
// get_check tool and the output of `causeway check --json`, both written from the describe() of
// ReadinessAnswer (report/shapes/readiness.hpp), which also writes get_check's output schema.

#include <cstddef>
#include "report/json.hpp"

#include "collector/discover/readiness.hpp"

namespace causeway::report {

// At most `max_processes` processes with CUDA mapped are listed; cuda_process_count says how
// many there were.
nlohmann::json readiness_json(const collector::Readiness& readiness, std::size_t max_processes);

}  // namespace causeway::report
