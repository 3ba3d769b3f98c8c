#include "report/comparison_json.hpp"

#include "report/output_shapes.hpp"

namespace causeway::report {

nlohmann::json to_json(const analysis::TraceComparison& c) {
    return write_json(c);
}

}  // namespace causeway::report
