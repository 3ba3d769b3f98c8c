#include "report/fleet_json.hpp"

#include "report/shapes/fleet.hpp"

namespace causeway::report {

nlohmann::json to_json(const fleet::FleetOverview& overview) {
    return write_json(overview);
}

}  // namespace causeway::report
