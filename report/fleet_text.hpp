#pragma once
// `causeway fleet` for a person: every node of a job side by side, the straggler and its cause.

#include <string>

#include "fleet/fleet_overview.hpp"

namespace causeway::report {

std::string render_fleet(const fleet::FleetOverview& overview);

}  // namespace causeway::report
