#include "report/readiness_json.hpp"

#include "report/tool_answers.hpp"

namespace causeway::report {

nlohmann::json readiness_json(const collector::Readiness& readiness, std::size_t max_processes) {
    return to_json(ReadinessAnswer{readiness, max_processes});
}

}  // namespace causeway::report
