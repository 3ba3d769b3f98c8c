#pragma once
// JSON of the fleet overview: what `causeway fleet --json` prints and what the MCP tool
// get_fleet_overview returns as structuredContent (schemas/tools/get_fleet_overview.output.json).
// Durations in ns, rates per second, shares in percent where the name says _pct.

#include "report/json.hpp"

#include "fleet/fleet_overview.hpp"

namespace causeway::report {

nlohmann::json to_json(const fleet::FleetOverview& overview);

}  // namespace causeway::report
